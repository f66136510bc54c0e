#!/usr/bin/env python3
"""Where stubd's forward proxy may connect, decided by the address a name reaches (issue 58).

Runs itself inside a private mount and network namespace (`unshare -m -n`, as root): a hosts file
bind-mounted over /etc/hosts gives resolver aliases for this machine (the probe's `/etc/hosts`
line), and a veth pair gives the namespace a LAN address (10.77.0.1) as a phone-on-Wi-Fi setup
has. In every mode that passes anything on (`pass`, `record`), every way of naming stubd's own
ports — aliases, literal spellings, the LAN address, through CONNECT and the absolute form — is
refused with 403 and plants nothing; loopback and this machine's addresses are refused unless
`--resolve` names them; a loopback server named by `--resolve` is reached.

    python3 Tests/proxy/destinations_test.py .build/debug/stubd
"""
import base64
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ALIASES = {"alias.test": "127.0.0.1", "alias6.test": "::1", "public-name.example": "127.0.0.1", "lan-alias.test": "10.77.0.1",
           "metadata.test": "169.254.169.254"}
problems = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        problems.append(what)


def enter_namespaces():
    """Re-runs this script in a new mount and network namespace with the aliases and a LAN address."""
    if os.geteuid() != 0:
        sys.exit("destinations: needs root for its mount and network namespaces (CI runs make test as root)")
    work = tempfile.mkdtemp(prefix="stubd-dest-")
    hosts = os.path.join(work, "hosts")
    with open("/etc/hosts") as original, open(hosts, "w") as copy:
        copy.write(original.read() + "\n" + "".join(f"{address} {name}\n" for name, address in ALIASES.items()))
    setup = " && ".join([
        "ip link set lo up", "ip link add v0 type veth peer name v1", "ip addr add 10.77.0.1/24 dev v0",
        "ip link set v0 up", "ip link set v1 up", f"mount --bind {hosts} /etc/hosts",
    ])
    run = subprocess.run(["unshare", "--mount", "--net", "sh", "-c", f"{setup} && exec {sys.executable} {os.path.abspath(__file__)} --inside {sys.argv[1]}"])
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(run.returncode)


