"""make test: what a hostile client or page does to stubd's connections and numbers (issue 43), over
real sockets with real clients (Python's `websockets`, raw sockets, urllib):

- under `ulimit -n 256`, 250 held WebSockets, then 250 held event-stream readers, leave normal GETs
  and admin calls answered within 1 s (at least 99 %): held connections are in the connection budget
  and give way, the oldest idle first, a WebSocket with a close frame 1001;
- a WebSocket conversation has no idle timeout, also after the client's first message (it was
  closed by --idle-timeout without a close frame);
- a close code a client may not send (999, 1005, 5000) is answered 1002, not echoed;
- a WebSocket message of 60,000 JSON keys (answered off the loop) and the small ones right behind
  it are answered in the order they were sent;
- numbers at their edges from the wire (a Range end of 2^63−1 on GET and HEAD, Content-Length of
  2^63 with Expect) are answered, and the process lives.

    python3 Tests/hostile/connections_test.py .build/debug/stubd
"""
import asyncio
import base64
import json
import os
import re
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from stubd_server import answered_within  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"
failures = []

ROUTES = {"routes": [
    {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
    {"name": "blob", "request": {"method": "GET", "path": "/blob"}, "response": {"text": "0123456789" * 10}},
    {"name": "ws", "request": {"method": "GET", "path": "/ws"}, "websocket": {"replies": [{"match": "any", "then": [{"send": {"text": "ok"}}]}]}},
    {"name": "sse", "request": {"method": "GET", "path": "/sse"}, "stream": {"events": [{"data": "first"}, {"data": "late", "delay": 600}]}},
    {"name": "json-ws", "request": {"method": "GET", "path": "/json-ws"}, "websocket": {"replies": [
        {"match": {"jsonPath": "$.k59999"}, "then": [{"send": {"text": "wide"}}]},
        {"match": "any", "then": [{"send": {"text": "echo: {{request.body}}"}}]}], "template": True}},
]}


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


class Server:
    def __init__(self, folder, *extra, nofile=None):
        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.process = subprocess.Popen([BINARY, "serve", folder, "--port", "0", "--workers", "1", "--quiet", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=limit)
        for line in self.process.stdout:
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
        else:
            raise RuntimeError("stubd did not start")
        self.base = f"http://127.0.0.1:{self.port}"

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        self.process.kill()
        self.process.wait()


def masked(opcode, payload):
    key = os.urandom(4)
    head = bytes([0x80 | opcode, 0x80 | len(payload)]) + key
    return head + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def upgrade(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=2)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1024)
        if not chunk:
            raise OSError("closed during the upgrade")
        head += chunk
    return sock, head.split(b"\r\n\r\n", 1)[1]


def close_code(sock, already=b"", timeout=0.5):
    """The code of the first close frame the server sent on `sock`, None when none came."""
    sock.settimeout(timeout)
    data = already
    try:
        while True:
            while len(data) >= 2:
                length = data[1] & 0x7F
                if len(data) < 2 + length:
                    break
                if data[0] & 0x0F == 0x8:
                    return struct.unpack("!H", data[2:4])[0] if length >= 2 else 0
                data = data[2 + length:]
            chunk = sock.recv(4096)
            if not chunk:
                return None
            data += chunk
    except OSError:
        return None


def held(folder, kind):
    server = Server(folder, nofile=256)
    sockets = []
    try:
        for _ in range(250):
            try:
                if kind == "websockets":
                    sockets.append(upgrade(server.port))
                else:
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
                    sock.sendall(b"GET /sse HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                    sockets.append((sock, sock.recv(4096)))
            except OSError:
                pass
        good = answered_within(server.base + "/zen", 200)
        admin = answered_within(server.base + "/__stubd/health", 50)
        check(len(sockets) == 250, f"{kind}: 250 opened under ulimit -n 256 ({len(sockets)})")
        check(good >= 198, f"{kind}: {good}/200 normal GETs answered within 1 s")
        check(admin >= 50, f"{kind}: {admin}/50 admin calls answered within 1 s")
        if kind == "websockets":
            codes = [close_code(sock, rest, timeout=0.05) for sock, rest in sockets[:20]]
            check(codes.count(1001) >= 10, f"the oldest held WebSockets gave way with a close frame 1001 ({codes})")
        check(server.alive(), f"{kind}: stubd lives")
    finally:
        for sock, _ in sockets:
            sock.close()
        server.stop()


async def wide_then_small(port):
    wide = "{" + ",".join(f'"k{i}": {i}' for i in range(60000)) + "}"
    async with websockets.connect(f"ws://127.0.0.1:{port}/json-ws", ping_interval=None, max_size=None) as ws:
        await ws.send(wide)
        for index in range(3):
            await ws.send(f"small {index}")
        return [await asyncio.wait_for(ws.recv(), 10) for _ in range(4)]


async def idle_conversation(port):
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", ping_interval=None) as ws:
        await ws.send("first")
        first = await ws.recv()
        await asyncio.sleep(2.5)
        await ws.send("after an idle 2.5 s")
        return first, await asyncio.wait_for(ws.recv(), 2)


def main():
    folder = tempfile.mkdtemp(prefix="stubd-hostile-test-")
    try:
        with open(os.path.join(folder, "routes.json"), "w") as file:
            json.dump(ROUTES, file)
        held(folder, "websockets")
        held(folder, "event streams")

        server = Server(folder, "--idle-timeout", "1")
        try:
            try:
                replies = asyncio.run(idle_conversation(server.port))
            except Exception as error:
                replies = repr(error)
            check(replies == ("ok", "ok"), f"a conversation outlives --idle-timeout 1 after its first message ({replies})")
            try:
                replies = asyncio.run(wide_then_small(server.port))
            except Exception as error:
                replies = repr(error)
            check(replies == ["wide", "echo: small 0", "echo: small 1", "echo: small 2"],
                  f"a 60,000-key message and three small ones behind it are answered in order ({str(replies)[:80]})")
            for code in (999, 1005, 1006, 5000):
                sock, rest = upgrade(server.port)
                sock.sendall(masked(0x8, struct.pack("!H", code) + b"x"))
                answer = close_code(sock, rest, timeout=2)
                sock.close()
                check(answer == 1002, f"close code {code} from the client is answered 1002 ({answer})")
            for method in ("GET", "HEAD"):
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
                    sock.sendall(f"{method} /blob HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9223372036854775807\r\nConnection: close\r\n\r\n".encode())
                    line = sock.recv(4096).split(b"\r\n", 1)[0]
                check(line == b"HTTP/1.1 206 Partial Content" and server.alive(), f"{method} Range: bytes=0-(2^63-1): {line!r}, alive")
            for length, status in (("9223372036854775808", b"413"), ("+5", b"400")):
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
                    sock.sendall(f"POST /zen HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\nExpect: 100-continue\r\n\r\n".encode())
                    started = time.time()
                    line = sock.recv(4096).split(b"\r\n", 1)[0]
                check(status in line and time.time() - started < 0.5, f"Expect with Content-Length {length}: {line!r} at once")
            check(server.alive(), "stubd lives")
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "connections: all passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
