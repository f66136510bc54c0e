"""Attacks a web page can make on a stubd running next to the browser (issue 30), driven in headless
Chromium over DevTools against a real stubd: each must fail.

1. a cross-origin page starts a webhook loop with one fetch carrying `X-Stubd-Webhook-Depth: -1000`:
   the chain stops after stubd's own depth (5 hops), whatever the page sent;
2. a cross-site `text/plain` POST to a "callback URL" route points the webhook at stubd's own admin
   API, in every spelling of this machine (127.0.0.1, localhost, [::1], 127.1, 0.0.0.0, the HTTPS
   port): no route is planted, nothing is reset, and each refusal is in the webhook log;
3. a stub served on stubd's own origin as HTML (a template echoing the query) runs a script that
   reads `/__stubd/requests` and `/__stubd/events` and opens the dashboard: every read is refused;
   a plain `text` stub is not rendered as HTML at all (text/plain, nosniff);
4. the dashboard's "copy as cURL" for journaled requests with hostile targets and bodies (`@host/x`,
   `//evil.example/x`, a body `@secret.txt`): each command, run by bash, sends exactly the journaled
   request to stubd's own origin and uploads no file;
5. a cross-origin page kills or starves stubd with one `fetch` each (issue 43): a `Range` end of
   2^63−1 (CORS-safelisted, no preflight), a GraphQL body nested 25,000 deep as `text/plain`
   (`no-cors`), then 250 WebSockets held open under `ulimit -n 256`: stubd lives, and normal GETs
   and admin calls are answered within 1 s meanwhile.

Usage: python3 Tests/ui/page_attacks_test.py [STUBD_BINARY]   (make test-ui)
"""
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import cdp  # noqa: E402
from stubd_server import answered_within  # noqa: E402
from dashboard_test import STUBD, js  # noqa: E402

CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`stubd serve FOLDER` on chosen ports (fixtures may name them), waiting for its banner."""

    def __init__(self, routes, *extra, nofile=None):
        self.folder = tempfile.mkdtemp(prefix="stubd-attacks-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        with open(os.path.join(self.folder, "routes.json"), "w") as file:
            json.dump({"routes": routes(self.port)}, file)
        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.process = subprocess.Popen([STUBD, "serve", self.folder, "--port", str(self.port), *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=limit)
        self.log = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stubd exited: " + "".join(self.log))
            self.log.append(line)
            if "dashboard:" in line:
                break

    def admin(self, path):
        return json.load(urllib.request.urlopen(self.base + "/__stubd/" + path, timeout=10))

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def settle(read, seconds=3.0):
    """`read()` once it has not changed for half a second (a chain of webhooks has ended), at most `seconds`."""
    deadline = time.monotonic() + seconds
    last = read()
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = read()
        if now != last:
            last, stable_since = now, time.monotonic()
        elif time.monotonic() - stable_since >= 0.5:
            break
    return last


@check
def a_page_cannot_start_a_webhook_loop(browser):
    server = Server(lambda port: [
        {"request": {"method": "GET", "path": "/page.html"}, "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>p</title>"}},
        {"name": "loop", "request": {"method": "POST", "path": "/loop"}, "response": {"status": 200},
         "webhooks": [{"url": f"http://127.0.0.1:{port}/loop"}]},
    ])
    try:
        # localhost:PORT is another origin than 127.0.0.1:PORT.
        browser.open(f"http://localhost:{server.port}/page.html")
        status = browser.evaluate(f"fetch({js(server.base + '/loop')}, {{method: 'POST', headers: {{'X-Stubd-Webhook-Depth': '-1000'}}}})"
                                  ".then(r => r.status, e => 'failed ' + e)")
        assert status == 200, f"the page's fetch: {status}"
        hops = settle(lambda: len([e for e in server.admin("requests?path=/loop")["requests"]]))
        assert hops == 6, f"{hops} requests reached /loop (the page's and 5 webhooks expected)"
        print(f"  a page's X-Stubd-Webhook-Depth: -1000 made {hops - 1} webhook hops (was 1,005 at 2b49877)")
    finally:
        server.stop()


@check
def a_callback_url_cannot_reach_the_admin_api(browser):
    server = Server(lambda port: [
        {"request": {"method": "GET", "path": "/page.html"}, "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>p</title>"}},
        {"name": "order", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 202},
         "webhooks": [{"url": "{{jsonPath request.body '$.callback'}}", "headers": {"Content-Type": "application/json"},
                       "text": "{{jsonPath request.body '$.payload'}}"}]},
    ], "--https-port", "0", "--ca-dir", tempfile.mkdtemp(prefix="stubd-attacks-ca-"))
    try:
        https = int(next(line for line in server.log if "https://127.0.0.1:" in line).split("https://127.0.0.1:")[1].split("/")[0].split()[0])
        planted = json.dumps({"request": {"method": "GET", "path": "/planted"}, "response": {"text": "pwned"}})
        targets = [f"http://127.0.0.1:{server.port}/__stubd/routes", f"http://localhost:{server.port}/__stubd/routes",
                   f"http://[::1]:{server.port}/__stubd/routes", f"http://127.1:{server.port}/__stubd/routes",
                   f"http://0.0.0.0:{server.port}/__stubd/routes", f"https://127.0.0.1:{https}/__stubd/routes",
                   f"http://LOCALHOST.:{server.port}/__stubd/reset", f"http://[::ffff:127.0.0.1]:{server.port}/__stubd/reset"]
        browser.open(f"http://localhost:{server.port}/page.html")
        for target in targets:
            body = json.dumps({"callback": target, "payload": planted})
            status = browser.evaluate(f"fetch({js(server.base + '/orders')}, {{method: 'POST', headers: {{'Content-Type': 'text/plain'}}, body: {js(body)}}})"
                                      ".then(r => r.status, e => 'failed ' + e)")
            assert status == 202, f"{target}: {status}"
        deliveries = settle(lambda: server.admin("webhooks")["webhooks"], 5)
        assert len(deliveries) == len(targets), f"{len(deliveries)} deliveries logged for {len(targets)} callbacks"
        for delivery in deliveries:
            assert delivery.get("attempts") == 0 and "admin API" in delivery.get("error", ""), f"not refused: {delivery}"
        status = urllib.request.urlopen(server.base + "/__stubd/routes", timeout=10)
        routes = json.load(status)["routes"]
        assert not any(r["route"]["request"].get("path") == "/planted" for r in routes), "a route was planted"
        log = "".join(server.log)
        print(f"  {len(targets)} callback URLs into the admin API refused and logged: "
              + deliveries[0]["error"][:90])
    finally:
        server.stop()


@check
def a_page_on_stubds_own_origin_cannot_read_the_journal(browser):
    server = Server(lambda port: [
        {"name": "echo", "request": {"method": "GET", "path": "/echo", "query": {"q": {"present": True}}},
         "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>echo</title>{{request.query.q}}", "template": True}},
        {"name": "plain", "request": {"method": "GET", "path": "/plain", "query": {"q": {"present": True}}}, "response": {"text": "{{request.query.q}}", "template": True}},
        {"name": "secret", "request": {"method": "POST", "path": "/login"}, "response": {"status": 204}},
    ])
    try:
        assert subprocess.run(["curl", "-s", "-o", "/dev/null", "-X", "POST", server.base + "/login", "-d", "user=a&pin=1234"]).returncode == 0
        # The page the attacker's link opens: the script reads what it can, and says so in the title.
        script = ("<script>(async () => { const out = [];"
                  " for (const path of ['/__stubd/requests', '/__stubd/events', '/__stubd/routes', '/__stubd/ui']) {"
                  "  try { const r = await fetch(path); out.push(path + ' ' + r.status); } catch (e) { out.push(path + ' failed'); } }"
                  " const w = window.open('/__stubd/ui'); await new Promise(r => setTimeout(r, 500));"
                  " try { out.push('opened ' + (w && w.document ? w.document.documentElement.outerHTML.length : 'closed')); } catch (e) { out.push('opened unreadable'); }"
                  " document.title = out.join('; '); })()</script>")
        browser.open(server.base + "/echo?q=" + urllib.request.quote(script))
        browser.wait("document.title.includes('opened')", "the page's script to finish", 10)
        title = browser.evaluate("document.title")
        for path in ["/__stubd/requests", "/__stubd/events", "/__stubd/routes", "/__stubd/ui"]:
            assert f"{path} 403" in title, f"{path} was not refused: {title}"
        assert "opened closed" in title or "opened unreadable" in title, f"the opened dashboard was readable: {title}"
        print(f"  a stub page on stubd's origin: {title}")
        browser.open(server.base + "/plain?q=" + urllib.request.quote("<script>document.title='ran'</script>"))
        kind = browser.evaluate("document.contentType + ' ' + document.title")
        assert kind.startswith("text/plain") and "ran" not in kind, f"a text stub was rendered as a page: {kind}"
        # The user at the address bar still reads the journal, and curl does.
        browser.open(server.base + "/__stubd/requests")
        assert "/login" in browser.evaluate("document.body.textContent"), "a typed address lost the journal"
    finally:
        server.stop()


@check
def copy_as_curl_sends_exactly_the_journaled_request(browser):
    server = Server(lambda port: [{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}}])
    work = tempfile.mkdtemp(prefix="stubd-attacks-curl-")
    try:
        with open(os.path.join(work, "secret.txt"), "w") as file:
            file.write("TOP-SECRET-FILE-CONTENT")
        def request(head, body=b""):
            length = b"Content-Length: %d\r\n" % len(body) if body else b""
            return head + b"\r\nHost: 127.0.0.1\r\n" + length + b"Connection: close\r\n\r\n" + body
        hostile = [
            request(b"GET @evil.example/x HTTP/1.1"),
            request(b"GET //evil.example/x?a=1 HTTP/1.1"),
            request(b"POST /upload HTTP/1.1\r\nContent-Type: text/plain", b"@secret.txt"),
            request(b"POST /quote HTTP/1.1", b"'; touch pwned; '"),
            request(b"PUT /bin HTTP/1.1\r\nContent-Type: application/octet-stream", b"\x00\xff@a"),
        ]
        for raw in hostile:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
                connection.sendall(raw)
                while connection.recv(65536):
                    pass
        browser.open(server.base + "/__stubd/ui")
        browser.wait("document.querySelector('#status').textContent === 'live'", "the event stream")
        # A page's own request, with a browser's headers, copied readable: the noise goes, the
        # URL comes first, and it replays to the same method, target and headers of its own.
        browser.evaluate(f"fetch({js(server.base + '/zen?from=page')}, {{headers: {{'X-Client': 'web'}}}}).then(r => r.status)")
        entry = next(e for e in server.admin("requests")["requests"] if e["url"] == "/zen?from=page")
        readable = browser.evaluate(f"curl({js(entry)}, false)")
        assert readable.startswith(f"curl '{server.base}/zen?from=page'") and "-H 'X-Client: web'" in readable \
            and not any(noise in readable.lower() for noise in ["sec-fetch", "sec-ch-ua", "user-agent", "accept-language"]), readable
        subprocess.run(["bash", "-c", readable + " -s -o /dev/null"], cwd=work, capture_output=True, timeout=20)
        again = server.admin("requests")["requests"][-1]
        assert again["url"] == "/zen?from=page" and again["method"] == "GET" and ["X-Client", "web"] in again["headers"], again
        journaled = [e for e in server.admin("requests")["requests"] if e["url"] in ("@evil.example/x", "//evil.example/x?a=1", "/upload", "/quote", "/bin")]
        assert len(journaled) == 5, journaled
        checked = 0
        for entry, exact in [(entry, exact) for entry in journaled for exact in (True, False)]:
            command = browser.evaluate(f"curl({js(entry)}, {'true' if exact else 'false'})")
            last = server.admin("requests")["requests"][-1]["sequence"]
            subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, timeout=20)
            assert not os.path.exists(os.path.join(work, "pwned")), f"the command ran a second command: {command}"
            # Exactly one request reached stubd (the browser's own, like /favicon.ico, aside).
            new = [e for e in server.admin("requests")["requests"] if e["sequence"] > last and e["url"] != "/favicon.ico"]
            assert len(new) == 1, f"{len(new)} requests for {command}"
            replayed = new[0]
            for field in ["method", "url", "bodySize"]:
                assert replayed[field] == entry[field], f"{field}: {replayed[field]!r} != {entry[field]!r} for {command}"
            assert replayed.get("body") == entry.get("body") and replayed.get("bodyBase64") == entry.get("bodyBase64"), command
            sent = {name.lower(): value for name, value in replayed["headers"]}
            original = {name.lower(): value for name, value in entry["headers"]}
            assert sent.get("host") == f"127.0.0.1:{server.port}", f"sent elsewhere: {sent.get('host')} by {command}"
            for name in ["content-type", "user-agent", "accept"] if exact else ["content-type"]:
                assert sent.get(name) == original.get(name), f"{name}: {sent.get(name)!r} != {original.get(name)!r} by {command}"
            assert b"TOP-SECRET" not in json.dumps(replayed).encode(), f"a file was uploaded by {command}"
            checked += 1
        print(f"  {checked // 2} hostile journal entries copied as cURL, exact and readable, each replayed to stubd's origin only")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        server.stop()


@check
def a_page_cannot_kill_or_starve_stubd(browser):
    server = Server(lambda port: [
        {"request": {"method": "GET", "path": "/page.html"}, "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>p</title>"}},
        {"request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
        {"request": {"method": "POST", "path": "/graphql", "graphql": "Q"}, "response": {"json": {"data": {}}}},
        {"request": {"method": "GET", "path": "/ws"}, "websocket": {"onOpen": [{"send": {"text": "hello"}}]}},
    ], "--workers", "1", nofile=256)
    try:
        browser.open(f"http://localhost:{server.port}/page.html")
        ranged = browser.evaluate(f"fetch({js(server.base + '/zen')}, {{headers: {{Range: 'bytes=0-9223372036854775807'}}}})"
                                  ".then(r => r.status + ' ' + r.headers.get('content-range'), e => 'failed ' + e)")
        assert server.process.poll() is None, f"a page's Range killed stubd ({ranged})"
        deep = "query Q " + "{ a " * 25000 + "}" * 25000
        sent = browser.evaluate(f"fetch({js(server.base + '/graphql')}, {{method: 'POST', mode: 'no-cors', headers: {{'Content-Type': 'text/plain'}}, "
                                f"body: JSON.stringify({{query: {js(deep)}}})}}).then(r => 'sent', e => 'failed ' + e)")
        assert server.process.poll() is None, f"a page's deep GraphQL body killed stubd ({sent})"
        opened = browser.evaluate(f"""new Promise(done => {{
            window.held = []; let open = 0, settled = 0;
            for (let i = 0; i < 250; i++) {{
                const ws = new WebSocket({js(server.base.replace('http', 'ws') + '/ws')});
                ws.onmessage = () => {{ open++; if (++settled === 250) done(open); }};
                ws.onerror = () => {{ if (++settled === 250) done(open); }};
                window.held.push(ws);
            }}
            setTimeout(() => done(open), 8000);
        }})""")
        gets = answered_within(server.base + "/zen", 200)
        admin = answered_within(server.base + "/__stubd/health", 50)
        assert server.process.poll() is None, "stubd died under the page's WebSockets"
        assert gets >= 198 and admin >= 50, f"with {opened} WebSockets from a page: {gets}/200 GETs, {admin}/50 admin calls within 1 s"
        print(f"  a page's Range of 2^63-1: {ranged}; its 25,000-deep GraphQL body: {sent}; with {opened} of its WebSockets held "
              f"(ulimit -n 256): {gets}/200 GETs and {admin}/50 admin calls answered within 1 s")
    finally:
        server.stop()


def main():
    if not os.path.exists(STUBD):
        sys.exit(f"test-ui: {STUBD} is missing; build it first (swift build --product stubd)")
    browser = cdp.Browser()
    failures = 0
    try:
        for function in CHECKS:
            started = time.monotonic()
            try:
                function(browser)
                print(f"ok   {function.__name__} ({time.monotonic() - started:.1f} s)")
            except Exception:
                failures += 1
                print(f"FAIL {function.__name__}")
                traceback.print_exc()
    finally:
        browser.close()
    print(f"test-ui: {len(CHECKS) - failures} of {len(CHECKS)} page attacks refused")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
