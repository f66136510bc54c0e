"""The JVM and JavaScript kits against real stubd servers (issue 48), as make test runs them:

- kits/jvm/build.sh test: javac with Debian's JDK and jars, then the JUnit 5 suite in parallel
  (20 sessions stubbing the same path differently, a strict test failing on an unused stub, OkHttp
  through the interceptor, record once and replay) against a stubd this script starts, with a
  second stubd as the API recorded from;
- node --test kits/js/tests: the same cases for the JavaScript kit (it starts its own servers);
- docs/TESTING.md's Java and JavaScript examples (ProfileTest.java, profile.test.js: the snippets test
  checks the page's lines are theirs) run in those suites against the stubd this script starts.

Usage: python3 Tests/kits/kits_test.py path/to/stubd
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def fixtures(routes):
    folder = tempfile.mkdtemp(prefix="stubd-kits-")
    with open(os.path.join(folder, "routes.json"), "w") as handle:
        json.dump({"routes": routes}, handle)
    return folder


def run(command, env, what):
    print(f"---- {what}: {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=ROOT, env={**os.environ, **env}, timeout=600)
    if result.returncode != 0:
        print(f"FAIL {what} (exit {result.returncode})")
        sys.exit(1)
    print(f"ok   {what}")


def block(page, before, language):
    """The code block of `language` that follows the line `before` on docs/`page`."""
    text = open(os.path.join(ROOT, "docs", page)).read()
    return text.split(before, 1)[1].split(f"```{language}\n", 1)[1].split("```", 1)[0]


def pasted_java(server):
    """Issue 59: TESTING.md's Java block pasted into ProfileTest.java of a folder of its own, compiled
    and run with KITS.md's commands without Gradle, as a user who copies both would."""
    folder = tempfile.mkdtemp(prefix="stubd-pasted-java-")
    with open(os.path.join(folder, "ProfileTest.java"), "w") as handle:
        handle.write(block("TESTING.md", "<!-- snippet: copy of kits/jvm/src/test/java/com/example/shop/ProfileTest.java -->", "java"))
    commands = block("KITS.md", "**Without Gradle.**", "sh")
    print(f"---- TESTING.md's Java block, pasted, with KITS.md's commands in {folder}", flush=True)
    result = subprocess.run(["bash", "-e", "-c", commands], cwd=folder, timeout=600, capture_output=True, text=True,
                            env={**os.environ, "STUBD_KIT": os.path.join(ROOT, "kits", "jvm", "build"), "STUBD_BASE_URL": server.base})
    if result.returncode != 0 or "1 tests successful" not in result.stdout:
        print(result.stdout[-2000:], result.stderr[-2000:])
        print(f"FAIL TESTING.md's Java block, pasted, compiled and run without Gradle (exit {result.returncode})")
        sys.exit(1)
    print("ok   TESTING.md's Java block, pasted as it is, compiles and passes with KITS.md's commands (no Gradle)")


def main():
    binary = os.path.abspath(sys.argv[1])
    server = Stubd(binary, fixtures([{"name": "profile", "request": {"method": "GET", "path": "/profile"},
                                      "response": {"json": {"name": "shared"}}}]), "--quiet")
    upstream = Stubd(binary, fixtures([{"request": {"method": "GET", "path": "/weather"},
                                        "response": {"json": {"sky": "clear"}}}]), "--quiet")
    try:
        if os.environ.get("KITS_JVM", "yes") == "yes":
            run(["bash", "kits/jvm/build.sh", "test"], {"STUBD_BASE_URL": server.base, "STUBD_TEST_UPSTREAM": upstream.base},
                "the JVM kit's JUnit 5 tests (docs/TESTING.md's Java example among them)")
            pasted_java(server)
        else:
            print("---- the JVM kit's JUnit 5 tests are not run here (KITS_JVM=no: Debian's junit5 and OkHttp jars are Linux make test's)")
        # session.test.js starts its own servers (STUBD_BIN); profile.test.js, docs/TESTING.md's example, uses STUBD_BASE_URL.
        run(["node", "--test", "kits/js/tests/"], {"STUBD_BIN": binary, "STUBD_BASE_URL": server.base},
            "the JavaScript kit's node --test suite (docs/TESTING.md's JavaScript example among them)")
    finally:
        server.stop()
        upstream.stop()


if __name__ == "__main__":
    main()
