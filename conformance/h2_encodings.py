"""Measures how each HTTP/2 client reads each way of failing one stream, so stubd's choice for a
fault step over h2 (docs/HTTP2.md, "Faults") comes from a table, as conformance/encodings.py's
does for HTTP/1.1.

Usage: python3 conformance/h2_encodings.py [--clients curl,httpx,...] [--bin DIR] [--out FILE]

A small HTTP/2 server (Python's `h2` over TLS, offering only `h2` by ALPN; not stubd: it must send
what stubd may not) answers every path `/s/ENCODING/N/SHAPE` as a sequence — SHAPE `f` is
`[fault, ok]`, `5f` is `[500, fault, ok]` (both GET), `hf` is `[fault, ok]` for HEAD — each stream
that reaches it taking the next step, so a client's silent re-send shows as a lost fault (and as
2 attempts). Every sequence follows a warm-up request on the same client. The candidates:

  rst       RST_STREAM INTERNAL_ERROR before any HEADERS
  rstproto  RST_STREAM PROTOCOL_ERROR before any HEADERS
  h502rst   HEADERS `502` (`content-length: 1`), then RST_STREAM INTERNAL_ERROR
  h502len   HEADERS `502` with two different `content-length`s (RFC 9113 §8.1.1: malformed, a
            stream error), then RST_STREAM INTERNAL_ERROR
  h200rst   HEADERS `200` (`content-length: 1`), then RST_STREAM INTERNAL_ERROR (a cut body)

Prints one table per shape, like encodings.py: what the app saw per step (`E` an error, a status),
the attempts that reached the server, `✓` when it saw exactly the authored steps.
"""
import argparse
import os
import ssl
import subprocess
import sys
import tempfile
import urllib.parse

import h2.config
import h2.connection
import h2.errors
import h2.events

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import encodings_common  # noqa: E402  (what both scripts share)
import run  # noqa: E402  (the clients and how to start them)

ENCODINGS = ["rst", "rstproto", "h502rst", "h502len", "h200rst"]
SHAPES = {"f": ["fault", "ok"], "5f": ["500", "fault", "ok"], "hf": ["fault", "ok"]}
METHODS = {"f": "GET", "5f": "GET", "hf": "HEAD"}
# The clients that speak HTTP/2 here (Node's fetch does not: `node-http2` is its `http2` module).
H2_CLIENTS = "curl,httpx,node-http2,java,okhttp,chromium,urlsession"


class ProbeServer(encodings_common.Listener):
    """Answers the probe paths over h2 on TLS, one thread per connection."""

    def __init__(self, cert, key):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.context.set_alpn_protocols(["h2"])
        super().__init__()
        self.base = f"https://localhost:{self.port}"

    def serve(self, raw):
        try:
            sock = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()
            return
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8",
                                                                          validate_outbound_headers=False))
        connection.initiate_connection()
        try:
            sock.sendall(connection.data_to_send())
            while True:
                data = sock.recv(65536)
                if not data:
                    return
                for event in connection.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        fields = dict(event.headers)
                        self.answer(connection, event.stream_id, fields[":method"], fields[":path"])
                sock.sendall(connection.data_to_send())
        except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
            pass
        finally:
            sock.close()

    def answer(self, connection, stream, method, target):
        path = urllib.parse.urlsplit(target).path
        probe = self.step(path, SHAPES)
        if probe is None:
            return send(connection, stream, 200, b"warm", method == "HEAD")
        encoding, step = probe
        if step == "ok":
            return send(connection, stream, 200, b"ok", method == "HEAD")
        if step == "500":
            return send(connection, stream, 500, b"first", method == "HEAD")
        fail(connection, stream, encoding)


def send(connection, stream, status, body, head_only):
    connection.send_headers(stream, [(":status", str(status)), ("content-type", "text/plain"), ("content-length", str(len(body)))],
                            end_stream=head_only)
    if not head_only:
        connection.send_data(stream, body, end_stream=True)


