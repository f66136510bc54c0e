#!/usr/bin/env python3
"""Figures under hostile clients (issues 21 and 30), printed, not asserted (make hostile). Each row
runs against the stubd under test and, when a second binary is given, against that baseline in the
same run (make hostile builds the baseline from BASELINE=<commit> when set), one after the other.

Rows:
  bodies     RSS after 16 POSTs declaring and sending 50 MiB bodies (answered 413)
  miss       a 30 MB JSON miss: its time, its 404's size, and how long a GET on the same worker waited
  flood      an unpaced connect-and-close flood under `ulimit -n 256` (1 and 2 processes): the flood's
             rate, and how many of 200 normal requests were answered within 1 s
  tls-idle   400 idle connections on the HTTPS port, and an idle-reopen flood (clients that reconnect
             as soon as they are closed): HTTP and HTTPS requests answered within 1 s
  admin      a batch of 20,000 runtime routes, how long a GET on the same worker waited meanwhile, and
             one route added beside 22,000
  saved      a saved value of 65,536 graphemes (each `a` + 200 combining marks): status, time, RSS
  sessions   3,000 sessions saving 64 KiB each: statuses and RSS growth
  items      1 MB collection items in one session: how many were kept, listing them, and a GET on
             the same worker meanwhile
  template   a 30 MB body echoed 8 times by a text template: status, reply size, RSS; four at once: peak RSS
  webhooks   a request carrying X-Stubd-Webhook-Depth: -1000 to a route whose webhook calls itself
  numbers    Range, Content-Length with Expect and substring positions at their numeric edges (2^63−1, 2^63, +5, NaN)
  nesting    GraphQL nested 25,000 deep (selections, inline fragments, fragment chains), 2^40 fields by fan-out, 200,000
             flat fields; JSON objects of 200,000 keys on exact, partial, jsonPath and template routes; JSON 10^6 deep
  helpers    replace with the request body as replacement, a 64-byte replacement on 30 MB, a catastrophic regex
  held       250 held WebSockets, then 250 held event-stream readers, under ulimit -n 256: normal GETs and admin calls
  streams    40 clients that never read a 16 MB stream: RSS
  wsmessage  a WebSocket message of 50,000 JSON keys (1 MB) matched by a JSON path
  loading    `stubd check` of 1k/2k/4k/8k routes on one method and path, told apart by host, header, JSON body or GraphQL
             operation: seconds each, so the growth is visible (linear: about twice per doubling)
  http2      the HTTP/2 attacks of Tests/hostile/http2_test.py (rapid reset, CONTINUATION, SETTINGS and PING floods, 500
             streams, zero windows, an oversized frame, two after an h2c upgrade, a stream under a shut window): per
             attack the slowest normal GET on another connection and the RSS
  (each survivor row: alive, answer, time, a normal GET's wait on the same loop, peak RSS)

Usage: bench/hostile.py path/to/stubd [path/to/baseline-stubd] [row …]
"""
import json, os, re, resource, shutil, socket, ssl, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

