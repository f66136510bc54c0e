"""make test: stubd's container image as a user runs it (issue 35) — with a mounted fixtures
folder: healthy only once it serves, a stub, the admin API with and without the token, HTTPS with
the CA exported by `stubd cert --pem -`, flags passed through, a restart keeping only what is
mounted; then an image with the fixtures baked in (FROM the image, COPY). Prints the image's size
and start-to-healthy times.

    python3 Tests/container/image_test.py [IMAGE=stubd:latest]
"""
import json
import os
import ssl
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
import engine  # noqa: E402

IMAGE = sys.argv[1] if len(sys.argv) > 1 else "stubd:latest"
TOKEN = "container-test-token"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def get(url, headers=None, method="GET", body=None, context=None):
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=body)
    try:
        with urllib.request.urlopen(request, timeout=5, context=context) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def fixtures(folder, body):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hello.json"), "w") as file:
        json.dump({"routes": [{"name": "hello", "request": {"method": "GET", "path": "/hello"},
                               "response": {"status": 200, "json": body}}]}, file)


def mounted(scratch):
    name = "stubd-image-test-mounted"
    engine.remove(name)
    folder = os.path.join(scratch, "mocks")
    fixtures(folder, {"from": "mount"})
    # --port 8080 again: a flag given to `run` is appended to the entrypoint's (the last one wins).
    engine.run("run", "-d", "--name", name, "-p", "127.0.0.1::8080", "-p", "127.0.0.1::8443",
               "-v", f"{folder}:/fixtures:ro", "-e", f"STUBD_ADMIN_TOKEN={TOKEN}", IMAGE, "--https-port", "8443", "--quiet")
    try:
        healthy = engine.wait_healthy(name)
        print(f"     start to healthy: {healthy:.2f} s")
        base = f"http://127.0.0.1:{engine.published(name, 8080)}"
        status, text = get(base + "/hello")
        check(status == 200 and json.loads(text) == {"from": "mount"}, f"the mounted fixture is served ({status} {text.strip()[:60]})")
        status, _ = get(base + "/zen")
        check(status == 404, f"the demo fixtures are replaced by the mount (GET /zen: {status})")
        status, text = get(base + "/__stubd/ready")
        check(status == 200 and '"ready"' in text, f"GET /__stubd/ready answers without the token ({status})")
        status, _ = get(base + "/__stubd/health")
        check(status == 401, f"the admin API needs the token ({status})")
        status, text = get(base + "/__stubd/health", {"Authorization": f"Bearer {TOKEN}"})
        check(status == 200 and json.loads(text)["fixtureRoutes"] == 1, f"an admin call with the token ({status})")
        route = json.dumps({"request": {"method": "GET", "path": "/runtime"}, "response": {"status": 200, "text": "added"}}).encode()
        status, _ = get(base + "/__stubd/routes", {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}, "POST", route)
        check(status == 201 and get(base + "/runtime")[0] == 200, f"a runtime route added through the admin API ({status})")
        user = engine.run("inspect", name, "--format", "{{.Config.User}}").strip()
        check(user == "65532:65532", f"runs as an unprivileged user ({user})")
        shell = engine.run("exec", name, "/bin/sh", "-c", "true", check=False)
        check(shell.returncode != 0, "no shell in the image")

        pem = engine.run("exec", name, "/usr/bin/stubd", "cert", "--pem", "-")
        check(pem.startswith("-----BEGIN CERTIFICATE-----"), "stubd cert --pem - exports the CA")
        ca = os.path.join(scratch, "stubd-ca.pem")
        with open(ca, "w") as file:
            file.write(pem)
        context = ssl.create_default_context(cafile=ca)
        https = f"https://localhost:{engine.published(name, 8443)}"
        status, text = get(https + "/hello", context=context)
        check(status == 200 and "mount" in text, f"HTTPS verified with the exported CA ({status})")

        engine.run("restart", "-t", "2", name)
        healthy = engine.wait_healthy(name)
        print(f"     restart to healthy: {healthy:.2f} s")
        base = f"http://127.0.0.1:{engine.published(name, 8080)}"
        check(get(base + "/runtime")[0] == 404, "after a restart the runtime route is gone")
        check(get(base + "/hello")[0] == 200, "after a restart the mounted fixtures serve")
    finally:
        engine.remove(name)


def unreadable(scratch):
    """A mounted folder the image's user may not read is refused by name, not served as empty."""
    folder = os.path.join(scratch, "private")
    fixtures(folder, {"from": "private"})
    os.chmod(folder, 0o700)
    name = "stubd-image-test-unreadable"
    engine.remove(name)
    engine.run("run", "--name", name, "-v", f"{folder}:/fixtures:ro", IMAGE, check=False, timeout=60)
    try:
        state = json.loads(engine.run("inspect", name))[0]["State"]
        logs = engine.run("logs", name, check=False)
        text = (logs.stdout or "") + (logs.stderr or "")
        check(state.get("ExitCode") == 1 and "/fixtures: this folder cannot be read (Permission denied)" in text,
              f"an unreadable mount stops stubd with the folder named (exit {state.get('ExitCode')}: {text.strip()[:120]})")
    finally:
        engine.remove(name)


def baked(scratch):
    name, tag = "stubd-image-test-baked", "localhost/stubd-image-test-baked:latest"
    engine.remove(name)
    context = os.path.join(scratch, "baked")
    fixtures(os.path.join(context, "fixtures"), {"from": "image"})
    with open(os.path.join(context, "Containerfile"), "w") as file:
        file.write(f"FROM {IMAGE}\nCOPY fixtures/ /fixtures/\n")
    format = ["--format", "docker"] if engine.ENGINE.endswith("podman") else []
    engine.run("build", "-q", *format, "-t", tag, context, timeout=300)
    engine.run("run", "-d", "--name", name, "-p", "127.0.0.1::8080", tag)
    try:
        healthy = engine.wait_healthy(name)
        print(f"     baked image, start to healthy: {healthy:.2f} s")
        base = f"http://127.0.0.1:{engine.published(name, 8080)}"
        status, text = get(base + "/hello")
        check(status == 200 and json.loads(text) == {"from": "image"}, f"fixtures baked into a derived image are served ({status})")
        check(get(base + "/zen")[0] == 200, "the base image's demo fixtures are still there beside them")
        status, _ = get(base + "/__stubd/health")
        check(status == 403, f"without STUBD_ADMIN_TOKEN the admin API is off ({status})")
    finally:
        engine.remove(name)
        engine.run("rmi", "-f", tag, check=False)


def main():
    size = int(engine.run("image", "inspect", IMAGE, "--format", "{{.Size}}").strip())
    print(f"image {IMAGE}: {size / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as scratch:
        mounted(scratch)
        unreadable(scratch)
        baked(scratch)
    if failures:
        print(f"image_test: {len(failures)} failed")
        sys.exit(1)
    print("image_test: all passed")


if __name__ == "__main__":
    main()
