"""What clients nobody here wrote send, matched as a real server would (issue 33): a multipart file
part (the client names its type; the fixture does not), a HEAD while debugging a sequence (it must
not use up a step), a request body compressed with gzip or deflate, and the `[::1]` spelling of
the default loopback address — each sent by curl, Python requests and Node over a real socket;
an over-limit body announced with `Expect: 100-continue` (413 at once, curl and a raw socket), and
HTTP/2 with prior knowledge (curl reads the stub over HTTP/2; a raw preface gets SETTINGS; with
`--http2 off`, GOAWAY HTTP_1_1_REQUIRED — Tests/http2/h2_test.py has the rest); and what
docs/FAULTS.md says of urllib3 called directly: a fault step, placed before the status by default,
raises `InvalidHeader` through its default retries (one attempt), while on a route with
`"faultSteps": "inBody"` they read `[reset, ok]` as 200 (the journal shows the step cut short,
then the re-send) and `retries=False` raises the step; and a default step failing before the
status for requests, httpx and Node, once each, and — as docs/FAULTS.md states them — Java's
HttpClient and OkHttp 3 (Debian's) failing a GET step and reading a HEAD step as a 502, once each.

Usage: python3 Tests/clients/round3_test.py [STUBD_BINARY]   (make test)
"""
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zlib

STUBD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import stubd_server  # noqa: E402


def Stubd(folder):
    """`stubd serve --quiet` of the binary under test (Tests/python/stubd_server.py)."""
    return stubd_server.Stubd(STUBD, folder, "--quiet")


ROUTES = [
    {"name": "upload", "request": {"method": "POST", "path": "/upload", "body": {"multipart": [
        {"name": "title", "text": "holiday"}, {"name": "file", "fileName": "a.txt", "text": "hello file"}]}},
     "response": {"status": 201, "text": "uploaded"}},
    {"name": "typed", "request": {"method": "POST", "path": "/typed", "body": {"multipart": [
        {"name": "file", "fileName": "a.png", "contentType": "image/png", "text": "png!"}]}},
     "response": {"status": 201, "text": "typed"}},
    {"name": "flaky", "request": {"method": "GET", "path": "/flaky"},
     "responses": [{"status": 503, "text": "first"}, {"status": 200, "text": "second"}]},
    {"name": "stepped", "request": {"method": "GET", "path": "/stepped"},
     "responses": [{"fault": "reset"}, {"status": 200, "text": "ok"}]},
    {"name": "head-stepped", "request": {"method": "HEAD", "path": "/head-stepped"},
     "responses": [{"fault": "reset"}, {"status": 200}]},
    {"name": "in-body", "request": {"method": "GET", "path": "/in-body"},
     "responses": [{"fault": "reset"}, {"status": 200, "text": "ok"}], "faultSteps": "inBody"},
    {"name": "tone", "request": {"method": "GET", "path": "/tone.bin"},
     "response": {"headers": {"Content-Type": "application/octet-stream", "ETag": "\"v1\""}, "text": "0123456789abcdefghij"}},
    {"name": "events", "request": {"method": "POST", "path": "/events", "body": {"json": {"event": "open", "n": 1}}},
     "response": {"status": 202, "text": "logged"}},
]

BODY = json.dumps({"event": "open", "n": 1}).encode()