ROUTES = {"routes": [
    {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
    {"name": "save", "request": {"method": "POST", "path": "/save"}, "response": {"status": 204}, "save": {"token": "{{request.body}}"}},
    {"name": "echo8", "request": {"method": "POST", "path": "/echo8"},
     "response": {"text": "{{request.body}}" * 8, "template": True}},
    {"name": "loop", "request": {"method": "POST", "path": "/loop"}, "response": {"status": 200},
     "webhooks": [{"url": "http://{{request.headers.Host}}/loop"}]},
    {"name": "blob", "request": {"method": "GET", "path": "/blob"}, "response": {"text": "0123456789" * 100}},
    {"name": "graphql", "request": {"method": "POST", "path": "/graphql", "graphql": "Q"}, "response": {"json": {"data": {}}}},
    {"name": "exact", "request": {"method": "POST", "path": "/exact", "body": {"json": {"a": 1}}}, "response": {"text": "exact"}},
    {"name": "partial", "request": {"method": "POST", "path": "/partial", "body": {"json": {"a": 1}, "ignoreExtraElements": True}}, "response": {"text": "partial"}},
    {"name": "tjson", "request": {"method": "POST", "path": "/tjson"}, "response": {"template": True, "text": "{{jsonPath request.body '$.k1'}}"}},
    {"name": "substring", "request": {"method": "POST", "path": "/substring"},
     "response": {"template": True, "text": "{{substring 'abcdef' request.headers.a request.headers.b}}"}},
    {"name": "replace", "request": {"method": "POST", "path": "/replace"},
     "response": {"template": True, "text": "{{replace request.body 'a' request.body}}"}},
    {"name": "replace64", "request": {"method": "POST", "path": "/replace64"},
     "response": {"template": True, "text": "{{replace request.body 'a' '" + "b" * 64 + "'}}"}},
    {"name": "regex", "request": {"method": "POST", "path": "/regex", "body": {"matches": "(a+)+$"}}, "response": {"text": "regex"}},
    {"name": "ws", "request": {"method": "GET", "path": "/ws"}, "websocket": {"replies": [{"match": "any", "then": [{"send": {"text": "ok"}}]}]}},
    {"name": "json-ws", "request": {"method": "GET", "path": "/json-ws"},
     "websocket": {"replies": [{"match": {"jsonPath": "$.k1"}, "then": [{"send": {"text": "wide"}}]}]}},
    {"name": "sse", "request": {"method": "GET", "path": "/sse"},
     "stream": {"events": [{"data": "first"}, {"data": "late", "delay": 600}]}},
    {"name": "bigstream", "request": {"method": "GET", "path": "/bigstream"},
     "stream": {"events": [{"data": "x" * 65536} for _ in range(256)]}},
], "collections": [{"name": "todos", "path": "/todos"}]}


def fixtures():
    folder = tempfile.mkdtemp(prefix="stubd-hostile-")
    with open(os.path.join(folder, "hostile.json"), "w") as file:
        json.dump(ROUTES, file)
    return folder


class Server:
    def __init__(self, binary, *extra, nofile=None, https=False):
        self.folder = fixtures()
        self.ca = tempfile.mkdtemp(prefix="stubd-hostile-ca-") if https else None

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        arguments = [binary, "serve", self.folder, "--port", "0", "--workers", "1", "--quiet", *extra]
        if https:
            arguments += ["--https-port", "0", "--ca-dir", self.ca]
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=limit)
        self.ports = {}
        for line in self.process.stdout:
            for scheme in ("http", "https"):
                marker = f" {scheme}://127.0.0.1:"
                if marker in line and scheme not in self.ports:
                    self.ports[scheme] = int(line.split(marker)[1].split("/")[0].split()[0])
            if "http" in self.ports and (not https or "https" in self.ports):
                break
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()
        self.port = self.ports["http"]
        self.base = f"http://127.0.0.1:{self.port}"

    def rss(self, field="VmRSS"):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith(field):
                return int(line.split()[1]) / 1024

    def call(self, path, data=None, headers=None, timeout=120):
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def stop(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.ca:
            shutil.rmtree(self.ca, ignore_errors=True)


def timed_get(server, path, waited, delay=0.05):
    time.sleep(delay)
    started = time.time()
    try:
        server.call(path)
        waited.append(time.time() - started)
    except OSError:
        pass  # the server died: the row says so


def bodies(binary):
    server = Server(binary)
    try:
        before = server.rss()
        chunk = b"a" * 65536
        for _ in range(16):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (50 << 20))
            sent = 0
            try:
                while sent < (50 << 20):
                    s.sendall(chunk)
                    sent += len(chunk)
                s.settimeout(5)
                s.recv(12)
            except OSError:
                pass
            finally:
                s.close()
        time.sleep(0.5)
        fds = len(os.listdir(f"/proc/{server.process.pid}/fd"))
        return f"413 x16 (50 MiB each): RSS {before:.1f} -> {server.rss():.1f} MB, {fds} descriptors open after"
    finally:
        server.stop()


