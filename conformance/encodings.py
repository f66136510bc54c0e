"""Measures how each HTTP client reads each way of sending a failure with no usable response, so
stubd's choice for fault steps (docs/FAULTS.md, "How a fault step is sent") comes from a table,
not from guessing who the client is.

Usage: python3 conformance/encodings.py [--clients curl,requests,...] [--bin DIR] [--out FILE]

A small raw-socket server (not stubd: it must send bytes stubd never would) answers every path
`/s/ENCODING/N/SHAPE` as a sequence: SHAPE `f` is `[fault, ok]`, `5f` is `[500, fault, ok]` (both GET), `hf` is `[fault, ok]` for HEAD; each
request that reaches it takes the next step, so a client's silent re-send shows as a lost fault
(and as 2 attempts). Every sequence follows a warm-up request, so the fault lands on a reused
keep-alive connection — the case where clients re-send. Each client runs with its own User-Agent
and with a browser's (`Mozilla/5.0 …`), which must change nothing. The candidate encodings:

  reset     the connection is reset (RST), no byte sent
  empty     the connection is closed (FIN), no byte sent
  framing   `502` with two different Content-Lengths, then closed (RFC 9112 §6.3: unrecoverable)
  framing2  the same with two non-zero lengths and `Connection: close`, so a client that takes
            either length finds the body cut short
  bodycut   `200` head with `Content-Length: 1`, closed before the body
  headcut   a status line and one header field, closed before the head ends
  linecut   a status line cut short (`HTTP/1.1 2`), then closed

Prints one table per shape: a cell is what the app saw for each step (`E` a transport error,
a status) and how many attempts reached the server; `✓` when it saw exactly the authored steps.
A client whose cells do not change with the browser's User-Agent is one row.
"""
import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import encodings_common  # noqa: E402  (what both scripts share)
import run  # noqa: E402  (the clients and how to start them)

ENCODINGS = ["reset", "empty", "framing", "framing2", "bodycut", "headcut", "linecut"]
SHAPES = {"f": ["fault", "ok"], "5f": ["500", "fault", "ok"], "hf": ["fault", "ok"]}
# The method of each shape's requests (a HEAD answer has no body to cut short).
METHODS = {"f": "GET", "5f": "GET", "hf": "HEAD"}
MOZILLA = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
PAGE = os.path.join(run.HERE, "fixtures", "__files", "page.html")


class ProbeServer(encodings_common.Listener):
    """Answers the probe paths, the Chromium page, and the two stubd endpoints the Chromium
    client reads its results through."""

    def __init__(self):
        self.results = None
        super().__init__()
        self.base = f"http://127.0.0.1:{self.port}"

    def serve(self, connection):
        buffer = b""
        try:
            while True:
                while b"\r\n\r\n" not in buffer:
                    data = connection.recv(65536)
                    if not data:
                        return
                    buffer += data
                head, buffer = buffer.split(b"\r\n\r\n", 1)
                lines = head.decode("latin-1").split("\r\n")
                method, target = lines[0].split(" ")[:2]
                fields = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip()
                          for line in lines[1:] if ":" in line}
                length = int(fields.get("content-length", "0"))
                while len(buffer) < length:
                    buffer += connection.recv(65536)
                body, buffer = buffer[:length], buffer[length:]
                if not self.answer(connection, method, target, body):
                    return
        except OSError:
            pass
        finally:
            connection.close()

    def answer(self, connection, method, target, body):
        """Answers one request; False when the connection is done."""
        path = urllib.parse.urlsplit(target).path
        if path == "/c/page":
            with open(PAGE, "rb") as file:
                return send(connection, 200, file.read(), "text/html")
        if path == "/c/results":
            self.results = body.decode()
            return send(connection, 204, b"")
        if path == "/__stubd/requests":
            listed = [{"body": self.results}] if self.results is not None else []
            return send(connection, 200, json.dumps({"requests": listed}).encode(), "application/json")
        probe = self.step(path, SHAPES)
        if probe is None:
            return send(connection, 200, b"warm")
        encoding, step = probe
        if step == "ok":
            return send(connection, 200, b"ok", head_only=method == "HEAD")
        if step == "500":
            return send(connection, 500, b"first", head_only=method == "HEAD")
        fail(connection, encoding)
        return False


