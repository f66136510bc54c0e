"""Sequence steps that fail without a byte, as headless Chromium's fetch sees them from a page of
stubd's own origin and from another origin: every run must read each step as authored
(500 → error → 200; error → 200 after another route, as the page's first fetch, or fetched by
the page's own script as it loads) with one attempt per step reaching stubd — Chromium re-sends a
request that failed without a byte on its idle and preconnected sockets, so stubd sends such a
step (to every client) as a response that fails before the status (a `502` head with two lengths),
which no client re-sends: the page's `fetch` rejects (`TypeError`), as an app's call does. A
fresh browser per run, as a page load is.

Usage: python3 Tests/ui/fault_steps_test.py [STUBD_BINARY] [RUNS=5] [--page docs/FAULTS.md]
(make test-ui; make conformance writes the table into docs/FAULTS.md between the fault-steps markers)
"""
import json
import os
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import dashboard_test  # noqa: E402
from dashboard_test import Stubd, curl  # noqa: E402

# The page fetches the steps itself from an inline script, milliseconds after its answer, while
# a slow request holds the page's own connection: the first attempt takes the socket Chromium
# opened when the page's answer arrived, which has sat idle only those milliseconds.
ONLOAD = "onload"
ONLOAD_SCRIPT = ("<script>window.out = (async () => { const base = decodeURIComponent(location.hash.slice(1));"
                 " const slow = fetch(base + '/slow'); const out = [];"
                 " for (let i = 0; i < 2; i++) { try { const r = await fetch(base + '/reset-load'); await r.text(); out.push(String(r.status)); }"
                 " catch (e) { out.push('error'); } } await slow; return out.join(' '); })();</script>")

CASES = [
    ("sequence `[500, reset, ok]`", "/flaky", None, "500 error 200"),
    ("sequence `[500, empty, ok]`", "/flaky-empty", None, "500 error 200"),
    ("sequence `[reset, ok]` after another route", "/reset-first", "/warm", "error 200"),
    ("sequence `[reset, ok]` as the page's first fetch", "/reset-first", None, "error 200"),
    ("sequence `[reset, ok]` fetched by the page's script as it loads", "/reset-load", ONLOAD, "error 200"),
]


def fixtures(folder):
    routes = [
        {"name": "flaky", "request": {"method": "GET", "path": "/flaky"},
         "responses": [{"status": 500, "text": "first"}, {"fault": "reset"}, {"text": "ok"}]},
        {"name": "flaky-empty", "request": {"method": "GET", "path": "/flaky-empty"},
         "responses": [{"status": 500, "text": "first"}, {"fault": "empty"}, {"text": "ok"}]},
        {"name": "reset-first", "request": {"method": "GET", "path": "/reset-first"}, "responses": [{"fault": "reset"}, {"text": "ok"}]},
        {"name": "reset-load", "request": {"method": "GET", "path": "/reset-load"}, "responses": [{"fault": "reset"}, {"text": "ok"}]},
        {"name": "warm", "request": {"method": "GET", "path": "/warm"}, "response": {"text": "warm"}},
        {"name": "slow", "request": {"method": "GET", "path": "/slow"}, "response": {"text": "slow"}, "delay": 0.3},
        {"name": "page", "request": {"method": "GET", "path": "/page.html"},
         "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>steps</title>"}},
        {"name": "loading-page", "request": {"method": "GET", "path": "/load.html"},
         "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>steps</title>" + ONLOAD_SCRIPT}},
    ]
    with open(os.path.join(folder, "steps.json"), "w") as file:
        json.dump({"routes": routes}, file)


def run(server, origin, path, before, expected):
    """One page load: the steps fetched one after another; what the page read, and the attempts."""
    curl(server.base + "/__stubd/reset", "-X", "POST")
    browser = cdp.Browser()
    try:
        page = server.base if origin == "same" else f"http://localhost:{server.port}"
        if before == ONLOAD:
            browser.open(page + "/load.html#" + urllib.parse.quote(server.base, safe=""))
            read = browser.evaluate("window.out")
        else:
            browser.open(page + "/page.html")
            warm = f"await fetch({json.dumps(server.base + before)});" if before else ""
            steps = len(expected.split())
            read = browser.evaluate(
                "(async () => { %s const out = []; for (let i = 0; i < %d; i++) { try { const r = await fetch(%s); await r.text(); out.push(String(r.status)); }"
                " catch (e) { out.push('error'); } } return out.join(' '); })()" % (warm, steps, json.dumps(server.base + path)))
    finally:
        browser.close()
    return finish(server, path, expected, read)


def finish(server, path, expected, read):
    """What the page read (with what stubd saw when it is wrong), and the attempts that reached stubd."""
    entries = json.loads(curl(server.base + "/__stubd/requests?path=" + path)[1])["requests"]
    if read != expected:
        # What stubd saw, for the report: outcome@connection#request-on-it, arrival second.
        read += " [" + ", ".join(f"{e.get('status', e.get('fault'))}@{e['connection']}#{e['connectionRequest']} {e['time'][17:23]}"
                                 for e in entries) + "]"
    return read, len(entries)


def main():
    runs = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 5
    folder = tempfile.mkdtemp(prefix="stubd-fault-steps-")
    fixtures(folder)
    server = Stubd(folder)
    failures = 0
    rows = []
    try:
        for label, path, before, expected in CASES:
            for origin in ("same", "cross"):
                outcomes = [run(server, origin, path, before, expected) for _ in range(runs)]
                # Read as authored, each step reaching stubd once (no re-send).
                outcomes = [(read if count == len(expected.split()) else f"{read} in {count} attempts", count) for read, count in outcomes]
                correct = sum(1 for read, _ in outcomes if read == expected)
                attempts = sorted({count for _, count in outcomes})
                failures += runs - correct
                wrong = [read for read, _ in outcomes if read != expected]
                rows.append(f"| {label} | {'same-origin' if origin == 'same' else 'cross-origin'} | {correct} of {runs} read "
                            f"{expected.replace(' ', ' → ')}{' (wrong: ' + ', '.join(wrong) + ')' if wrong else ''} | "
                            f"{' or '.join(map(str, attempts))} |")
                print(rows[-1], flush=True)
    finally:
        server.stop()
    print(f"fault-steps: {sum(1 for _ in rows)} rows, {failures} wrong run(s) of {len(rows) * runs}")
    if "--page" in sys.argv and not failures:
        write_page(sys.argv[sys.argv.index("--page") + 1],
                     "| case | page | runs read as authored | attempts that reached stubd per run |\n|---|---|---|---|\n"
                     + "\n".join(row.rstrip(" |") + " |" if row.endswith("| |") else row for row in rows))
    sys.exit(1 if failures else 0)


def write_page(path, text):
    """Puts the table between `<!-- fault-steps:begin … -->` and `<!-- fault-steps:end -->`."""
    with open(path, encoding="utf-8") as file:
        page = file.read()
    begin = page.index("\n", page.index("<!-- fault-steps:begin")) + 1
    end = page.index("<!-- fault-steps:end -->")
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(page[:begin] + text + "\n" + page[end:])
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        dashboard_test.STUBD = os.path.abspath(sys.argv[1])
    main()
