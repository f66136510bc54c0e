"""make test: WebSocket stubs with clients nobody here wrote (issue 37) — Python's `websockets`
and `websocket-client`, and Node's global WebSocket — over ws:// and wss:// (stubd's CA): a
scripted conversation (subprotocol, a message on open, templated replies reading the message and
the upgrade request, a delayed pair, binary), fragmented and masked frames, an oversized message
(1009), a push from the admin API reaching only its session's connections, the journal, an
upgrade to a route without a WebSocket (400) and to no route (404 with the closest routes), and
each fault as each client reports it (printed as the per-client table docs/WEBSOCKETS.md keeps),
and a `drop` or `abrupt` right after two sends in `onOpen` (no delay): every client reads the 101
and both messages before the failure.

    python3 Tests/websockets/clients_test.py .build/debug/stubd [--clients=python-websockets,websocket-client,node,chromium]
    (make test: the first three; make test-ui: chromium; make conformance: okhttp too)
"""
import asyncio
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import urllib.request

import websocket as wsclient  # websocket-client
import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/debug/stubd")
CLIENTS = next((a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--clients=")), ["python-websockets", "websocket-client", "node"])
failures = []
table = {}


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def admin(base, method, path, body=None, session=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if session:
        headers["X-Stubd-Session"] = session
    request = urllib.request.Request(base + "/__stubd/" + path, data=json.dumps(body).encode() if body is not None else None, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


# --- python websockets (asyncio) -------------------------------------------------------------

async def conversation(url, ssl_context=None):
    async with websockets.connect(url + "/chat?room=blue", subprotocols=["chat.v1"], ssl=ssl_context) as ws:
        seen = [ws.subprotocol, await ws.recv()]
        await ws.send(json.dumps({"type": "ping", "id": 7}))
        seen.append(await ws.recv())
        await ws.send("hi")
        seen.append(await ws.recv())
        await ws.send("later")
        seen += [await ws.recv(), await ws.recv()]
        # A fragmented text message (three frames).
        await ws.send(["frag", "men", "ted"])
        seen.append(await ws.recv())
        await ws.send("bye")
        try:
            await ws.recv()
        except websockets.ConnectionClosed as closed:
            seen.append(f"closed {closed.rcvd.code} {closed.rcvd.reason}" if closed.rcvd else "closed without a frame")
    return seen


EXPECTED = ["chat.v1", '{"type":"hello"}', '{"type":"pong","id":"7","room":"blue"}', "echo: hi", "one", "two", "echo: fragmented", "closed 4000 see you"]


async def python_faults(url):
    seen = {}
    for fault in ("drop", "abrupt", "invalid-frame", "close"):
        try:
            async with websockets.connect(f"{url}/fault/{fault}") as ws:
                await ws.recv()
                await ws.recv()
                seen[fault] = "a second message"
        except websockets.ConnectionClosedOK as closed:
            seen[fault] = f"ConnectionClosedOK {closed.rcvd.code if closed.rcvd else None} {closed.rcvd.reason if closed.rcvd else ''}".strip()
        except websockets.ConnectionClosedError as closed:
            code = closed.rcvd.code if closed.rcvd else (closed.sent.code if closed.sent else 1006)
            seen[fault] = f"ConnectionClosedError {code}"
        except Exception as error:
            seen[fault] = type(error).__name__
    return seen


ORDERED = ["first", "second", "failed"]


async def python_order(url, fault):
    """What websockets reads from `/order/FAULT`: the messages, then "failed" at the end."""
    seen = []
    try:
        async with websockets.connect(f"{url}/order/{fault}") as ws:
            while True:
                seen.append(await asyncio.wait_for(ws.recv(), 5))
    except websockets.ConnectionClosedError:
        seen.append("failed")
    except Exception as error:
        seen.append(type(error).__name__)
    return seen


def websocket_client_order(url, fault):
    seen = []
    try:
        ws = wsclient.create_connection(f"{url}/order/{fault}", timeout=5)
    except Exception as error:
        return [f"no 101: {type(error).__name__}"]
    try:
        while True:
            message = ws.recv()
            if not message:
                seen.append("failed")
                break
            seen.append(message)
    except Exception:
        seen.append("failed")
    finally:
        ws.shutdown()
    return seen


async def python_stop_pongs(url):
    """Pings every 0.3 s, a pong awaited 0.3 s: what the keepalive does when pongs stop."""
    try:
        async with websockets.connect(f"{url}/fault/stop-pongs", ping_interval=0.3, ping_timeout=0.3) as ws:
            await ws.recv()
            await asyncio.wait_for(ws.recv(), 5)
            return "a second message"
    except websockets.ConnectionClosedError as closed:
        code = closed.sent.code if closed.sent else (closed.rcvd.code if closed.rcvd else 1006)
        reason = closed.sent.reason if closed.sent else ""
        return f"ConnectionClosedError {code} {reason}".strip()
    except Exception as error:
        return type(error).__name__


async def oversized(url):
    async with websockets.connect(url + "/chat", max_size=None) as ws:
        await ws.recv()
        await ws.send("x" * 70000)
        try:
            await ws.recv()
            return "answered"
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def documented_push(base):
    """docs/WEBSOCKETS.md's "Push from a test" curl command, run as written (its port changed):
    the count stubd answers."""
    with open(os.path.join(HERE, "..", "..", "docs", "WEBSOCKETS.md"), encoding="utf-8") as file:
        page = file.read()
    section = page[page.index("## Push from a test"):]
    command = section.split("```sh\n", 1)[1].split("\n```", 1)[0].replace("localhost:8080", base.removeprefix("http://"))
    return json.loads(subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=10, check=True).stdout)["count"]


async def push(base, url):
    async def opened(session):
        connection = await websockets.connect(url + "/chat", additional_headers={"X-Stubd-Session": session})
        await connection.recv()
        return connection
    # Session t1, as the page's push names it.
    a1, a2, b = await opened("t1"), await opened("t1"), await opened("ws-b")
    listed = admin(base, "GET", "websockets", session="t1")["open"]
    sent = documented_push(base)
    got = [await asyncio.wait_for(a1.recv(), 2), await asyncio.wait_for(a2.recv(), 2)]
    try:
        other = await asyncio.wait_for(b.recv(), 0.3)
    except asyncio.TimeoutError:
        other = None
    closed = admin(base, "POST", "websockets/close", {"code": 4002, "reason": "test over"}, session="t1")["count"]
    try:
        await asyncio.wait_for(a1.recv(), 2)
        code = None
    except websockets.ConnectionClosed as ending:
        code = ending.rcvd.code if ending.rcvd else None
    for connection in (a1, a2, b):
        await connection.close()
    return len(listed), sent, got, other, closed, code


# --- websocket-client --------------------------------------------------------------------------

def websocket_client(url, sslopt=None):
    ws = wsclient.create_connection(url + "/chat?room=red", subprotocols=["chat.v1"], sslopt=sslopt)
    seen = [ws.getsubprotocol(), ws.recv()]
    ws.send(json.dumps({"type": "ping", "id": 8}))
    seen.append(ws.recv())
    # Fragments by hand, with a ping between them (a control frame may come between fragments).
    ws.send_frame(wsclient.ABNF.create_frame("Hel", wsclient.ABNF.OPCODE_TEXT, fin=0))
    ws.send_frame(wsclient.ABNF.create_frame("p", wsclient.ABNF.OPCODE_PING))
    ws.send_frame(wsclient.ABNF.create_frame("lo", wsclient.ABNF.OPCODE_CONT, fin=1))
    opcode, data = ws.recv_data(control_frame=True)
    seen.append(f"pong {data.decode()}" if opcode == wsclient.ABNF.OPCODE_PONG else f"opcode {opcode}")
    seen.append(ws.recv())
    ws.send_binary(b"\x00\x01")
    seen.append(ws.recv())
    ws.close()
    return seen


def websocket_client_faults(url):
    seen = {}
    for fault in ("drop", "abrupt", "invalid-frame", "close"):
        ws = wsclient.create_connection(f"{url}/fault/{fault}", timeout=3)
        ws.recv()
        try:
            opcode, frame = ws.recv_data_frame(True)
            if opcode == wsclient.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None
                seen[fault] = f"close frame {code} {frame.data[2:].decode()}".strip()
            else:
                seen[fault] = f"opcode {opcode}"
        except Exception as error:
            seen[fault] = type(error).__name__
        ws.shutdown()
    return seen


# --- Node's global WebSocket -------------------------------------------------------------------

NODE_SCRIPT = r"""
const [url, mode] = process.argv.slice(1);
const out = [];
const done = (line) => { console.log(JSON.stringify(line)); process.exit(0); };
if (mode === "chat") {
  const ws = new WebSocket(url + "/chat?room=green", ["chat.v1"]);
  ws.onopen = () => out.push(ws.protocol);
  ws.onmessage = (e) => {
    out.push(e.data);
    if (out.length === 2) ws.send(JSON.stringify({type: "ping", id: 9}));
    if (out.length === 3) ws.send("bye");
  };
  ws.onclose = (e) => { out.push(`closed ${e.code} ${e.reason}`); done(out); };
  setTimeout(() => done(out.concat("timeout")), 5000);
} else if (mode.startsWith("order/")) {
  const ws = new WebSocket(url + "/" + mode);
  ws.onmessage = (e) => out.push(e.data);
  ws.onclose = (e) => { out.push(e.wasClean ? `closed ${e.code}` : "failed"); done(out); };
  setTimeout(() => done(out.concat("timeout")), 5000);
} else {
  const ws = new WebSocket(url + "/fault/" + mode);
  let first = true;
  ws.onmessage = () => { first = false; };
  ws.onerror = () => out.push("error");
  ws.onclose = (e) => { out.push(`close ${e.code}${e.wasClean ? " clean" : ""}${e.reason ? " " + e.reason : ""}`); done(out.join(", ")); };
  setTimeout(() => done(out.concat("timeout").join(", ")), 5000);
}
"""


def node(url, mode):
    node = shutil.which("node")
    if not node:
        return None
    done = subprocess.run([node, "--experimental-websocket", "--no-warnings", "-e", NODE_SCRIPT, url, mode], capture_output=True, text=True, timeout=15)
    if done.returncode != 0 and "WebSocket is not defined" in done.stderr or "bad option" in done.stderr:
        return None
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"no output ({done.stderr.strip()[:120]})"


# --- Chromium's WebSocket (a page over DevTools) ------------------------------------------------

def chromium(base, url):
    sys.path.insert(0, os.path.join(HERE, "..", "ui"))
    import cdp  # noqa: E402 — Tests/ui's DevTools driver
    browser = cdp.Browser()
    try:
        browser.open(f"{base}/page.html")
        chat = browser.evaluate("""new Promise(resolve => {
            const out = []; const ws = new WebSocket(%s + '/chat?room=page', ['chat.v1']);
            ws.onopen = () => out.push(ws.protocol);
            ws.onmessage = e => { out.push(e.data);
                if (out.length === 2) ws.send(JSON.stringify({type: 'ping', id: 10}));
                if (out.length === 3) ws.send('bye'); };
            ws.onclose = e => { out.push('closed ' + e.code + ' ' + e.reason); resolve(out); };
            setTimeout(() => resolve(out.concat('timeout')), 5000);
        })""" % json.dumps(url))
        faults = {}
        for fault in ("drop", "abrupt"):
            ordered = browser.evaluate("""new Promise(resolve => {
                const out = []; const ws = new WebSocket(%s + '/order/%s');
                ws.onmessage = e => out.push(e.data);
                ws.onclose = e => { out.push(e.wasClean ? 'closed ' + e.code : 'failed'); resolve(out); };
                setTimeout(() => resolve(out.concat('timeout')), 5000);
            })""" % (json.dumps(url), fault))
            check(ordered == ORDERED, f"Chromium's WebSocket: `{fault}` right after two sends in onOpen delivers both first ({ordered})")
        for fault in ("drop", "abrupt", "invalid-frame", "close"):
            faults[fault] = browser.evaluate("""new Promise(resolve => {
                const out = []; const ws = new WebSocket(%s + '/fault/%s');
                ws.onerror = () => out.push('error');
                ws.onclose = e => { out.push('close ' + e.code + (e.wasClean ? ' clean' : '') + (e.reason ? ' ' + e.reason : '')); resolve(out.join(', ')); };
                setTimeout(() => resolve(out.concat('timeout').join(', ')), 5000);
            })""" % (json.dumps(url), fault))
        return chat, faults
    finally:
        browser.close()


# --- OkHttp's WebSocket (Java) -----------------------------------------------------------------

OKHTTP = "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar"


def okhttp(url):
    """The chat line and one line per fault, from one JVM."""
    done = subprocess.run(["java", "-cp", OKHTTP, os.path.join(HERE, "OkHttpWebSocket.java"), url], capture_output=True, text=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    if len(lines) != 6:
        raise RuntimeError(f"OkHttpWebSocket.java: {done.stderr.strip()[:300]}")
    return lines[0], dict(zip(("drop", "abrupt", "invalid-frame", "close", "stop-pongs"), lines[1:]))


def main():
    folder = tempfile.mkdtemp()
    shutil.copy(os.path.join(HERE, "fixtures.json"), os.path.join(folder, "ws.json"))
    ca_dir = os.path.join(folder, "ca")
    stubd = Stubd(BINARY, folder, "--https-port", "0", "--ca-dir", ca_dir)
    https_port = next(int(line.rsplit(":", 1)[1]) for line in stubd.banner if "https://127.0.0.1:" in line)
    base, url, wss = stubd.base, f"ws://127.0.0.1:{stubd.port}", f"wss://localhost:{https_port}"
    context = ssl.create_default_context(cafile=os.path.join(ca_dir, "stubd-ca.pem"))
    try:
        if "python-websockets" in CLIENTS:
            for scheme, address, tls in (("ws", url, None), ("wss", wss, context)):
                seen = asyncio.run(conversation(address, tls))
                check(seen == EXPECTED, f"python websockets over {scheme}://: subprotocol, templated replies, delayed pair, fragments, close 4000 ({seen if seen != EXPECTED else 'as scripted'})")
            for fault in ("drop", "abrupt"):
                seen = asyncio.run(python_order(url, fault))
                check(seen == ORDERED, f"python websockets: `{fault}` right after two sends in onOpen delivers both first ({seen})")
            table["python websockets 17"] = asyncio.run(python_faults(url))
            table["python websockets 17"]["stop-pongs"] = asyncio.run(python_stop_pongs(url))
            check(asyncio.run(oversized(url)) == 1009, "a message over the route's messageLimit closes the connection with 1009")
            listed, sent, got, other, closed, code = asyncio.run(push(base, url))
            check(listed == 2 and sent == 2 and got == ['{"type":"message","text":"new!"}'] * 2 and other is None,
                  f"a push from the admin API reaches the session's 2 connections, not another session's ({listed}, {sent}, {got}, {other})")
            check(closed == 2 and code == 4002, f"a close from the admin API closes them with its code ({closed}, {code})")
            entries = admin(base, "GET", "requests?path=/chat")["requests"]
            conversation_entry = next((e for e in entries if e.get("status") == 101 and "room=blue" in e["url"]), None)
            transcript = json.loads(conversation_entry["response"]["body"]) if conversation_entry else {}
            check(conversation_entry is not None and len(transcript.get("messages", [])) >= 10 and transcript.get("closed", {}).get("code") == 4000,
                  f"the journal keeps a conversation as one exchange with its messages both ways ({len(transcript.get('messages', []))} messages, {transcript.get('closed')})")
        if "websocket-client" in CLIENTS:
            for scheme, address, tls in (("ws", url, None), ("wss", wss, {"ca_certs": os.path.join(ca_dir, "stubd-ca.pem")})):
                seen = websocket_client(address, tls)
                expected = ["chat.v1", '{"type":"hello"}', '{"type":"pong","id":"8","room":"red"}', "pong p", "echo: Hello", "echo: \x00\x01"]
                check(seen == expected, f"websocket-client over {scheme}://: fragments with a ping between, pong, binary echoed ({seen if seen != expected else 'as scripted'})")
            for fault in ("drop", "abrupt"):
                seen = websocket_client_order(url, fault)
                check(seen == ORDERED, f"websocket-client: `{fault}` right after two sends in onOpen delivers both first ({seen})")
            table["websocket-client 1.9"] = websocket_client_faults(url)
        if "node" in CLIENTS:
            seen = node(url, "chat")
            if seen is None:
                print("     Node: no global WebSocket here (Node 20.10+ with --experimental-websocket, or 22): not run")
                table["Node (global WebSocket)"] = {fault: "not run (no WebSocket in this Node)" for fault in ("drop", "abrupt", "invalid-frame", "close")}
            else:
                check(seen == ["chat.v1", '{"type":"hello"}', '{"type":"pong","id":"9","room":"green"}', "closed 4000 see you"], f"Node's WebSocket: {seen}")
                for fault in ("drop", "abrupt"):
                    ordered = node(url, f"order/{fault}")
                    check(ordered == ORDERED, f"Node's WebSocket: `{fault}` right after two sends in onOpen delivers both first ({ordered})")
                table[f"Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()} (global WebSocket)"] = {
                    fault: node(url, fault) for fault in ("drop", "abrupt", "invalid-frame", "close")}

        if "okhttp" in CLIENTS:
            chat, faults = okhttp(url)
            expected = 'chat.v1 · {"type":"hello"} · {"type":"pong","id":"11","room":"android"} · onClosing 4000 see you'
            check(chat == expected, f"OkHttp's WebSocket: {chat}")
            table["OkHttp 3.13 (Debian's libokhttp-java)"] = faults

        if "chromium" in CLIENTS:
            chat, faults = chromium(base, url)
            check(chat == ["chat.v1", '{"type":"hello"}', '{"type":"pong","id":"10","room":"page"}', "closed 4000 see you"],
                  f"Chromium's WebSocket, page on stubd's origin: {chat}")
            table["Chromium (WebSocket in a page)"] = faults

        # Upgrades that cannot be answered.
        try:
            wsclient.create_connection(url + "/plain")
            check(False, "an upgrade to a route without a WebSocket is refused")
        except wsclient.WebSocketBadStatusException as error:
            check(error.status_code == 400 and b"has no WebSocket" in (error.resp_body or b""), f"an upgrade to a route without a WebSocket: {error.status_code}")
        try:
            wsclient.create_connection(url + "/chatt")
            check(False, "an upgrade to no route is refused")
        except wsclient.WebSocketBadStatusException as error:
            body = (error.resp_body or b"").decode()
            check(error.status_code == 404 and '"/chat"' in body, f"an upgrade to no route: 404 naming the closest route ({error.status_code})")
    finally:
        stubd.stop()
        shutil.rmtree(folder, ignore_errors=True)

    print("\nfault table (what each client reports):")
    faults = ("drop", "abrupt", "invalid-frame", "close", "stop-pongs")
    print("| client | " + " | ".join(faults) + " |")
    print("|---|" + "---|" * len(faults))
    for client, seen in table.items():
        # A client that sends no pings of its own never meets stop-pongs.
        print(f"| {client} | " + " | ".join(str(seen.get(fault, "— (sends no pings)")) for fault in faults) + " |")
    expected_python = {"drop": "ConnectionClosedError 1006", "abrupt": "ConnectionClosedError 1006", "invalid-frame": "ConnectionClosedError 1002",
                       "close": "ConnectionClosedError 4001", "stop-pongs": "ConnectionClosedError 1011 keepalive ping timeout"}
    if "python websockets 17" in table:
        check(table["python websockets 17"] == expected_python, f"python websockets reports each fault as documented ({table['python websockets 17']})")
    if failures:
        print(f"clients_test: {len(failures)} failed")
        sys.exit(1)
    print("clients_test: all passed")


if __name__ == "__main__":
    main()