NODE = r"""
const [base, kind] = process.argv.slice(1);
const zlib = require('zlib');
(async () => {
  let r;
  if (kind === 'upload') {
    const form = new FormData(); form.append('title', 'holiday');
    form.append('file', new Blob(['hello file'], {type: 'text/plain'}), 'a.txt');
    r = await fetch(base + '/upload', {method: 'POST', body: form});
  } else if (kind === 'typed-wrong') {
    const form = new FormData(); form.append('file', new Blob(['png!'], {type: 'image/jpeg'}), 'a.png');
    r = await fetch(base + '/typed', {method: 'POST', body: form});
  } else if (kind === 'range') {
    r = await fetch(base + '/tone.bin', {headers: {Range: 'bytes=10-12'}});
  } else if (kind === 'head') {
    await fetch(base + '/flaky', {method: 'HEAD'});
    r = await fetch(base + '/flaky');
  } else {
    const body = kind === 'gzip' ? zlib.gzipSync(process.env.BODY) : zlib.deflateSync(process.env.BODY);
    r = await fetch(base + '/events', {method: 'POST', body, headers: {'Content-Type': 'application/json', 'Content-Encoding': kind}});
  }
  console.log(r.status + ' ' + (await r.text()).slice(0, 60).replace(/\s+/g, ' '));
})().catch(e => console.log('error ' + e.message));
"""


def curl(*args, whole=False):
    """'STATUS BODY' (the body cut to 60 characters unless `whole`)."""
    out = subprocess.run(["curl", "-s", "-w", " %{http_code}", *args], capture_output=True, timeout=20)
    text = out.stdout.decode(errors="replace")
    body, _, status = text.rpartition(" ")
    return f"{status} {body if whole else body[:60]}".strip()


