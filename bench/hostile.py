#!/usr/bin/env python3
"""Hostile-client figures for issue 21, printed, not asserted (make hostile):

1. RSS of stubd after 16 POSTs declaring and sending 50 MiB bodies (answered 413);
2. a 30 MB JSON POST to an unmatched path: its time, its 404's size, and how long a GET on the
   same (single) worker waited meanwhile;
3. a connect-and-close flood under `ulimit -n 256`: how many of 70 normal requests were answered
   within 1 s.

Usage: bench/hostile.py path/to/stubd
"""
import json, os, resource, socket, subprocess, sys, threading, time, urllib.request

STUBD = sys.argv[1] if len(sys.argv) > 1 else ".build/release/stubd"


def start(*extra, nofile=None):
    def limit():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    process = subprocess.Popen([STUBD, "serve", "fixtures", "--port", "0", "--workers", "1", "--quiet", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=limit)
    for line in process.stdout:
        if " on http://" in line:
            port = int(line.split(" on http://")[1].split(":")[1].split()[0].rstrip("/"))
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, port
    raise SystemExit("stubd did not start")


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])


def rejected_bodies():
    process, port = start()
    try:
        before = rss_kb(process.pid)
        chunk = b"a" * 65536
        for _ in range(16):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (50 << 20))
            sent = 0
            try:
                while sent < (50 << 20):
                    s.sendall(chunk)
                    sent += len(chunk)
                s.settimeout(5)
                assert s.recv(12) == b"HTTP/1.1 413"
            finally:
                s.close()
        time.sleep(0.5)
        after = rss_kb(process.pid)
        fds = len(os.listdir(f"/proc/{process.pid}/fd"))
        print(f"413 x16 (50 MiB each): RSS {before/1024:.1f} MB -> {after/1024:.1f} MB (+{(after-before)/1024:.1f} MB), {fds} descriptors open after")
    finally:
        process.kill()


def huge_miss():
    process, port = start()
    try:
        items = [{"id": i, "name": f"user{i}", "password": f"p{i}", "tags": ["a", "b", "c"]} for i in range(350000)]
        body = json.dumps({"items": items}).encode()
        waited = []

        def other():
            time.sleep(0.05)
            start_time = time.time()
            urllib.request.urlopen(f"http://127.0.0.1:{port}/zen").read()
            waited.append(time.time() - start_time)

        thread = threading.Thread(target=other)
        thread.start()
        start_time = time.time()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/nowhere", data=body, headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request)
        except urllib.error.HTTPError as error:
            reply = error.read()
        took = time.time() - start_time
        thread.join()
        print(f"{len(body)/1e6:.1f} MB JSON miss: {took*1000:.0f} ms, 404 of {len(reply)} bytes; a GET /zen on the same worker waited {waited[0]*1000:.0f} ms")
    finally:
        process.kill()


def churn():
    process, port = start(nofile=256)
    try:
        stop = threading.Event()

        def flood():
            while not stop.is_set():
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                except OSError:
                    pass

        floods = [threading.Thread(target=flood, daemon=True) for _ in range(8)]
        for thread in floods:
            thread.start()
        time.sleep(0.5)
        answered = 0
        for _ in range(70):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/zen", timeout=1).read()
                answered += 1
            except Exception:
                pass
        stop.set()
        for thread in floods:
            thread.join()
        print(f"connect-and-close flood (8 threads, ulimit -n 256): {answered} of 70 normal requests answered within 1 s")
    finally:
        process.kill()


def https_idle_flood():
    import ssl, tempfile
    ca = tempfile.mkdtemp(prefix="stubd-hostile-ca-")
    process = subprocess.Popen([STUBD, "serve", "fixtures", "--port", "0", "--https-port", "0", "--ca-dir", ca, "--workers", "1", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256)))
    ports = {}
    for line in process.stdout:
        for scheme in ("http", "https"):
            marker = f" {scheme}://127.0.0.1:"
            if marker in line and scheme not in ports:
                ports[scheme] = int(line.split(marker)[1].split("/")[0].split()[0])
        if len(ports) == 2:
            break
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    try:
        idle = []
        for _ in range(400):
            try:
                idle.append(socket.create_connection(("127.0.0.1", ports["https"]), timeout=1))
            except OSError:
                pass
        context = ssl.create_default_context(cafile=os.path.join(ca, "stubd-ca.pem"))
        answered = {"http": 0, "https": 0}
        for _ in range(60):
            for scheme in ("http", "https"):
                try:
                    urllib.request.urlopen(f"{scheme}://127.0.0.1:{ports[scheme]}/zen", timeout=1,
                                           context=context if scheme == "https" else None).read()
                    answered[scheme] += 1
                except Exception:
                    pass
        for sock in idle:
            sock.close()
        print(f"400 idle connections on the HTTPS port (ulimit -n 256): {answered['https']} of 60 HTTPS and {answered['http']} of 60 HTTP requests answered within 1 s")
    finally:
        process.kill()
        import shutil
        shutil.rmtree(ca, ignore_errors=True)


def admin_batch():
    process, port = start()
    try:
        def post(routes):
            body = json.dumps({"routes": routes}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/__stubd/routes", data=body, headers={"Content-Type": "application/json"})
            started = time.time()
            urllib.request.urlopen(request, timeout=120).read()
            return time.time() - started

        waited = []

        def other():
            time.sleep(0.05)
            started = time.time()
            urllib.request.urlopen(f"http://127.0.0.1:{port}/zen", timeout=120).read()
            waited.append(time.time() - started)

        batch = [{"request": {"method": "GET", "path": f"/batch/{i}"}, "response": {"text": str(i)}} for i in range(20000)]
        thread = threading.Thread(target=other)
        thread.start()
        took = post(batch)
        thread.join()
        print(f"admin: a batch of 20,000 routes took {took*1000:.0f} ms; a GET /zen on the same worker waited {waited[0]*1000:.0f} ms")
        post([{"request": {"method": "GET", "path": f"/more/{i}"}, "response": {"text": "m"}} for i in range(2000)])
        singles = [post([{"request": {"method": "GET", "path": f"/single/{i}"}, "response": {"text": "s"}}]) for i in range(20)]
        print(f"admin: one route added to 22,000 runtime routes: median {sorted(singles)[10]*1000:.1f} ms, max {max(singles)*1000:.1f} ms")
    finally:
        process.kill()


if __name__ == "__main__":
    rejected_bodies()
    huge_miss()
    churn()
    https_idle_flood()
    admin_batch()
