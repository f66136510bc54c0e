"""Browser-client checks in headless Chromium: faults as a cross-origin page sees them (DevTools
must name the fault itself — a length mismatch, a bad chunk — not a CORS error, because a fault
that sends a head sends the route's CORS headers too), and a space sent as `+` by
`URLSearchParams` (a query and a form body) matching a route written with a space.

Usage: python3 Tests/ui/cors_faults_test.py [STUBD_BINARY]   (make test-ui)
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
from dashboard_test import STUBD, Stubd, js  # noqa: E402

FAULTS = {"truncated": "net::ERR_CONTENT_LENGTH_MISMATCH", "badChunk": "net::ERR_INVALID_CHUNKED_ENCODING"}


def main():
    folder = tempfile.mkdtemp(prefix="stubd-cors-faults-")
    routes = [{"request": {"method": "GET", "path": f"/{fault}"}, "fault": fault} for fault in FAULTS]
    routes.append({"request": {"method": "GET", "path": "/search", "query": {"q": "swift stub"}}, "response": {"text": "found"}})
    routes.append({"request": {"method": "POST", "path": "/form", "body": {"form": {"q": "swift stub"}}}, "response": {"text": "posted"}})
    routes.append({"request": {"method": "GET", "path": "/page.html"},
                   "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>page</title>"}})
    with open(os.path.join(folder, "faults.json"), "w") as file:
        json.dump({"routes": routes}, file)
    server = Stubd(folder)
    browser = cdp.Browser()
    failures = 0
    try:
        browser.command("Network.enable")
        # localhost:PORT is another origin than 127.0.0.1:PORT.
        browser.open(f"http://localhost:{server.port}/page.html")
        for fault, expected in FAULTS.items():
            url = f"{server.base}/{fault}"
            browser.events.clear()
            outcome = browser.evaluate(f"fetch({js(url)}).then(r => r.text()).then(t => 'read', e => 'failed: ' + e.name)")
            sent = browser.wait_event(lambda e: e["method"] == "Network.requestWillBeSent" and e["params"]["request"]["url"] == url,
                                      f"the request for {url}")
            failed = browser.wait_event(lambda e: e["method"] == "Network.loadingFailed"
                                        and e["params"]["requestId"] == sent["params"]["requestId"], f"DevTools' verdict on {url}")
            error = failed["params"].get("errorText")
            cors = failed["params"].get("corsErrorStatus")
            good = outcome.startswith("failed") and error == expected and cors is None
            failures += 0 if good else 1
            print(f"{'ok  ' if good else 'FAIL'} {fault} from another origin: page {outcome}; DevTools {error}"
                  f"{'' if cors is None else ', CORS error ' + json.dumps(cors)}")
        browser.open(f"{server.base}/page.html")
        plus = browser.evaluate(
            "(async () => { const p = new URLSearchParams({q: 'swift stub'});"
            " const g = await fetch('/search?' + p); const f = await fetch('/form', {method: 'POST', body: p});"
            " return [String(p), g.status, await g.text(), f.status, await f.text()].join(' '); })()")
        good = plus == "q=swift+stub 200 found 200 posted"
        failures += 0 if good else 1
        print(f"{'ok  ' if good else 'FAIL'} URLSearchParams query and form (+ for a space): {plus}")
    finally:
        browser.close()
        server.stop()
    print(f"test-ui: {len(FAULTS) + 1 - failures} of {len(FAULTS) + 1} browser-client checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if not os.path.exists(STUBD):
        sys.exit(f"test-ui: {STUBD} is missing")
    main()
