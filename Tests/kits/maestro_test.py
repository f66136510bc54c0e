"""kits/maestro's runScript files against a real stubd (issue 48), run as Maestro runs them
(Tests/kits/maestro_harness.mjs: Node's vm, env values as globals, a synchronous `http` like
Maestro's) — no Maestro or emulator here. The flow: stubd-session.js opens a session with the
flow's routes, "the app" (a request with the session header, as the app launched with
${output.stubd.session} sends) gets the stub, stubd-check.js passes and ends the session; a flow
that leaves a stub unused fails the check, naming it.

Usage: python3 Tests/kits/maestro_test.py path/to/stubd
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

SESSION = os.path.join(ROOT, "kits", "maestro", "stubd-session.js")
CHECK = os.path.join(ROOT, "kits", "maestro", "stubd-check.js")


def flow(*steps):
    command = ["node", os.path.join(HERE, "maestro_harness.mjs")]
    for file, env in steps:
        command += [file, json.dumps(env)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def app_request(base, path, session):
    request = urllib.request.Request(base + path, headers={"X-Stubd-Session": session})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.read().decode()


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def main():
    binary = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="stubd-maestro-")
    with open(os.path.join(folder, "routes.json"), "w") as handle:
        json.dump({"routes": [{"request": {"method": "GET", "path": "/v1/me"}, "response": {"json": {"name": "fixture"}}}]}, handle)
    server = Stubd(binary, folder, "--quiet")
    try:
        routes = json.dumps({"request": {"method": "GET", "path": "/v1/me"}, "response": {"json": {"name": "Ada"}}})
        opened = flow((SESSION, {"STUBD_BASE_URL": server.base, "STUBD_ROUTES": routes}))
        if opened.returncode != 0:
            fail(f"stubd-session.js: {opened.stderr}")
        output = json.loads(opened.stdout)["stubd"]
        if output["baseURL"] != server.base or not output["session"].startswith("maestro-"):
            fail(f"output.stubd: {output}")
        shown = json.loads(app_request(server.base, "/v1/me", output["session"]))
        if shown != {"name": "Ada"}:
            fail(f"the app in the session got {shown}")
        checked = flow((CHECK, {"STUBD_BASE_URL": server.base, "STUBD_SESSION": output["session"]}))
        if checked.returncode != 0 or json.loads(checked.stdout) != {"stubdChecked": True}:
            fail(f"stubd-check.js on a clean flow: {checked.stdout}{checked.stderr}")
        if json.loads(app_request(server.base, "/v1/me", output["session"])) != {"name": "fixture"}:
            fail("after stubd-check.js the session's stub is still there")
        print(f"ok   a flow: the session opened with its route, the app launched into it gets {shown}, the strict check passes and ends it")

        two = json.dumps({"routes": [{"request": {"method": "GET", "path": "/v1/me"}, "response": {"json": {"name": "Ada"}}},
                          {"name": "feed", "request": {"method": "GET", "path": "/v1/feed"}, "response": {"json": []}}]})
        opened = flow((SESSION, {"STUBD_BASE_URL": server.base, "STUBD_ROUTES": two}))
        if opened.returncode != 0:
            fail(f"stubd-session.js with two routes: {opened.stderr}")
        session = json.loads(opened.stdout)["stubd"]["session"]
        app_request(server.base, "/v1/me", session)
        checked = flow((CHECK, {"STUBD_BASE_URL": server.base, "STUBD_SESSION": session}))
        if checked.returncode == 0 or "unused stub feed: GET /v1/feed" not in checked.stderr:
            fail(f"stubd-check.js with an unused stub: {checked.returncode} {checked.stderr}")
        print("ok   a flow that leaves a stub unused fails stubd-check.js, naming it")
        down = flow((SESSION, {"STUBD_BASE_URL": "http://127.0.0.1:9"}))
        if down.returncode == 0 or "stubd is not ready at http://127.0.0.1:9" not in down.stderr:
            fail(f"stubd-session.js with no stubd: {down.stderr}")
        print("ok   with no stubd running, stubd-session.js fails saying so")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