def send(connection, status, body, kind="text/plain", head_only=False):
    reason = {200: "OK", 204: "No Content", 500: "Internal Server Error"}[status]
    connection.sendall(f"HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                       f"Access-Control-Allow-Origin: *\r\n\r\n".encode() + (b"" if head_only else body))
    return True


def fail(connection, encoding):
    if encoding == "reset":
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif encoding == "framing":
        connection.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n")
    elif encoding == "framing2":
        connection.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
    elif encoding == "bodycut":
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\n")
    elif encoding == "headcut":
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n")
    elif encoding == "linecut":
        connection.sendall(b"HTTP/1.1 2")
    if encoding != "reset":
        connection.shutdown(socket.SHUT_WR)
    connection.close()


def measure(server, name, command, agent, run_id):
    """{(encoding, shape): (passed, cell, attempts, first error)} for one client and User-Agent; one
    client process per encoding, so one that crashes the client (URLSession on Linux dies on a HEAD
    answered `headcut`) costs only its own cells."""
    run.CLIENT_ENV["STUBD_USER_AGENT"] = agent or ""
    cells = {}
    for encoding in ENCODINGS:
        steps, plan = [], []
        for shape, wanted in SHAPES.items():
            path = f"{METHODS[shape]} /s/{encoding}/{run_id}/{shape}"
            steps.append(f"{METHODS[shape]} /warm")
            first = len(steps)
            steps += [path] * len(wanted)
            plan.append((shape, path.split(" ", 1)[1], first, wanted))
        server.results = None  # the Chromium client waits for its own page's results
        try:
            results = run.run_client(command, server.base, steps)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            encodings_common.crashed(cells, encoding, plan, error, server.hits)
            continue
        encodings_common.read(cells, encoding, plan, results, server.hits)
    return cells


def main():
    """Measures every client, prints the tables (and writes them where asked)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default="urlsession,curl,requests,httpx,aiohttp,node,chromium,java,okhttp")
    parser.add_argument("--bin", default=os.path.join(run.HERE, ".build"))
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="measure only these (comma-separated)")
    parser.add_argument("--out", help="write the tables (Markdown) to this file too")
    parser.add_argument("--page", help="replace the tables between the encodings markers of this file (docs/FAULTS.md), "
                                       "after a run with every client")
    options = parser.parse_args()
    ENCODINGS[:] = [name for name in options.encodings.split(",") if name in ENCODINGS]
    server = ProbeServer()
    rows, measured = [], set()
    for index, name in enumerate(options.clients.split(",")):
        missing = run.available(name)
        if missing:
            print(f"encodings: {missing}", file=sys.stderr)
            continue
        agents = [None] if name == "chromium" else [None, MOZILLA]
        for agent_index, agent in enumerate(agents):
            label = run.TITLES[name] + (" (Mozilla/5.0 User-Agent)" if agent else "")
            cells = measure(server, name, run.client_command(name, options.bin), agent, f"{index}{agent_index}")
            rows.append((label, cells))
            measured.add(name)
            print(f"encodings: {label} measured", file=sys.stderr)
    # A client whose cells are the same with a browser's User-Agent is listed once, so saying so.
    merged = []
    for label, cells in rows:
        if merged and label.startswith(merged[-1][0].split(" (")[0]) and "Mozilla" in label:
            if all(merged[-1][1][key][:3] == cells[key][:3] for key in cells):
                merged[-1] = (merged[-1][0] + " — the same with `Mozilla/5.0`", cells)
                continue
        merged.append((label, cells))
    raised = [(label.split(" — ")[0], cells) for label, cells in merged if "Mozilla" not in label or "the same" in label]
    text = encodings_common.markdown(merged, ENCODINGS, SHAPES, METHODS, "after a warm-up request", raised)
    print(text)
    if options.out:
        with open(options.out, "w", encoding="utf-8") as file:
            file.write(text + "\n")
    if options.page and len(measured) == len(options.clients.split(",")):
        run.write_page(options.page, text.strip(), marker="encodings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
