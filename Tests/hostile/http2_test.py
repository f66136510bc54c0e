"""make test: the HTTP/2 attacks that took real servers down (issue 61), each against a real stubd
over h2c from a raw socket (frames made with Python's `h2` and by hand): rapid reset
(CVE-2023-44487: 20,000 streams opened and reset), a CONTINUATION flood (CVE-2024-27316: one
header block in 10,000 frames), a SETTINGS flood and a PING flood (1,000,000 frames whose ACKs
the attacker does not read), a
stream count past the limit (500 opened at once), a zero-window stall (a 3 MiB answer to a
client that never opens its window), a frame past the largest allowed, and on connections that
came by `Upgrade: h2c` a rapid reset and HTTP/1.1 requests where the preface belongs. For each: the process
lives, the attacking connection ends (a flood's, by nghttp2's bound on owed ACKs, or it is held
back with its memory bounded: which one depends on when the attacker's socket fills), a normal request on another connection
answers within 100 ms while the attack runs (the slowest of 20 is printed), and the server's
resident memory stays under 200 MiB. Then a stream written as it goes (the dashboard's journal
events) to a client that never opens its window: reset with CANCEL once past its bound.

    python3 Tests/hostile/http2_test.py .build/debug/stubd
"""
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import http.client
import time
import urllib.request

import h2.config
import h2.connection
import h2.events
import h2.settings

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
failures = []


def check(label, good, detail):
    print(f"{'ok  ' if good else 'FAIL'} {label}: {detail}", flush=True)
    if not good:
        failures.append(label)


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def client():
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    connection.initiate_connection()
    return connection


