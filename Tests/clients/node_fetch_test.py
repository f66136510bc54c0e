"""Node's global `fetch` (undici) is a client, not a web page (issue 45): it sends
`Sec-Fetch-Mode: cors` on every request and no `Origin` or `Sec-Fetch-Site`, which no browser
does. From a Node process over a real socket:

- every admin endpoint in docs/ADMIN-API.md's table answers without the page refusal (403), while
  the same calls with a browser's `Sec-Fetch-Site: cross-site` are refused (the rule still holds);
- a `[reset, ok]` sequence fails once as a transport error (the step goes as a head with two
  lengths, which undici refuses: `fetch failed`, `HPE_UNEXPECTED_CONTENT_LENGTH`), then answers `ok`, and
  the journal holds exactly the two requests Node sent, none marked a re-send.

Usage: python3 Tests/clients/node_fetch_test.py [STUBD_BINARY]   (make test)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

STUBD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

sys.path.insert(0, os.path.join(ROOT, "Tests", "python"))
import stubd_server  # noqa: E402

ROUTES = [
    {"name": "flaky", "request": {"method": "GET", "path": "/flaky"}, "responses": [{"fault": "reset"}, {"status": 200, "text": "ok"}]},
    {"name": "plain", "request": {"method": "GET", "path": "/plain"}, "response": {"text": "plain"}},
]

# Calls every (method, path) given as JSON, with the extra headers given as JSON; prints one
# status per call (an SSE endpoint is read up to its head, then aborted).
NODE_ADMIN = r"""
const [base, calls, extra] = [process.argv[1], JSON.parse(process.argv[2]), JSON.parse(process.argv[3])];
(async () => {
  const out = [];
  for (const [method, path] of calls) {
    const controller = new AbortController();
    const init = {method, headers: {...extra}, signal: controller.signal};
    if (method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') {
      init.headers['content-type'] = 'application/json';
      init.body = '{"bad": ['; // every write is refused for its body (400), never for who sent it
    }
    try {
      const r = await fetch(base + path, init);
      const text = path.startsWith('/__stubd/events') ? '' : await r.text();
      controller.abort();
      out.push([method, path, r.status, text.slice(0, 160)]);
    } catch (e) {
      out.push([method, path, 0, String(e && e.cause ? e.cause.code || e.cause.message : e)]);
    }
  }
  console.log(JSON.stringify(out));
})();
"""

# Two GETs of a [reset, ok] route: what Node's fetch reports for each.
NODE_STEPS = r"""
const base = process.argv[1];
(async () => {
  const out = [];
  for (let i = 0; i < 2; i++) {
    try {
      const r = await fetch(base + '/flaky');
      out.push(r.status + ' ' + await r.text());
    } catch (e) {
      out.push('error ' + e.name + ': ' + e.message + (e.cause ? ' (' + (e.cause.code || e.cause.name) + ')' : ''));
    }
  }
  console.log(JSON.stringify(out));
})();
"""

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail else ""))
    if not ok:
        failures += 1


def documented_calls():
    """Every `METHOD /__stubd/…` row of docs/ADMIN-API.md, placeholders filled, queries dropped."""
    calls = []
    for line in open(os.path.join(ROOT, "docs", "ADMIN-API.md"), encoding="utf-8"):
        match = re.match(r"\| `(GET|POST|PUT|DELETE|PATCH) (/__stubd[^`? ]*)", line)
        if match:
            path = match.group(2).replace("{id}", "r1").replace("{name}", "todos")
            calls.append([match.group(1), path])
    return calls


def node(script, *args):
    result = subprocess.run(["node", "-e", script, *args], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"node failed: {result.stderr}")
    return json.loads(result.stdout)


def main():
    if not shutil.which("node"):
        raise SystemExit("node_fetch_test: node is not installed (make test installs nodejs)")
    folder = tempfile.mkdtemp(prefix="stubd-node-")
    json.dump({"routes": ROUTES}, open(os.path.join(folder, "routes.json"), "w"))
    server = stubd_server.Stubd(STUBD, folder, "--quiet")
    try:
        base = server.base
        calls = documented_calls()
        check("docs/ADMIN-API.md lists the admin endpoints", len(calls) >= 25, f"{len(calls)} rows")
        answered = node(NODE_ADMIN, base, json.dumps(calls), "{}")
        refused = [row for row in answered if row[2] == 403 or row[2] == 0]
        check("Node's fetch calls every admin endpoint without the page refusal", not refused, json.dumps(refused)[:400])
        check("every documented endpoint answered", len(answered) == len(calls), f"{len(answered)} of {len(calls)}")
        as_page = node(NODE_ADMIN, base, json.dumps([c for c in calls if c[1] not in ("/__stubd/ready",)]),
                       json.dumps({"sec-fetch-site": "cross-site", "sec-fetch-dest": "empty"}))
        let_in = [row for row in as_page if row[2] != 403]
        check("the same calls as a browser's cross-site request are refused (403)", not let_in, json.dumps(let_in)[:400])

        urllib.request.urlopen(urllib.request.Request(base + "/__stubd/reset", method="POST")).read()
        steps = node(NODE_STEPS, base)
        check("a reset step reaches Node's fetch as one transport error, then ok",
              len(steps) == 2 and steps[0] == "error TypeError: fetch failed (HPE_UNEXPECTED_CONTENT_LENGTH)" and steps[1] == "200 ok", json.dumps(steps))
        journal = json.load(urllib.request.urlopen(base + "/__stubd/requests?path=/flaky"))
        entries = journal["requests"]
        check("the journal holds the two requests Node sent, none marked a re-send",
              len(entries) == 2 and not any(entry.get("resend") for entry in entries),
              json.dumps([{k: e.get(k) for k in ("status", "resend", "faultSentAs")} for e in entries]))
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
