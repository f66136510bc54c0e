"""Headless Chromium running conformance steps with fetch() from a page stubd serves (same origin).

Usage: python3 chromium_client.py BASE_URL "METHOD PATH"...
The page (fixtures/__files/page.html) runs the steps and posts its results to /c/results; this
script reads them back from stubd's journal, and adds the network error Chromium logged for each
failed step (its NetLog), since page JavaScript only ever sees "TypeError: Failed to fetch".
Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

base, steps = sys.argv[1], sys.argv[2:]


def results_posted():
    with urllib.request.urlopen(base + "/__stubd/requests?path=/c/results", timeout=5) as answer:
        entries = json.load(answer)["requests"]
    return entries[-1]["body"] if entries else None


def net_errors(path, urls):
    """Each step's final net error, from the NetLog, in request order."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        try:
            log = json.loads(text)
        except json.JSONDecodeError:  # killed before the log was closed
            log = json.loads(text.rstrip().rstrip(",") + "]}")
    except (OSError, json.JSONDecodeError):
        return []
    types = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    names = {number: name for name, number in log["constants"]["netError"].items()}
    requests, errors = [], {}
    for event in log["events"]:
        source, kind, params = event["source"]["id"], types.get(event["type"]), event.get("params", {})
        if kind == "URL_REQUEST_START_JOB" and urllib.parse.urlsplit(params.get("url", "")).path in urls:
            if source not in requests:
                requests.append(source)
        if "net_error" in params:
            errors[source] = names.get(params["net_error"], str(params["net_error"]))
    return [errors.get(source) for source in requests]


with tempfile.TemporaryDirectory() as folder:
    netlog = os.path.join(folder, "netlog.json")
    page = base + "/c/page#" + urllib.parse.quote(",".join(steps))
    browser = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-extensions",
         f"--user-data-dir={os.path.join(folder, 'profile')}", f"--log-net-log={netlog}",
         *os.environ.get("STUBD_CHROMIUM_FLAGS", "").split(), page],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    body = None
    while body is None and time.monotonic() < deadline:
        time.sleep(0.2)
        body = results_posted()
    browser.terminate()
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
    if body is None:
        sys.exit("chromium: the page posted no results within 60 s")
    errors = net_errors(netlog, {step.split(" ", 1)[1] for step in steps})
    for index, line in enumerate(body.splitlines()):
        error = errors[index] if index < len(errors) else None
        print(f"{line} ({error})" if line.startswith("error") and error else line)
