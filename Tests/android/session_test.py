#!/usr/bin/env python3
"""docs/ANDROID.md's OkHttp lines (Tests/android/SessionExample.java, the page's block checked as a
copy by Tests/docs/snippets_test.py) run with Debian's OkHttp 3 on Java 17 against a real stubd:
the interceptor's session header reaches stubd on the admin call and the app's request, the
session's stub answers, its count is 1, and another session gets the fixtures' 404.

Usage: python3 Tests/android/session_test.py [STUBD_BINARY]   (make test; needs java, libokhttp-java)
"""
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"
CLASSPATH = "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar"


def status(url, host):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Host": host}), timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def emulator_host(folder):
    problems = []
    for extra, admin in (((), 403), (("--allowed-host", "10.0.2.2"), 200)):
        stubd = Stubd(BINARY, folder, "--quiet", *extra)
        try:
            host = f"10.0.2.2:{stubd.port}"
            seen = (status(stubd.base + "/__stubd/health", host), status(stubd.base + "/missing", host))
        finally:
            stubd.stop()
        if seen != (admin, 404):
            problems.append(f"with {list(extra) or 'no flags'}: admin {seen[0]} (expected {admin}), a stub request {seen[1]} (expected 404, served)")
    return problems


def main():
    folder = tempfile.mkdtemp(prefix="stubd-android-")
    stubd = Stubd(BINARY, folder, "--quiet")
    try:
        run = subprocess.run(["java", "-cp", CLASSPATH, os.path.join(HERE, "SessionExample.java"), stubd.base],
                             capture_output=True, text=True, timeout=120)
    finally:
        stubd.stop()
    problems = emulator_host(folder)
    if problems:
        sys.exit("android: FAILED: Host 10.0.2.2: " + "; ".join(problems))
    lines = [line.strip() for line in run.stdout.split("\n") if line.strip()]
    expected = ['200 {"id":7}', "{", '"count": 1', "}", "other 404"]
    if run.returncode != 0 or lines != expected:
        sys.exit(f"android: FAILED: exit {run.returncode}, printed {lines}, expected {expected}\n{run.stderr[-2000:]}")
    print("android: OkHttp with the session interceptor: the session's stub answered (200), counted once; another session got 404")
    print("android: Host 10.0.2.2: admin API 403 by default, 200 with --allowed-host 10.0.2.2; stub requests served either way")


main()
