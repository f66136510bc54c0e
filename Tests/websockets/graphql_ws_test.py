"""GraphQL subscriptions over `graphql-transport-ws`, as gql's `WebsocketsTransport` (4.x) speaks
them to a stubd WebSocket script (issue 45) — the script of docs/WEBSOCKETS.md's "GraphQL
subscriptions" section, loaded from that page:

- a subscription gets the script's `next` messages for its own id, templated from the client's
  `subscribe`; when gql stops reading it sends `complete`, the reply scoped by `$.id` with a `stop`
  step ends that scope, and the journal shows no `next` for that id after the client's `complete`;
- two subscriptions open at once are listed as the conversation's scopes (the ids gql drew), and
  one push with `"eachScope": true` reaches each with its own id; after one completes, a push
  reaches only the other.

Usage: python3 Tests/websockets/graphql_ws_test.py [STUBD_BINARY]   (make test)
"""
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from gql import Client, gql
from gql.transport.websockets import WebsocketsTransport

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/debug/stubd")
DOC = os.path.join(HERE, "..", "..", "docs", "WEBSOCKETS.md")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def documented_fixture():
    """The fixture in WEBSOCKETS.md's GraphQL section (the first ```json block after its heading)."""
    with open(DOC, encoding="utf-8") as file:
        page = file.read()
    section = page[page.index("## GraphQL subscriptions"):]
    return json.loads(re.search(r"```json\n(.*?)\n```", section, re.S).group(1))


def documented_push(base):
    """The page's curl push to every open subscription, run as written (its port changed): the count
    stubd answers."""
    with open(DOC, encoding="utf-8") as file:
        page = file.read()
    section = page[page.index("pushes to every open one:"):]
    command = re.search(r"```sh\n(.*?)\n```", section, re.S).group(1).replace("localhost:8080", base.removeprefix("http://"))
    return json.loads(subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=10, check=True).stdout)["count"]


def admin(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/__stubd/{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def transport(url):
    return WebsocketsTransport(url=url, subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL])


async def ticks(url):
    """Two results of `tick`, then gql completes the subscription (and keeps the connection a moment)."""
    seen = []
    async with Client(transport=transport(url)) as session:
        async for result in session.subscribe(gql("subscription { tick }")):
            seen.append(result["tick"])
            if len(seen) == 2:
                break
        await asyncio.sleep(0.6)  # the script's later ticks would have come by now
    return seen


async def pushes(base, url):
    """Two subscriptions at once; a push to each scope; one completes; a push again."""
    got = {"a": [], "b": []}
    async with Client(transport=transport(url)) as session:
        async def follow(name, limit):
            async for result in session.subscribe(gql("subscription { news }")):
                got[name].append(result["news"])
                if len(got[name]) == limit:
                    return

        first = asyncio.create_task(follow("a", 1))
        second = asyncio.create_task(follow("b", 2))
        scopes = []
        for _ in range(50):
            scopes = next(iter(admin(base, "GET", "websockets")["open"]), {}).get("scopes", [])
            if len(scopes) == 2:
                break
            await asyncio.sleep(0.05)
        push = {"path": "/graphql", "eachScope": True,
                "text": '{"id":"{{scope}}","type":"next","payload":{"data":{"news":"to {{scope}}"}}}'}
        reached_both = admin(base, "POST", "websockets/send", push)["count"]
        await asyncio.wait_for(first, 5)
        remaining = scopes
        for _ in range(50):
            remaining = next(iter(admin(base, "GET", "websockets")["open"]), {}).get("scopes", [])
            if len(remaining) == 1:
                break
            await asyncio.sleep(0.05)
        reached_one = documented_push(base)
        await asyncio.wait_for(second, 5)
    return scopes, reached_both, remaining, reached_one, got


def main():
    folder = tempfile.mkdtemp(prefix="stubd-graphql-ws-")
    with open(os.path.join(folder, "graphql.json"), "w", encoding="utf-8") as file:
        json.dump(documented_fixture(), file)
    stubd = Stubd(BINARY, folder, "--quiet")
    url = f"ws://127.0.0.1:{stubd.port}/graphql"
    try:
        seen = asyncio.run(ticks(url))
        check(seen == [1, 2], f"gql's subscription reads the script's next messages for its id ({seen})")
        entry = None
        for _ in range(50):
            entries = [e for e in admin(stubd.base, "GET", "requests?path=/graphql")["requests"] if e.get("status") == 101]
            if entries:
                entry = entries[-1]
                break
            time.sleep(0.05)
        messages = json.loads(entry["response"]["body"])["messages"] if entry else []
        completed = next((i for i, m in enumerate(messages) if m["from"] == "client" and '"complete"' in m.get("text", "")), None)
        late = [m["text"] for m in messages[(completed or 0) + 1:] if m["from"] == "server" and '"next"' in m.get("text", "")]
        check(completed is not None and not late,
              f"after the client's complete, no next for that subscription ({len(messages)} messages, next after complete: {late})")

        scopes, reached_both, remaining, reached_one, got = asyncio.run(pushes(stubd.base, url))
        check(len(scopes) == 2, f"the conversation lists both subscriptions' ids as its scopes ({scopes})")
        check(reached_both == 2 and reached_one == 1 and len(remaining) == 1,
              f"a push per scope reaches both, then only the one still open ({reached_both}, {reached_one}, {remaining})")
        check(len(got["a"]) == 1 and len(got["b"]) == 2 and got["a"][0] != got["b"][0] and got["a"][0].startswith("to ") and got["b"][0].startswith("to "),
              f"each subscription read the push addressed to its own id ({got})")
        check(got["b"][1:] == ["hi"], f"the page's curl push reached the subscription still open ({got['b'][1:]})")
    finally:
        stubd.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"graphql-ws: {'all passed' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
