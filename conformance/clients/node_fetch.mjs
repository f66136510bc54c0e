// Node's built-in fetch (undici; keep-alive by default) running conformance steps.
// Usage: node node_fetch.mjs BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name":"milk","qty":2} as
// application/json;charset=UTF-8;
// STUBD_USER_AGENT, when set, replaces undici's User-Agent). Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
const [base, ...steps] = process.argv.slice(2);
const agent = process.env.STUBD_USER_AGENT ? { "User-Agent": process.env.STUBD_USER_AGENT } : {};
for (const step of steps) {
  const [method, path] = step.split(" ");
  const init = { signal: AbortSignal.timeout(2000), headers: { ...agent } };
  if (method === "JSON") {
    Object.assign(init, { method: "POST", headers: { ...agent, "Content-Type": "application/json;charset=UTF-8" },
                          body: JSON.stringify({ name: "milk", qty: 2 }) });
  } else {
    init.method = method;
  }
  try {
    const response = await fetch(base + path, init);
    const text = await response.text();
    console.log(`ok\t${response.status}\t${text.slice(0, 40).replace(/\s+/g, " ").trim()}`);
  } catch (error) {
    const cause = error.cause ? ` (${error.cause.code ?? error.cause.message})` : "";
    console.log(`error\t${error.name}: ${error.message}${cause}`);
  }
}
