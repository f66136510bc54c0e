#!/usr/bin/env python3
"""make test's steps, timed: each step's command, its own log (.build/test-steps/NAME.log), its
seconds, and a table of them at the end. Steps run in stages, in order; inside a stage the steps
that share nothing run side by side (`jobs` at a time), so the clients' suites — which mostly wait on
sockets and timers — overlap instead of queueing. CPU-heavy builds and the checks that measure
latency (hostile clients, fuzzing) have stages of their own, so nothing else competes with them.

Every step runs even when an earlier one of its stage fails; a failed stage stops the run (later
stages need what it built). A failed step's log tail is printed. Each step has a timeout at least
twice what it takes on a quiet 2-core machine (the table shows both), so a hang fails fast.

    python3 packaging/test-steps.py                 # what make test runs (SWIFT, UNAME, CONTAINER_TESTS from make)
    python3 packaging/test-steps.py --list          # the stages and steps, without running them
    python3 packaging/test-steps.py --only NAME…    # just these steps (after a build), e.g. --only proxy margins
"""
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.environ.get("SWIFT", "swift")
DARWIN = os.environ.get("UNAME", os.uname().sysname) == "Darwin"
CONTAINERS = os.environ.get("CONTAINER_TESTS", "no" if DARWIN else "yes") == "yes"
OPENAPI = "Tools/stubd-openapi"
BIN = ".build/debug/stubd"
LOGS = os.path.join(ROOT, ".build", "test-steps")


def py(script, *extra, env=None):
    return (["python3", script, BIN, *extra], env or {})


def sh(command, env=None):
    return (["bash", "-c", command], env or {})


# (stage, jobs at once, [(name, (command, env), timeout seconds, skipped-because or None)])
STAGES = [
    ("build and Swift suites", 1, [
        ("wiremock-jar", sh("bash bench/wiremock-jar.sh"), 600, None),
        ("stubd-openapi", sh(f"{SWIFT} test --package-path {OPENAPI} || {{ echo 'make: retrying stubd-openapi in a fresh build folder'; "
                             f"rm -rf {OPENAPI}/.build; {SWIFT} test --package-path {OPENAPI}; }}"), 1500, None),
        ("swift-suites", sh("bash packaging/swift-tests.sh", {"SWIFT": SWIFT, "STUBD_OPENAPI": f"{ROOT}/{OPENAPI}/.build/debug/stubd-openapi"}),
         2400, None),
    ]),
    ("real clients", 3, [
        ("streams", py("Tests/streams/clients_test.py"), 600, None),
        ("round3", py("Tests/clients/round3_test.py"), 600, None),
        ("node-fetch", py("Tests/clients/node_fetch_test.py"), 600, None),
        ("tls-fault-steps", py("Tests/clients/tls_fault_steps_test.py"), 600, None),
        ("http2", py("Tests/http2/h2_test.py"), 300, None),
        ("http2-chromium", py("Tests/http2/h2_chromium_test.py"), 300, "macOS: Debian's chromium" if DARWIN else None),
        ("websockets", py("Tests/websockets/clients_test.py"), 600, None),
        ("websocket-record", py("Tests/websockets/record_test.py"), 600, None),
        ("graphql-ws", py("Tests/websockets/graphql_ws_test.py"), 600, None),
        ("android", py("Tests/android/session_test.py"), 600, "macOS: Debian's libokhttp-java" if DARWIN else None),
        ("proxy", py("Tests/proxy/proxy_test.py"), 900, None),
        ("proxy-destinations", py("Tests/proxy/destinations_test.py"), 600, "macOS: Linux mount and network namespaces" if DARWIN else None),
        ("admin-spec", py("Tests/admin/spec_test.py"), 600, None),
        ("kits", py("Tests/kits/kits_test.py", env={"KITS_JVM": "no"} if DARWIN else {}), 1200, None),
        ("kit-page", py("Tests/kits/page_session_test.py"), 600, "macOS: Debian's chromium" if DARWIN else None),
        ("fault-navigation", py("Tests/ui/fault_navigation_test.py"), 300, "macOS: Debian's chromium" if DARWIN else None),
        ("maestro", py("Tests/kits/maestro_test.py"), 600, None),
        ("mcp", py("Tests/mcp/mcp_test.py"), 600, None),
        ("wiremock-templates", py("Tests/wiremock/templating_test.py"), 900, None),
        ("graphql-oracle", py("Tests/graphql/oracle_test.py"), 600, None),
        ("graphql-clients", py("Tests/graphql/clients_test.py"), 600, None),
        ("openapi-bodies", py("Tests/openapi/schema_bodies_test.py", env={"STUBD_OPENAPI": f"{ROOT}/{OPENAPI}/.build/debug/stubd-openapi"}), 900, None),
        ("docs", sh(f"python3 packaging/check-docs.py && python3 Tests/docs/snippets_test.py {BIN} && python3 packaging/check-imports.py && python3 packaging/js-declarations.py"), 600, None),
    ]),
    ("hostile clients (alone: they measure waits)", 1, [
        ("hostile-connections", py("Tests/hostile/connections_test.py"), 600, None),
        ("hostile-margins", py("Tests/hostile/margins_test.py"), 600, None),
        ("hostile-http2", py("Tests/hostile/http2_test.py"), 300, None),
    ]),
    ("builds of their own", 1, [
        ("fuzz", sh("bash Fuzz/run.sh", {"FUZZ_CONFIGURATION": "debug", "FUZZ_SCRATCH": ".build-fuzz", "FUZZ_SECONDS": "3", "FUZZ_STRICT": "1"}), 1500, None),
        ("ui-kit-alone", sh("bash packaging/check-kit.sh"), 1200, None),
        ("packaging", sh(f"bash packaging/check-packaging.sh {BIN}"), 600, None),
        ("dist", sh("bash packaging/dist.sh", {"DIST_CONFIGURATION": "debug"}), 1500, None),
        ("cluster", sh(f"{SWIFT} build --product stubd && python3 Tests/cluster/nginx_test.py {BIN} && python3 Tests/cluster/manifests_test.py {BIN}"), 900, None),
        ("containers", sh("bash Tests/container/run.sh"), 1800, None if CONTAINERS else f"CONTAINER_TESTS=no: make test-containers runs them"),
    ]),
]

