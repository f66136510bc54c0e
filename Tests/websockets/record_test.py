"""make test: a WebSocket recorded through the proxy and replayed (issue 37, item 6).

An upstream written with Python `websockets` (subprotocol chat.v1; a welcome on open, an auth
reply echoing the token, a pong 0.3 s after a ping, a close 4000 after "bye"; 403 on /forbidden)
is reached through `stubd serve EMPTY --proxy-unmatched UPSTREAM --record OUT`, by
`websocket-client` over ws:// and Python `websockets` over wss://. Checked: the conversation is
relayed both ways as the upstream holds it (subprotocol, messages, close code), a refused upgrade
reaches the client with the upstream's status, the journal keeps the relayed conversation, the
recorded fixture is a scripted "websocket" route with the pause and without the token, and
`stubd serve OUT` alone replays the same conversation to a client.

    python3 Tests/websockets/record_test.py .build/debug/stubd
"""
import asyncio
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websocket as wsclient  # websocket-client
import websockets
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/debug/stubd")
TOKEN = "s3cret-T0ken-4711"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


# --- the upstream -------------------------------------------------------------------------

async def chat(ws):
    await ws.send(json.dumps({"type": "welcome", "room": ws.request.path}))
    async for message in ws:
        if message == "ping":
            await asyncio.sleep(0.3)
            await ws.send("pong")
        elif message == "bye":
            await ws.close(4000, "done")
            return
        else:
            data = json.loads(message)
            if data.get("type") == "auth":
                await ws.send(json.dumps({"type": "authed", "user": "ada", "token": data["token"]}))


def refuse(connection, request):
    if request.path.startswith("/forbidden"):
        return Response(403, "Forbidden", Headers([("Content-Type", "text/plain"), ("Content-Length", "9")]), b"forbidden")
    return None


class Upstream:
    def __init__(self):
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.run, daemon=True).start()
        self.ready.wait(10)

    def run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.main())

    async def main(self):
        self.stop = asyncio.Event()
        async with serve(chat, "127.0.0.1", 0, subprotocols=["chat.v1"], process_request=refuse) as server:
            self.port = server.sockets[0].getsockname()[1]
            self.ready.set()
            await self.stop.wait()

    def close(self):
        self.loop.call_soon_threadsafe(self.stop.set)


# --- the client's conversation --------------------------------------------------------------

def converse_websocket_client(url):
    """The same conversation each time; what the client saw, and the pause before the pong."""
    ws = wsclient.create_connection(url + "/chat?room=blue", subprotocols=["chat.v1"], timeout=5)
    seen = [ws.getsubprotocol(), ws.recv()]
    ws.send(json.dumps({"type": "auth", "token": TOKEN}))
    seen.append(ws.recv())
    started = time.monotonic()
    ws.send("ping")
    seen.append(ws.recv())
    pause = time.monotonic() - started
    ws.send("bye")
    opcode, frame = ws.recv_data_frame(True)
    seen.append((opcode, int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None))
    ws.close()
    return seen, pause


async def converse_websockets(url, context):
    async with websockets.connect(url + "/chat?room=blue", subprotocols=["chat.v1"], ssl=context) as ws:
        seen = [ws.subprotocol, await ws.recv()]
        await ws.send(json.dumps({"type": "auth", "token": TOKEN}))
        seen.append(await ws.recv())
        await ws.send("ping")
        seen.append(await ws.recv())
        await ws.send("bye")
        try:
            await ws.recv()
        except websockets.ConnectionClosed as closed:
            seen.append(closed.rcvd.code if closed.rcvd else None)
        return seen


