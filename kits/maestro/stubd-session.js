// Maestro runScript: opens a stubd session for this flow and adds STUBD_ROUTES (fixture-format
// JSON: a route, or {"routes": [...]}) to it. The flow then launches the app with
// ${output.stubd.baseURL} and ${output.stubd.session} (docs/MAESTRO.md). Uses only Maestro's `http`
// and `output`; env: STUBD_BASE_URL (default http://10.0.2.2:8080, the emulator's host),
// STUBD_ADMIN_TOKEN (if stubd has one), STUBD_ROUTES. ES5 only: Maestro's default engine is Rhino.
var base = (typeof STUBD_BASE_URL !== "undefined" && STUBD_BASE_URL) ? STUBD_BASE_URL.replace(/\/+$/, "") : "http://10.0.2.2:8080";
var session = "maestro-" + Math.random().toString(16).slice(2, 10) + Math.random().toString(16).slice(2, 10);
var headers = { "Content-Type": "application/json", "X-Stubd-Session": session };
if (typeof STUBD_ADMIN_TOKEN !== "undefined" && STUBD_ADMIN_TOKEN) headers["Authorization"] = "Bearer " + STUBD_ADMIN_TOKEN;

var ready;
try {
  ready = http.get(base + "/__stubd/ready", { headers: headers });
} catch (error) {
  throw new Error("stubd is not ready at " + base + " (" + error + "): start it on the host first (make run, or stubd serve)");
}
if (ready.status !== 200) {
  throw new Error("stubd is not ready at " + base + " (GET /__stubd/ready answered " + ready.status + "): start it on the host first");
}
if (typeof STUBD_ROUTES !== "undefined" && STUBD_ROUTES) {
  var added = http.post(base + "/__stubd/routes", { headers: headers, body: STUBD_ROUTES });
  if (added.status !== 201) throw new Error("POST /__stubd/routes: " + added.status + " " + added.body);
}
output.stubd = { baseURL: base, session: session };
