#!/usr/bin/env python3
"""stubd benchmark: every figure in one run, on this machine, printed as one table and written to
docs/PERFORMANCE.md. Run through bench/run.sh (which installs and builds what this needs).

All traffic stays on 127.0.0.1; every load run is bounded by BENCH_SECONDS; every server started
here is stopped here. Figures are reported, never judged: the script exits 0 whatever they are.
"""
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
STUBD = os.path.join(ROOT, ".build", "release", "stubd")
BASELINE = os.path.join(OUT, "baseline")
DELAY_CLIENT = os.path.join(OUT, "delay_client")
STREAM_CLIENT = os.path.join(OUT, "stream_client")
WIREMOCK_JAR = os.path.join(OUT, "wiremock-standalone-2.35.1.jar")
QUICK = os.environ.get("BENCH_QUICK") == "1"
SECONDS = int(os.environ.get("BENCH_SECONDS", "3" if QUICK else "10"))
WARMUP = int(os.environ.get("BENCH_WARMUP", "5" if QUICK else "20"))
CONNECTIONS = 50
BODY = ('{"login":"octocat","id":583231,"name":"The Octocat","company":"@github",'
        '"location":"San Francisco","public_repos":8888}')
assert len(BODY) == 119
ROUTE_COUNTS = [1, 1000, 10000] if QUICK else [1, 1000, 10000, 100000]

rows = []      # (section, case, figures dict)
notes = []


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_status(url, timeout=1.0):
    try:
        # Readiness only: an HTTPS server under test has a certificate of its own making.
        context = ssl._create_unverified_context() if url.startswith("https:") else None
        with urllib.request.urlopen(url, timeout=timeout, context=context) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except Exception:
        return None