def fail(connection, stream, encoding):
    if encoding in ("h502rst", "h502len", "h200rst"):
        status = "200" if encoding == "h200rst" else "502"
        lengths = [("content-length", "1"), ("content-length", "2")] if encoding == "h502len" else [("content-length", "1")]
        connection.send_headers(stream, [(":status", status), ("content-type", "text/plain")] + lengths)
    code = h2.errors.ErrorCodes.PROTOCOL_ERROR if encoding == "rstproto" else h2.errors.ErrorCodes.INTERNAL_ERROR
    connection.reset_stream(stream, error_code=code)


def certificate(folder):
    """A self-signed certificate for localhost, trusted by each client as conformance/run.py
    trusts stubd's CA (curl, Node, Python by environment; Java by a trust store)."""
    cert, key, store = (os.path.join(folder, name) for name in ("probe.pem", "probe.key", "probe.jks"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], capture_output=True, check=True)
    subprocess.run(["keytool", "-importcert", "-noprompt", "-alias", "probe", "-file", cert, "-keystore", store, "-storepass", "changeit"],
                   capture_output=True, check=True, timeout=60)
    run.CLIENT_ENV.update({
        "CURL_CA_BUNDLE": cert, "REQUESTS_CA_BUNDLE": cert, "NODE_EXTRA_CA_CERTS": cert, "SSL_CERT_FILE": cert,
        "JAVA_TOOL_OPTIONS": f"-Djavax.net.ssl.trustStore={store} -Djavax.net.ssl.trustStorePassword=changeit",
        "STUBD_CHROMIUM_FLAGS": "--ignore-certificate-errors", "STUBD_HTTP2": "1",
    })
    return cert, key


def measure(server, name, command, run_id):
    """{(encoding, shape): (passed, cell, attempts, first error)} for one client, one client
    process per encoding; None when the warm-up itself failed (the client spoke no h2 here)."""
    cells = {}
    for encoding in ENCODINGS:
        steps, plan = ["GET /warm"], []
        for shape, wanted in SHAPES.items():
            path = f"{METHODS[shape]} /s/{encoding}/{run_id}/{shape}"
            first = len(steps)
            steps += [path] * len(wanted)
            plan.append((shape, path.split(" ", 1)[1], first, wanted))
        try:
            results = run.run_client(command, server.base, steps)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            encodings_common.crashed(cells, encoding, plan, error, server.hits)
            continue
        if results[0][0] != "ok":
            print(f"h2-encodings: {name}: the warm-up failed over h2 ({results[0][1][:100]})", file=sys.stderr)
            return None
        encodings_common.read(cells, encoding, plan, results, server.hits)
    return cells


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default=H2_CLIENTS)
    parser.add_argument("--bin", default=os.path.join(run.HERE, ".build"))
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="measure only these (comma-separated)")
    parser.add_argument("--out", help="write the tables (Markdown) to this file too")
    options = parser.parse_args()
    ENCODINGS[:] = [name for name in options.encodings.split(",") if name in ENCODINGS]
    folder = tempfile.mkdtemp(prefix="stubd-h2-encodings-")
    server = ProbeServer(*certificate(folder))
    rows = []
    for index, name in enumerate(options.clients.split(",")):
        missing = run.available(name)
        if missing:
            print(f"h2-encodings: {missing}", file=sys.stderr)
            continue
        cells = measure(server, name, run.client_command(name, options.bin), str(index))
        if cells is None:
            continue
        rows.append((run.TITLES[name], cells))
        print(f"h2-encodings: {run.TITLES[name]} measured", file=sys.stderr)
    text = encodings_common.markdown(rows, ENCODINGS, SHAPES, METHODS, "over h2, after a warm-up request")
    print(text)
    if options.out:
        with open(options.out, "w", encoding="utf-8") as file:
            file.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
