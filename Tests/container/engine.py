"""The container engine the container tests drive (Podman here; CONTAINER_ENGINE=docker works the
same), with packaging/container/containers.conf when CONTAINERS_CONF is unset (runc, no default
ulimits: what this sandbox and CI containers need)."""
import json
import os
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ENGINE = os.environ.get("CONTAINER_ENGINE", "podman")
if ENGINE.endswith("podman") and not os.environ.get("CONTAINERS_CONF"):
    os.environ["CONTAINERS_CONF"] = os.path.join(ROOT, "packaging", "container", "containers.conf")


def run(*args, check=True, input=None, timeout=120):
    """One engine command; its standard output (text)."""
    done = subprocess.run([ENGINE, *args], capture_output=True, text=input is None or isinstance(input, str),
                          input=input, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"{ENGINE} {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout if check else done


def published(container, port):
    """The host port the container's `port` is published on (127.0.0.1)."""
    line = run("port", container, f"{port}/tcp").strip().splitlines()[0]
    return int(line.rsplit(":", 1)[1])


def wait_healthy(container, seconds=30):
    """Runs the image's HEALTHCHECK until it passes; the seconds it took from now. (Podman runs
    health checks on a systemd timer, which a container or sandbox lacks: `healthcheck run` is the
    same check, asked for.)"""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if ENGINE.endswith("podman"):
            done = run("healthcheck", "run", container, check=False)
            if done.returncode == 0:
                return time.monotonic() - start
        else:
            status = json.loads(run("inspect", container))[0]["State"].get("Health", {}).get("Status")
            if status == "healthy":
                return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"{container} not healthy after {seconds} s; logs:\n{run('logs', container, check=False).stderr}")


def remove(*containers):
    for name in containers:
        run("rm", "-f", "-t", "0", name, check=False)