def main():
    folder = tempfile.mkdtemp(prefix="stubd-round3-")
    with open(os.path.join(folder, "round3.json"), "w") as file:
        json.dump({"routes": ROUTES}, file)
    work = tempfile.mkdtemp(prefix="stubd-round3-files-")
    with open(os.path.join(work, "a.txt"), "w") as file:
        file.write("hello file")
    with open(os.path.join(work, "a.png"), "w") as file:
        file.write("png!")
    for name, data in [("body.gz", gzip.compress(BODY)), ("body.zz", zlib.compress(BODY))]:
        with open(os.path.join(work, name), "wb") as file:
            file.write(data)
    failures = []

    def check(label, got, want):
        good = got.startswith(want)
        print(f"{'ok  ' if good else 'FAIL'} {label}: {got}")
        if not good:
            failures.append(label)

    import requests
    server = Stubd(folder)
    try:
        base = server.base
        # 1. A file part whose type the client names, against a fixture that names none.
        check("curl -F upload (part text/plain)", curl("-F", "title=holiday", "-F", f"file=@{work}/a.txt", f"{base}/upload"), "201 uploaded")
        r = requests.post(f"{base}/upload", data={"title": "holiday"}, files={"file": ("a.txt", b"hello file", "text/plain")})
        check("requests files= upload (part text/plain)", f"{r.status_code} {r.text}", "201 uploaded")
        env = dict(os.environ, BODY=BODY.decode())
        node = lambda kind: subprocess.run(["node", "-e", NODE, base, kind], capture_output=True, text=True, timeout=30, env=env).stdout.strip()
        check("Node FormData upload (Blob text/plain)", node("upload"), "201 uploaded")
        # A declared type must still match: image/jpeg for an image/png part misses, saying why.
        wrong = curl("-F", f"file=@{work}/a.png;type=image/jpeg", f"{base}/typed", whole=True)
        check("curl -F part of another declared type", wrong[:3], "404")
        named = "expected Content-Type image/png, got image/jpeg"
        check("  …and the near miss names both types", named if named in wrong else wrong[:200], named)
        check("curl -F part of the declared type", curl("-F", f"file=@{work}/a.png;type=image/png", f"{base}/typed"), "201 typed")
        # 3. HEAD while debugging does not use up the sequence's step.
        check("curl -I then GET of a sequence", (curl("-I", f"{base}/flaky"), curl(f"{base}/flaky"))[1], "503 first")
        requests.head(f"{base}/flaky")
        check("requests HEAD then GET", curl(f"{base}/flaky"), "200 second")
        # 4. Compressed request bodies, matched as the app wrote them.
        for coding, file in [("gzip", "body.gz"), ("deflate", "body.zz")]:
            got = curl("-H", "Content-Type: application/json", "-H", f"Content-Encoding: {coding}", "--data-binary", f"@{work}/{file}", f"{base}/events")
            check(f"curl {coding} body", got, "202 logged")
            data = gzip.compress(BODY) if coding == "gzip" else zlib.compress(BODY)
            r = requests.post(f"{base}/events", data=data, headers={"Content-Type": "application/json", "Content-Encoding": coding})
            check(f"requests {coding} body", f"{r.status_code} {r.text}", "202 logged")
            check(f"Node {coding} body", node(coding), "202 logged")
        # A bomb: 64 MiB of zeros in 64 KiB of gzip is compared as sent, and said.
        bomb = gzip.compress(b"\0" * (64 << 20))
        r = requests.post(f"{base}/events", data=bomb, headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
        check("a gzip bomb (64 MiB decoded) is not decoded", f"{r.status_code} {'could not decode' in r.text}", "404 True")
        # 2. Ranges, as a media player seeks.
        check("curl -r 5-9", curl("-r", "5-9", f"{base}/tone.bin"), "206 56789")
        r = requests.get(f"{base}/tone.bin", headers={"Range": "bytes=15-"})
        check("requests Range bytes=15-", f"{r.status_code} {r.text} {r.headers.get('Content-Range')}", "206 fghij bytes 15-19/20")
        r = requests.get(f"{base}/tone.bin", headers={"Range": "bytes=-3"})
        check("Node fetch Range bytes=10-12", node("range"), "206 abc")
        check("requests Range bytes=-3 (the last 3)", f"{r.status_code} {r.text}", "206 hij")
        r = requests.get(f"{base}/tone.bin", headers={"Range": "bytes=40-"})
        check("a range past the end", f"{r.status_code} {r.headers.get('Content-Range')}", "416 bytes */20")
        r = requests.get(f"{base}/tone.bin", headers={"Range": "bytes=0-1", "If-Range": '"v0"'})
        check("If-Range with another ETag: the whole body", f"{r.status_code} {r.text}", "200 0123456789abcdefghij")
        r = requests.get(f"{base}/tone.bin", headers={"Range": "bytes=0-1,5-6"})
        check("several ranges: the whole body", f"{r.status_code} {len(r.content)}", "200 20")
        # 7. A body over the limit announced with Expect: 100-continue: the 413 at once, not after
        # the client's wait (curl waits 1 s for a 100 before sending anyway).
        big = os.path.join(work, "big.bin")
        with open(big, "wb") as file:
            file.truncate(40 << 20)
        started = time.monotonic()
        got = curl("-H", "Expect: 100-continue", "--data-binary", f"@{big}", f"{base}/events")
        waited = time.monotonic() - started
        check(f"curl Expect: 100-continue with 40 MiB: 413 at once ({waited:.2f} s)", got if waited < 0.8 else f"{got} after {waited:.2f} s", "413")
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            raw.sendall(b"POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 41943040\r\nExpect: 100-continue\r\n\r\n")
            started = time.monotonic()
            head = raw.recv(4096).decode(errors="replace").split("\r\n")[0]
            check(f"a raw Expect: 100-continue head over the limit: answered in {time.monotonic() - started:.3f} s", head, "HTTP/1.1 413")
        # 6. HTTP/2 with prior knowledge: served over HTTP/2 (issue 61).
        done = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-w", " %{http_version}", f"{base}/flaky"], capture_output=True, text=True, timeout=20)
        check("curl --http2-prior-knowledge: the stub over HTTP/2", f"{done.returncode} {done.stdout}", "0 second 2")
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            raw.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
            frames = raw.recv(4096)
            check("a raw HTTP/2 preface: the server's SETTINGS (type 4) first", f"type {frames[3]}" if len(frames) >= 9 else repr(frames), "type 4")
        check("  …and HTTP/1.1 still answers after it", curl(f"{base}/flaky"), "200")
        # 7. The [::1] spelling of the default loopback address.
        check("curl http://[::1]:P", curl("-g", f"http://[::1]:{server.port}/flaky"), "200")
        # urllib3 used directly, as FAULTS.md states it.
        import urllib3
        requests.post(f"{base}/__stubd/reset")
        requests.delete(f"{base}/__stubd/requests")
        def journal():
            return [(e.get("fault"), e.get("faultSentAs"), e.get("status")) for e in requests.get(f"{base}/__stubd/requests").json()["requests"]]
        try:
            got = f"{urllib3.PoolManager().request('GET', f'{base}/stepped').status}"
        except urllib3.exceptions.InvalidHeader as error:
            got = f"InvalidHeader {error}"
        check("urllib3 default retries: a default [reset, ok] step raises, once", f"{got} {journal()}",
              "InvalidHeader Content-Length contained multiple unmatching values (1, 2) [('reset', 'beforeStatus', None)]")
        requests.post(f"{base}/__stubd/reset")
        requests.delete(f"{base}/__stubd/requests")
        answer = urllib3.PoolManager().request("GET", f"{base}/in-body")
        check("urllib3 default retries: an inBody [reset, ok] reads 200", f"{answer.status} {journal()}",
              "200 [('reset', 'cutShort', None), (None, None, 200)]")
        requests.post(f"{base}/__stubd/reset")
        try:
            got = f"{urllib3.PoolManager(retries=False).request('GET', f'{base}/in-body').status}"
        except urllib3.exceptions.ProtocolError as error:
            got = f"ProtocolError {error}"
        check("urllib3 retries=False: the inBody step raises", got, "ProtocolError ('Connection broken: IncompleteRead")
        # A default step, placed before the status: each client fails before it has a status,
        # once, and the next call gets the next step.
        import httpx
        for label, call, want in [
            ("requests", lambda: f"{requests.get(f'{base}/stepped').status_code}", "InvalidHeader"),
            ("httpx", lambda: f"{httpx.get(f'{base}/stepped').status_code}", "RemoteProtocolError"),
            ("Node fetch", lambda: subprocess.run(["node", "-e", "fetch(process.argv[1]).then(r => console.log(r.status), e => console.log('error ' + (e.cause && e.cause.code)))",
                                                    f"{base}/stepped"], capture_output=True, text=True, timeout=30).stdout.strip(), "error HPE_UNEXPECTED_CONTENT_LENGTH"),
        ]:
            requests.post(f"{base}/__stubd/reset")
            try:
                got = call()
            except Exception as error:  # noqa: BLE001 - the failure is what is checked
                got = type(error).__name__
            check(f"{label}: a default step fails before the status", got, want)
            check(f"  …{label}'s next call gets the next step", call(), "200")
        # Java's HttpClient and OkHttp, with conformance/'s probes (one client per process, so
        # connections are reused as in an app): a GET step fails, a HEAD step reads 502.
        sys.path.insert(0, os.path.join(ROOT, "conformance"))
        import run as conformance  # noqa: E402
        for name in ["java", "okhttp"]:
            if conformance.available(name):
                print(f"skip {name}: not installed here (make test-deps installs it on Linux)")
                continue
            requests.post(f"{base}/__stubd/reset")
            requests.delete(f"{base}/__stubd/requests")
            steps = ["GET /stepped", "GET /stepped", "HEAD /head-stepped", "HEAD /head-stepped"]
            seen = ["E" if r[0] == "error" else r[1] for r in conformance.run_client(conformance.client_command(name, ""), base, steps)]
            reached = [e["path"] for e in requests.get(f"{base}/__stubd/requests").json()["requests"]]
            check(f"{conformance.TITLES[name]}: GET step, next, HEAD step, next (attempts)",
                  f"{' '.join(seen)} ({reached.count('/stepped')}, {reached.count('/head-stepped')})", "E 200 502 200 (2, 2)")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"round3: {'every check passed' if not failures else str(len(failures)) + ' failed: ' + ', '.join(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
