"""make test: several stubd instances behind a real load balancer (issue 35) — Debian's nginx in
front of three `stubd serve --sessions-only` processes, hashing on X-Stubd-Session as the
Kubernetes Ingress in packaging/kubernetes does. 50 sessions run in parallel through it, each
stubbing the same endpoint its own way; each session's stubs, journal and counts must be whole and
on one instance. An admin write without a session is refused (409). Then the instance holding
the most sessions is killed: only its sessions lose their stubs; every other keeps answering and
counting. Prints the spread, the time, and what the lost sessions saw.

    python3 Tests/cluster/nginx_test.py .build/debug/stubd
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TOKEN = "cluster-test-token"
SESSIONS = 50
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def call(url, method="GET", body=None, session=None, admin=False):
    headers = {}
    if session:
        headers["X-Stubd-Session"] = session
    if admin:
        headers["Authorization"] = f"Bearer {TOKEN}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_nginx(prefix, ports):
    port = free_port()
    with open(os.path.join(HERE, "..", "..", "packaging", "nginx", "stubd.conf")) as file:
        documented = file.read()
    placeholders = re.findall(r"^ *server 127\.0\.0\.1:\d+ .*;$", documented, re.M)
    if len(placeholders) != len(ports) or "listen 127.0.0.1:8080;" not in documented:
        sys.exit(f"packaging/nginx/stubd.conf: expected {len(ports)} server lines and listen 127.0.0.1:8080")
    for line, instance in zip(placeholders, ports):
        documented = documented.replace(line, re.sub(r":\d+ ", f":{instance} ", line), 1)
    documented = documented.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{port};")
    with open(os.path.join(HERE, "nginx.conf.template")) as file:
        text = file.read().replace("{PREFIX}", prefix).replace("{STUBD}", documented)
    conf = os.path.join(prefix, "nginx.conf")
    with open(conf, "w") as file:
        file.write(text)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-p", prefix, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("nginx exited: " + process.stderr.read().decode())
            time.sleep(0.05)
    raise RuntimeError("nginx did not listen")


def run_session(front, index):
    """One test's session through the balancer; its problems (empty when whole)."""
    session = f"cluster-{index}"
    problems = []
    route = {"request": {"method": "GET", "path": "/v1/me"}, "response": {"status": 200, "json": {"session": index}}}
    status, text = call(front + "/__stubd/routes", "POST", route, session, admin=True)
    if status != 201:
        return [f"{session}: adding its stub answered {status} {text[:80]}"]
    hits = 1 + index % 4
    for _ in range(hits):
        status, text = call(front + "/v1/me", session=session)
        if status != 200 or json.loads(text) != {"session": index}:
            problems.append(f"{session}: GET /v1/me answered {status} {text[:80]}")
    status, text = call(front + "/__stubd/requests/count?path=/v1/me", session=session, admin=True)
    if status != 200 or json.loads(text)["count"] != hits:
        problems.append(f"{session}: count {text.strip()[:60]}, expected {hits}")
    status, text = call(front + "/__stubd/requests", session=session, admin=True)
    entries = json.loads(text)["requests"] if status == 200 else []
    if len(entries) != hits or any(entry.get("session") != session for entry in entries):
        problems.append(f"{session}: its journal holds {len(entries)} entries of {[e.get('session') for e in entries]}, expected {hits} of its own")
    return problems


def holder(instances, index):
    """The instances that hold the session's runtime route (asked directly, not through nginx)."""
    found = []
    for number, instance in enumerate(instances):
        status, text = call(instance.base + "/__stubd/routes", session=f"cluster-{index}", admin=True)
        if status == 200 and any(route.get("origin") == "runtime" for route in json.loads(text)["routes"]):
            found.append(number)
    return found


def main():
    prefix = tempfile.mkdtemp()
    instances = [Stubd(BINARY, os.path.join(ROOT, "fixtures"), "--sessions-only", "--admin-token", TOKEN, "--quiet", "--workers", "1")
                 for _ in range(3)]
    nginx = None
    try:
        nginx, front = start_nginx(prefix, [instance.port for instance in instances])
        status, text = call(front + "/zen")
        check(status == 200, f"a fixture through the balancer without a session ({status})")
        status, text = call(front + "/__stubd/routes", "POST", {"request": {"method": "GET", "path": "/x"}, "response": {"status": 200}}, admin=True)
        check(status == 409 and "--sessions-only" in text, f"an admin write without a session is refused ({status})")

        start = time.monotonic()
        with ThreadPoolExecutor(SESSIONS) as pool:
            problems = [p for found in pool.map(lambda i: run_session(front, i), range(SESSIONS)) for p in found]
        elapsed = time.monotonic() - start
        check(not problems, f"{SESSIONS} sessions in parallel: stubs, journal and counts whole ({elapsed:.2f} s)" +
              ("".join("\n     " + p for p in problems[:5])))
        holders = {index: holder(instances, index) for index in range(SESSIONS)}
        check(all(len(found) == 1 for found in holders.values()), "each session's stub lives on exactly one instance")
        spread = [sum(1 for found in holders.values() if found == [n]) for n in range(3)]
        print(f"     sessions per instance: {spread[0]}/{spread[1]}/{spread[2]}")
        check(all(count > 0 for count in spread), "the sessions spread over all three instances")

        # Lose the instance with the most sessions.
        lost = max(range(3), key=lambda n: spread[n])
        instances[lost].stop()
        survivors_ok, lost_seen = 0, {}
        for index, found in holders.items():
            status, text = call(front + "/v1/me", session=f"cluster-{index}")
            if found == [lost]:
                lost_seen[status] = lost_seen.get(status, 0) + 1
            elif status == 200 and json.loads(text) == {"session": index}:
                status, text = call(front + "/__stubd/requests/count?path=/v1/me", session=f"cluster-{index}", admin=True)
                if status == 200 and json.loads(text)["count"] == 1 + index % 4 + 1:
                    survivors_ok += 1
        survivors = SESSIONS - spread[lost]
        check(survivors_ok == survivors, f"after losing instance {lost}: {survivors_ok} of {survivors} other sessions keep their stubs and counts")
        check(sum(lost_seen.values()) == spread[lost] and 200 not in lost_seen,
              f"its {spread[lost]} sessions lost their stubs (answers: {lost_seen}; they rehash to a survivor that does not have them)")
    finally:
        if nginx:
            nginx.terminate()
            nginx.wait(10)
        for instance in instances:
            instance.stop()
        shutil.rmtree(prefix, ignore_errors=True)
    if failures:
        print(f"nginx_test: {len(failures)} failed")
        sys.exit(1)
    print("nginx_test: all passed")


if __name__ == "__main__":
    main()
