// Node's `http2` module (one session for every step, as an app keeps one) running conformance
// steps over HTTP/2: h2 by ALPN for https://, prior knowledge for http://.
// Usage: node node_http2.mjs BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name":"milk","qty":2}
// as application/json; STUBD_USER_AGENT, when set, is sent as user-agent). A stream that fails is
// reported with its RST_STREAM code. Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
import http2 from "node:http2";

const [base, ...steps] = process.argv.slice(2);
const session = http2.connect(base);
session.on("error", () => {});
const ask = (method, path) => new Promise((resolve) => {
  const headers = { ":method": method === "JSON" ? "POST" : method, ":path": path };
  if (process.env.STUBD_USER_AGENT) headers["user-agent"] = process.env.STUBD_USER_AGENT;
  if (method === "JSON") headers["content-type"] = "application/json";
  const stream = session.request(headers);
  let status = 0, body = "";
  const timer = setTimeout(() => { stream.close(http2.constants.NGHTTP2_CANCEL); resolve("error\ttimeout after 2 s"); }, 2000);
  stream.on("response", (fields) => { status = fields[":status"]; });
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => { body += chunk; });
  stream.on("end", () => { clearTimeout(timer); resolve(`ok\t${status}\t${body.slice(0, 40).replace(/\s+/g, " ").trim()}`); });
  stream.on("error", (error) => { clearTimeout(timer); resolve(`error\t${error.code}: rstCode ${stream.rstCode}${status ? ` after status ${status}` : ""}`); });
  stream.end(method === "JSON" ? JSON.stringify({ name: "milk", qty: 2 }) : undefined);
});
for (const step of steps) {
  const [method, path] = step.split(" ");
  console.log(await ask(method, path));
}
session.close();
