"""A fault step met by a browser navigation or an iframe, as a WebView in a UI test meets it
(issue 59): with the default placement (`"faultSteps": "beforeStatus"`, a fixture that says
nothing) headless Chromium shows its error page for the step (the load event fires, the page names
ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH), an iframe's onload fires, the step reaches stubd
once, and the next navigation gets the next step. A route's `"faultSteps": "inBody"` is printed
beside it for the record: Chromium leaves that navigation blank (docs/FAULTS.md says so).

Usage: python3 Tests/ui/fault_navigation_test.py [STUBD_BINARY]   (make test-ui)
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
from dashboard_test import Stubd, curl  # noqa: E402

STEPS = [{"fault": "reset"}, {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><p id=ok>ok</p>"}]


def fixtures(folder):
    routes = [
        {"name": "before", "request": {"method": "GET", "path": "/before"}, "responses": STEPS},
        {"name": "framed", "request": {"method": "GET", "path": "/framed"}, "responses": STEPS},
        {"name": "in-body", "request": {"method": "GET", "path": "/in-body"}, "responses": STEPS, "faultSteps": "inBody"},
        {"name": "frame-page", "request": {"method": "GET", "path": "/frame.html"},
         "response": {"headers": {"Content-Type": "text/html"},
                      "text": "<!doctype html><iframe src=\"/framed\" onload=\"document.body.dataset.loaded = 'yes'\"></iframe>"}},
    ]
    with open(os.path.join(folder, "navigation.json"), "w") as file:
        json.dump({"routes": routes}, file)


def navigate(browser, url, timeout=6):
    """Whether the load event fired, and the page's text."""
    browser.events = [e for e in browser.events if e["method"] != "Page.loadEventFired"]
    browser.command("Page.navigate", url=url)
    try:
        browser.wait_event(lambda e: e["method"] == "Page.loadEventFired", f"{url} loaded", timeout=timeout)
        fired = True
    except AssertionError:
        fired = False
    return fired, browser.evaluate("document.body ? document.body.innerText : ''") or ""


def attempts(server, path):
    return [e.get("faultSentAs") or e.get("status") for e in json.loads(curl(server.base + "/__stubd/requests?path=" + path)[1])["requests"]]


def main():
    folder = tempfile.mkdtemp(prefix="stubd-fault-navigation-")
    fixtures(folder)
    server = Stubd(folder)
    failures = []

    def check(label, good, detail):
        print(f"{'ok  ' if good else 'FAIL'} {label}: {detail}", flush=True)
        if not good:
            failures.append(label)

    browser = cdp.Browser()
    try:
        fired, text = navigate(browser, server.base + "/before")
        check("a navigation to a fault step shows Chromium's error page",
              fired and "ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH" in text, f"load fired: {fired}, {text.strip()[:90]!r}")
        fired, text = navigate(browser, server.base + "/before")
        check("  …the next navigation gets the next step", fired and text.strip() == "ok", repr(text.strip()[:60]))
        check("  …each reached stubd once", attempts(server, "/before") == ["beforeStatus", 200], attempts(server, "/before"))
        fired, _ = navigate(browser, server.base + "/frame.html")
        try:
            # The iframe's onload marks the document: the wait ends with that change.
            browser.wait("document.body && document.body.dataset.loaded === 'yes'", "the iframe's onload", timeout=5)
            loaded = True
        except AssertionError:
            loaded = False
        check("an iframe on a fault step fires onload", fired and loaded, f"page loaded: {fired}, iframe onload: {loaded}")
        check("  …the step reached stubd once", attempts(server, "/framed") == ["beforeStatus"], attempts(server, "/framed"))
        fired, text = navigate(browser, server.base + "/in-body", timeout=3)
        print(f"info an inBody step, navigated: load fired: {fired}, text {text.strip()[:60]!r} (Chromium leaves it blank)")
    finally:
        browser.close()
        server.stop()
    print(f"fault-navigation: {'every check passed' if not failures else str(len(failures)) + ' failed: ' + ', '.join(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
