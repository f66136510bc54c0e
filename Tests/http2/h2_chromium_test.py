"""Headless Chromium over HTTP/2 on stubd's HTTPS port (issue 61), a browser nobody here wrote,
over real sockets: it picks h2 by ALPN, and a page of stubd's own origin reads

- a stub, journaled `"protocol": "h2"`;
- a sequence `[500, reset, ok]` step by step (500, error, 200) with one attempt per step reaching
  stubd — a fault step goes over h2 as a 502 head then RST_STREAM, which Chromium does not re-send;
- a plain reset route as an error (the attempts that reached stubd printed for the record);
- an SSE route's events through `EventSource`, as DATA frames on one stream;
- the dashboard, whose live journal is a stream stubd writes as requests come: it goes live, and a
  request made with curl appears in it, its connection cell marked `h2`.

Each run is a fresh browser, as a page load is. Prints each check; exits 1 if any failed.

Usage: python3 Tests/http2/h2_chromium_test.py [STUBD_BINARY] [RUNS=3]   (make test)
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "ui"))
import cdp  # noqa: E402
import h2_test  # noqa: E402

ROUTES = [
    {"name": "page", "request": {"method": "GET", "path": "/page.html"},
     "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>h2</title>"}},
    {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
    {"name": "steps", "request": {"method": "GET", "path": "/steps"}, "responses": [{"status": 500}, {"fault": "reset"}, {"text": "ok"}]},
    {"name": "down", "request": {"method": "GET", "path": "/down"}, "fault": "reset"},
    {"name": "events", "request": {"method": "GET", "path": "/events"},
     "stream": {"events": [{"data": "one"}, {"data": "two", "delay": 0.1}]}},
]

FETCH = ("(async () => { const out = []; for (const path of %s) { try { const r = await fetch(path, {cache: 'no-store'});"
         " out.push(r.status + ' ' + (await r.text())); } catch (e) { out.push('error'); } } return out; })()")
EVENTS = ("new Promise(resolve => { const seen = []; const source = new EventSource('/events');"
          " source.onmessage = (e) => { seen.push(e.data); if (seen.length === 2) { source.close(); resolve(seen); } };"
          " setTimeout(() => { source.close(); resolve(seen); }, 5000); })")


def main():
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work = tempfile.mkdtemp(prefix="stubd-h2-chromium-")
    folder = os.path.join(work, "fixtures")
    os.makedirs(folder)
    with open(os.path.join(folder, "routes.json"), "w") as handle:
        json.dump({"routes": ROUTES}, handle)
    failures = []

    def check(label, good, detail):
        print(f"{'ok  ' if good else 'FAIL'} {label}: {detail}", flush=True)
        if not good:
            failures.append(label)

    server = h2_test.Stubd(folder, work)
    try:
        for run in range(1, runs + 1):
            server.reset()
            browser = cdp.Browser(flags=["--ignore-certificate-errors"])
            live = "not reached"
            try:
                browser.open(server.https + "/page.html")
                read = browser.evaluate(FETCH % json.dumps(["/zen", "/steps", "/steps", "/steps", "/down"]))
                events = browser.evaluate(EVENTS)
                # The dashboard's live journal, a stream stubd writes as requests come, over h2.
                browser.open(server.https + "/__stubd/ui")
                browser.wait("document.querySelector('#status').textContent === 'live'", "the dashboard's event stream", 10)
                protocol = browser.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")
                assert protocol == "h2", f"the dashboard was loaded over {protocol!r}"
                h2_test.curl("--cacert", server.ca, server.https + "/made-by-curl")
                # Its row's last cell: the connection, the request's place on it, and h2.
                browser.wait("[...document.querySelectorAll('#requests tbody tr')].some(tr => tr.querySelector('td.path')?.textContent === "
                             "'/made-by-curl' && / h2$/.test(tr.lastElementChild.textContent))", "curl's request in the dashboard, marked h2", 5)
                live = True
            except AssertionError as error:
                live = str(error)
            finally:
                browser.close()
            zen = server.journal("/zen")
            check(f"run {run}: a stub over h2", read[0] == "200 Design for failure." and [e.get("protocol") for e in zen] == ["h2"],
                  f"{read[0]!r}, journaled {[e.get('protocol') for e in zen]}")
            steps = server.journal("/steps")
            check(f"run {run}: [500, reset, ok] read step by step, one attempt each",
                  [r.split(" ")[0] for r in read[1:4]] == ["500", "error", "200"] and len(steps) == 3,
                  f"{read[1:4]}, {len(steps)} attempts")
            down = server.journal("/down")
            check(f"run {run}: a reset route is an error", read[4] == "error" and len(down) >= 1,
                  f"{read[4]!r}, {len(down)} attempt(s) reached stubd")
            check(f"run {run}: EventSource reads the SSE route over h2",
                  events == ["one", "two"] and [e.get("protocol") for e in server.journal("/events")][:1] == ["h2"],
                  f"{events}")
            check(f"run {run}: the dashboard's live journal over h2 shows a request made with curl, marked h2", live is True, str(live))
    finally:
        server.stop()
    print("h2-chromium: " + (f"{len(failures)} check(s) failed: {failures}" if failures else "every check passed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
