// Runs kits/maestro's runScript files as Maestro would (Tests/kits/maestro_test.py): each file's
// text in a fresh context whose globals are the env values, `output` shared across the flow, and
// an `http` object with Maestro's synchronous get/post ({headers, body} → {ok, status, body}),
// made here with curl. Usage: node maestro_harness.mjs FILE JSON-ENV [FILE JSON-ENV]…; prints output.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import vm from "node:vm";

function send(method, url, { headers = {}, body } = {}) {
  const args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, url];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  if (body !== undefined) args.push("--data-binary", body);
  let text;
  try {
    text = execFileSync("curl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch (error) {
    throw new Error(`failed to connect to ${url} (curl exit ${error.status})`);  // Maestro's http throws on no connection too
  }
  const cut = text.lastIndexOf("\n");
  const status = Number(text.slice(cut + 1));
  return { ok: status >= 200 && status < 300, status, body: text.slice(0, cut) };
}

const http = {
  get: (url, options) => send("GET", url, options),
  post: (url, options) => send("POST", url, options),
  put: (url, options) => send("PUT", url, options),
  delete: (url, options) => send("DELETE", url, options),
};
const output = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const env = JSON.parse(args[i + 1]);
  for (const [name, value] of Object.entries(env)) env[name] = value.replace(/\$\{output\.(\w+)\.(\w+)\}/g, (_, a, b) => output[a][b]);
  vm.runInContext(readFileSync(args[i], "utf8"), vm.createContext({ http, output, ...env }), { filename: args[i] });
}
console.log(JSON.stringify(output));