def miss(binary):
    server = Server(binary)
    try:
        items = [{"id": i, "name": f"user{i}", "password": f"p{i}", "tags": ["a", "b", "c"]} for i in range(350000)]
        body = json.dumps({"items": items}).encode()
        waited = []
        thread = threading.Thread(target=timed_get, args=(server, "/zen", waited))
        thread.start()
        started = time.time()
        status, reply = server.call("/nowhere", body, {"Content-Type": "application/json"})
        took = time.time() - started
        thread.join()
        return f"{len(body) / 1e6:.1f} MB JSON miss: {took * 1000:.0f} ms, {status} of {len(reply)} bytes; a GET on the same worker waited {waited[0] * 1000:.0f} ms"
    finally:
        server.stop()


def answered(url, count, context=None):
    good = 0
    for _ in range(count):
        try:
            urllib.request.urlopen(url, timeout=1, context=context).read()
            good += 1
        except Exception:
            pass
    return good


def connect_and_close(port, stop, counter):
    """One flooding process: connect, close, again, as fast as it can (a process, not a thread, so
    two of them load this 2-core machine as a real flood would)."""
    made = 0
    while not stop.is_set():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            made += 1
        except OSError:
            pass
        if made == 100:
            with counter.get_lock():
                counter.value += made
            made = 0


def flood(binary):
    import multiprocessing
    rows = []
    for processes in (1, 2):
        server = Server(binary, nofile=256)
        try:
            stop, counter = multiprocessing.Event(), multiprocessing.Value("i", 0)
            floods = [multiprocessing.Process(target=connect_and_close, args=(server.port, stop, counter)) for _ in range(processes)]
            for process in floods:
                process.start()
            time.sleep(0.5)
            start, before = time.time(), counter.value
            good = answered(server.base + "/zen", 200)
            rate = (counter.value - before) / (time.time() - start)
            stop.set()
            for process in floods:
                process.join()
            rows.append(f"{processes} process{'es' if processes > 1 else ''} at {rate:,.0f} connections/s: {good} of 200 answered within 1 s")
        finally:
            server.stop()
    return "connect-and-close flood (ulimit -n 256): " + "; ".join(rows)


