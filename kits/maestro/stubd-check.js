// Maestro runScript, at the end of a flow: the strict check of the session stubd-session.js
// opened (env STUBD_SESSION: ${output.stubd.session}) — the flow fails listing every stub no
// request reached and every request no stub answered — then the session is ended. ES5 only:
// Maestro's default JavaScript engine (Rhino) has no arrow functions, let or spread.
var base = (typeof STUBD_BASE_URL !== "undefined" && STUBD_BASE_URL) ? STUBD_BASE_URL.replace(/\/+$/, "") : "http://10.0.2.2:8080";
var headers = { "X-Stubd-Session": STUBD_SESSION };
if (typeof STUBD_ADMIN_TOKEN !== "undefined" && STUBD_ADMIN_TOKEN) headers["Authorization"] = "Bearer " + STUBD_ADMIN_TOKEN;

var problems = [];
var routes = JSON.parse(http.get(base + "/__stubd/routes", { headers: headers }).body).routes;
for (var i = 0; i < routes.length; i++) {
  var entry = routes[i];
  if (entry.session === STUBD_SESSION && entry.hits === 0) {
    var request = (entry.route && entry.route.request) || {};
    problems.push("unused stub " + ((entry.route && entry.route.name) || entry.id) + ": " + request.method + " " + request.path + " → " + entry.answers);
  }
}
var misses = JSON.parse(http.get(base + "/__stubd/requests?matched=false", { headers: headers }).body).requests;
for (var j = 0; j < misses.length; j++) {
  problems.push("no stub answered " + misses[j].method + " " + misses[j].url + (misses[j].nearMiss ? " → closest: " + misses[j].nearMiss : ""));
}
headers["Content-Type"] = "application/json";
var reset = http.post(base + "/__stubd/reset", { headers: headers, body: "{}" });
if (reset.status !== 200) throw new Error("POST /__stubd/reset: " + reset.status + " " + reset.body);
if (problems.length) throw new Error("stubd session " + STUBD_SESSION + " is strict:\n" + problems.join("\n"));
output.stubdChecked = true;