def main():
    upstream = Upstream()
    work = tempfile.mkdtemp(prefix="stubd-ws-record-")
    empty, out = os.path.join(work, "empty"), os.path.join(work, "recorded")
    os.makedirs(empty)
    direct, direct_pause = converse_websocket_client(f"ws://127.0.0.1:{upstream.port}")
    check(direct[0] == "chat.v1" and json.loads(direct[2])["token"] == TOKEN and direct[4] == (8, 4000),
          f"the upstream holds the conversation itself: {direct}")

    proxy = Stubd(BINARY, empty, "--proxy-unmatched", f"http://127.0.0.1:{upstream.port}", "--record", out,
                  "--https-port", "0", "--ca-dir", os.path.join(work, "ca"))
    try:
        https = int(next(line for line in proxy.banner if "https://127.0.0.1:" in line).split("https://127.0.0.1:")[1].split()[0].rstrip("/"))
        relayed, pause = converse_websocket_client(proxy.base.replace("http://", "ws://"))
        check(relayed == direct, f"websocket-client through the proxy (ws://) sees what the upstream sends: {relayed}")
        check(0.25 <= pause < 2, f"the pong comes after the upstream's pause ({pause:.3f} s)")
        pem = subprocess.run([BINARY, "cert", "--pem", "-", "--ca-dir", os.path.join(work, "ca")], capture_output=True, text=True).stdout
        context = ssl.create_default_context(cadata=pem)
        secure = asyncio.run(converse_websockets(f"wss://127.0.0.1:{https}", context))
        check(secure[:4] == relayed[:4] and secure[4] == 4000, f"Python websockets through the proxy (wss://): {secure}")
        try:
            wsclient.create_connection(proxy.base.replace("http://", "ws://") + "/forbidden", timeout=5)
            check(False, "a refused upgrade reaches the client")
        except wsclient.WebSocketBadStatusException as refused:
            check(refused.status_code == 403 and b"forbidden" in (refused.resp_body or b""),
                  f"the upstream's refusal reaches the client as it came: {refused.status_code} {refused.resp_body!r}")
        # A relayed conversation is an open one like any: listed, and a test's push reaches its client.
        ws = wsclient.create_connection(proxy.base.replace("http://", "ws://") + "/chat?room=blue", subprotocols=["chat.v1"], timeout=5)
        ws.recv()
        with urllib.request.urlopen(proxy.base + "/__stubd/websockets", timeout=5) as answer:
            listed = json.loads(answer.read())["open"]
        check(len(listed) == 1 and listed[0]["route"].startswith("proxied to http://127.0.0.1:") and listed[0]["path"] == "/chat",
              f"the relayed conversation is listed: {listed}")
        push = urllib.request.Request(proxy.base + "/__stubd/websockets/send", data=json.dumps({"path": "/chat", "text": "from the test"}).encode(),
                                      headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(push, timeout=5) as answer:
            reach = json.loads(answer.read())
        check(reach == {"count": 1} and ws.recv() == "from the test", f"a push reaches the relayed client: {reach}")
        ws.send("bye")
        ws.close()
        # Each conversation is journaled when it ends: wait for the third (bounded).
        deadline = time.time() + 10
        relayed_entries = []
        while time.time() < deadline:
            with urllib.request.urlopen(proxy.base + "/__stubd/requests", timeout=5) as answer:
                entries = json.loads(answer.read())["requests"]
            relayed_entries = [e for e in entries if e.get("response", {}).get("status") == 101]
            if len(relayed_entries) >= 3:
                break
            time.sleep(0.05)
        check(len(relayed_entries) == 3, f"the journal keeps each relayed conversation ({len(relayed_entries)})")
        text = json.dumps(relayed_entries)
        check("authed" in text and TOKEN not in text, "the journal's transcript has the messages, not the token")
        # The recorder's files are written once the proxy stops (or as it goes): wait for them.
        deadline = time.time() + 10
        files = []
        while time.time() < deadline:
            files = [f for f in os.listdir(out) if f.endswith(".json")] if os.path.isdir(out) else []
            if files:
                break
            time.sleep(0.1)
    finally:
        proxy.stop()
    check(len(files) == 1, f"one fixture recorded for the three conversations on one request: {files}")
    fixture = open(os.path.join(out, files[0])).read() if files else "{}"
    route = json.loads(fixture)["routes"][0] if files else {}
    script = route.get("websocket", {})
    check(TOKEN not in fixture, "the recorded fixture holds no token")
    check(script.get("subprotocols") == ["chat.v1"], f"the subprotocol is recorded: {script.get('subprotocols')}")
    check(bool(script.get("onOpen")) and json.loads(script["onOpen"][0].get("send", {}).get("text", "{}")).get("type") == "welcome",
          f"the welcome is recorded as onOpen: {script.get('onOpen')}")
    replies = script.get("replies", [])
    ping = next((r for r in replies if r.get("match") == {"equalTo": "ping"}), None)
    check(ping is not None and 0.25 <= ping["then"][0].get("delay", 0) < 1, f"the pong is recorded with its pause: {ping}")
    bye = next((r for r in replies if r.get("match") == {"equalTo": "bye"}), None)
    check(bye is not None and bye["then"][-1].get("close", {}).get("code") == 4000, f"the upstream's close is recorded: {bye}")
    auth = next((r for r in replies if isinstance(r.get("match"), dict) and "json" in r["match"]), None)
    check(auth is not None and auth["match"]["json"] == {"type": "auth"}, f"the auth message is matched without its token: {auth and auth['match']}")
    upstream.close()

    replay = Stubd(BINARY, out)
    try:
        replayed, replay_pause = converse_websocket_client(replay.base.replace("http://", "ws://"))
        expected = direct[:2] + [json.dumps({"type": "authed", "user": "ada", "token": "[redacted]"}, separators=(",", ":"))] + direct[3:]
        check(replayed == expected, f"the recording replayed without the upstream: {replayed}")
        check(0.25 <= replay_pause < 1, f"with the recorded pause ({replay_pause:.3f} s)")
    finally:
        replay.stop()
    print("%d failure(s)" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
