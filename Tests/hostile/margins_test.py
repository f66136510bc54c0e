"""make test: the margins of issue 58, each over real sockets with the figure it prints
(docs/SECURITY.md's table quotes them):

- a templated stream reading a 60 KB query, for 40 clients that never read, is rendered off the
  loop: a normal GET on the same (only) loop waits less than 100 ms;
- `--proxy-unrouted record` relays a 200 MB chunked answer as it arrives, keeps at most
  `--record-max-body`, writes nothing for it and says so in the journal; RSS stays bounded;
- `stubd mcp` drops a 200 MB line as it arrives (never holding it) and refuses a fixture file over
  32 MiB by its size before reading it;
- SIGTERM drains: no new connection is taken, 300 answers in a 3 s delay all arrive, a WebSocket
  gets close 1001, then the process exits 0;
- a symbolic-link loop in a `--watch` folder is named once, not followed thousands of times;
- a path with CR LF is refused by the admin API and by `stubd mcp`'s `stub_request`;
- GraphQL batches of 1,000 and 100,000 operations answer 400 (more than 32);
- an upstream answer with two different Content-Lengths is a 502, forwarded or passed by the proxy;
- `"host": "*.x.test"` is refused at load with the fix;
- a Content-Length of 2^63 or more is answered 400 at once.

    python3 Tests/hostile/margins_test.py .build/debug/stubd
"""
import asyncio
import base64
import http.server
import json
import os
import re
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import websockets

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def write(folder, routes, name="routes.json"):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as file:
        json.dump({"routes": routes}, file)
    return folder


