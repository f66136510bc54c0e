"""The dashboard in a real browser: headless Chromium over DevTools, against stubd servers this
test starts (port 0, 127.0.0.1), driven only through the page — clicks, typing — and checked
with curl and `stubd check` from outside.

Usage: python3 Tests/ui/dashboard_test.py [STUBD_BINARY]   (make test-ui)
Saves the screenshot docs/DASHBOARD.md shows as Tests/ui/out/dashboard.png.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import stubd_server  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STUBD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "stubd"))
OUT = os.path.join(ROOT, "Tests", "ui", "out")

FIXTURES = {
    "api.json": {"routes": [
        {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
        {"name": "user", "request": {"method": "GET", "path": "/users/octocat", "query": {"page": "2"}},
         "response": {"json": {"login": "octocat"}}},
        {"name": "other page", "request": {"method": "GET", "path": "/page.html"},
         "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>a page</title><p>another page"}},
    ]},
    "todo.json": {"routes": [
        {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "[]"}, "scenario": "todo", "requiredState": "Started"},
        {"request": {"method": "POST", "path": "/todo"}, "response": {"status": 201}, "scenario": "todo", "newState": "Added"},
        {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "[\"milk\"]"}, "scenario": "todo", "requiredState": "Added"},
        {"name": "flaky", "request": {"method": "GET", "path": "/flaky"}, "responses": [{"status": 500}, {"status": 200}]},
    ]},
    "chat.json": {"routes": [
        {"name": "chat", "request": {"method": "GET", "path": "/chat"},
         "websocket": {"onOpen": [{"send": {"text": "welcome"}}], "template": True,
                       "replies": [{"match": "any", "then": [{"send": {"text": "echo: {{request.body}}"}}]}]}},
    ]},
}


class Stubd(stubd_server.Stubd):
    """`stubd serve` of the binary under test on an ephemeral port (Tests/python/stubd_server.py)."""

    def __init__(self, folder, *extra, port=0):
        super().__init__(STUBD, folder, *extra, port=port)


def curl(url, *arguments):
    """(status, body) of a curl request."""
    result = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", *arguments, url], capture_output=True, text=True, timeout=20)
    body, _, status = result.stdout.rpartition("\n")
    return int(status), body


def js(text):
    return json.dumps(text)


CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


@check
def live_list_routes_misses_and_stub_this_request(browser, folder, write_dir):
    server = Stubd(folder, "--ui-write-dir", write_dir)
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        # A request made with curl appears without a reload, within 1 s.
        started = time.monotonic()
        assert curl(server.base + "/zen")[0] == 200
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === '/zen')", "/zen in the list", 5)
        seen = time.monotonic() - started
        assert seen < 1.0, f"/zen appeared after {seen:.2f} s"
        print(f"  a curl request appeared in the list after {seen * 1000:.0f} ms")

        # The route table renders, with hit counts.
        browser.evaluate("document.querySelector('nav button[data-tab=routes]').click()")
        browser.wait("document.querySelectorAll('#routes tbody tr').length === 8", "eight routes in the table")
        zen_hits = browser.evaluate("[...document.querySelectorAll('#routes tbody tr')].find(r => r.cells[1].textContent === 'zen').cells[5].textContent")
        assert zen_hits == "1", f"zen hits: {zen_hits}"
        browser.evaluate("document.querySelector('nav button[data-tab=requests]').click()")

        # A miss shows the differing fields: expected against got, per closest route.
        assert curl(server.base + "/users/octocat?page=3")[0] == 404
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === '/users/octocat?page=3')", "the miss in the list")
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].find(r => r.cells[2].textContent === '/users/octocat?page=3').click()")
        browser.wait("!document.querySelector('#miss-card').hidden", "the near-miss card")
        rows = browser.evaluate("[...document.querySelectorAll('#miss-routes table.diff tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        assert ["query page", '"2"', '"3"'] in rows, f"differences shown: {rows}"
        assert "user" in browser.evaluate("document.querySelector('#miss-routes').textContent")

        # Stub this request: the exact request prefilled, added for every session; the same curl then gets 200.
        browser.evaluate("document.querySelector('#stub-this').click()")
        browser.wait("!document.querySelector('#editor').hidden", "the route editor")
        # In view and focused: the editor's top inside the window, the cursor in the draft.
        view = browser.evaluate("JSON.stringify({top: document.querySelector('#editor').getBoundingClientRect().top, "
                                "height: innerHeight, focused: document.activeElement.id})")
        view = json.loads(view)
        assert 0 <= view["top"] < view["height"] and view["focused"] == "draft", f"the editor after the click: {view}"
        draft = json.loads(browser.evaluate("document.querySelector('#draft').value"))
        assert draft["request"] == {"method": "GET", "path": "/users/octocat", "query": {"page": "3"}}, draft
        # A broken draft is refused with the problem at the editor.
        browser.evaluate("(() => { const d = JSON.parse(document.querySelector('#draft').value); d.response.status = 9999;"
                         " document.querySelector('#draft').value = JSON.stringify(d); document.querySelector('#add-global').click(); })()")
        browser.wait("document.querySelector('#draft-errors').textContent.includes('status')", "the validation error at the editor")
        browser.evaluate("(() => { const d = JSON.parse(document.querySelector('#draft').value); d.response = {status: 200, json: {page: 3}};"
                         " document.querySelector('#draft').value = JSON.stringify(d); document.querySelector('#add-global').click(); })()")
        browser.wait("document.querySelector('#draft-result').textContent.startsWith('Added')", "the route added")
        status, body = curl(server.base + "/users/octocat?page=3")
        assert status == 200 and json.loads(body) == {"page": 3}, (status, body)

        # Write it as a fixture file; the written file passes `stubd check`.
        browser.evaluate("document.querySelector('#draft-file').value = 'octocat-page-3.json'; document.querySelector('#write-file').click()")
        browser.wait("document.querySelector('#draft-result').textContent.startsWith('Wrote')", "the fixture file written")
        written = os.path.join(write_dir, "octocat-page-3.json")
        assert os.path.exists(written)
        checked = subprocess.run([STUBD, "check", written], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0 and "1 routes OK" in checked.stdout, checked.stdout + checked.stderr
        print(f"  stubd check {os.path.basename(written)}: {checked.stdout.strip()}")

        # Copy as cURL: readable by default (the URL first, curl's own headers left to curl), and
        # the exact form when "exact" is ticked; both replay the request.
        browser.evaluate("document.querySelector('#copy-curl').click()")
        browser.wait("!document.querySelector('#curl-text').hidden", "the cURL command")
        command = browser.evaluate("document.querySelector('#curl-text').textContent")
        assert command.startswith(f"curl '{server.base}/users/octocat?page=3'") and "--request-target" not in command \
            and "User-Agent" not in command, command
        browser.evaluate("document.querySelector('#curl-exact').checked = true; document.querySelector('#copy-curl').click()")
        exact = browser.evaluate("document.querySelector('#curl-text').textContent")
        assert exact.startswith("curl --path-as-is -X 'GET'") and "--request-target '/users/octocat?page=3'" in exact \
            and exact.endswith(f"'{server.base}/'"), exact
        for replay in (command, exact):
            answered = subprocess.run(["bash", "-c", replay + " -s -o /dev/null -w '%{http_code}'"], capture_output=True, text=True, timeout=20)
            assert answered.stdout == "200", f"{replay} -> {answered.stdout} {answered.stderr}"
        browser.evaluate("document.querySelector('#curl-exact').checked = false")
        print(f"  readable cURL: {command}")

        # the screenshot docs/DASHBOARD.md shows: the miss selected, the editor open.
        for path in ["/zen", "/todo", "/search?q=swift%20stub"]:
            curl(server.base + path)
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === '/search?q=swift%20stub')", "the last request")
        # The oldest of the two (the list is newest first): the miss, before the route was added.
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].filter(r => r.cells[2].textContent === '/users/octocat?page=3').pop().click()")
        browser.wait("!document.querySelector('#miss-card').hidden", "the miss selected again")
        browser.evaluate("document.querySelector('#stub-this').click()")
        browser.wait("!document.querySelector('#editor').hidden", "the route editor again")
        os.makedirs(OUT, exist_ok=True)
        browser.screenshot(os.path.join(OUT, "dashboard.png"))
        print(f"  screenshot: {os.path.relpath(os.path.join(OUT, 'dashboard.png'), ROOT)}")
    finally:
        server.stop()


@check
def open_websocket_conversations_are_shown_message_by_message(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        assert browser.evaluate("document.querySelector('#live-sockets').hidden") is True, "no conversation: no panel"
        # The page itself opens a conversation with the stubbed route (same origin), then talks.
        browser.evaluate("window.chat = new WebSocket(location.origin.replace('http', 'ws') + '/chat'); "
                         "window.chat.onopen = () => window.chat.send('first'); 'ok'")
        browser.wait("document.querySelector('#live-list').textContent.includes('echo: first')", "the echo of the first message, live", 5)
        text = browser.evaluate("document.querySelector('#live-list').textContent")
        assert "/chat" in text and "welcome" in text and "→" in text, text
        # A message after the panel is shown arrives without a reload, stamped with its clock time
        # and the time since the conversation opened (0.4 s and more here).
        time.sleep(0.4)
        started = time.monotonic()
        browser.evaluate("window.chat.send('second'); 'ok'")
        browser.wait("document.querySelector('#live-list').textContent.includes('echo: second')", "the second echo, live", 5)
        assert time.monotonic() - started < 1.0, "a message shown within a second"
        second = browser.evaluate("[...document.querySelectorAll('#live-list li.client')].pop().textContent")
        since = float(re.search(r"\(\+(\d+\.\d+) s\)", second).group(1))
        assert 0.4 <= since < 5 and re.search(r"\d\d:\d\d:\d\d\.\d{3}", second), f"the second message's time: {second}"
        assert browser.evaluate("document.querySelector('#live-count').textContent") == "1"
        # Closed: the panel goes, and the conversation is one journal entry (101) in the list.
        browser.evaluate("window.chat.close(1000); 'ok'")
        browser.wait("document.querySelector('#live-sockets').hidden", "the panel hidden once the conversation ends", 5)
        browser.wait("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].some(r => r.cells[2].textContent === '/chat' && r.cells[3].textContent === '101')",
                     "the ended conversation in the journal", 5)
    finally:
        server.stop()


@check
def routes_tab_turns_off_overrides_edits_and_deletes(browser, folder, write_dir):
    """The Routes tab acts on the running server, never on a file: a fixture route turned off for
    every session passes its request on (here: a miss), on again; "Override" adds a runtime route
    that answers first; "Edit" replaces it; "Delete" removes it — each checked with curl."""
    server = Stubd(folder)
    fixture_file = os.path.join(folder, "api.json")
    before = open(fixture_file).read()
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        browser.evaluate("document.querySelector('nav button[data-tab=routes]').click()")
        row = "document.querySelector('#routes tr[data-route=f0]')"
        browser.wait(f"{row} !== null", "the zen route's row")
        click = lambda label: browser.evaluate(f"[...{row}.querySelectorAll('button')].find(b => b.textContent === {json.dumps(label)}).click()")
        click("Turn off")
        browser.wait(f"{row}.className === 'off' && {row}.textContent.includes('(off)')", "the zen route shown off")
        assert curl(server.base + "/zen")[0] == 404, "a route turned off for every session passes its request on"
        click("Turn on")
        browser.wait(f"{row}.className !== 'off'", "the zen route on again")
        assert curl(server.base + "/zen") == (200, "Design for failure.")
        # Override the fixture with a runtime route, then edit it and delete it.
        click("Override")
        browser.wait("!document.querySelector('#route-editor').hidden && document.activeElement.id === 'route-draft'", "the override editor, focused")
        browser.evaluate("(() => { const d = JSON.parse(document.querySelector('#route-draft').value); d.response = {text: 'overridden'}; "
                         "document.querySelector('#route-draft').value = JSON.stringify(d); document.querySelector('#route-save').click(); })()")
        browser.wait("document.querySelector('#route-result').textContent.startsWith('Added a runtime route overriding f0')", "the override added")
        assert curl(server.base + "/zen") == (200, "overridden")
        runtime = "[...document.querySelectorAll('#routes tr[data-route^=r]')][0]"
        browser.wait(f"{runtime} !== undefined", "the runtime route's row")
        browser.evaluate(f"[...{runtime}.querySelectorAll('button')].find(b => b.textContent === 'Edit').click()")
        browser.evaluate("(() => { const d = JSON.parse(document.querySelector('#route-draft').value); d.response = {text: 'edited'}; "
                         "document.querySelector('#route-draft').value = JSON.stringify(d); document.querySelector('#route-save').click(); })()")
        browser.wait("document.querySelector('#route-result').textContent.startsWith('Saved r')", "the runtime route saved")
        assert curl(server.base + "/zen") == (200, "edited")
        browser.evaluate(f"[...{runtime}.querySelectorAll('button')].find(b => b.textContent === 'Delete').click()")
        browser.wait("document.querySelector('#route-result').textContent.startsWith('Deleted r')", "the runtime route deleted")
        assert curl(server.base + "/zen") == (200, "Design for failure.")
        assert open(fixture_file).read() == before, "the fixture file was changed"
        print("  Routes tab: off → 404, on → 200, override → 'overridden', edit → 'edited', delete → the fixture again; api.json untouched")
    finally:
        server.stop()


@check
def proxied_requests_show_the_host_the_client_asked_for(browser, folder, write_dir):
    with open(os.path.join(folder, "proxied.json"), "w") as file:
        json.dump({"routes": [{"name": "me", "request": {"method": "GET", "path": "/v1/me", "host": "api.example.com"},
                               "response": {"json": {"id": 1}}}]}, file)
    server = Stubd(folder, "--proxy-port", "0", "--ca-dir", os.path.join(write_dir, "proxy-ca"))
    try:
        line = next(line for line in server.banner if "proxy on http://127.0.0.1:" in line)
        proxy = "http://127.0.0.1:" + line.split("proxy on http://127.0.0.1:", 1)[1].split(":", 1)[0]
        assert curl("http://api.example.com/v1/me", "-x", proxy) == (200, '{"id":1}')
        assert curl("http://sdk.other.example/track", "-x", proxy)[0] == 502
        browser.open(server.base + "/__stubd/ui")
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === 'http://api.example.com/v1/me')",
                     "the answered request with its host")
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === 'http://sdk.other.example/track')",
                     "the refused one with its host")
        # Stub this host: the refused request's draft names its host; added, the proxy answers it.
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].find(r => r.cells[2].textContent === 'http://sdk.other.example/track').click()")
        browser.evaluate("document.querySelector('#stub-this').click()")
        browser.wait("!document.querySelector('#editor').hidden", "the route editor")
        draft = json.loads(browser.evaluate("document.querySelector('#draft').value"))
        assert draft["request"] == {"method": "GET", "path": "/track", "host": "sdk.other.example"}, draft
        assert "stubd's proxy answers that host itself" in browser.evaluate("document.querySelector('#draft-notes').textContent")
        browser.evaluate("(() => { const d = JSON.parse(document.querySelector('#draft').value); d.response = {status: 204};"
                         " document.querySelector('#draft').value = JSON.stringify(d); document.querySelector('#add-global').click(); })()")
        browser.wait("document.querySelector('#draft-result').textContent.startsWith('Added')", "the host's route added")
        assert curl("http://sdk.other.example/track", "-x", proxy)[0] == 204
    finally:
        server.stop()
        os.remove(os.path.join(folder, "proxied.json"))


@check
def scenario_reset_from_the_page(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        assert curl(server.base + "/flaky")[0] == 500
        assert curl(server.base + "/todo", "-X", "POST")[0] == 201
        assert curl(server.base + "/todo")[1] == '["milk"]'
        browser.open(server.base + "/__stubd/ui")
        browser.evaluate("document.querySelector('nav button[data-tab=scenarios]').click()")
        browser.wait("[...document.querySelectorAll('#scenarios tbody tr')].some(r => r.cells[0].textContent === 'todo' && r.cells[1].textContent === 'Added')",
                     "the todo scenario in state Added")
        browser.wait("[...document.querySelectorAll('#sequences tbody tr')].some(r => r.cells[0].textContent === 'flaky' && r.cells[2].textContent === '1 of 2' && r.cells[3].textContent === '200')",
                     "the flaky sequence one answer in")
        browser.evaluate("document.querySelector('#scenarios-reset').click()")
        browser.wait("[...document.querySelectorAll('#scenarios tbody tr')].some(r => r.cells[1].textContent === 'Started')", "the scenario reset")
        browser.wait("[...document.querySelectorAll('#sequences tbody tr')].some(r => r.cells[2].textContent === '0 of 2')", "the sequence reset")
        assert curl(server.base + "/todo")[1] == "[]"
        assert curl(server.base + "/flaky")[0] == 500
    finally:
        server.stop()


@check
def a_token_is_asked_for_once_and_kept_in_the_tab(browser, folder, write_dir):
    server = Stubd(folder, "--admin-token", "s3cret-token")
    try:
        assert curl(server.base + "/zen")[0] == 200
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#token-bar').classList.contains('shown')", "the token prompt")
        assert browser.evaluate("document.querySelectorAll('#requests tbody tr[data-sequence]').length") == 0, "nothing shown without the token"
        browser.evaluate("document.querySelector('#token-input').value = 'wrong'; document.querySelector('#token-form').requestSubmit()")
        browser.wait("document.querySelector('#token-error').textContent.includes('refused')", "a wrong token refused")
        browser.evaluate("document.querySelector('#token-input').value = 's3cret-token'; document.querySelector('#token-form').requestSubmit()")
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === '/zen')", "the journal with the token")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream with the token")
        assert curl(server.base + "/__stubd/requests")[0] == 401, "the admin API itself still needs the token"
    finally:
        server.stop()


@check
def pages_of_other_origins_cannot_read_the_stream_or_use_the_page_key(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        # localhost:PORT is another origin than 127.0.0.1:PORT.
        other = f"http://localhost:{server.port}/page.html"
        browser.open(other)
        outcome = browser.evaluate(
            f"fetch({js(server.base + '/__stubd/events')}).then(r => 'read ' + r.status, e => 'blocked: ' + e.name)")
        assert outcome.startswith("blocked"), f"another origin: {outcome}"
        # A page of the dashboard's own origin that is not the dashboard does not know the key.
        browser.open(server.base + "/page.html")
        status = browser.evaluate(
            "fetch('/__stubd/routes', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({request: {method: 'GET', path: '/x'}, response: {text: 'x'}})}).then(r => r.status)")
        assert status == 403, f"a same-origin page without the key: {status}"
        guessed = browser.evaluate(
            "fetch('/__stubd/routes', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Stubd-UI': '0123456789abcdef0123456789abcdef'},"
            " body: JSON.stringify({request: {method: 'GET', path: '/x'}, response: {text: 'x'}})}).then(r => r.status)")
        assert guessed == 403, f"a guessed key: {guessed}"
        framed = browser.evaluate("fetch('/__stubd/ui').then(r => r.status)")
        assert framed == 403, f"the page fetched by a script (its key read): {framed}"
        assert curl(server.base + "/x")[0] == 404
    finally:
        server.stop()


def burst(port, count):
    """`count` GETs of /zen on 4 keep-alive connections as fast as they go; returns the seconds taken."""
    import http.client
    import threading
    started = time.monotonic()

    def worker(n):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(n):
            connection.request("GET", "/zen")
            connection.getresponse().read()
        connection.close()
    threads = [threading.Thread(target=worker, args=(count // 4,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


def task_ms(browser):
    metrics = {m["name"]: m["value"] for m in browser.command("Performance.getMetrics")["metrics"]}
    return metrics["TaskDuration"] * 1000


@check
def a_burst_of_requests_keeps_the_page_responsive(browser, folder, write_dir):
    """2,000 requests as fast as 4 connections send them: the list keeps up, only the rows in view
    are in the document, a click is answered at once, and the renderer's time per event is printed
    (the bench figure; asserted here only with a generous bound)."""
    server = Stubd(folder, "--journal-size", "5000")
    try:
        browser.command("Performance.enable")
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        before = task_ms(browser)
        count = 2000
        seconds = burst(server.port, count)
        caught_up = browser.wait(f"document.querySelector('#requests tbody tr[data-sequence]') && "
                                 f"Number(document.querySelector('#requests tbody tr[data-sequence]').dataset.sequence) >= {count}",
                                 "the last request at the top of the list", 30)
        per_event = (task_ms(browser) - before) / count
        rows = browser.evaluate("document.querySelectorAll('#requests tbody tr[data-sequence]').length")
        started = time.monotonic()
        browser.evaluate("document.querySelector('#requests tbody tr[data-sequence]').click()")
        browser.wait("!document.querySelector('#detail').hidden", "the detail after a click", 5)
        click = time.monotonic() - started
        print(f"  {count} requests in {seconds:.2f} s ({count / seconds:,.0f}/s): the list caught up {caught_up:.2f} s after, "
              f"{rows} rows in the document, renderer {per_event:.3f} ms per event, a click answered in {click * 1000:.0f} ms")
        assert rows <= 120, f"{rows} rows in the document: the list is not virtual"
        assert per_event < 2.0, f"renderer {per_event:.2f} ms per event"
        assert click < 0.5, f"a click took {click:.2f} s"
        # Past the page's 2,000 rows the oldest leave, and the page says how many and where they are
        # (40 more requests: at least 30 dropped, whatever the page's own count at the start).
        burst(server.port, 40)
        browser.wait("(m => m !== null && Number(m[1].replace(/,/g, '')) >= 30)(document.querySelector('#hidden-count').textContent.match(/([\\d,]+) older requests left this page/))",
                     "the dropped-rows note", 10)
        note = browser.evaluate("document.querySelector('#hidden-count').textContent")
        dropped = int(re.search(r"([\d,]+) older requests", note).group(1).replace(",", ""))
        assert 30 <= dropped <= 80 and "GET /__stubd/requests" in note, note
        print(f"  past the page's cap: {note!r}")
    finally:
        server.stop()


@check
def keyboard_status_colours_and_no_favicon_miss(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        assert curl(server.base + "/flaky")[0] == 500
        assert curl(server.base + "/zen")[0] == 200
        browser.wait("document.querySelectorAll('#requests tbody tr[data-sequence]').length === 2", "two rows")
        classes = browser.evaluate("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].map(r => r.cells[3].className)")
        assert classes == ["status s2xx", "status s5xx"], f"status cells: {classes}"
        # The page's own icon is not fetched from the stubs (it was the first row, a red MISS).
        listed = json.loads(subprocess.run(["curl", "-s", server.base + "/__stubd/requests"], capture_output=True, text=True).stdout)
        assert not any(r["path"] == "/favicon.ico" for r in listed["requests"]), "the browser fetched /favicon.ico from the stubs"
        # Keyboard only: focus the list, arrow down twice, Enter: the second row's detail.
        browser.evaluate("document.querySelector('#requests-box').focus()")
        for key, code in [("ArrowDown", 40), ("ArrowDown", 40), ("Enter", 13)]:
            browser.command("Input.dispatchKeyEvent", type="keyDown", key=key, code=key, windowsVirtualKeyCode=code)
            browser.command("Input.dispatchKeyEvent", type="keyUp", key=key, code=key, windowsVirtualKeyCode=code)
        browser.wait("document.querySelector('#detail-title').textContent === 'GET /flaky'", "the detail of the second row by keyboard")
        focused = browser.evaluate("document.activeElement.id")
        assert focused == "requests-box", f"focus moved to {focused}"
    finally:
        server.stop()


@check
def stub_this_request_says_what_it_left_out(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        blob = os.path.join(write_dir, "blob.bin")
        with open(blob, "wb") as file:
            file.write(bytes(range(256)) * 40)
        assert curl(server.base + "/upload", "-H", "Content-Type: application/octet-stream", "--data-binary", f"@{blob}")[0] == 404
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].some(td => td.textContent === '/upload')", "the upload")
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr[data-sequence]')].find(r => r.cells[2].textContent === '/upload').click()")
        browser.evaluate("document.querySelector('#stub-this').click()")
        browser.wait("!document.querySelector('#editor').hidden", "the route editor")
        notes = browser.evaluate("document.querySelector('#draft-notes').textContent")
        assert "is not in the draft" in notes and "binary" in notes, f"notes: {notes!r}"
    finally:
        server.stop()


@check
def a_restart_is_shown_and_no_entry_is_lost(browser, folder, write_dir):
    server = Stubd(folder)
    port = server.port
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        for _ in range(3):
            curl(server.base + "/zen")
        browser.wait("document.querySelectorAll('#requests tbody tr[data-sequence]').length === 3", "three rows")
        server.stop()
        browser.wait("document.querySelector('#status').className === 'down'", "the disconnected state", 10)
        # While stubd does not answer, what would call it is disabled; back as it was after.
        off = browser.evaluate("[...document.querySelectorAll('.needs-server')].filter(b => !b.disabled).map(b => b.id).join(',')")
        assert off == "", f"enabled while disconnected: {off}"
        server = Stubd(folder, port=port)
        # The new stubd has a new page key: the page reloads itself once to get it.
        deadline = time.monotonic() + 15
        while True:
            try:
                browser.wait("document.querySelector('#status').textContent === 'live'", "live again after the restart", 2)
                break
            except (AssertionError, RuntimeError):
                if time.monotonic() > deadline:
                    raise AssertionError("the page was not live again within 15 s of the restart")
                time.sleep(0.2)
        assert browser.evaluate("document.querySelector('#scenarios-reset').disabled") is False, "scenario reset enabled again once live"
        for _ in range(8):
            curl(server.base + "/flaky")
        browser.wait("[...document.querySelectorAll('#requests tbody td.path')].filter(td => td.textContent === '/flaky').length === 8",
                     "all 8 requests made after the restart", 10)
    finally:
        server.stop()


@check
def phone_width_and_dark_theme_screenshots(browser, folder, write_dir):
    server = Stubd(folder)
    try:
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        for path in ["/zen", "/users/octocat?page=2", "/flaky", "/nothing/here"]:
            curl(server.base + path)
        browser.wait("document.querySelectorAll('#requests tbody tr[data-sequence]').length === 4", "four rows")
        docs = os.path.join(ROOT, "docs")
        browser.command("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        background = browser.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(22, 22, 24)", f"dark background: {background}"
        browser.screenshot(os.path.join(docs, "dashboard-dark.png"))
        browser.command("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])
        browser.command("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        try:
            hidden = browser.evaluate("getComputedStyle(document.querySelector('#requests tbody td.optional')).display")
            assert hidden == "none", f"optional columns at 390 px: {hidden}"
            path_width = browser.evaluate("document.querySelector('#requests tbody td.path').getBoundingClientRect().width")
            assert path_width > 80, f"the path column is {path_width} px wide at 390 px"
            # Every shown cell inside the screen (no sideways scroll to see who answered), and a
            # path with its query shown whole.
            layout = json.loads(browser.evaluate(
                "JSON.stringify({width: innerWidth, right: Math.max(...[...document.querySelectorAll('#requests tbody tr[data-sequence] td')]"
                ".filter(td => getComputedStyle(td).display !== 'none').map(td => td.getBoundingClientRect().right)), "
                "cut: [...document.querySelectorAll('#requests tbody td.path')].filter(td => td.scrollWidth > td.clientWidth).map(td => td.textContent)})"))
            assert layout["right"] <= layout["width"] and "/users/octocat?page=2" not in layout["cut"], f"at 390 px: {layout}"
            browser.screenshot(os.path.join(docs, "dashboard-phone.png"))
        finally:
            browser.command("Emulation.clearDeviceMetricsOverride")
    finally:
        server.stop()


def main():
    if not os.path.exists(STUBD):
        sys.exit(f"test-ui: {STUBD} is missing; build it first (swift build --product stubd)")
    folder = tempfile.mkdtemp(prefix="stubd-ui-fixtures-")
    write_dir = tempfile.mkdtemp(prefix="stubd-ui-written-")
    for name, document in FIXTURES.items():
        with open(os.path.join(folder, name), "w") as file:
            json.dump(document, file)
    browser = cdp.Browser()
    failures = 0
    try:
        for function in CHECKS:
            started = time.monotonic()
            try:
                function(browser, folder, write_dir)
                print(f"ok   {function.__name__} ({time.monotonic() - started:.1f} s)")
            except Exception:
                failures += 1
                print(f"FAIL {function.__name__}")
                traceback.print_exc()
                try:
                    os.makedirs(OUT, exist_ok=True)
                    browser.screenshot(os.path.join(OUT, f"failed-{function.__name__}.png"))
                except Exception:
                    pass
    finally:
        browser.close()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(write_dir, ignore_errors=True)
    print(f"test-ui: {len(CHECKS) - failures} of {len(CHECKS)} browser checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
