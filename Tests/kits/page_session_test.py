"""The JavaScript kit's page helper in headless Chromium (issue 48): `useSessionInContext` gives a
Playwright context the session header, which Playwright sends through DevTools'
Network.setExtraHTTPHeaders — done here with the headers the kit handed over. A page served by
stubd (same origin) and a page on another origin (localhost vs 127.0.0.1) both fetch /profile
and get the session's stub, not the fixture; the kit then counts both requests in the session
and its strict check passes. A cross-origin fetch of a fixture that sets its own
`Access-Control-Allow-Origin` succeeds (stubd adds no second value).

Usage: python3 Tests/kits/page_session_test.py path/to/stubd
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "ui"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import cdp  # noqa: E402
from stubd_server import Stubd  # noqa: E402

PAGE = """<!doctype html><title>app</title><link rel=icon href="data:,"><p id=out>loading</p>
<script>const asked = new URLSearchParams(location.search);
fetch(asked.get('api') + (asked.get('path') || '/profile')).then(r => r.json())
  .then(p => { document.getElementById('out').textContent = p.name; },
        e => { document.getElementById('out').textContent = 'failed: ' + e; });</script>"""


def node(*arguments, base):
    result = subprocess.run(["node", os.path.join(ROOT, "kits", "js", "tests", "page-session.mjs"), *arguments],
                            capture_output=True, text=True, timeout=60, env={**os.environ, "STUBD_BASE_URL": base})
    if result.returncode != 0:
        print(f"FAIL node page-session.mjs {' '.join(arguments)}: {result.stdout}{result.stderr}")
        sys.exit(1)
    return result.stdout.strip()


def main():
    binary = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="stubd-kit-page-")
    with open(os.path.join(folder, "app.json"), "w") as handle:
        json.dump({"routes": [
            {"request": {"method": "GET", "path": "/app", "anyOtherQuery": True}, "response": {"headers": {"Content-Type": "text/html"}, "text": PAGE}},
            {"request": {"method": "GET", "path": "/profile"},
             "response": {"json": {"name": "the fixture"}}},
            {"request": {"method": "GET", "path": "/own-cors"},
             "response": {"headers": {"Access-Control-Allow-Origin": "*"}, "json": {"name": "its own CORS"}}},
        ]}, handle)
    server = Stubd(binary, folder, "--quiet")
    browser = cdp.Browser()
    try:
        opened = json.loads(node("open", base=server.base))
        browser.command("Network.enable")
        browser.command("Network.setExtraHTTPHeaders", headers=opened["headers"])
        failures = 0
        for what, page in [("same origin", f"{server.base}/app?api={server.base}"),
                           ("another origin (localhost → 127.0.0.1)", f"http://localhost:{server.port}/app?api={server.base}")]:
            browser.open(page)
            browser.wait("document.getElementById('out').textContent !== 'loading'", f"the page's fetch ({what})")
            shown = browser.evaluate("document.getElementById('out').textContent")
            good = shown == "from the session"
            failures += 0 if good else 1
            print(f"{'ok  ' if good else 'FAIL'} {what}: the page shows {shown!r}")
        # Issue 59: a fixture's own Access-Control-Allow-Origin is the only one (two made Chromium refuse it).
        browser.open(f"http://localhost:{server.port}/app?api={server.base}&path=/own-cors")
        browser.wait("document.getElementById('out').textContent !== 'loading'", "the page's fetch of a route with its own CORS header")
        shown = browser.evaluate("document.getElementById('out').textContent")
        failures += 0 if shown == "its own CORS" else 1
        print(f"{'ok  ' if shown == 'its own CORS' else 'FAIL'} a cross-origin fetch of a fixture that sets Access-Control-Allow-Origin: * shows {shown!r}")
        if failures:
            sys.exit(1)
        print(f"ok   the kit counts both page requests in session {opened['id']} and its strict check passes: "
              + node("check", opened["id"], base=server.base))
    finally:
        browser.close()
        server.stop()


if __name__ == "__main__":
    main()