class Server:
    """`stubd serve` on one loop; the ports from its banner."""

    def __init__(self, folder, *extra, quiet=True):
        self.process = subprocess.Popen([BINARY, "serve", folder, "--port", "0", "--workers", "1", *(["--quiet"] if quiet else []), *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stubd did not start: " + "".join(self.lines))
            self.lines.append(line)
            if "from" in line and (match := re.search(r"on http://127\.0\.0\.1:(\d+)", line)):
                self.port = int(match.group(1))
            if "proxy on http://127.0.0.1:" in line:
                self.proxy = int(line.split("proxy on http://127.0.0.1:", 1)[1].split(":", 1)[0])
            if "dashboard:" in line or (quiet and hasattr(self, "port") and "--proxy-port" not in extra):
                break
        self.base = f"http://127.0.0.1:{self.port}"
        self.rest = []
        self.reader = threading.Thread(target=lambda: [self.rest.append(line) for line in self.process.stdout], daemon=True)
        self.reader.start()

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(next(line for line in status if line.startswith("VmHWM")).split()[1]) / 1024

    def stop(self):
        self.process.kill()
        self.process.wait()


def get(url, timeout=10, headers=None, data=None, method=None):
    request = urllib.request.Request(url, headers=headers or {}, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def worst_get(url, count=20):
    worst = 0
    for _ in range(count):
        started = time.monotonic()
        get(url)
        worst = max(worst, time.monotonic() - started)
    return worst


def templated_stream(work):
    folder = write(os.path.join(work, "stream"), [
        {"request": {"method": "GET", "path": "/zen"}, "response": {"text": "ok"}},
        {"request": {"method": "GET", "path": "/echo"}, "stream": {"template": True, "events": [
            {"data": "{{request.query.q}}"} for _ in range(4)]}}])
    server = Server(folder)
    try:
        query = "q=" + "a" * 60_000
        held, sending = [], threading.Event()

        def senders():
            for _ in range(40):
                sock = socket.create_connection(("127.0.0.1", server.port))
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.sendall(f"GET /echo?{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                held.append(sock)
            sending.set()

        thread = threading.Thread(target=senders)
        thread.start()
        worst, count = 0.0, 0
        ends = None
        while ends is None or time.monotonic() < ends:
            started = time.monotonic()
            get(server.base + "/zen")
            worst = max(worst, time.monotonic() - started)
            count += 1
            if ends is None and sending.is_set():
                ends = time.monotonic() + 1
        thread.join()
        check(worst < 0.1, f"40 clients that never read a templated stream of a 60 KB query: {count} normal GETs meanwhile, "
                           f"the slowest answered in {worst * 1000:.0f} ms")
        for sock in held:
            sock.close()
    finally:
        server.stop()


class Big(http.server.BaseHTTPRequestHandler):
    """An upstream: /big is 200 MB chunked; /two-lengths answers with two different Content-Lengths."""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path == "/two-lengths":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\nConnection: close\r\n\r\nhello")
            return
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        piece = b"x" * (1 << 20)
        head = b"%x\r\n" % len(piece)
        try:
            for _ in range(200):
                self.wfile.write(head + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass

    def log_message(self, *arguments):
        pass


def proxy_get(proxy_port, url):
    """GET `url` through stubd's proxy (absolute form), reading and dropping the body; (status, bytes)."""
    with socket.create_connection(("127.0.0.1", proxy_port), timeout=60) as sock:
        host = url.split("/")[2]
        sock.sendall(f"GET {url} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data, total = b"", 0
        while chunk := sock.recv(1 << 20):
            if len(data) < 4096:
                data += chunk
            total += len(chunk)
    return int(data.split(b" ", 2)[1]), total


def recording(work, upstream_port):
    out = os.path.join(work, "recorded")
    folder = write(os.path.join(work, "rec"), [{"request": {"method": "GET", "path": "/zen", "host": "api.example.com"}, "response": {"text": "ok"}}])
    server = Server(folder, "--proxy-port", "0", "--proxy-unrouted", "record", "--record", out, "--record-max-body", str(8 << 20),
                    "--resolve", f"big.test:{upstream_port}:127.0.0.1", "--ca-dir", os.path.join(work, "ca"), quiet=False)
    try:
        before = server.rss_mb()
        status, total = proxy_get(server.proxy, f"http://big.test:{upstream_port}/big")
        after = server.rss_mb()
        check(status == 200 and total > 200 << 20, f"record relays a 200 MB chunked answer ({status}, {total >> 20} MiB read)")
        check(after - before < 100, f"…holding at most --record-max-body: peak RSS {before:.0f} → {after:.0f} MB")
        _, body = get(server.base + "/__stubd/requests")
        entries = json.loads(body)["requests"]
        check(any("not recorded" in json.dumps(entry) for entry in entries), "…and the journal says it was not recorded (over --record-max-body)")
        written = [name for _, _, names in os.walk(out) for name in names if not name.startswith(".")]
        sizes = [os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(out) for name in names]
        check(all(size <= 8 << 20 for size in sizes), f"…no file over the limit written ({written})")
        status, _ = proxy_get(server.proxy, f"http://big.test:{upstream_port}/two-lengths")
        check(status == 502, f"an upstream answer with two different Content-Lengths, through the proxy: {status}")
    finally:
        server.stop()
    forwarding = Server(write(os.path.join(work, "fwd"), []), "--proxy-unmatched", f"http://127.0.0.1:{upstream_port}")
    try:
        status, body = get(forwarding.base + "/two-lengths")
        check(status == 502 and b"Content-Length" in body, f"…and forwarded by --proxy-unmatched: {status} {body[:100]!r}")
    finally:
        forwarding.stop()


def mcp(work):
    fixtures = os.path.join(work, "mcp-fixtures")
    os.makedirs(fixtures)
    with open(os.path.join(fixtures, "huge.json"), "w") as file:
        file.write('{"routes": [' + ",".join(['{"request": {"method": "GET", "path": "/x"}, "response": {"text": "%s"}}' % ("y" * 1000)] * 40_000) + "]}")
    served = Server(write(os.path.join(work, "mcp-served"), []))
    process = subprocess.Popen([BINARY, "mcp", "--url", served.base, "--fixtures", fixtures], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        def send(message):
            process.stdin.write((json.dumps(message) + "\n").encode())
            process.stdin.flush()
            return json.loads(process.stdout.readline())
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}})
        line = b"x" * (1 << 20)
        for _ in range(200):
            process.stdin.write(line)
        process.stdin.write(b"\n")
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        with open(f"/proc/{process.pid}/status") as status:
            peak = int(next(l for l in status if l.startswith("VmHWM")).split()[1]) / 1024
        check(answer.get("error", {}).get("code") == -32600 and peak < 64, f"stubd mcp: a 200 MB line is refused (-32600) with a peak RSS of {peak:.0f} MB")
        opened = send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "open_session", "arguments": {}}})
        session = json.loads(opened["result"]["content"][0]["text"])["session"]
        called = send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "stub_fixture", "arguments": {"session": session, "file": "huge.json"}}})
        text = called["result"]["content"][0]["text"]
        with open(f"/proc/{process.pid}/status") as status:
            peak = int(next(l for l in status if l.startswith("VmHWM")).split()[1]) / 1024
        check(called["result"]["isError"] and "32 MiB" in text and peak < 64, f"…a 40 MB fixture file is refused by its size ({text[:80]!r}, peak RSS {peak:.0f} MB)")
        called = send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "stub_request",
                       "arguments": {"session": session, "method": "GET", "path": "/a\r\nSet-Cookie: x=1"}}})
        check(called["result"]["isError"] and "control character" in called["result"]["content"][0]["text"], "…and stub_request refuses a path with CR LF")
    finally:
        process.kill()
        process.wait()
        served.stop()


