#!/usr/bin/env python3
"""The forward proxy's figures (`make bench`, docs/PROXY.md): stubbed HTTPS answers through stubd's
proxy — keep-alive inside one tunnel, and a new tunnel (CONNECT and TLS handshake) per request —
beside stubd's direct HTTPS port and Debian's mitmproxy answering the same body from a script
(its "map local"; `connection_strategy=lazy`, so it never dials the made-up host), all with one
Python client, alternating, twice; then a leaf certificate's cost:
the first request to each of 20 new hosts (minted then) against the second (cached).
Figures only: it never fails on timing.
    python3 bench/proxy_bench.py .build/release/stubd [SECONDS]
"""
import json
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ".build/release/stubd"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
BODY = b'{"id":1,"name":"Ada"}'
HOSTS = [f"h{i}.example" for i in range(20)]
MITM_SCRIPT = """
from mitmproxy import http
def request(flow):
    if flow.request.pretty_host == "api.example.com" and flow.request.path == "/v1/me":
        flow.response = http.Response.make(200, %r, {"Content-Type": "application/json"})
""" % BODY


def read_answer(stream, buffer):
    """One HTTP/1.1 answer with Content-Length from `stream`; returns (status line, rest of buffer)."""
    while b"\r\n\r\n" not in buffer:
        chunk = stream.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(rest) < length:
        chunk = stream.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        rest += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head[:60])
    return head.split(b"\r\n", 1)[0], rest[length:]


def connect(port, host, context, proxied):
    """A TLS stream to `host`: through the proxy on `port` (CONNECT), or straight to `port`."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if proxied:
        raw.sendall(f"CONNECT {host}:443 HTTP/1.1\r\nHost: {host}:443\r\n\r\n".encode())
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            buffer += raw.recv(4096)
        if b" 200" not in buffer.split(b"\r\n", 1)[0]:
            raise RuntimeError(buffer[:60])
    return context.wrap_socket(raw, server_hostname=host if proxied else "localhost")


def rate(port, context, proxied, fresh, seconds=SECONDS, host="api.example.com"):
    """Requests answered per second: keep-alive on one stream, or a new stream per request."""
    request = f"GET /v1/me HTTP/1.1\r\nHost: {host}\r\nAccept: */*\r\n\r\n".encode()
    done, end = 0, time.perf_counter() + seconds
    stream, buffer = None, b""
    while time.perf_counter() < end:
        if stream is None or fresh:
            if stream is not None:
                stream.close()
            stream, buffer = connect(port, host, context, proxied), b""
        stream.sendall(request)
        _, buffer = read_answer(stream, buffer)
        done += 1
    stream.close()
    return done / seconds


def first_request(port, context, host):
    """Seconds from CONNECT to the answer of one request on a new tunnel to `host`."""
    start = time.perf_counter()
    stream = connect(port, host, context, True)
    stream.sendall(f"GET /v1/me HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    read_answer(stream, b"")
    stream.close()
    return time.perf_counter() - start


def main():
    work = tempfile.mkdtemp(prefix="stubd-proxy-bench-")
    processes = []
    try:
        os.makedirs(os.path.join(work, "fixtures"))
        routes = [{"request": {"method": "GET", "path": "/v1/me", "host": host}, "response": {"json": {"id": 1, "name": "Ada"}}}
                  for host in ["api.example.com"] + HOSTS]
        with open(os.path.join(work, "fixtures", "api.json"), "w") as file:
            json.dump({"routes": routes}, file)
        ca_dir = os.path.join(work, "ca")
        stubd = Stubd(BINARY, os.path.join(work, "fixtures"), "--workers", "1", "--https-port", "0", "--ca-dir", ca_dir,
                      "--proxy-port", "0")
        processes.append(stubd)
        https_port = int(next(line for line in stubd.banner if "over HTTPS on" in line).rsplit(":", 1)[1])
        proxy_port = int(next(line for line in stubd.banner if "proxy on http://" in line).split("127.0.0.1:", 1)[1].split(":", 1)[0])
        ours = ssl.create_default_context(cafile=os.path.join(ca_dir, "stubd-ca.pem"))
        rows = [("stubd, its HTTPS port (no proxy)", https_port, ours, False),
                ("stubd's proxy, intercepted", proxy_port, ours, True)]
        mitm = shutil.which("mitmdump")
        if mitm:
            script = os.path.join(work, "answer.py")
            with open(script, "w") as file:
                file.write(MITM_SCRIPT)
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            mitm_port = probe.getsockname()[1]
            probe.close()
            confdir = os.path.join(work, "mitmproxy")
            process = subprocess.Popen([mitm, "-q", "--listen-host", "127.0.0.1", "-p", str(mitm_port), "-s", script, "--set", f"confdir={confdir}", "--set", "connection_strategy=lazy"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(process)
            deadline = time.time() + 30
            while not os.path.exists(os.path.join(confdir, "mitmproxy-ca-cert.pem")) and time.time() < deadline:
                time.sleep(0.1)
            theirs = ssl.create_default_context(cafile=os.path.join(confdir, "mitmproxy-ca-cert.pem"))
            for _ in range(100):
                try:
                    rate(mitm_port, theirs, True, True, seconds=0.01)
                    break
                except OSError:
                    time.sleep(0.1)
            rows.append((f"mitmproxy {subprocess.run([mitm, '--version'], capture_output=True, text=True).stdout.split()[1]} (mitmdump, a script answering)",
                         mitm_port, theirs, True))
        figures = {(name, fresh): [] for name, _, _, _ in rows for fresh in (False, True)}
        for _ in range(2):  # alternating, twice
            for fresh in (False, True):
                for name, port, context, proxied in rows:
                    figures[(name, fresh)].append(rate(port, context, proxied, fresh))
        print(f"\n| HTTPS, one Python client, {SECONDS:g} s each, two alternating rounds | keep-alive, req/s | new connection (and tunnel) per request, req/s |")
        print("|---|---|---|")
        for name, _, _, _ in rows:
            print(f"| {name} | {' / '.join(f'{v:,.0f}' for v in figures[(name, False)])} | {' / '.join(f'{v:,.0f}' for v in figures[(name, True)])} |")
        if not mitm:
            print("(mitmproxy is not installed: apt-get install mitmproxy adds its row)")
        minted = [first_request(proxy_port, ours, host) * 1000 for host in HOSTS]
        cached = [first_request(proxy_port, ours, host) * 1000 for host in HOSTS]
        print(f"\nA new tunnel's first answer, {len(HOSTS)} hosts: {statistics.median(minted):.2f} ms median when its certificate is minted "
              f"(P-256 key and signature), {statistics.median(cached):.2f} ms when cached")
    finally:
        for process in processes:
            if isinstance(process, Stubd):
                process.stop()
            else:
                process.terminate()
                process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
