"""aiohttp (one ClientSession, so its connection pool is reused) running conformance steps.

Usage: python3 aiohttp_client.py BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name": "milk", "qty": 2}
with aiohttp's own JSON spelling; STUBD_USER_AGENT, when set, replaces its User-Agent).
Prints one line per step: ok<TAB>status<TAB>body, or error<TAB>message.
"""
import asyncio
import os
import sys

import aiohttp


async def main(base, steps):
    headers = {"User-Agent": os.environ["STUBD_USER_AGENT"]} if os.environ.get("STUBD_USER_AGENT") else None
    async with aiohttp.ClientSession(headers=headers, timeout=aiohttp.ClientTimeout(total=2)) as session:
        for step in steps:
            method, path = step.split(" ", 1)
            try:
                if method == "JSON":
                    call = session.post(base + path, json={"name": "milk", "qty": 2})
                else:
                    call = session.request(method, base + path)
                async with call as response:
                    text = await response.text()
                print(f"ok\t{response.status}\t{' '.join(text[:40].split())}", flush=True)
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:
                print(f"error\t{type(error).__name__}: {' '.join(str(error).split())[:120]}", flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2:]))
