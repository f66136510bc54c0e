"""A small Chrome DevTools Protocol client over the standard library: start headless Chromium,
open a page, evaluate JavaScript in it, wait for conditions, take screenshots.

Only what the dashboard's browser tests need: one WebSocket (RFC 6455, client side, text
frames) to one page target, commands answered by id, events ignored.
"""
import base64
import json
import os
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request


class WebSocket:
    """A client WebSocket for ws://127.0.0.1:port/path: masked text frames out, frames in."""

    def __init__(self, url):
        assert url.startswith("ws://")
        address, path = url[5:].split("/", 1)
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the WebSocket handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the WebSocket")
            data += chunk
        return data

    def receive(self):
        """The next whole text message (fragments joined; pings answered)."""
        message = b""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._exactly(8))[0]
            payload = self._exactly(length)
            opcode = first & 0x0F
            if opcode == 0x9:  # ping
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """Headless Chromium with one page, driven over DevTools."""

    def __init__(self, flags=(), env=None):
        """`flags` go on Chromium's command line (`--proxy-server=…`); `env` replaces its environment
        (a `HOME` whose NSS store trusts a CA)."""
        self.folder = tempfile.mkdtemp(prefix="stubd-ui-chromium-")
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--remote-debugging-port=0",
             "--window-size=1280,900", f"--user-data-dir={self.folder}", *flags, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        # Chromium announces its DevTools endpoint on standard error once it listens.
        announced = None
        deadline = time.monotonic() + 30
        while announced is None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stderr], [], [], left)[0]:
                self.close()
                raise RuntimeError("chromium did not start its DevTools endpoint within 30 s")
            line = self.process.stderr.readline()
            if not line:
                self.close()
                raise RuntimeError("chromium exited before starting its DevTools endpoint")
            if line.startswith("DevTools listening on ws://"):
                announced = line.split("ws://", 1)[1].split("/", 1)[0]
        # Keep reading its log so a full pipe never blocks it.
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        targets = json.load(urllib.request.urlopen(f"http://{announced}/json/list", timeout=10))
        page = next(target for target in targets if target["type"] == "page")
        self.socket = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events = []
        self.command("Page.enable")
        self.command("Runtime.enable")

    def _next_message(self, timeout):
        self.socket.sock.settimeout(max(0.01, timeout))
        try:
            return json.loads(self.socket.receive())
        finally:
            self.socket.sock.settimeout(30)

    def command(self, method, **params):
        self.next_id += 1
        number = self.next_id
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = self._next_message(60)
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_event(self, accepts, what, timeout=10):
        """The first event (kept, or arriving within `timeout`) that `accepts`; events are what
        Chromium sends without being asked (`Page.loadEventFired`, `Network.loadingFailed`)."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                if accepts(event):
                    return event
            seen = len(self.events)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            try:
                message = self._next_message(left)
            except socket.timeout:
                continue
            if "method" in message:
                self.events.append(message)

    def open(self, url):
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.command("Page.navigate", url=url)
        self.wait_event(lambda e: e["method"] == "Page.loadEventFired", f"{url} loaded")

    def evaluate(self, expression):
        """The value of `expression` (awaited if it is a promise), as JSON."""
        result = self.command("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}…: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression, what, timeout=10):
        """Waits until `expression` is truthy in the page; the seconds it took. The page checks it
        again on every change to its document (a MutationObserver), so the wait ends with the
        change that makes it true."""
        start = time.monotonic()
        met = self.evaluate("""new Promise(resolve => {
            const check = () => { try { return !!(%s); } catch (e) { return false; } };
            if (check()) { resolve(true); return; }
            const observer = new MutationObserver(() => { if (check()) { observer.disconnect(); clearTimeout(timer); resolve(true); } });
            observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
            const timer = setTimeout(() => { observer.disconnect(); resolve(check()); }, %d);
        })""" % (expression, int(timeout * 1000)))
        if not met:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        return time.monotonic() - start

    def screenshot(self, path):
        data = self.command("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        if getattr(self, "socket", None):
            self.socket.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)
