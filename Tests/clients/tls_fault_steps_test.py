"""Fault steps over HTTPS, with Python's ssl over a raw socket so the timings and connections are
exact. A `[reset, ok]` step goes, through TLS, as a response that fails before the status (a `502`
head with two lengths, then the close: no client re-sends it) and is consumed by the request that
met it, whatever the timing and the connection:

- a client's first request on a connection — after a slow handshake (OkHttp on the JVM takes
  about 55 ms) or on a quiet socket (the broken head, then 200);
- a request on a reused connection (the broken head, then 200 on a new one);
- a browser's (`Sec-Fetch-Mode`) on a reused connection: the same bytes (the broken head, then 200).

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

ROUTES = [{"name": "reset-first", "request": {"method": "GET", "path": "/reset-first"},
           "responses": [{"fault": "reset"}, {"text": "ok"}]},
          {"name": "warm", "request": {"method": "GET", "path": "/warm"}, "response": {"text": "warm"}}]


BROWSER = "Sec-Fetch-Mode: cors\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0\r\n"
CLIENT = "User-Agent: tls-fault-steps-test\r\n"
BROKEN_HEAD = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n"


def connect(port, context, before_handshake=0.0):
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    time.sleep(before_handshake)
    return context.wrap_socket(raw, server_hostname="localhost")


def ask(secure, path, headers, before_request=0.0):
    """One GET on `secure`: the whole head (and body) read until the server closes or the body
    is complete, or 'reset' when the connection ended without a byte."""
    time.sleep(before_request)
    secure.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n".encode())
    received = b""
    try:
        while True:
            chunk = secure.recv(4096)
            if not chunk:
                break
            received += chunk
            head, _, rest = received.partition(b"\r\n\r\n")
            lengths = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
            if _ and lengths and len(rest) >= lengths[0] and len(set(lengths)) == 1:
                break
    except (ConnectionResetError, ssl.SSLError, OSError):
        pass
    if not received:
        return "reset"
    text = received.decode("latin-1")
    return "broken head" if text == BROKEN_HEAD else text.split("\r\n", 1)[0] + (" " + text.rsplit("\r\n", 1)[-1] if text.endswith("ok") else "")


def fresh(port, context, headers=CLIENT, **timing):
    """One GET /reset-first on a new connection."""
    secure = connect(port, context, timing.get("before_handshake", 0.0))
    try:
        return ask(secure, "/reset-first", headers, timing.get("before_request", 0.0))
    finally:
        secure.close()


def reused(port, context, headers):
    """GET /warm, then GET /reset-first on the same connection."""
    secure = connect(port, context)
    try:
        warm = ask(secure, "/warm", headers)
        return ask(secure, "/reset-first", headers) if warm.startswith("HTTP/1.1 200") else f"warm-up read {warm}"
    finally:
        secure.close()


def main():
    work = tempfile.mkdtemp(prefix="stubd-tls-steps-")
    failures = []
    cases = [
        ("slow handshake, request at once", lambda p, c: [fresh(p, c, before_handshake=0.15), fresh(p, c)],
         ["broken head", "HTTP/1.1 200 OK ok"]),
        ("handshake at once, request 150 ms later", lambda p, c: [fresh(p, c, before_request=0.15), fresh(p, c)],
         ["broken head", "HTTP/1.1 200 OK ok"]),
        ("a reused connection, then a new one", lambda p, c: [reused(p, c, CLIENT), fresh(p, c)],
         ["broken head", "HTTP/1.1 200 OK ok"]),
        ("a browser on a reused connection", lambda p, c: [reused(p, c, BROWSER), fresh(p, c, BROWSER)],
         ["broken head", "HTTP/1.1 200 OK ok"]),
    ]
    try:
        os.mkdir(os.path.join(work, "stubs"))
        with open(os.path.join(work, "stubs", "steps.json"), "w") as file:
            json.dump({"routes": ROUTES}, file)
        server = stubd_server.Stubd(STUBD, os.path.join(work, "stubs"), "--https-port", "0", "--ca-dir", os.path.join(work, "ca"))
        try:
            line = next(line for line in server.banner if "https://127.0.0.1:" in line)
            port = int(line.split("https://127.0.0.1:")[1].split("/")[0].split()[0])
            context = ssl.create_default_context(cafile=os.path.join(work, "ca", "stubd-ca.pem"))
            for label, run, expected in cases:
                status = reset_steps(server)
                if status != 200:
                    failures.append(f"{label}: POST /__stubd/reset answered {status}")
                    continue
                read = run(port, context)
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
    print(f"tls-fault-steps: {len(cases) - len(failures)} of {len(cases)} checks passed")
    sys.exit(1 if failures else 0)


def reset_steps(server):
    """Back to the first step (the admin API, over plain HTTP); the answer's status."""
    request = urllib.request.Request(server.base + "/__stubd/reset", method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


if __name__ == "__main__":
    main()