class Server:
    """A server process started for one measurement and always stopped."""

    def __init__(self, name, command, ready_url, cwd=None, timeout=120):
        self.name = name
        self.launched = time.monotonic()
        self.process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        self.ready_seconds = None
        deadline = self.launched + timeout
        while time.monotonic() < deadline:
            if http_status(ready_url, timeout=0.5) is not None:
                self.ready_seconds = time.monotonic() - self.launched
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.001)
        self.stop()
        raise RuntimeError(f"{name} did not answer {ready_url}")

    def rss_kb(self):
        """Resident memory of the process and its children, in KiB."""
        total = 0
        pids = [self.process.pid]
        try:
            children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
            pids += [int(p) for p in children]
        except OSError:
            pass
        for pid in pids:
            try:
                with open(f"/proc/{pid}/status") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
            except OSError:
                pass
        return total

    def private_kb(self):
        """Memory only this process holds (private clean + dirty pages), in KiB: RSS without the
        shared library pages every process using those libraries shares."""
        total = 0
        try:
            with open(f"/proc/{self.process.pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith(("Private_Clean:", "Private_Dirty:")):
                        total += int(line.split()[1])
        except OSError:
            pass
        return total

    def stop(self):
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def parse_duration(text):
    match = re.match(r"([\d.]+)(us|ms|s|m)", text)
    value, unit = float(match.group(1)), match.group(2)
    return value * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(url, seconds=None, script=None, server=None, connections=CONNECTIONS, headers=()):
    """Runs wrk; returns requests/s, p50/p99 in ms, non-2xx count and peak RSS of `server`."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds or SECONDS}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    peak = [0]
    private = [0]
    done = threading.Event()

    def sample():
        while not done.wait(0.2):
            peak[0] = max(peak[0], server.rss_kb())
            private[0] = max(private[0], server.private_kb())

    sampler = threading.Thread(target=sample, daemon=True) if server else None
    if sampler:
        sampler.start()
    output = subprocess.run(command + [url], capture_output=True, text=True, timeout=(seconds or SECONDS) + 60).stdout
    done.set()
    if sampler:
        sampler.join()
        peak[0] = max(peak[0], server.rss_kb())
    figures = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))}
    for percentile in ("50", "99"):
        match = re.search(rf"^\s+{percentile}%\s+(\S+)", output, re.M)
        figures[f"p{percentile}"] = parse_duration(match.group(1)) if match else None
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    figures["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    errors = re.search(r"Socket errors: (.*)", output)
    figures["errors"] = errors.group(1) if errors else ""
    if server:
        figures["rss_mb"] = peak[0] / 1024
        figures["private_mb"] = private[0] / 1024
    return figures


def write_fixtures(folder, count, templated=False, files=1):
    """`count` routes answering BODY, as `files` fixture files: /r/{i}/item or /t{i}/{id}."""
    os.makedirs(folder, exist_ok=True)
    routes = []
    for i in range(count):
        request = {"method": "GET"}
        if templated:
            request["pathTemplate"] = f"/t{i}/{{id}}"
        else:
            request["path"] = f"/r/{i}/item"
        routes.append({"name": f"route{i}", "request": request,
                       "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "text": BODY}})
    per_file = (count + files - 1) // files
    for index in range(files):
        chunk = routes[index * per_file:(index + 1) * per_file]
        if chunk:
            with open(os.path.join(folder, f"routes{index:05d}.json"), "w") as out:
                json.dump({"routes": chunk}, out)


def random_paths_script(folder, paths):
    listing = os.path.join(folder, "paths.txt")
    with open(listing, "w") as out:
        out.write("\n".join(paths) + "\n")
    script = os.path.join(folder, "random.lua")
    with open(script, "w") as out:
        out.write(f"""
local paths = {{}}
for line in io.lines("{listing}") do paths[#paths + 1] = line end
math.randomseed(42)
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
""")
    return script


def stubd(folder, port, workers=1, extra=()):
    return Server(f"stubd w{workers}", [STUBD, "serve", folder, "--port", str(port), "--quiet", "--workers", str(workers),
                                       "--no-cors", *extra],
                  f"http://127.0.0.1:{port}/__stubd/health")


def add(section, case, figures):
    rows.append((section, case, figures))
    shown = ", ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items() if v not in (None, ""))
    log(f"{section} / {case}: {shown}")


# ---------------------------------------------------------------------------------------------
# 1. Throughput against the peers, one route, c50.

def nginx_conf(work, name, server_lines):
    """An nginx.conf (one worker, no logs) whose one server answers BODY; returns (prefix, file)."""
    conf_dir = os.path.join(work, name)
    os.makedirs(conf_dir, exist_ok=True)
    conf = os.path.join(conf_dir, "nginx.conf")
    with open(conf, "w") as out:
        out.write(f"""worker_processes 1; daemon off; pid {conf_dir}/nginx.pid; error_log /dev/null;
events {{ worker_connections 4096; }}
http {{ access_log off; client_body_temp_path {conf_dir}; proxy_temp_path {conf_dir}; fastcgi_temp_path {conf_dir};
  uwsgi_temp_path {conf_dir}; scgi_temp_path {conf_dir};
  server {{ {server_lines} location / {{ default_type application/json; return 200 '{BODY}'; }} }} }}
""")
    return conf_dir, conf


def throughput(work):
    one = os.path.join(work, "one")
    write_fixtures(one, 1)
    path = "/r/0/item"
    port = free_port()
    with Server("baseline", [BASELINE, str(port)], f"http://127.0.0.1:{port}/") as server:
        base = wrk(f"http://127.0.0.1:{port}{path}", server=server)
        add("throughput", "C evhttp baseline (1 loop)", base)
    for workers in (1, 2):
        port = free_port()
        with stubd(one, port, workers) as server:
            wrk(f"http://127.0.0.1:{port}{path}", seconds=2)
            add("throughput", f"stubd --workers {workers}", wrk(f"http://127.0.0.1:{port}{path}", server=server))
    if os.path.exists("/usr/sbin/nginx"):
        port = free_port()
        conf_dir, conf = nginx_conf(work, "nginx", f"listen 127.0.0.1:{port};")
        with Server("nginx", ["/usr/sbin/nginx", "-c", conf, "-p", conf_dir], f"http://127.0.0.1:{port}/") as server:
            add("throughput", "nginx (1 worker)", wrk(f"http://127.0.0.1:{port}{path}", server=server))
    else:
        notes.append("nginx was not installed; its row is missing.")
    return base


# ---------------------------------------------------------------------------------------------
# 1a. Response templates: the same JSON answer constant and with three substitutions, one server.

def templates(work):
    folder = os.path.join(work, "templates")
    os.makedirs(folder, exist_ok=True)
    plain = {"id": "42", "q": "swift", "method": "GET", "name": "octocat", "public_repos": 8}
    templated = dict(plain, id="{{request.path.id}}", q="{{request.query.q}}", method="{{request.method}}")
    with open(os.path.join(folder, "templates.json"), "w") as out:
        json.dump({"routes": [
            {"request": {"method": "GET", "pathTemplate": "/plain/{id}", "anyOtherQuery": True}, "response": {"json": plain}},
            {"request": {"method": "GET", "pathTemplate": "/tpl/{id}", "anyOtherQuery": True}, "response": {"json": templated, "template": True}},
            # The same text, once through a block helper (#each over five items) and once flat.
            {"request": {"method": "GET", "pathTemplate": "/flat/{id}", "anyOtherQuery": True},
             "response": {"text": "a-0;b-1;c-2;d-3;e-4;{{request.path.id}}", "template": True}},
            {"request": {"method": "GET", "pathTemplate": "/block/{id}", "anyOtherQuery": True},
             "response": {"text": "{{#each (split 'a,b,c,d,e' ',')}}{{this}}-{{@index}};{{/each}}{{request.path.id}}", "template": True}},
        ]}, out)
    port = free_port()
    with stubd(folder, port) as server:
        for path in ("/plain/42?q=swift", "/tpl/42?q=swift"):
            wrk(f"http://127.0.0.1:{port}{path}", seconds=2)
        add("templates", "JSON route, constant", wrk(f"http://127.0.0.1:{port}/plain/42?q=swift", server=server))
        add("templates", "JSON route, 3 substitutions", wrk(f"http://127.0.0.1:{port}/tpl/42?q=swift", server=server))
        add("templates", "text route, 1 substitution", wrk(f"http://127.0.0.1:{port}/flat/42", server=server))
        add("templates", "text route, same output from an #each block", wrk(f"http://127.0.0.1:{port}/block/42", server=server))


# ---------------------------------------------------------------------------------------------
# 1b. TLS: keep-alive requests over one handshake each connection, and new handshakes (every
# request on a new connection), stubd and nginx with the same certificate (stubd's local CA's).

def tls(work):
    one = os.path.join(work, "one")
    ca = os.path.join(work, "ca")
    path = "/r/0/item"
    port, https_port = free_port(), free_port()
    with stubd(one, port, 1, ("--https-port", str(https_port), "--ca-dir", ca)) as server:
        url = f"https://127.0.0.1:{https_port}{path}"
        wrk(url, seconds=2)
        add("tls", "stubd --workers 1, keep-alive", wrk(url, server=server))
        add("tls", "stubd --workers 1, new handshake per request", wrk(url, server=server, headers=("Connection: close",)))
    # libevent's own limit over TLS: the minimal evhttp server on OpenSSL bufferevents, as stubd's.
    https_port = free_port()
    with Server("baseline tls", [BASELINE, str(https_port), f"{ca}/server.pem", f"{ca}/server-key.pem"],
                f"https://127.0.0.1:{https_port}/") as server:
        url = f"https://127.0.0.1:{https_port}{path}"
        add("tls", "C evhttp + OpenSSL baseline (1 loop), keep-alive", wrk(url, server=server))
    if not os.path.exists("/usr/sbin/nginx"):
        notes.append("nginx was not installed; its TLS rows are missing.")
        return
    port, https_port = free_port(), free_port()
    conf_dir, conf = nginx_conf(work, "nginx-tls", f"listen 127.0.0.1:{port}; listen 127.0.0.1:{https_port} ssl; "
                                f"ssl_protocols TLSv1.2 TLSv1.3; ssl_certificate {ca}/server.pem; ssl_certificate_key {ca}/server-key.pem;")
    with Server("nginx tls", ["/usr/sbin/nginx", "-c", conf, "-p", conf_dir], f"http://127.0.0.1:{port}/") as server:
        url = f"https://127.0.0.1:{https_port}{path}"
        add("tls", "nginx (1 worker), keep-alive", wrk(url, server=server))
        add("tls", "nginx (1 worker), new handshake per request", wrk(url, server=server, headers=("Connection: close",)))


def wiremock_root(work, count):
    root = os.path.join(work, f"wiremock-{count}")
    mappings = os.path.join(root, "mappings")
    os.makedirs(mappings, exist_ok=True)
    os.makedirs(os.path.join(root, "__files"), exist_ok=True)
    for i in range(count):
        with open(os.path.join(mappings, f"m{i}.json"), "w") as out:
            json.dump({"request": {"method": "GET", "url": f"/r/{i}/item"},
                       "response": {"status": 200, "body": BODY, "headers": {"Content-Type": "application/json"}}}, out)
    return root


def wiremock(work, counts):
    if not (shutil.which("java") and os.path.exists(WIREMOCK_JAR)):
        notes.append("Java or the WireMock jar is missing; WireMock rows are missing.")
        return
    for count in counts:
        port = free_port()
        root = wiremock_root(work, count)
        command = ["java", "-jar", WIREMOCK_JAR, "--port", str(port), "--bind-address", "127.0.0.1", "--root-dir", root,
                   "--disable-request-logging", "--no-request-journal"]
        with Server("wiremock", command, f"http://127.0.0.1:{port}/__admin/mappings?limit=1") as server:
            url = f"http://127.0.0.1:{port}/r/{count - 1}/item"
            log(f"warming WireMock up for {WARMUP}s")
            wrk(url, seconds=WARMUP)
            figures = wrk(url, server=server)
            figures["start_s"] = server.ready_seconds
            add("throughput" if count == 1 else "routes", f"WireMock 2.35.1, {count} stub(s), last", figures)


# ---------------------------------------------------------------------------------------------
# 2. Route-count scaling, one stubd loop.

def scaling(work):
    reference = None
    for count in ROUTE_COUNTS:
        for templated in (False, True):
            folder = os.path.join(work, f"{'tpl' if templated else 'lit'}-{count}")
            write_fixtures(folder, count, templated)
            port = free_port()
            with stubd(folder, port) as server:
                kind = "templated" if templated else "literal"
                add("routes", f"{count} {kind} routes: load to first response", {"start_ms": server.ready_seconds * 1000})
                last = f"/t{count - 1}/42" if templated else f"/r/{count - 1}/item"
                figures = wrk(f"http://127.0.0.1:{port}{last}", server=server)
                if reference is None:
                    reference = figures["rps"]
                figures["ratio"] = figures["rps"] / reference
                add("routes", f"{count} {kind}, last route", figures)
                sample = random.Random(7).sample(range(count), min(count, 5000))
                paths = [f"/t{i}/42" if templated else f"/r/{i}/item" for i in sample]
                figures = wrk(f"http://127.0.0.1:{port}/", script=random_paths_script(folder, paths), server=server)
                figures["ratio"] = figures["rps"] / reference
                add("routes", f"{count} {kind}, random routes", figures)
                if not templated:
                    figures = wrk(f"http://127.0.0.1:{port}/r/{count}/missing", server=server)
                    figures["ratio"] = figures["rps"] / reference
                    add("routes", f"{count} literal, misses (404 + near-miss report)", figures)


# ---------------------------------------------------------------------------------------------
# 3. Start-up with 10k fixture files; 4. RSS with 1k routes.

def startup_and_memory(work):
    folder = os.path.join(work, "files-10k")
    write_fixtures(folder, 10000, files=10000)
    port = free_port()
    with stubd(folder, port) as server:
        add("start-up", "10,000 fixture files: launch to first response", {"start_ms": server.ready_seconds * 1000})
    folder = os.path.join(work, "lit-1000")
    if not os.path.exists(folder):
        write_fixtures(folder, 1000)
    port = free_port()
    with stubd(folder, port) as server:
        figures = wrk(f"http://127.0.0.1:{port}/r/999/item", server=server)
        add("memory", "1,000 routes under load (c50), peak RSS", {"rss_mb": figures["rss_mb"], "private_mb": figures["private_mb"],
                                                                 "rps": figures["rps"]})


# ---------------------------------------------------------------------------------------------
# 5. 10,000 concurrent .delayed(0.5) requests.

def delays(work):
    folder = os.path.join(work, "delayed")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "slow.json"), "w") as out:
        json.dump({"request": {"method": "GET", "path": "/slow"}, "response": {"text": BODY}, "delay": 0.5}, out)
    count = 10000
    for workers in (1, 2):
        port = free_port()
        with stubd(folder, port, workers, extra=("--journal-size", str(count))):
            output = subprocess.run([DELAY_CLIENT, str(port), str(count), "/slow", "0.5"], capture_output=True, text=True,
                                    timeout=60).stdout
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/__stubd/requests?path=/slow", timeout=60) as response:
                served = sorted(max(0.0, entry["latencyMs"] - 500.0) for entry in json.load(response)["requests"])
        figures = {key: float(value) if "." in value else int(value)
                   for key, value in (pair.split("=") for pair in output.split())}
        add("delays", f"10,000 concurrent .delayed(0.5), --workers {workers}: client-side", figures)
        if served:
            add("delays", f"10,000 concurrent .delayed(0.5), --workers {workers}: server-side (parsed request → reply)",
                {"timer_err_p50_ms": served[len(served) // 2], "timer_err_p99_ms": served[int(len(served) * 0.99) - 1],
                 "timer_err_max_ms": served[-1]})


def streams(work):
    """10,000 streams open at once on one loop, each 10 SSE events 0.5 s apart (the first 2 s after
    its head), their heads spread over 1 s: how late each event is against its pause, and stubd's
    memory per open stream."""
    folder = os.path.join(work, "streams")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "feed.json"), "w") as out:
        json.dump({"request": {"method": "GET", "path": "/feed"},
                   "stream": {"events": [{"data": {"n": n}} for n in range(10)], "pacing": {"first": 2, "between": 0.5}}}, out)
    count = 10000
    port = free_port()
    with stubd(folder, port, 1, extra=("--journal-size", str(count))) as server:
        output = subprocess.run([STREAM_CLIENT, str(port), str(count), "/feed", "10", "2", "0.5", str(server.process.pid), "1"],
                                capture_output=True, text=True, timeout=120).stdout
    figures = {key: float(value) if "." in value else int(value) for key, value in (pair.split("=") for pair in output.split())}
    add("streams", "10,000 concurrent SSE streams, 10 events 0.5 s apart, --workers 1", figures)


# ---------------------------------------------------------------------------------------------
# 6. Dribble accuracy: a 10 KB body in 10 pieces over 1 s, 20 clients at once.

def dribble_client(port, results):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /dribble HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        start = time.monotonic()
        arrivals = []
        while True:
            data = s.recv(65536)
            if not data:
                break
            arrivals.append(time.monotonic() - start)
        results.append(arrivals)


def dribble(work):
    folder = os.path.join(work, "dribble")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "dribble.json"), "w") as out:
        json.dump({"request": {"method": "GET", "path": "/dribble"}, "response": {"text": "x" * 10240},
                   "dribble": {"chunks": 10, "seconds": 1.0}}, out)
    port = free_port()
    results = []
    with stubd(folder, port):
        threads = [threading.Thread(target=dribble_client, args=(port, results)) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    totals = sorted(abs(arrivals[-1] - 1.0) * 1000 for arrivals in results if arrivals)
    pieces = sorted(len(arrivals) for arrivals in results)
    add("dribble", "10 KB in 10 pieces over 1 s, 20 clients: last byte vs 1 s",
        {"total_err_p50_ms": totals[len(totals) // 2], "total_err_max_ms": totals[-1], "reads_min": pieces[0]})


# ---------------------------------------------------------------------------------------------
# Report

def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    def version(command):
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=20).stdout.strip().splitlines()[0]
        except Exception:
            return "unavailable"
    return [
        f"CPU: {cpu}, {os.cpu_count()} cores; memory: {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') // 2**30} GiB",
        f"Kernel: {platform.release()}",
        f"Swift: {version(['swift', '--version'])}",
        f"libevent: {version(['dpkg-query', '-W', '-f=${Version}', 'libevent-2.1-7'])}",
        f"wrk: {version(['wrk', '--version'])}",
        f"nginx: {subprocess.run(['/usr/sbin/nginx', '-v'], capture_output=True, text=True).stderr.strip() if os.path.exists('/usr/sbin/nginx') else 'not installed'}",
        f"Java: {subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0] if shutil.which('java') else 'not installed'}",
        f"Load: wrk -t1 -c{CONNECTIONS} -d{SECONDS}s on the same machine (it shares the cores with the server)",
    ]


def fmt(value, digits=1):
    if value is None or value == "":
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def report(baseline_rps):
    lines = ["| section | case | req/s | ×baseline | p50 ms | p99 ms | RSS MB | other |", "|---|---|---|---|---|---|---|---|"]
    for section, case, f in rows:
        other = []
        for key in ("ratio", "private_mb", "start_ms", "start_s", "completion_s", "answered", "of", "timer_err_p50_ms",
                    "timer_err_p99_ms", "timer_err_max_ms", "total_err_p50_ms", "total_err_max_ms", "reads_min", "non2xx",
                    "streams_whole", "events", "late_p50_ms", "late_p99_ms", "late_max_ms", "over_5ms", "kb_per_stream"):
            if f.get(key) not in (None, 0, "") or key in ("answered", "streams_whole", "over_5ms") and key in f:
                label = {"ratio": "×1 route", "private_mb": "private MB"}.get(key, key)
                other.append(f"{label} {fmt(f[key], 2)}")
        if f.get("errors"):
            other.append(f"socket errors: {f['errors']}")
        ratio = f["rps"] / baseline_rps if "rps" in f and baseline_rps else None
        lines.append(f"| {section} | {case} | {fmt(f.get('rps'), 0)} | {fmt(ratio, 2)} | {fmt(f.get('p50'), 2)} | "
                     f"{fmt(f.get('p99'), 2)} | {fmt(f.get('rss_mb'))} | {'; '.join(other)} |")
    return lines


# ---------------------------------------------------------------------------------------------
# 9. The dashboard: one tab reading the event stream while one loop serves load.

class EventTab:
    """A dashboard tab's event stream, read on a thread: counts `exchange` events as they come."""

    def __init__(self, port):
        import socket
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /__stubd/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.events = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        marker = b"event: exchange"
        carry = b""
        while not self.stopped.is_set():
            try:
                data = self.sock.recv(1 << 16)
            except OSError:
                return
            if not data:
                return
            window = carry + data
            self.events += window.count(marker)
            # Shorter than the marker, so nothing is counted twice; a marker cut between reads is found.
            carry = window[-(len(marker) - 1):]

    def stop(self):
        self.stopped.set()
        self.sock.close()
        self.thread.join(timeout=5)
        return self.events


def dashboard(work):
    folder = os.path.join(work, "lit-1")
    if not os.path.exists(folder):
        write_fixtures(folder, 1)
    port = free_port()
    with stubd(folder, port) as server:
        url = f"http://127.0.0.1:{port}/r/0/item"
        add("dashboard", "one loop, no dashboard tab open", wrk(url, server=server))
        for connections, label in ((CONNECTIONS, f"c{CONNECTIONS}"), (1, "c1, a lighter load")):
            if connections == 1:
                add("dashboard", "one loop, no dashboard tab open, c1", wrk(url, server=server, connections=1))
            tab = EventTab(port)
            time.sleep(0.5)
            started = time.monotonic()
            figures = wrk(url, server=server, connections=connections)
            elapsed = time.monotonic() - started
            time.sleep(1)
            events = tab.stop()
            served = int(figures["rps"] * SECONDS)
            figures["events_per_s"] = events / elapsed
            add("dashboard", f"one loop, one dashboard tab reading /__stubd/events, {label}", figures)
            notes.append(f"dashboard ({label}): the tab received {events:,} events in {elapsed:.1f} s ({events / elapsed:,.0f}/s) "
                         f"for about {served:,} requests served; a tab more than 10,000 events or 8 MiB behind is disconnected "
                         "(a browser reconnects and resumes from the journal), so fewer events than requests means it was dropped.")

def main():
    for tool, path in (("stubd", STUBD), ("baseline", BASELINE), ("delay client", DELAY_CLIENT), ("stream client", STREAM_CLIENT)):
        if not os.path.exists(path):
            sys.exit(f"bench: {path} is missing; run bench/run.sh, which builds it")
    work = tempfile.mkdtemp(prefix="stubd-bench-")
    started = time.time()
    try:
        baseline = throughput(work)
        templates(work)
        tls(work)
        wiremock(work, [1, 1000])
        scaling(work)
        startup_and_memory(work)
        delays(work)
        streams(work)
        dribble(work)
        dashboard(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    table = report(baseline["rps"])
    header = machine()
    print()
    print("\n".join(table))
    print()
    for note in notes:
        print(f"note: {note}")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    doc = [f"Written by `make bench` (bench/run.sh) on {stamp}, {int(time.time() - started)} s of measuring. "
           "Every figure below comes from that one run on the machine described; ×baseline is requests/s "
           "divided by the C evhttp baseline's in the same run. The benchmark reports; it never fails on timing.",
           "", "## Machine", ""] + [f"- {line}" for line in header] + ["", "## Results", ""] + table + [""]
    if notes:
        doc += ["## Notes", ""] + [f"- {note}" for note in notes] + [""]
    # Only the text between the markers is this run's; the page's other sections are kept.
    path = os.path.join(ROOT, "docs", "PERFORMANCE.md")
    begin, end = "<!-- make bench: begin -->", "<!-- make bench: end -->"
    page = open(path).read() if os.path.exists(path) else f"# Performance\n\n{begin}\n{end}\n"
    if begin not in page or end not in page:
        page = page.rstrip() + f"\n\n{begin}\n{end}\n"
    before, rest = page.split(begin, 1)
    after = rest.split(end, 1)[1]
    with open(path + ".tmp", "w") as out:
        out.write(before + begin + "\n" + "\n".join(doc).rstrip() + "\n" + end + after)
    os.replace(path + ".tmp", path)
    log("wrote docs/PERFORMANCE.md")


if __name__ == "__main__":
    main()
