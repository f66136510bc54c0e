"""Python requests (one Session, so keep-alive connections are reused) running conformance steps.

Usage: python3 requests_client.py BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name": "milk", "qty": 2}
with requests' own JSON spelling; STUBD_USER_AGENT, when set, replaces its User-Agent). Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
"""
import os
import sys

import requests

base, steps = sys.argv[1], sys.argv[2:]
session = requests.Session()
if os.environ.get("STUBD_USER_AGENT"):
    session.headers["User-Agent"] = os.environ["STUBD_USER_AGENT"]
for step in steps:
    method, path = step.split(" ", 1)
    try:
        if method == "JSON":
            response = session.post(base + path, json={"name": "milk", "qty": 2}, timeout=2)
        else:
            response = session.request(method, base + path, timeout=2)
        print(f"ok\t{response.status_code}\t{' '.join(response.text[:40].split())}", flush=True)
    except requests.RequestException as error:
        cause = error.args[0] if error.args else error
        reason = getattr(cause, "reason", None) or cause
        print(f"error\t{type(error).__name__}: {' '.join(str(reason).split())[:120]}", flush=True)
