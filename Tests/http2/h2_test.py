"""HTTP/2 wherever stubd's direct ports listen (issue 61), with clients nobody here wrote, over
real sockets: h2c by prior knowledge and by `Upgrade: h2c` on the plain port and h2 by ALPN on the
HTTPS port.

- curl (`--http2-prior-knowledge`, and `--http2` on http://, which upgrades: two GETs on one
  connection and a POST whose body goes with the upgrade; over TLS it negotiates h2 by itself; an
  `Upgrade: h2c` over TLS is ignored), Java's HttpClient on http:// (its default HTTP/2 upgrades,
  then a fault sequence reads as over TLS), URLSession on Linux over TLS (in a mount namespace whose
  system bundle trusts stubd's CA: a stub and a fault sequence), httpx with `h2` (h2c and
  TLS, several requests on one connection), Node's `http2` module (ten streams at once on one
  connection, one of them a fault), h2load (200 streams, 10 at a time): each reads the stub;
- the journal lists each stream as its own request with `"protocol": "h2"`, one connection,
  `connectionRequest` counting the streams; `:authority` is the request's `host`;
- a POST body of 3 MiB (more than every flow-control window) arrives whole, and a 3 MiB answer
  is read whole; a byte range, HEAD and a template reading the request are answered; a delay is
  kept; the admin API answers over h2; a GraphQL operation, a CORS preflight and a collection too;
  a multipart upload and a gzip-compressed JSON body matched; a response's trailers over HTTP/1.1
  (chunked) and h2c, read by Node's http and http2;
- faults fail their stream only: `reset` is RST_STREAM INTERNAL_ERROR, the connection's other
  streams are answered; a sequence `[500, reset, ok]` reads 500, error, ok with one attempt each
  (httpx over h2c; Java's HttpClient and OkHttp 3 over h2 on the HTTPS port), a plain reset route
  is an error for both (OkHttp asks twice);
- timed answers over h2: an SSE stream's events as DATA frames (httpx, curl over TLS), a reset
  inside it after two events, a dribbled body over its seconds; the `openai` and `anthropic` SDKs
  on the HTTPS port with their HTTP/2 client (`http2=True`) stream an LLM answer;
- a stream written as it goes (the dashboard's journal events) over h2: its events arrive while
  other streams on the connection are answered, and closing it leaves the connection serving;
- through the forward proxy, a tunnel stubd intercepts negotiates h2, journaled with the tunnel's
  server;
- an upstream's stream relayed as it arrives (`stubd record`, the client on h2c): each event reaches
  the client when the upstream sends it, and the recording keeps its timing;
- an idle HTTP/2 connection gets GOAWAY at `--idle-timeout` and is closed;
- `--http2 off`: the preface is answered GOAWAY HTTP_1_1_REQUIRED, TLS offers http/1.1 only and
  an `Upgrade: h2c` is answered over HTTP/1.1.

Usage: python3 Tests/http2/h2_test.py [STUBD_BINARY]   (make test)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STUBD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import stubd_server  # noqa: E402
BIG = 3 * 1024 * 1024

ROUTES = [
    {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
    {"name": "create", "request": {"method": "POST", "path": "/items", "body": {"json": {"name": "tea"}}},
     "response": {"status": 201, "json": {"id": 9}}},
    {"name": "upload", "request": {"method": "PUT", "path": "/upload"}, "response": {"status": 204}},
    {"name": "big", "request": {"method": "GET", "path": "/big"}, "response": {"bodyFile": "big.bin"}},
    {"name": "slow", "request": {"method": "GET", "path": "/slow"}, "response": {"text": "late"}, "delay": 0.4},
    {"name": "down", "request": {"method": "GET", "path": "/down"}, "fault": "reset"},
    {"name": "steps", "request": {"method": "GET", "path": "/steps"}, "responses": [{"status": 500}, {"fault": "reset"}, {"text": "ok"}]},
    {"name": "me", "request": {"method": "GET", "path": "/v1/me", "host": "api.example.com"}, "response": {"json": {"me": 1}}},
    {"name": "hello", "request": {"method": "GET", "pathTemplate": "/hello/{name}"},
     "response": {"template": True, "text": "hello {{request.path.name}} via {{request.headers.host}}"}},
    {"name": "events", "request": {"method": "GET", "path": "/events"},
     "stream": {"events": [{"data": "one"}, {"data": "two"}]}},
    {"name": "cut", "request": {"method": "GET", "path": "/cut"},
     "stream": {"events": [{"data": "one"}, {"data": "two"}, {"data": "three"}], "fault": {"kind": "reset", "after": 2}}},
    {"name": "chat", "request": {"method": "POST", "path": "/v1/chat/completions"}, "llm": {"provider": "openai-chat", "text": "Hello over h2."}},
    {"name": "messages", "request": {"method": "POST", "path": "/v1/messages"}, "llm": {"provider": "anthropic", "text": "Hello over h2."}},
    {"name": "dribbled", "request": {"method": "GET", "path": "/dribbled"}, "response": {"text": "0123456789"}, "dribble": {"chunks": 5, "seconds": 0.5}},
    {"name": "avatar", "request": {"method": "POST", "path": "/avatar", "body": {"multipart": [{"name": "note", "text": "hi"},
                                                                                           {"name": "file", "fileName": "a.png", "base64": "AP8="}]}},
     "response": {"status": 201}},
    {"name": "events-gz", "request": {"method": "POST", "path": "/analytics", "body": {"json": {"event": "open"}}}, "response": {"status": 202}},
    {"name": "checksum", "request": {"method": "GET", "path": "/checksum"}, "response": {"json": {"id": 1}, "trailers": {"X-Checksum": "sha-256=1"}}},
    {"name": "profile", "request": {"method": "POST", "path": "/graphql", "graphql": "ProfileQuery"},
     "response": {"template": True, "json": {"data": {"user": {"id": "{{graphql.variables.id}}"}}}}},
]
COLLECTIONS = [{"name": "todos", "path": "/todos", "seed": [{"id": 1, "title": "milk"}]}]

NODE = r"""
const http2 = require('http2');
const [base] = process.argv.slice(1);
const client = http2.connect(base);
client.on('error', () => {});
const ask = (path) => new Promise((resolve) => {
  const stream = client.request({':path': path});
  let status = 0, body = '';
  stream.on('response', (headers) => { status = headers[':status']; });
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => { body += chunk; });
  stream.on('end', () => resolve(`${status} ${body}`));
  stream.on('error', (error) => resolve(`error ${error.code} ${stream.rstCode}`));
  stream.end();
});
const paths = ['/zen', '/zen', '/zen', '/down', '/zen', '/zen', '/slow', '/zen', '/zen', '/zen'];
Promise.all(paths.map(ask)).then((results) => { console.log(JSON.stringify(results)); client.close(); });
"""


TRAILERS = r"""
const http = require('http');
const http2 = require('http2');
const [base] = process.argv.slice(1);
const h1 = () => new Promise((resolve) => http.get(base + '/checksum', (res) => {
  let body = ''; res.on('data', (d) => { body += d; });
  res.on('end', () => resolve(['h1', res.headers.trailer, body, res.trailers['x-checksum']]));
}));
const h2 = () => new Promise((resolve) => {
  const session = http2.connect(base); const stream = session.request({':path': '/checksum'});
  let body = '', trailers = {}; stream.setEncoding('utf8');
  stream.on('data', (d) => { body += d; }); stream.on('trailers', (t) => { trailers = t; });
  stream.on('end', () => { session.close(); resolve(['h2', null, body, trailers['x-checksum']]); }); stream.end();
});
(async () => { console.log(JSON.stringify([await h1(), await h2()])); })();
"""


class Stubd(stubd_server.Stubd):
    """`stubd serve` on free ports (plain and HTTPS), their URLs from the ready file (stopped as
    Tests/python/stubd_server.py stops one)."""

    def __init__(self, folder, work, *extra):
        ready = os.path.join(work, f"ready-{len(os.listdir(work))}")
        self.process = subprocess.Popen([STUBD, "serve", folder, "--port", "0", "--https-port", "0", "--ca-dir", os.path.join(work, "ca"),
                                         "--ready-file", ready, "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        # The ready file is written before the banner line: once that is read, the file is there.
        while "serving" not in (line := self.process.stdout.readline()):
            if not line:
                raise RuntimeError("stubd exited before serving")
        with open(ready) as handle:
            self.lines = handle.read().splitlines()
        self.base, self.https = self.lines[0], self.lines[1].replace("127.0.0.1", "localhost")
        self.ca = os.path.join(work, "ca", "stubd-ca.pem")

    def journal(self, path):
        out = subprocess.run(["curl", "-s", f"{self.base}/__stubd/requests?path={path}"], capture_output=True, text=True, timeout=30).stdout
        return json.loads(out)["requests"]

    def reset(self):
        subprocess.run(["curl", "-s", "-X", "POST", f"{self.base}/__stubd/reset"], capture_output=True, timeout=30)
        subprocess.run(["curl", "-s", "-X", "DELETE", f"{self.base}/__stubd/requests"], capture_output=True, timeout=30)



def paced_upstream():
    """An HTTP/1.1 upstream on a free port whose /events answer is three events, chunked, 0.4 s
    apart (a thread serves it until `shutdown`)."""
    import http.server
    import threading

    class Events(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for n in range(3):
                if n:
                    time.sleep(0.4)
                data = f"data: {n}\n\n".encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def log_message(self, *arguments):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Events)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def curl(*arguments):
    done = subprocess.run(["curl", "-s", *arguments], capture_output=True, timeout=60)
    return done.returncode, done.stdout


def main():
    import httpx
    work = tempfile.mkdtemp(prefix="stubd-h2-")
    folder = os.path.join(work, "fixtures")
    os.makedirs(os.path.join(folder, "__files"))
    with open(os.path.join(folder, "routes.json"), "w") as handle:
        json.dump({"routes": ROUTES}, handle)
    with open(os.path.join(folder, "collections.json"), "w") as handle:
        json.dump({"collections": COLLECTIONS}, handle)
    with open(os.path.join(work, "avatar.png"), "wb") as handle:
        handle.write(b"\x00\xff")
    big = bytes(range(256)) * (BIG // 256)
    with open(os.path.join(folder, "__files", "big.bin"), "wb") as handle:
        handle.write(big)
    failures = []

    def check(label, good, detail):
        print(f"{'ok  ' if good else 'FAIL'} {label}: {detail}", flush=True)
        if not good:
            failures.append(label)

    server = Stubd(folder, work)
    try:
        base, https, ca = server.base, server.https, server.ca
        check("the ready file says HTTP/2 is on", server.lines[-1] == "http2 on", server.lines)
        # curl: h2c by prior knowledge, and h2 by ALPN over TLS.
        code, out = curl("--http2-prior-knowledge", "-w", " %{http_version}", f"{base}/zen")
        check("curl --http2-prior-knowledge reads the stub over HTTP/2", (code, out) == (0, b"Design for failure. 2"), (code, out))
        code, out = curl("--cacert", ca, "-w", " %{http_version}", f"{https}/zen")
        check("curl over HTTPS negotiates h2 by ALPN", (code, out) == (0, b"Design for failure. 2"), (code, out))
        code, out = curl("--http1.1", "--cacert", ca, "-w", " %{http_version}", f"{https}/zen")
        check("  …and HTTP/1.1 when it asks for it", (code, out) == (0, b"Design for failure. 1.1"), (code, out))
        # h2c by Upgrade (curl --http2 on http://): the 101, the answer on stream 1, the next
        # request stream 3 of the same connection; a POST's body goes with the upgrade.
        server.reset()
        code, out = curl("--http2", "-w", " %{http_version}\n", f"{base}/zen", f"{base}/zen")
        posted = curl("--http2", "-w", " %{http_version}", "-H", "content-type: application/json", "-d", '{"name":"tea"}', f"{base}/items")
        journal = server.journal("/zen")
        check("curl --http2 on http:// upgrades (Upgrade: h2c): two GETs and a POST with its body read over HTTP/2",
              (code, out, posted) == (0, b"Design for failure. 2\nDesign for failure. 2\n", (0, b'{"id":9} 2')), (code, out, posted))
        check("  …one connection, protocol h2, the upgrade's own fields not in the journal",
              [(e.get("protocol"), e["connectionRequest"]) for e in journal] == [("h2", 1), ("h2", 2)] and len({e["connection"] for e in journal}) == 1
              and not any(name.lower() in ("upgrade", "http2-settings", "connection") for name, _ in journal[0]["headers"]),
              [(e.get("protocol"), e["connection"], e["connectionRequest"], [n for n, _ in e["headers"]]) for e in journal])
        code, out = curl("--http1.1", "--cacert", ca, "-w", " %{http_version}", "-H", "Connection: Upgrade, HTTP2-Settings", "-H", "Upgrade: h2c",
                         "-H", "HTTP2-Settings: AAMAAABk", f"{https}/zen")
        check("  …over TLS an Upgrade: h2c is ignored (h2c is for clear text): HTTP/1.1", (code, out) == (0, b"Design for failure. 1.1"), (code, out))
        # httpx: several requests on one connection, h2c and TLS.
        server.reset()
        with httpx.Client(http1=False, http2=True) as client:
            answers = [client.get(f"{base}/zen") for _ in range(3)]
            created = client.post(f"{base}/items", json={"name": "tea"})
        check("httpx over h2c: three GETs and a POST matched by its JSON body",
              [(a.http_version, a.status_code) for a in answers] + [(created.http_version, created.status_code, created.text)]
              == [("HTTP/2", 200)] * 3 + [("HTTP/2", 201, '{"id":9}')], [a.http_version for a in answers] + [created.status_code])
        journal = server.journal("/zen")
        check("the journal: each stream a request with protocol h2, one connection, its streams counted, :authority as host",
              [(e.get("protocol"), e["connectionRequest"]) for e in journal] == [("h2", 1), ("h2", 2), ("h2", 3)]
              and len({e["connection"] for e in journal}) == 1 and ["host", base.split("//")[1]] in journal[0]["headers"],
              [(e.get("protocol"), e["connection"], e["connectionRequest"]) for e in journal])
        with httpx.Client(http2=True, verify=ca) as client:
            answer = client.get(f"{https}/zen")
            admin = client.get(f"{https.replace('localhost', '127.0.0.1')}/__stubd/requests?path=/zen", headers={"host": "localhost"})
        check("httpx over TLS: h2, and the admin API answers over h2", (answer.http_version, answer.status_code, admin.http_version, admin.status_code)
              == ("HTTP/2", 200, "HTTP/2", 200), (answer.http_version, admin.status_code))
        # Flow control both ways: a body larger than every window, an answer larger too.
        with httpx.Client(http1=False, http2=True, timeout=30) as client:
            upload = client.put(f"{base}/upload", content=big)
            download = client.get(f"{base}/big")
        sizes = [e["bodySize"] for e in server.journal("/upload")]
        check("a 3 MiB PUT body arrives whole over h2", upload.status_code == 204 and sizes == [BIG], (upload.status_code, sizes))
        check("a 3 MiB answer is read whole over h2", download.status_code == 200 and download.content == big, len(download.content))
        with httpx.Client(http1=False, http2=True) as client:
            ranged = client.get(f"{base}/big", headers={"range": "bytes=10-19"})
            head = client.head(f"{base}/big")
            templated = client.get(f"{base}/hello/ada")
        check("over h2: a byte range (206, ten bytes), HEAD (the length, no body), a template reading the path and :authority",
              (ranged.status_code, ranged.content, head.status_code, head.headers.get("content-length"), head.content, templated.text)
              == (206, big[10:20], 200, str(BIG), b"", f"hello ada via {base.split('//')[1]}"),
              (ranged.status_code, len(ranged.content), head.headers.get("content-length"), templated.text))
        # GraphQL, CORS and a collection over h2: the same pipeline as HTTP/1.1.
        with httpx.Client(http1=False, http2=True) as client:
            graphql = client.post(f"{base}/graphql", json={"operationName": "ProfileQuery", "query": "query ProfileQuery($id: ID!) { user(id: $id) { id } }",
                                                          "variables": {"id": 7}})
            preflight = client.options(f"{base}/zen", headers={"origin": "http://localhost:3000", "access-control-request-method": "GET"})
            cors = client.get(f"{base}/zen", headers={"origin": "http://localhost:3000"})
            added = client.post(f"{base}/todos", json={"title": "tea"})
            listed = client.get(f"{base}/todos")
        check("over h2: a GraphQL operation with its variable, a CORS preflight and answer, a collection's POST and list",
              (graphql.http_version, graphql.json(), preflight.status_code, preflight.headers.get("access-control-allow-origin"),
               cors.headers.get("access-control-allow-origin"), added.status_code, [item.get("title") for item in listed.json()])
              == ("HTTP/2", {"data": {"user": {"id": 7}}}, 204, "http://localhost:3000", "http://localhost:3000", 201, ["milk", "tea"]),
              (graphql.http_version, graphql.text[:80], preflight.status_code, cors.headers.get("access-control-allow-origin"), added.status_code, listed.text[:120]))
        # Request bodies as apps send them: a multipart upload (curl -F) and a gzip-compressed JSON body.
        import gzip
        code, uploaded = curl("--http2-prior-knowledge", "-w", "%{http_code}", "-F", "note=hi", "-F", f"file=@{work}/avatar.png;filename=a.png", f"{base}/avatar")
        with httpx.Client(http1=False, http2=True) as client:
            compressed = client.post(f"{base}/analytics", content=gzip.compress(b'{"event": "open"}'),
                                     headers={"content-type": "application/json", "content-encoding": "gzip"})
        check("over h2: a multipart upload matched part by part (curl -F), a gzip-compressed JSON body matched as decoded (httpx)",
              (uploaded, compressed.status_code, compressed.http_version) == (b"201", 202, "HTTP/2"), (uploaded, compressed.status_code))
        # Trailers: after the body, over HTTP/1.1 (chunked, announced in Trailer) and over h2c.
        done = subprocess.run(["node", "-e", TRAILERS, base], capture_output=True, text=True, timeout=60)
        read = json.loads(done.stdout) if done.stdout.strip() else done.stderr[-300:]
        code, raw = curl("--raw", "--http1.1", f"{base}/checksum")
        check("a response's trailers: Node's http (HTTP/1.1, announced in Trailer) and http2 read them after the body; curl --raw shows the section",
              read == [["h1", "X-Checksum", '{"id":1}', "sha-256=1"], ["h2", None, '{"id":1}', "sha-256=1"]] and raw.endswith(b"0\r\nX-Checksum: sha-256=1\r\n\r\n"),
              (read, raw[-40:]))
        started = time.monotonic()
        code, out = curl("--http2-prior-knowledge", f"{base}/slow")
        check("a delay is kept over h2", out == b"late" and time.monotonic() - started >= 0.4, f"{out} in {time.monotonic() - started:.2f} s")
        # Faults fail their stream only.
        server.reset()
        done = subprocess.run(["node", "-e", NODE, base], capture_output=True, text=True, timeout=60)
        results = json.loads(done.stdout) if done.stdout.strip() else done.stderr[-300:]
        check("Node http2: ten streams on one connection, the fault's stream reset (INTERNAL_ERROR), the nine others answered",
              isinstance(results, list) and results[3] == "error ERR_HTTP2_STREAM_ERROR 2"
              and results[:3] + results[4:6] + results[7:] == ["200 Design for failure."] * 8 and results[6] == "200 late", results)
        ends = {e["connection"] for e in server.journal("/zen")} | {e["connection"] for e in server.journal("/down")}
        check("  …all ten on one connection", len(ends) == 1, ends)
        try:
            with httpx.Client(http1=False, http2=True) as client:
                client.get(f"{base}/down")
            got = "no error"
        except httpx.RemoteProtocolError as error:
            got = str(error)
        check("httpx reads reset as a stream reset with INTERNAL_ERROR (2)", "error_code:2" in got, got)
        code, _ = curl("--http2-prior-knowledge", f"{base}/down")
        check("curl reads reset as a stream error (92)", code == 92, code)
        server.reset()
        with httpx.Client(http1=False, http2=True) as client:
            seen = []
            for _ in range(3):
                try:
                    seen.append(str(client.get(f"{base}/steps").status_code))
                except httpx.RemoteProtocolError:
                    seen.append("error")
        check("a sequence [500, reset, ok] over h2: 500, error, ok, one attempt each", seen == ["500", "error", "200"] and len(server.journal("/steps")) == 3,
              (seen, len(server.journal("/steps"))))
        # Java's HttpClient and OkHttp on the HTTPS port: h2 by ALPN, and a fault step each reads
        # as an error with one attempt (OkHttp re-sends a GET once after a reset before any HEADERS,
        # so a step is a 502 head, then the reset: docs/HTTP2.md "Faults").
        if sys.platform != "darwin":
            for name in ("java", "okhttp"):
                server.reset()
                done = subprocess.run(["java", "-cp", "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar", os.path.join(HERE, "H2JavaClients.java"),
                                       name, https, ca, "/zen", "/steps", "/steps", "/steps", "/down"], capture_output=True, text=True, timeout=120)
                lines = [line.strip() for line in done.stdout.splitlines()]
                attempts = (len(server.journal("/steps")), len(server.journal("/down")))
                check(f"{name} over h2 on the HTTPS port: the stub, then [500, reset, ok] as 500, error, ok with one attempt each",
                      lines[:4] == ["h2 200 Design for failure.", "h2 500", "error IOException" if name == "java" else "error StreamResetException", "h2 200 ok"]
                      and attempts[0] == 3, (lines, attempts, done.stderr[-300:]))
                # A plain fault route is sent as authored (a reset before any HEADERS): OkHttp asks twice, both fail.
                check(f"  …{name}: a reset route reads as an error ({'two attempts' if name == 'okhttp' else 'one attempt'})",
                      lines[4:] == ["error IOException" if name == "java" else "error StreamResetException"]
                      and attempts[1] == (2 if name == "okhttp" else 1), (lines[4:], attempts))
            # URLSession on Linux (swift-corelibs-foundation on libcurl) on the HTTPS port, in a mount
            # namespace whose system bundle trusts stubd's CA (conformance/run.py's way).
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "conformance"))
            import run as conformance  # noqa: E402
            client = os.path.join(work, "URLSessionClient")
            conformance.CLIENT_ENV["STUBD_CA_BUNDLE"] = conformance.system_bundle_with(ca, os.path.join(work, "bundle.pem"))
            built = subprocess.run(["swiftc", "-O", os.path.join(os.path.dirname(os.path.dirname(HERE)), "conformance", "clients", "URLSessionClient.swift"),
                                    "-o", client], capture_output=True, text=True, timeout=600)
            isolated = subprocess.run(conformance.trusting_system_bundle() + ["true"], capture_output=True, text=True, timeout=60)
            if built.returncode == 0 and isolated.returncode == 0:
                server.reset()
                lines = [line.split("\t")[:2] for line in subprocess.run(conformance.trusting_system_bundle() + [client, https, "GET /zen", "GET /steps", "GET /steps", "GET /steps"],
                                                                          capture_output=True, text=True, timeout=120).stdout.splitlines()]
                journal = server.journal("/zen") + server.journal("/steps")
                check("URLSession on Linux over h2 on the HTTPS port: the stub, then [500, reset, ok] as 500, error, ok with one attempt each",
                      [line[0] if line[0] == "error" else line[1] for line in lines] == ["200", "500", "error", "200"]
                      and [e.get("protocol") for e in journal] == ["h2"] * 4, (lines, [e.get("protocol") for e in journal]))
            else:
                print(f"not run: URLSession on Linux over h2 (swiftc: {built.returncode}; unshare --mount: {isolated.stderr.strip()[-200:]})")
            # Java's HttpClient on http:// (HTTP/2 is its default version): h2c by Upgrade, then the same steps.
            server.reset()
            done = subprocess.run(["java", "-cp", "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar", os.path.join(HERE, "H2JavaClients.java"),
                                   "java", base, ca, "/zen", "/steps", "/steps", "/steps"], capture_output=True, text=True, timeout=120)
            lines = [line.strip() for line in done.stdout.splitlines()]
            journal = server.journal("/zen") + server.journal("/steps")
            check("java on http:// upgrades to h2c: the stub, then [500, reset, ok] as 500, error, ok with one attempt each, one connection",
                  lines == ["h2 200 Design for failure.", "h2 500", "error IOException", "h2 200 ok"]
                  and [e.get("protocol") for e in journal] == ["h2"] * 4 and len({e["connection"] for e in journal}) == 1,
                  (lines, [(e.get("protocol"), e["connection"]) for e in journal], done.stderr[-300:]))
        else:
            print("not run: Java's HttpClient and OkHttp over h2 (Debian's OkHttp jars; Linux make test runs them)")
        # h2load: many streams at once.
        done = subprocess.run(["h2load", "-n", "200", "-c", "2", "-m", "10", f"{base}/zen"], capture_output=True, text=True, timeout=60)
        check("h2load: 200 requests, 10 streams at a time, all 2xx", "200 succeeded" in done.stdout and "200 2xx" in done.stdout,
              [line for line in done.stdout.splitlines() if "requests:" in line or "status codes" in line])
        # Timed answers: a stream's events as DATA frames, a fault inside it, a dribble.
        with httpx.Client(http1=False, http2=True) as client:
            with client.stream("GET", f"{base}/events") as events:
                lines = [line for line in events.iter_lines() if line]
                version = events.http_version
            cut = []
            try:
                with client.stream("GET", f"{base}/cut") as broken:
                    for line in broken.iter_lines():
                        if line:
                            cut.append(line)
            except httpx.RemoteProtocolError as error:
                cut.append("error " + str(error).split(",")[1].strip())
            started = time.monotonic()
            dribbled = client.get(f"{base}/dribbled")
            took = time.monotonic() - started
        check("an SSE stream over h2: its events as DATA frames", (version, lines) == ("HTTP/2", ["data: one", "data: two"]), (version, lines))
        check("  …a reset inside it: the events before it, then a stream reset (INTERNAL_ERROR)", cut == ["data: one", "data: two", "error error_code:2"], cut)
        check("  …a dribbled body over h2 arrives whole over its seconds", dribbled.text == "0123456789" and took >= 0.45, f"{dribbled.text!r} in {took:.2f} s")
        # The LLM SDKs with their HTTP/2 client (http2=True) on the HTTPS port: a streamed answer each.
        # Each SDK takes a client of the HTTP package it was built on (httpx, or httpx2 since 2026).
        import anthropic
        import anthropic._base_client
        import openai
        import openai._base_client

        def sdk_client(base_client):
            package = vars(base_client).get("httpx2") or vars(base_client)["httpx"]
            return package.Client(http2=True, verify=ca)
        server.reset()
        with sdk_client(openai._base_client) as transport:
            chat = openai.OpenAI(base_url=f"{https}/v1", api_key="sk-stubd", max_retries=0, http_client=transport)
            text = "".join(choice.delta.content or "" for chunk in chat.chat.completions.create(
                model="gpt-test", messages=[{"role": "user", "content": "hi"}], stream=True) for choice in chunk.choices)
        with sdk_client(anthropic._base_client) as transport:
            claude = anthropic.Anthropic(base_url=https, api_key="stubd", max_retries=0, http_client=transport)
            with claude.messages.stream(model="claude-test", max_tokens=50, messages=[{"role": "user", "content": "hi"}]) as stream:
                said = stream.get_final_message().content[0].text
        protocols = [e.get("protocol") for e in server.journal("/v1/chat/completions") + server.journal("/v1/messages")]
        check("the openai and anthropic SDKs over h2 (http2=True): a streamed answer each, journaled h2",
              (text, said, protocols) == ("Hello over h2.", "Hello over h2.", ["h2", "h2"]), (text, said, protocols))
        code, out = curl("--cacert", ca, "-N", "-w", " %{http_version}", f"{https}/events")
        check("  …curl over TLS reads the stream over h2", code == 0 and out == b"data: one\n\ndata: two\n\n 2", (code, out[-40:]))
        # A stream written as it goes (the dashboard's journal events): its events arrive as DATA
        # while other streams on the same connection are answered; closing it leaves the
        # connection serving.
        with httpx.Client(http1=False, http2=True, timeout=10) as client:
            with client.stream("GET", f"{base}/__stubd/events") as events:
                lines = events.iter_lines()
                first = next(lines)
                beside = client.get(f"{base}/zen")
                seen = []
                for line in lines:
                    seen.append(line)
                    if line.startswith("data:") and '"/zen"' in line:
                        break
                version = events.http_version
            after = client.get(f"{base}/zen")
        check("the dashboard's live events over h2: a GET on the same connection is answered and arrives as an event",
              (version, first, beside.status_code, any('"/zen"' in line for line in seen)) == ("HTTP/2", "retry: 1000", 200, True),
              (version, first, beside.status_code, seen[-2:]))
        check("  …closing the event stream (RST_STREAM CANCEL) leaves the connection serving", after.status_code == 200 and after.http_version == "HTTP/2",
              (after.status_code, after.http_version))
        code, out = curl("--cacert", ca, "-N", "--max-time", "1", "-w", " %{http_version}", f"{https.replace('localhost', '127.0.0.1')}/__stubd/events")
        check("  …curl over TLS reads them over h2", code == 28 and out.startswith(b"retry: 1000") and out.endswith(b" 2"), (code, out[-60:]))
    finally:
        server.stop()
    # Through the proxy: a tunnel stubd intercepts negotiates h2 as the real API would.
    server = Stubd(folder, work, "--proxy-port", "0")
    try:
        proxy = next(line.split()[1] for line in server.lines if line.startswith("proxy "))
        code, out = curl("-x", proxy, "--cacert", server.ca, "-w", " %{http_version}", "https://api.example.com/v1/me")
        check("through the proxy: an intercepted tunnel negotiates h2", (code, out) == (0, b'{"me":1} 2'), (code, out))
        entry = server.journal("/v1/me")[-1]
        check("  …journaled with the tunnel's server and protocol h2", (entry.get("server"), entry.get("protocol")) == ("https://api.example.com", "h2"),
              (entry.get("server"), entry.get("protocol")))
    finally:
        server.stop()
    # An upstream's stream relayed as it arrives over h2 (stubd record, a client on h2c): each event
    # reaches the client when the upstream sends it, and the recording keeps their timing.
    upstream = paced_upstream()
    recorded = os.path.join(work, "recorded")
    recorder = subprocess.Popen([STUBD, "record", "--upstream", f"http://127.0.0.1:{upstream.server_port}", "--port", "0", "--out", recorded,
                                 "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        # Its first line says where it listens, once it does.
        banner = recorder.stdout.readline()
        if " on http://" not in banner:
            raise RuntimeError(f"stubd record did not start: {banner!r}")
        base = banner.rsplit(" on ", 1)[1].strip()
        with httpx.Client(http1=False, http2=True, timeout=10) as client:
            started = time.monotonic()
            with client.stream("GET", f"{base}/events") as relayed:
                arrivals = [(round(time.monotonic() - started, 2), line) for line in relayed.iter_lines() if line]
                version = relayed.http_version
        check("an upstream's stream relayed over h2 as it arrives (stubd record): each event when the upstream sends it",
              version == "HTTP/2" and [line for _, line in arrivals] == ["data: 0", "data: 1", "data: 2"]
              and arrivals[0][0] < 0.3 and arrivals[2][0] >= 0.8, (version, arrivals))
        # The recording is written off the loop once the answer has gone.
        fixture = os.path.join(recorded, "GET-events.json")
        for _ in range(100):
            if os.path.exists(fixture):
                break
            time.sleep(0.05)
        with open(fixture) as handle:
            events = json.load(handle)["routes"][0]["stream"]["events"]
        check("  …and recorded with its timing", [(e["data"], e["delay"] >= 0.35) for e in events] == [("0", False), ("1", True), ("2", True)], events)
    finally:
        recorder.terminate()
        recorder.wait(timeout=10)
        upstream.shutdown()
    # An idle HTTP/2 connection: GOAWAY at the idle timeout, then the close, whatever the client does.
    server = Stubd(folder, work, "--idle-timeout", "1")
    try:
        import socket
        port = int(server.base.rsplit(":", 1)[1])
        started = time.monotonic()
        kinds, closed = [], False
        with socket.create_connection(("127.0.0.1", port), timeout=6) as raw:
            raw.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
            data = b""
            try:
                while True:
                    chunk = raw.recv(4096)
                    if not chunk:
                        closed = True
                        break
                    data += chunk
            except OSError:
                pass
            while len(data) >= 9:
                length = int.from_bytes(data[:3], "big")
                kinds.append(data[3])
                data = data[9 + length:]
        took = time.monotonic() - started
        check("an idle h2 connection gets GOAWAY at the idle timeout and is closed", 7 in kinds and closed and 0.9 <= took < 4,
              f"frames {kinds}, closed {closed} after {took:.1f} s")
    finally:
        server.stop()
    server = Stubd(folder, work, "--http2", "off")
    try:
        check("--http2 off: the ready file says so", server.lines[-1] == "http2 off", server.lines)
        code, out = curl("--http2-prior-knowledge", f"{server.base}/zen")
        check("--http2 off: the preface is answered GOAWAY HTTP_1_1_REQUIRED (curl 16)", code == 16, (code, out))
        code, out = curl("--cacert", server.ca, "-w", " %{http_version}", f"{server.https}/zen")
        check("--http2 off: TLS negotiates HTTP/1.1", (code, out) == (0, b"Design for failure. 1.1"), (code, out))
        code, out = curl("--http2", "-w", " %{http_version}", f"{server.base}/zen")
        check("--http2 off: an Upgrade: h2c is answered over HTTP/1.1", (code, out) == (0, b"Design for failure. 1.1"), (code, out))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"h2: {'every check passed' if not failures else str(len(failures)) + ' failed: ' + ', '.join(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
