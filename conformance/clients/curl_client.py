"""curl, one invocation for all steps (`--next` between them, so connections are reused as in a
script that fetches several URLs), running conformance steps.

Usage: python3 curl_client.py BASE_URL "METHOD PATH"...  (METHOD JSON uses curl's --json;
STUBD_USER_AGENT, when set, replaces curl's User-Agent).
Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>curl exit code and message.
"""
import os
import subprocess
import sys
import tempfile

base, steps = sys.argv[1], sys.argv[2:]
with tempfile.TemporaryDirectory() as folder:
    command = ["curl", "-s"]
    agent = os.environ.get("STUBD_USER_AGENT")
    for index, step in enumerate(steps):
        method, path = step.split(" ", 1)
        if index:
            command.append("--next")
        command += ["--max-time", "2", "-o", os.path.join(folder, str(index)),
                    "-w", "%{http_code}\t%{exitcode}\t%{errormsg}\n"]
        if agent:
            command += ["-A", agent]
        if method == "JSON":
            command += ["--json", '{"name":"milk","qty":2}']
        elif method == "HEAD":
            command.append("-I")
        elif method != "GET":
            command += ["-X", method]
        command.append(base + path)
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    for index, line in enumerate(result.stdout.splitlines()):
        status, code, message = (line.split("\t") + ["", ""])[:3]
        if code != "0":
            print(f"error\t{code} {message}")
            continue
        try:
            with open(os.path.join(folder, str(index)), encoding="utf-8", errors="replace") as body:
                text = " ".join(body.read()[:40].split())
        except FileNotFoundError:
            text = ""
        print(f"ok\t{status}\t{text}")