def headers(connection, stream, path="/zen", end=True, authority="x"):
    connection.send_headers(stream, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", authority)], end_stream=end)


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def attack(port, name, send):
    """Runs `send(sock)` on its own connection while 20 normal GETs go one after another on
    others; returns (slowest normal GET in ms, answered count, what the attacker's socket saw)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(5)
    seen = {"closed": False, "bytes": 0}

    def run():
        try:
            send(sock)
        except OSError:
            pass

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    slowest, answered = 0.0, 0
    for _ in range(20):
        started = time.monotonic()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/zen", timeout=2).read()
            answered += 1
        except OSError:
            pass
        slowest = max(slowest, (time.monotonic() - started) * 1000)
        time.sleep(0.01)
    worker.join(timeout=20)
    try:
        sock.settimeout(2)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                seen["closed"] = True
                break
            seen["bytes"] += len(chunk)
    except OSError:
        pass
    sock.close()
    return slowest, answered, seen


def main():
    work = tempfile.mkdtemp(prefix="stubd-h2-hostile-")
    with open(os.path.join(work, "routes.json"), "w") as handle:
        json.dump({"routes": [
            {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
            {"name": "big", "request": {"method": "GET", "path": "/big"}, "response": {"text": "x" * (3 * 1024 * 1024)}},
        ]}, handle)
    ready = os.path.join(work, "ready")
    process = subprocess.Popen([BINARY, "serve", work, "--port", "0", "--quiet", "--ready-file", ready, "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        # The ready file is written before the banner line: once that is read, the file is there.
        while "serving" not in (line := process.stdout.readline()):
            if not line:
                raise RuntimeError("stubd exited before serving")
        port = int(open(ready).read().split("\n")[0].rsplit(":", 1)[1])

        def rapid_reset(sock, connection=None, first=1):
            # 20,000 streams from `first`, each opened and at once reset by the client.
            connection = connection or client()
            sock.sendall(connection.data_to_send())
            for stream in range(first, first + 40000, 2):
                headers(connection, stream, end=False)
                connection.reset_stream(stream)
                if stream % 200 == 1:
                    sock.sendall(connection.data_to_send())
            sock.sendall(connection.data_to_send())

        def continuation_flood(sock):
            sock.sendall(PREFACE + frame(0x4, 0, 0))
            # HEADERS without END_HEADERS, then CONTINUATION frames that never end the block.
            sock.sendall(frame(0x1, 0x1, 1, b"\x82\x86\x84"))
            piece = frame(0x9, 0, 1, b"\x00\x01a\x01b" * 10)
            for _ in range(100):
                sock.sendall(piece * 100)

        def settings_flood(sock):
            sock.sendall(PREFACE + frame(0x4, 0, 0))
            piece = frame(0x4, 0, 0, struct.pack(">HI", 0x4, 65535)) * 10000
            for _ in range(100):
                sock.sendall(piece)

        def ping_flood(sock):
            sock.sendall(PREFACE + frame(0x4, 0, 0))
            piece = frame(0x6, 0, 0, b"12345678") * 10000
            for _ in range(100):
                sock.sendall(piece)

        def too_many_streams(sock):
            connection = client()
            for stream in range(1, 1001, 2):
                headers(connection, stream, path="/zen")
            sock.sendall(connection.data_to_send())

        def zero_window(sock):
            connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
            connection.local_settings = h2.settings.Settings(client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
            connection.initiate_connection()
            for stream in range(1, 101, 2):
                headers(connection, stream, path="/big")
            sock.sendall(connection.data_to_send())
            time.sleep(1.5)

        def upgraded(sock):
            # h2c by Upgrade: the HTTP/1.1 request with the client's SETTINGS, read up to the 101's end.
            connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
            settings = connection.initiate_upgrade_connection()
            sock.sendall(b"GET /zen HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: " + settings + b"\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 1000:
                head += sock.recv(1) or b"\r\n\r\n"
            return connection

        def upgraded_rapid_reset(sock):
            rapid_reset(sock, upgraded(sock), first=3)

        def upgraded_then_garbage(sock):
            upgraded(sock)
            sock.sendall(b"GET /zen HTTP/1.1\r\nHost: x\r\n\r\n" * 20000)

        def oversized_frame(sock):
            sock.sendall(PREFACE + frame(0x4, 0, 0) + struct.pack(">I", 0xFFFFFF)[1:] + bytes([0x0, 0]) + struct.pack(">I", 1) + b"x" * 100000)

        attacks = [("rapid reset (20,000 streams opened and reset)", rapid_reset, True),
                   ("CONTINUATION flood (10,000 frames in one block)", continuation_flood, True),
                   ("SETTINGS flood (1,000,000 frames, their ACKs unread)", settings_flood, False),
                   ("PING flood (1,000,000 frames, their ACKs unread)", ping_flood, False),
                   ("500 streams at once (the limit is 100)", too_many_streams, False),
                   ("zero window (50 streams of a 3 MiB answer never read)", zero_window, False),
                   ("a frame past the largest allowed", oversized_frame, True),
                   ("an h2c upgrade, then a rapid reset (20,000 streams)", upgraded_rapid_reset, True),
                   ("an h2c upgrade, then HTTP/1.1 requests instead of the preface", upgraded_then_garbage, True)]
        for name, send, ends in attacks:
            slowest, answered, seen = attack(port, name, send)
            alive = process.poll() is None
            memory = rss_mib(process.pid) if alive else 0
            check(f"{name}: stubd lives, 20 of 20 normal GETs within 100 ms, under 200 MiB"
                  + (", the attacker's connection ended" if ends else ""),
                  alive and answered == 20 and slowest < 100 and memory < 200 and (seen["closed"] or not ends),
                  f"alive {alive}, {answered} answered, slowest {slowest:.1f} ms, RSS {memory:.0f} MiB, attacker: {seen}")
        # A stream written as it goes (the dashboard's journal events) to a client whose window
        # stays shut: past the stream's bound (8 MiB) its stream is reset with CANCEL, the
        # connection and the server go on.
        sock = socket.create_connection(("127.0.0.1", port))
        sock.settimeout(5)
        watcher = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        watcher.local_settings = h2.settings.Settings(client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        watcher.initiate_connection()
        headers(watcher, 1, path="/__stubd/events", authority=f"127.0.0.1:{port}")
        sock.sendall(watcher.data_to_send())
        filler = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        started = time.monotonic()
        for _ in range(1500):
            filler.request("GET", "/zen", headers={"X-Filler": "f" * 8000})
            filler.getresponse().read()
        filled = time.monotonic() - started
        codes, deadline = [], time.monotonic() + 10
        while 8 not in codes and time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            for event in watcher.receive_data(chunk):
                if isinstance(event, h2.events.StreamReset):
                    codes.append(event.error_code)
        alive = process.poll() is None
        memory = rss_mib(process.pid) if alive else 0
        check("a stream written as it goes (journal events) to a window kept shut: reset CANCEL past its bound, stubd lives, under 200 MiB",
              codes == [8] and alive and memory < 200, f"resets {codes}, 1,500 requests of 8 KiB journaled in {filled:.1f} s, RSS {memory:.0f} MiB")
        sock.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"http2-hostile: {'every check passed' if not failures else str(len(failures)) + ' failed: ' + ', '.join(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