def paths_batches_hosts_lengths(work):
    folder = write(os.path.join(work, "misc"), [{"request": {"method": "POST", "path": "/graphql", "graphql": "Profile"}, "response": {"json": {"data": {}}}}])
    server = Server(folder)
    try:
        status, body = get(server.base + "/__stubd/routes", method="POST", headers={"Content-Type": "application/json"},
                           data=json.dumps({"request": {"method": "GET", "path": "/a\r\nb"}, "response": {"text": "x"}}).encode())
        check(status == 400 and b"control character" in body, f"the admin API refuses a path with CR LF ({status})")
        for count in [1_000, 100_000]:
            batch = json.dumps([{"query": "query Profile { me { id } }"}] * count).encode()
            started = time.monotonic()
            status, body = get(server.base + "/graphql", method="POST", headers={"Content-Type": "application/json"}, data=batch)
            check(status == 400 and b"at most 32" in body, f"a GraphQL batch of {count:,} operations: {status} in {time.monotonic() - started:.2f} s")
        for length in ["9223372036854775808", "99999999999999999999999"]:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
                started = time.monotonic()
                sock.sendall(f"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
                head = sock.recv(200)
            check(head.startswith(b"HTTP/1.1 400") and time.monotonic() - started < 1,
                  f"Content-Length {length} without Expect: {head[:12]!r} in {time.monotonic() - started:.3f} s")
    finally:
        server.stop()
    wildcard = write(os.path.join(work, "wildcard"), [{"request": {"method": "GET", "path": "/a", "host": "*.x.test"}, "response": {"text": "x"}}])
    run = subprocess.run([BINARY, "check", wildcard], capture_output=True, text=True, timeout=60)
    check(run.returncode == 1 and "host wildcards are not matched" in run.stderr + run.stdout,
          f"\"host\": \"*.x.test\" is refused at load with the fix (exit {run.returncode}: {(run.stderr + run.stdout).strip()[:120]})")


def drain(work):
    folder = write(os.path.join(work, "drain"), [
        {"request": {"method": "GET", "path": "/slow"}, "response": {"text": "late"}, "delay": 3},
        {"request": {"method": "GET", "path": "/ws"}, "websocket": {"replies": [{"match": "any", "then": [{"send": {"text": "ok"}}]}]}}])
    server = Server(folder)
    held = []
    for _ in range(300):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        held.append(sock)

    async def conversation(opened, closed):
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws") as socket_:
            await socket_.send("hi")
            await socket_.recv()
            opened.set()
            try:
                await socket_.recv()
            except websockets.ConnectionClosed as ending:
                closed.append(ending.rcvd.code if ending.rcvd else None)

    opened, closed = threading.Event(), []
    talker = threading.Thread(target=lambda: asyncio.run(conversation(opened, closed)))
    talker.start()
    opened.wait(5)
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    try:
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
        refused = False
    except OSError:
        refused = True
    answered = 0
    for sock in held:
        sock.settimeout(10)
        data = b""
        try:
            while b"late" not in data and (chunk := sock.recv(512)):
                data += chunk
        except OSError:
            pass
        answered += b"late" in data
        sock.close()
    code = server.process.wait(timeout=15)
    waited = time.monotonic() - started
    talker.join(5)
    check(refused, "SIGTERM: a new connection is refused at once while answers in flight finish")
    check(answered == 300, f"…all 300 answers in a 3 s delay arrive ({answered})")
    check(closed == [1001], f"…an open WebSocket gets close 1001 ({closed})")
    check(code == 0 and waited < 5, f"…then it exits {code} after {waited:.2f} s")


def watched_loop(work):
    folder = os.path.join(work, "watched")
    os.makedirs(os.path.join(folder, "sub"))
    for index in range(2000):
        with open(os.path.join(folder, "sub", f"f{index}.json"), "w") as file:
            json.dump({"routes": [{"request": {"method": "GET", "path": f"/r{index}"}, "response": {"text": "x"}}]}, file)
    server = Server(folder, "--watch", quiet=False)
    try:
        os.symlink("..", os.path.join(folder, "sub", "loop"))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any("not reloaded" in line for line in server.rest):
            time.sleep(0.1)
        time.sleep(2)  # and two seconds more: nothing else is logged for it
        lines = [line for line in server.rest if "loop" in line or "cannot be read" in line]
        check(0 < len(lines) <= 2 and "a loop" in lines[0], f"a link loop in a --watch folder of 2,000 files: {len(server.rest)} log lines ({lines[:1]})")
    finally:
        server.stop()


def main():
    work = tempfile.mkdtemp(prefix="stubd-margins-")
    upstream = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Big)
    upstream.daemon_threads = True
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        templated_stream(work)
        recording(work, upstream.server_address[1])
        mcp(work)
        paths_batches_hosts_lengths(work)
        drain(work)
        watched_loop(work)
    finally:
        upstream.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit("margins: FAILED: " + "; ".join(failures))
    print("margins: all passed")


main()