lock = threading.Lock()


def run_step(name, command, env, timeout):
    """Runs one step into its log; (ok, seconds, why)."""
    log = os.path.join(LOGS, f"{name}.log")
    started = time.monotonic()
    with open(log, "w") as out:
        try:
            result = subprocess.run(command, cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
            ok, why = result.returncode == 0, f"exit {result.returncode}"
        except subprocess.TimeoutExpired:
            ok, why = False, f"timed out after {timeout} s"
    seconds = time.monotonic() - started
    with lock:
        print(f"make test: {name}: {'ok' if ok else 'FAILED (' + why + ')'} in {seconds:.0f} s", flush=True)
        if not ok:
            with open(log, errors="replace") as text:
                tail = text.read()[-6000:]
            print(f"---- the end of {os.path.relpath(log, ROOT)}:\n{tail}\n----", flush=True)
    return ok, seconds, why


def main():
    arguments = sys.argv[1:]
    if "--list" in arguments:
        for stage, jobs, steps in STAGES:
            print(f"{stage} ({jobs} at once):")
            for name, _, timeout, skipped in steps:
                print(f"  {name:22} timeout {timeout:5} s" + (f"  (not run: {skipped})" if skipped else ""))
        return
    only = set(arguments[arguments.index("--only") + 1:]) if "--only" in arguments else None
    os.makedirs(LOGS, exist_ok=True)
    results = []
    run_started = time.monotonic()
    for stage, jobs, steps in STAGES:
        chosen = [step for step in steps if only is None or step[0] in only]
        if not chosen:
            continue
        print(f"make test: stage '{stage}': {len(chosen)} step(s), {jobs} at once", flush=True)
        pending = list(chosen)
        running = []
        stage_results = []

        def worker(step):
            name, (command, env), timeout, skipped = step
            if skipped:
                with lock:
                    print(f"make test: {name}: not run ({skipped})", flush=True)
                stage_results.append((name, None, 0.0, skipped, timeout))
                return
            ok, seconds, why = run_step(name, command, env, timeout)
            stage_results.append((name, ok, seconds, why, timeout))

        while pending or running:
            running = [thread for thread in running if thread.is_alive()]
            while pending and len(running) < jobs:
                thread = threading.Thread(target=worker, args=(pending.pop(0),))
                thread.start()
                running.append(thread)
            time.sleep(0.2)
        order = [step[0] for step in chosen]
        stage_results.sort(key=lambda result: order.index(result[0]))
        results.append((stage, stage_results))
        if any(result[1] is False for result in stage_results):
            break
    total = time.monotonic() - run_started
    print("\nmake test: step times (seconds; timeout in brackets)")
    for stage, stage_results in results:
        print(f"  {stage}")
        for name, ok, seconds, why, timeout in stage_results:
            state = "not run" if ok is None else "ok" if ok else "FAILED"
            print(f"    {name:22} {seconds:6.0f}  [{timeout}]  {state}" + ("" if ok else f"  ({why})"))
    print(f"  total {total:.0f} s")
    failed = [name for _, stage_results in results for name, ok, *_ in stage_results if ok is False]
    if failed:
        sys.exit("make test: FAILED: " + ", ".join(failed))


main()
