"""httpx (one Client, so keep-alive connections are reused) running conformance steps.

Usage: python3 httpx_client.py BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name": "milk", "qty": 2}
with httpx's own JSON spelling; STUBD_USER_AGENT, when set, replaces its User-Agent; STUBD_HTTP2=1
offers HTTP/2 by ALPN, for conformance/h2_encodings.py).
Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
"""
import os
import sys

import httpx

base, steps = sys.argv[1], sys.argv[2:]
headers = {"User-Agent": os.environ["STUBD_USER_AGENT"]} if os.environ.get("STUBD_USER_AGENT") else None
with httpx.Client(headers=headers, timeout=2, http2=os.environ.get("STUBD_HTTP2") == "1") as client:
    for step in steps:
        method, path = step.split(" ", 1)
        try:
            if method == "JSON":
                response = client.post(base + path, json={"name": "milk", "qty": 2})
            else:
                response = client.request(method, base + path)
            print(f"ok\t{response.status_code}\t{' '.join(response.text[:40].split())}", flush=True)
        except httpx.HTTPError as error:
            print(f"error\t{type(error).__name__}: {' '.join(str(error).split())[:120]}", flush=True)