def tls_idle(binary):
    server = Server(binary, nofile=256, https=True)
    try:
        context = ssl.create_default_context(cafile=os.path.join(server.ca, "stubd-ca.pem"))
        https = f"https://127.0.0.1:{server.ports['https']}/zen"
        idle = []
        for _ in range(400):
            try:
                idle.append(socket.create_connection(("127.0.0.1", server.ports["https"]), timeout=1))
            except OSError:
                pass
        held = (answered(server.base + "/zen", 60), answered(https, 60, context))
        for sock in idle:
            sock.close()
        # Clients that reconnect as soon as they are closed, holding the connection idle meanwhile.
        stop = threading.Event()
        reopened = [0]

        def reopen():
            while not stop.is_set():
                try:
                    with socket.create_connection(("127.0.0.1", server.ports["https"]), timeout=1) as sock:
                        reopened[0] += 1
                        sock.settimeout(2)
                        sock.recv(1)
                except OSError:
                    pass

        threads = [threading.Thread(target=reopen, daemon=True) for _ in range(300)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        start, before = time.time(), reopened[0]
        flooded = (answered(server.base + "/zen", 100), answered(https, 100, context))
        rate = (reopened[0] - before) / (time.time() - start)
        stop.set()
        for thread in threads:
            thread.join()
        return (f"HTTPS port, ulimit -n 256: 400 idle connections: {held[0]}/60 HTTP, {held[1]}/60 HTTPS answered within 1 s; "
                f"300 clients reopening idle connections ({rate:,.0f}/s): {flooded[0]}/100 HTTP, {flooded[1]}/100 HTTPS")
    finally:
        server.stop()


def admin(binary):
    server = Server(binary)
    try:
        def post(routes):
            started = time.time()
            server.call("/__stubd/routes", json.dumps({"routes": routes}).encode(), {"Content-Type": "application/json"})
            return time.time() - started

        waited = []
        batch = [{"request": {"method": "GET", "path": f"/batch/{i}"}, "response": {"text": str(i)}} for i in range(20000)]
        thread = threading.Thread(target=timed_get, args=(server, "/zen", waited, 0.3))
        thread.start()
        took = post(batch)
        thread.join()
        post([{"request": {"method": "GET", "path": f"/more/{i}"}, "response": {"text": "m"}} for i in range(2000)])
        singles = sorted(post([{"request": {"method": "GET", "path": f"/single/{i}"}, "response": {"text": "s"}}]) for i in range(100))
        return (f"a batch of 20,000 routes: {took * 1000:.0f} ms, a GET on the same worker meanwhile waited {waited[0] * 1000:.1f} ms; "
                f"one route added beside 22,000: median {singles[50] * 1000:.1f} ms, max {singles[-1] * 1000:.1f} ms")
    finally:
        server.stop()


def saved(binary):
    server = Server(binary)
    try:
        heavy = ("a" + "\u0301" * 200) * 65536
        before = server.rss()
        started = time.time()
        status, reply = server.call("/save", heavy.encode(), {"X-Stubd-Session": "s"})
        took = time.time() - started
        return (f"a saved value of 65,536 graphemes ({len(heavy.encode()) / 1e6:.1f} MB of UTF-8): {status} in {took * 1000:.0f} ms, "
                f"RSS +{server.rss() - before:.0f} MB")
    finally:
        server.stop()


def sessions(binary):
    server = Server(binary)
    try:
        value = b"v" * 65536
        before = server.rss()
        statuses = {}
        for index in range(3000):
            status, _ = server.call("/save", value, {"X-Stubd-Session": f"s{index}"})
            statuses[status] = statuses.get(status, 0) + 1
        return f"3,000 sessions saving 64 KiB each: {statuses}, RSS +{server.rss() - before:.0f} MB"
    finally:
        server.stop()


def items(binary):
    server = Server(binary)
    try:
        item = json.dumps({"blob": "x" * 1_000_000}).encode()
        before = server.rss()
        kept = 0
        for _ in range(300):
            status, _ = server.call("/todos", item, {"X-Stubd-Session": "s", "Content-Type": "application/json"})
            kept += status == 201
        waited = []
        thread = threading.Thread(target=timed_get, args=(server, "/zen", waited, 0.01))
        thread.start()
        started = time.time()
        status, listed = server.call("/todos", headers={"X-Stubd-Session": "s"})
        took = time.time() - started
        thread.join()
        return (f"300 collection items of 1 MB: {kept} kept, RSS +{server.rss() - before:.0f} MB; listing them: {took * 1000:.0f} ms "
                f"({len(listed) / 1e6:.0f} MB), a GET on the same worker waited {waited[0] * 1000:.0f} ms")
    finally:
        server.stop()


def template(binary):
    server = Server(binary)
    try:
        body = b"a" * 30_000_000
        started = time.time()
        status, reply = server.call("/echo8", body)
        took = time.time() - started
        results = []
        threads = [threading.Thread(target=lambda: results.append(server.call("/echo8", body)[0])) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(0.5)
        return (f"a 30 MB body echoed 8x: {status} ({len(reply) / 1e6:.1f} MB) in {took * 1000:.0f} ms; four at once: {sorted(results)}, "
                f"peak RSS {server.rss('VmHWM'):.0f} MB, {server.rss():.0f} MB kept")
    finally:
        server.stop()


def webhooks(binary):
    server = Server(binary, "--webhook-allow", "127.0.0.1") if supports(binary, "--webhook-allow") else Server(binary)
    try:
        server.call("/loop", b"", {"X-Stubd-Webhook-Depth": "-1000"})
        last, stable = -1, time.time()
        deadline = time.time() + 5
        while time.time() < deadline:
            count = json.loads(server.call("/__stubd/requests/count?path=/loop")[1])["count"]
            if count != last:
                last, stable = count, time.time()
            elif time.time() - stable > 1:
                break
            time.sleep(0.1)
        return f"X-Stubd-Webhook-Depth: -1000 on a self-calling route: {last} requests reached it within 5 s"
    finally:
        server.stop()


def survivor(binary, label, send):
    """Sends one hostile request to a fresh server (send(server) returns a status or raises) while a
    normal GET waits on the same loop; prints whether the server lived, the answer, its time, the
    GET's wait, peak RSS."""
    server = Server(binary)
    try:
        return attack(server, label, lambda: send(server))
    finally:
        server.stop()


def attack(server, label, send):
    waited = []
    thread = threading.Thread(target=timed_get, args=(server, "/zen", waited, 0.02))
    thread.start()
    started = time.time()
    try:
        answer = send()
    except Exception as error:
        answer = type(error).__name__
    took = time.time() - started
    thread.join()
    time.sleep(0.05)
    peak = server.rss('VmHWM') if server.process.poll() is None else None
    alive = server.process.poll() is None and peak is not None
    if not alive:
        server.process.wait()
        return f"{label}: DEAD (exit {server.process.returncode}) after {took * 1000:.0f} ms"
    return (f"{label}: alive, {answer} in {took * 1000:.0f} ms, GET waited {waited[0] * 1000 if waited else float('nan'):.0f} ms, "
            f"peak RSS {peak:.0f} MB")


def raw(server, head, body=b"", read=65536, timeout=10):
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(head + body)
        data = b""
        try:
            while len(data) < read:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data and not head.startswith(b"HEAD"):
                    break
        except socket.timeout:
            return "no answer"
        return data.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"


def numbers(binary):
    """Numbers at their edges from the wire and from template values (Range, Content-Length with
    Expect, substring positions)."""
    rows = []
    for value in ["0-9223372036854775807", "9223372036854775807-", "-9223372036854775808", "0-99999999999999999999999", "+0-5"]:
        for method in ("GET", "HEAD"):
            rows.append(survivor(binary, f"{method} Range: bytes={value}", lambda server: raw(
                server, f"{method} /blob HTTP/1.1\r\nHost: x\r\nRange: bytes={value}\r\nConnection: close\r\n\r\n".encode())))
    for length in ["9223372036854775808", "+5", "99999999999999999999999"]:
        rows.append(survivor(binary, f"Expect with Content-Length: {length}", lambda server: raw(
            server, f"POST /zen HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\nExpect: 100-continue\r\n\r\n".encode(), timeout=5)))
    for a, b in [("1e30", "2"), ("0", "9223372036854775807"), ("NaN", "-1e300")]:
        rows.append(survivor(binary, f"substring {a} {b}", lambda server: server.call("/substring", b"", {"a": a, "b": b})[0]))
    return "\n  ".join([""] + rows)


def nesting(binary):
    """Deep and wide documents: GraphQL selections, inline fragments, fragment chains and fan-out,
    flat fields; JSON objects with many keys on exact, partial, jsonPath and template routes; a
    deep JSON array; to the GraphQL route and to a path no route has (the near miss reads them)."""
    rows = []
    def gql(path, query):
        return lambda server: server.call(path, json.dumps({"query": query}).encode(), {"Content-Type": "text/plain"})[0]
    deep = "query Q " + "{ a " * 25000 + "}" * 25000
    inline = "query Q { a " + "{ ... on T " * 25000 + "}" * 25001
    chain = "query Q { ...F0 }\n" + "\n".join(f"fragment F{i} on T {{ f{i} ...F{i + 1} }}" for i in range(20000))
    fan = "query Q { ...F0 }\n" + "\n".join(f"fragment F{i} on T {{ x {{ ...F{i + 1} }} y {{ ...F{i + 1} }} }}" for i in range(40)) + "\nfragment F40 on T { leaf }"
    flat = "query Q { " + " ".join(f"f{i}" for i in range(200000)) + " }"
    for label, query in [("25,000-deep selections", deep), ("25,000-deep inline fragments", inline), ("20,000-fragment chain", chain),
                         ("2^40 fields by fan-out", fan), ("200,000 flat fields", flat)]:
        for path in ("/graphql", "/nowhere"):
            rows.append(survivor(binary, f"GraphQL {label} to {path}", gql(path, query)))
    keys = ("{" + ",".join(f'"k{i}": {i}' for i in range(200000)) + "}").encode()
    for path in ("/exact", "/partial", "/tjson", "/nowhere"):
        rows.append(survivor(binary, f"200,000-key JSON object to {path}", lambda server: server.call(path, keys, {"Content-Type": "text/plain"})[0]))
    deep_json = b"[" * 1000000 + b"]" * 1000000
    rows.append(survivor(binary, "JSON nested 1,000,000 deep to /exact", lambda server: server.call("/exact", deep_json, {"Content-Type": "application/json"})[0]))
    return "\n  ".join([""] + rows)


def helpers(binary):
    """Template helpers that grow their output from request values, and a catastrophic regex."""
    rows = []
    for size in (100_000, 1_000_000):
        body = b"a" * size
        rows.append(survivor(binary, f"replace with the body as replacement ({size:,} B)", lambda server: server.call("/replace", body)[0]))
    big = b"a" * 30_000_000
    rows.append(survivor(binary, "replace with 64 bytes on a 30 MB body", lambda server: server.call("/replace64", big)[0]))
    evil = b"a" * 40 + b"!"
    rows.append(survivor(binary, "regex (a+)+$ on 40 a's and !", lambda server: server.call("/regex", evil)[0]))
    return "\n  ".join([""] + rows)


def wsmessage(binary):
    """A WebSocket message of 50,000 JSON keys (1 MB) to a route whose reply matches a JSON path."""
    import asyncio
    import websockets

    def send(server):
        async def talk():
            wide = "{" + ",".join(f'"k{i}": {i}' for i in range(50000)) + "}"
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/json-ws", ping_interval=None, max_size=None) as ws:
                await ws.send(wide)
                return await asyncio.wait_for(ws.recv(), 60)
        return asyncio.run(talk())
    return survivor(binary, "a 50,000-key WebSocket message", send)


def held(binary):
    """250 held WebSockets, then 250 held event-stream readers, under ulimit -n 256: how many of 100
    normal GETs (and 20 admin calls) are answered within 1 s."""
    import base64
    rows = []
    for kind in ("websockets", "event streams"):
        server = Server(binary, nofile=256)
        sockets = []
        try:
            for index in range(250):
                try:
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
                    if kind == "websockets":
                        key = base64.b64encode(os.urandom(16)).decode()
                        sock.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
                    else:
                        sock.sendall(b"GET /sse HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                    sock.recv(1024)
                    sockets.append(sock)
                except OSError:
                    pass
            opened = len(sockets)
            good = answered(server.base + "/zen", 100)
            admin = answered(server.base + "/__stubd/health", 20)
            closed = 0
            for sock in sockets:
                sock.setblocking(False)
                try:
                    data = sock.recv(4096)
                    if data == b"" or (kind == "websockets" and data[:1] == b"\x88"):
                        closed += 1
                except BlockingIOError:
                    pass
                except OSError:
                    closed += 1
            rows.append(f"{opened} held {kind}: {good}/100 GETs and {admin}/20 admin calls answered within 1 s; {closed} held ones made room")
        finally:
            for sock in sockets:
                sock.close()
            server.stop()
    return "ulimit -n 256: " + "; ".join(rows)


def streams(binary):
    """Clients that open a 16 MB stream and never read: RSS after 40 of them."""
    server = Server(binary)
    sockets = []
    try:
        before = server.rss()
        for _ in range(40):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(b"GET /bigstream HTTP/1.1\r\nHost: x\r\n\r\n")
            sockets.append(sock)
        time.sleep(2)
        waited = []
        timed_get(server, "/zen", waited, 0)
        return (f"40 readers that never read a 16 MB stream: RSS {before:.0f} -> {server.rss():.0f} MB (peak {server.rss('VmHWM'):.0f}), "
                f"a GET meanwhile waited {waited[0] * 1000:.0f} ms")
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def loading(binary):
    """`stubd check` of N routes sharing one method and path, by what tells them apart."""
    shapes = {
        "hosts": lambda i: {"method": "GET", "path": "/v1/config", "host": f"h{i}.example.com"},
        "headers": lambda i: {"method": "GET", "path": "/v1/config", "headers": {"X-Variant": f"v{i}"}},
        "bodies": lambda i: {"method": "POST", "path": "/v1/search", "body": {"json": {"q": f"q{i}", "page": 1}}},
        "graphql": lambda i: {"method": "POST", "path": "/graphql", "graphql": {"operationName": f"Op{i}"}},
    }
    rows = []
    work = tempfile.mkdtemp(prefix="stubd-loading-")
    try:
        for name, request in shapes.items():
            times = []
            for count in [1000, 2000, 4000, 8000]:
                folder = os.path.join(work, f"{name}{count}")
                os.makedirs(folder)
                with open(os.path.join(folder, "routes.json"), "w") as file:
                    json.dump({"routes": [{"name": f"r{i}", "request": request(i), "response": {"json": {"i": i}}} for i in range(count)]}, file)
                started = time.monotonic()
                run = subprocess.run([binary, "check", folder], capture_output=True, text=True, timeout=600)
                times.append(f"{count // 1000}k {time.monotonic() - started:.2f} s" + ("" if run.returncode == 0 else " (exit %d)" % run.returncode))
            rows.append(f"{name}: " + ", ".join(times))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return "routes on one path, stubd check: " + "; ".join(rows)


def http2(binary):
    """The HTTP/2 attacks (Tests/hostile/http2_test.py, which make test judges): per attack, the
    slowest normal GET on another connection and the server's RSS while it ran."""
    if not supports(binary, "--http2"):
        return "no HTTP/2 in this build"
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "hostile", "http2_test.py")
    run = subprocess.run([sys.executable, script, binary], capture_output=True, text=True, timeout=600)
    rows = []
    for line in run.stdout.splitlines():
        found = re.match(r"(ok  |FAIL) (.+?)(?:: stubd lives| \(|: reset)", line)
        rss = re.search(r"RSS (\d+) MiB", line)
        if found and rss:
            slowest = re.search(r"slowest ([\d.]+) ms", line)
            rows.append(f"{found.group(2).split(' (')[0]}{'' if found.group(1) == 'ok  ' else ' FAILED'}: "
                        + (f"{float(slowest.group(1)):.0f} ms, " if slowest else "") + f"{rss.group(1)} MiB")
    return f"{len(rows)} rows (a normal GET's slowest wait, RSS): " + "; ".join(rows) + ("" if run.returncode == 0 else f" — exit {run.returncode}")


def supports(binary, flag):
    return flag in subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout


ROWS = {"bodies": bodies, "miss": miss, "flood": flood, "tls-idle": tls_idle, "admin": admin, "saved": saved,
        "sessions": sessions, "items": items, "template": template, "webhooks": webhooks, "numbers": numbers, "nesting": nesting,
        "helpers": helpers, "held": held, "streams": streams, "wsmessage": wsmessage, "loading": loading, "http2": http2}


if __name__ == "__main__":
    arguments = sys.argv[1:]
    binaries = [a for a in arguments if os.path.sep in a or os.path.exists(a)][:2] or [".build/release/stubd"]
    chosen = [a for a in arguments if a in ROWS] or list(ROWS)
    names = ["this build", "baseline"]
    for row in chosen:
        for index, binary in enumerate(binaries):
            try:
                print(f"{row:9} {names[index]:10} {ROWS[row](binary)}", flush=True)
            except Exception as error:
                print(f"{row:9} {names[index]:10} failed: {error!r}", flush=True)