class Served:
    """`stubd serve` with the given flags; its ports from the banner."""

    def __init__(self, binary, folder, *flags):
        self.process = subprocess.Popen([binary, "serve", folder, "--port", "0", *flags], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        while not any("dashboard:" in line or "admin API off" in line for line in self.lines):
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stubd exited: " + "".join(self.lines))
            self.lines.append(line)
        text = "".join(self.lines)
        self.http = int(re.search(r"from \S+ on http://[^ ]+:(\d+)", text).group(1))
        self.https = int(re.search(r"over HTTPS on https://[^ ]+:(\d+)", text).group(1))
        self.proxy = int(re.search(r"proxy on http://[^ ]+?:(\d+)", text).group(1))
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def exchange(proxy_address, proxy_port, head, password=None, session="probe"):
    """Sends `head` (a request line and headers, no blank line) to the proxy; the status and the answer."""
    auth = f"Proxy-Authorization: Basic {base64.b64encode(f'{session}:{password}'.encode()).decode()}\r\n" if password else ""
    with socket.create_connection((proxy_address, proxy_port), timeout=10) as connection:
        connection.sendall((head + "\r\n" + auth + "\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
        if status == 200 and head.startswith("CONNECT"):
            # A tunnel was opened: try to plant a route through it, as the attack did.
            body = json.dumps({"request": {"method": "GET", "path": "/planted"}, "response": {"text": "planted"}})
            connection.sendall(f"POST /__stubd/routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}".encode())
            try:
                while chunk := connection.recv(65536):
                    data += chunk
            except OSError:
                pass
        return status, data.decode(errors="replace")


def planted(server):
    request = urllib.request.Request(f"http://127.0.0.1:{server.http}/planted")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status == 200
    except Exception:
        return False


class Local(http.server.BaseHTTPRequestHandler):
    """A server of this machine that is not stubd (a developer's own API on localhost)."""

    def do_GET(self):
        body = b"local server"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def inside(binary):
    work = tempfile.mkdtemp(prefix="stubd-dest-in-")
    fixtures = os.path.join(work, "fixtures")
    os.makedirs(fixtures)
    with open(os.path.join(fixtures, "api.json"), "w") as file:
        json.dump({"routes": [{"request": {"method": "GET", "path": "/v1/me", "host": "api.example.com"}, "response": {"json": {"id": 1}}}]}, file)
    local = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Local)
    threading.Thread(target=local.serve_forever, daemon=True).start()
    local_port = local.server_address[1]
    try:
        for mode in ["pass", "record"]:
            extra = ["--record", os.path.join(work, f"recorded-{mode}")] if mode == "record" else []
            server = Served(binary, fixtures, "--https-port", "0", "--proxy-port", "0", "--proxy-unrouted", mode, "--ca-dir", os.path.join(work, "ca"),
                            "--resolve", f"named-local.test:{local_port}:127.0.0.1", *extra)
            try:
                own = {"HTTP": server.http, "HTTPS": server.https, "proxy": server.proxy}
                names = ["alias.test", "alias6.test", "public-name.example", "127.0.0.1", "127.1", "2130706433", "[::ffff:127.0.0.1]",
                         "localhost.", "0.0.0.0", "[::1]"]
                refused, answers = 0, []
                for name in names:
                    for kind, port in own.items():
                        status, text = exchange("127.0.0.1", server.proxy, f"CONNECT {name}:{port} HTTP/1.1\r\nHost: {name}:{port}")
                        refused += status == 403
                        answers.append(f"{name}:{port}({kind})={status}")
                check(refused == len(names) * len(own), f"{mode}: CONNECT to stubd's own ports by every name and spelling: 403 ({[a for a in answers if not a.endswith('=403')]})")
                status, text = exchange("127.0.0.1", server.proxy, f"GET http://alias.test:{server.http}/anything HTTP/1.1\r\nHost: alias.test:{server.http}")
                check(status == 403 and "stubd itself" in text, f"{mode}: the absolute form to an alias of stubd's port: 403 ({status} {text[-120:]!r})")
                status, text = exchange("127.0.0.1", server.proxy, f"POST http://alias.test:{server.http}/__stubd/routes HTTP/1.1\r\nHost: alias.test\r\nContent-Length: 0")
                check(status == 403, f"{mode}: …and to its admin API: 403 ({status})")
                check(not planted(server), f"{mode}: nothing was planted through any of them")
                status, text = exchange("127.0.0.1", server.proxy, f"CONNECT alias.test:{local_port} HTTP/1.1\r\nHost: alias.test:{local_port}")
                check(status == 403 and f"--resolve alias.test:{local_port}:127.0.0.1" in text,
                      f"{mode}: another server on this machine, unnamed by --resolve: 403 naming the flag ({status} {text[-140:]!r})")
                status, text = exchange("127.0.0.1", server.proxy, "CONNECT metadata.test:80 HTTP/1.1\r\nHost: metadata.test:80")
                check(status == 403 and "link-local" in text, f"{mode}: a name for a link-local address (cloud metadata): 403 ({status})")
                if mode == "pass":
                    status, text = exchange("127.0.0.1", server.proxy, f"GET http://named-local.test:{local_port}/ HTTP/1.1\r\nHost: named-local.test:{local_port}")
                    check(status == 200 and text.endswith("local server"), f"pass: a local server --resolve names is reached ({status} {text[-40:]!r})")
            finally:
                server.stop()

        # The phone-on-Wi-Fi setup: stubd on every address, the proxy with a password, the admin API with a token.
        server = Served(binary, fixtures, "--host", "0.0.0.0", "--https-port", "0", "--proxy-port", "0", "--proxy-host", "0.0.0.0",
                        "--proxy-password", "pw", "--admin-token", "token", "--proxy-unrouted", "pass", "--ca-dir", os.path.join(work, "ca"))
        try:
            answers = []
            for name in ["10.77.0.1", "lan-alias.test", "alias.test"]:
                for port in [server.http, server.https, server.proxy]:
                    status, _ = exchange("10.77.0.1", server.proxy, f"CONNECT {name}:{port} HTTP/1.1\r\nHost: {name}:{port}", password="pw")
                    answers.append((name, port, status))
            check(all(status == 403 for _, _, status in answers), f"LAN: with the proxy password, CONNECT to stubd by its LAN address or an alias: 403 ({answers})")
            status, text = exchange("10.77.0.1", server.proxy, f"GET http://lan-alias.test:{server.http}/__stubd/routes HTTP/1.1\r\nHost: lan-alias.test", password="pw")
            check(status == 403, f"LAN: the admin API through the proxy, absolute form: 403 ({status})")
            status, text = exchange("10.77.0.1", server.proxy, f"GET http://10.77.0.1:{local_port}/ HTTP/1.1\r\nHost: 10.77.0.1", password="pw")
            check(status == 403 and "this machine" in text, f"LAN: this machine's own LAN address (another port): 403 ({status})")
        finally:
            server.stop()
    finally:
        local.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        sys.exit("destinations: FAILED: " + "; ".join(problems))
    print("destinations: all passed")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--inside":
        inside(os.path.abspath(sys.argv[2]))
    else:
        enter_namespaces()
