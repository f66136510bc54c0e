"""Fault steps over HTTPS: a connection is placed by how long it sat ready before its first request,
counted from the TLS handshake's end, not from the accept — a slow handshake (OkHttp on the JVM
took about 55 ms) is not idle time. Python's ssl over a raw socket makes the timings exact:

- a handshake that starts 150 ms after the connect, the request at once after it: a connection
  opened for the request, so a `[reset, ok]` step is consumed (reset, then 200);
- a handshake at once, the request 150 ms after it: a socket opened ahead of need (a browser's
  preconnect), so the step is delivered without being consumed (reset, reset on a connection
  opened for the request, then 200).

Usage: python3 Tests/clients/tls_fault_steps_test.py [STUBD_BINARY]   (make test)
"""
import json
import os
import shutil
import socket
import ssl
import sys
import tempfile
import time
import urllib.request

STUBD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import stubd_server  # noqa: E402

ROUTE = {"name": "reset-first", "request": {"method": "GET", "path": "/reset-first"},
         "responses": [{"fault": "reset"}, {"text": "ok"}]}


def attempt(port, context, before_handshake=0.0, before_request=0.0):
    """One GET /reset-first on a new TLS connection: the status line, or 'reset' when the
    connection ended without a byte."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        time.sleep(before_handshake)
        secure = context.wrap_socket(raw, server_hostname="localhost")
        time.sleep(before_request)
        secure.sendall(b"GET /reset-first HTTP/1.1\r\nHost: localhost\r\nUser-Agent: tls-fault-steps-test\r\n\r\n")
        try:
            head = secure.recv(4096)
        except (ConnectionResetError, ssl.SSLError, OSError):
            return "reset"
        return head.split(b"\r\n", 1)[0].decode() if head else "reset"
    finally:
        raw.close()


def main():
    work = tempfile.mkdtemp(prefix="stubd-tls-steps-")
    failures = []
    try:
        os.mkdir(os.path.join(work, "stubs"))
        with open(os.path.join(work, "stubs", "steps.json"), "w") as file:
            json.dump({"routes": [ROUTE]}, file)
        server = stubd_server.Stubd(STUBD, os.path.join(work, "stubs"), "--https-port", "0", "--ca-dir", os.path.join(work, "ca"))
        try:
            line = next(line for line in server.banner if "https://127.0.0.1:" in line)
            port = int(line.split("https://127.0.0.1:")[1].split("/")[0].split()[0])
            context = ssl.create_default_context(cafile=os.path.join(work, "ca", "stubd-ca.pem"))
            cases = [
                ("slow handshake, request at once", {"before_handshake": 0.15}, ["reset", "HTTP/1.1 200 OK"]),
                ("handshake at once, request 150 ms later", {"before_request": 0.15}, ["reset", "reset", "HTTP/1.1 200 OK"]),
            ]
            for label, first, expected in cases:
                status = reset_steps(server)
                if status != 200:
                    failures.append(f"{label}: POST /__stubd/reset answered {status}")
                    continue
                read = [attempt(port, context, **first)] + [attempt(port, context) for _ in expected[1:]]
                verdict = "ok  " if read == expected else "FAIL"
                print(f"{verdict} {label}: {' → '.join(read)}", flush=True)
                if read != expected:
                    failures.append(f"{label}: read {read}, expected {expected}")
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print(f"tls-fault-steps: {2 - len(failures)} of 2 checks passed")
    sys.exit(1 if failures else 0)


def reset_steps(server):
    """Back to the first step (the admin API, over plain HTTP); the answer's status."""
    request = urllib.request.Request(server.base + "/__stubd/reset", method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


if __name__ == "__main__":
    main()
