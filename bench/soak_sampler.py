"""Samples a running stubd's RSS and open descriptors every 30 s while driving its admin API,
then prints the samples and the growth from the first sample after warm-up to the last."""
import json, os, sys, time, urllib.request

pid, port, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
base = f"http://127.0.0.1:{port}/__stubd"

def rss_kb():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0

def fds():
    return len(os.listdir(f"/proc/{pid}/fd"))

def admin(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status
    except Exception as error:
        return getattr(error, "code", 0)

samples, calls, failures = [], 0, 0
start = time.time()
next_sample = start
while time.time() - start < seconds:
    now = time.time()
    if now >= next_sample:
        samples.append((round(now - start), rss_kb(), fds()))
        print(f"soak: t={samples[-1][0]:>4}s rss={samples[-1][1] / 1024:.1f} MB fds={samples[-1][2]}", flush=True)
        next_sample += 30
    for method, path, body, ok in [("POST", "/routes", {"request": {"method": "GET", "path": f"/rt/{calls}"}, "response": {"text": "x"}}, 201),
                                   ("GET", "/requests/count?path=/soak/*", None, 200),
                                   ("DELETE", "/routes", None, 200),
                                   ("GET", "/health", None, 200)]:
        status = admin(method, path, body)
        calls += 1
        failures += status != ok
    if calls % 400 == 0:
        admin("POST", "/reset")
    time.sleep(0.05)
samples.append((round(time.time() - start), rss_kb(), fds()))
print(f"soak: t={samples[-1][0]:>4}s rss={samples[-1][1] / 1024:.1f} MB fds={samples[-1][2]}")
warm = samples[1] if len(samples) > 2 else samples[0]
last = samples[-1]
print(f"soak: admin calls {calls}, unexpected answers {failures}")
print(f"soak: growth after warm-up (t={warm[0]}s → t={last[0]}s): RSS {(last[1] - warm[1]) / 1024:+.1f} MB "
      f"({(last[1] - warm[1]) * 100 / max(warm[1], 1):+.1f} %), descriptors {last[2] - warm[2]:+d}")
