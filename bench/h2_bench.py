"""HTTP/2 throughput, stubd beside nginx (issue 61): h2load (Debian's nghttp2-client) with 50
connections and 10 streams each on the same 119-byte JSON route, over h2c (prior knowledge) and
over TLS (ALPN h2), one worker each, rounds alternating stubd and nginx so drift hits both alike.
Prints requests per second per round, the medians, and stubd's share of nginx's. Figures only: it
never fails on timing.

    python3 bench/h2_bench.py .build/release/stubd      (make bench runs it)
    H2_SECONDS=5 H2_ROUNDS=3
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import BODY  # noqa: E402  (the same 119-byte body as the HTTP/1.1 figures)

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/stubd")
SECONDS = int(os.environ.get("H2_SECONDS", "5"))
ROUNDS = int(os.environ.get("H2_ROUNDS", "3"))


def wait(url, insecure=False):
    import ssl
    context = ssl._create_unverified_context() if insecure else None
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=0.5, context=context).read()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer")


def h2load(url):
    done = subprocess.run(["h2load", "-c", "50", "-m", "10", "-t", "1", "-D", str(SECONDS), url], capture_output=True, text=True,
                          timeout=SECONDS + 60)
    match = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", done.stdout)
    ok = re.search(r"(\d+) succeeded, (\d+) failed", done.stdout)
    # With -D, requests still in flight when the time is up count as failed: a few hundred at most.
    if not match or not ok or int(ok.group(1)) == 0 or int(ok.group(2)) > 1000:
        raise RuntimeError(f"h2load {url}: {done.stdout[-400:]} {done.stderr[-200:]}")
    return float(match.group(1))


def main():
    work = tempfile.mkdtemp(prefix="stubd-h2-bench-")
    try:
        fixtures = os.path.join(work, "fixtures")
        os.makedirs(fixtures)
        with open(os.path.join(fixtures, "routes.json"), "w") as out:
            json.dump({"routes": [{"name": "user", "request": {"method": "GET", "path": "/users/octocat"},
                                   "response": {"headers": {"Content-Type": "application/json"}, "text": BODY}}]}, out)
        ca = os.path.join(work, "ca")
        stubd = subprocess.Popen([BINARY, "serve", fixtures, "--port", "18391", "--https-port", "18392", "--ca-dir", ca, "--workers", "1", "--quiet"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait("http://127.0.0.1:18391/users/octocat")
        nginx_dir = os.path.join(work, "nginx")
        os.makedirs(nginx_dir)
        with open(os.path.join(nginx_dir, "nginx.conf"), "w") as out:
            out.write(f"""worker_processes 1; daemon off; pid {nginx_dir}/nginx.pid; error_log /dev/null;
events {{ worker_connections 4096; }}
http {{ access_log off; keepalive_requests 10000000; client_body_temp_path {nginx_dir}; proxy_temp_path {nginx_dir}; fastcgi_temp_path {nginx_dir};
  uwsgi_temp_path {nginx_dir}; scgi_temp_path {nginx_dir};
  server {{ listen 127.0.0.1:18393 http2; listen 127.0.0.1:18394 ssl http2;
    ssl_certificate {ca}/server.pem; ssl_certificate_key {ca}/server-key.pem;
    location / {{ default_type application/json; return 200 '{BODY}'; }} }} }}
""")
        nginx = subprocess.Popen(["/usr/sbin/nginx", "-c", os.path.join(nginx_dir, "nginx.conf"), "-p", nginx_dir],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait("https://127.0.0.1:18394/users/octocat", insecure=True)
        try:
            cases = [("h2c", "http://127.0.0.1:18391/users/octocat", "http://127.0.0.1:18393/users/octocat"),
                     ("h2 over TLS", "https://127.0.0.1:18392/users/octocat", "https://127.0.0.1:18394/users/octocat")]
            print("| HTTP/2, 50 connections × 10 streams, 1 worker | stubd req/s (rounds) | nginx req/s (rounds) | stubd ÷ nginx |")
            print("|---|---|---|---|")
            for name, ours, theirs in cases:
                mine, others = [], []
                for _ in range(ROUNDS):
                    mine.append(h2load(ours))
                    others.append(h2load(theirs))
                ratio = statistics.median(mine) / statistics.median(others)
                print(f"| {name} | {statistics.median(mine):,.0f} ({', '.join(f'{r:,.0f}' for r in mine)}) | "
                      f"{statistics.median(others):,.0f} ({', '.join(f'{r:,.0f}' for r in others)}) | {ratio:.2f} |", flush=True)
        finally:
            nginx.terminate()
            stubd.terminate()
            nginx.wait(timeout=10)
            stubd.wait(timeout=10)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
