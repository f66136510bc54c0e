"""make bench: WebSocket figures (issue 37) — echo round trips per second on one connection and on
16 at once, stubd against a reference echo server (Python `websockets`, the same client) in the
same run, alternating; then 10,000 idle conversations held by one loop (`--workers 1`) and the
memory each takes (stubd's resident size before and after, divided).

    python3 bench/websocket_bench.py [.build/release/stubd] [--idle 10000] [--seconds 3]
"""
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/release/stubd")
IDLE = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--idle=")), "10000"))
SECONDS = float(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--seconds=")), "3"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


async def round_trips(url, connections, seconds):
    async def one(ws, deadline):
        count = 0
        while time.monotonic() < deadline:
            await ws.send("ping")
            await ws.recv()
            count += 1
        return count
    sockets = [await websockets.connect(url, compression=None) for _ in range(connections)]
    deadline = time.monotonic() + seconds
    counts = await asyncio.gather(*(one(ws, deadline) for ws in sockets))
    for ws in sockets:
        await ws.close()
    return sum(counts) / seconds


def run_reference():
    """The reference echo server in a process of its own (so it has its own core, as stubd has)."""
    code = ("import asyncio, websockets\n"
            "async def echo(ws):\n    async for m in ws: await ws.send(m)\n"
            "async def main():\n    async with websockets.serve(echo, '127.0.0.1', 0, compression=None) as s:\n"
            "        print(s.sockets[0].getsockname()[1], flush=True)\n        await asyncio.Future()\n"
            "asyncio.run(main())\n")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    return process, int(process.stdout.readline())


async def idle(url, count, pid):
    before = rss_kib(pid)
    sockets = []
    start = time.monotonic()
    for _ in range(count):
        sockets.append(await websockets.connect(url, compression=None, ping_interval=None, open_timeout=30))
    opened = time.monotonic() - start
    await asyncio.sleep(0.5)
    after = rss_kib(pid)
    # Every one still answers.
    answered = 0
    for ws in sockets[:: max(1, count // 100)]:
        await ws.send("ping")
        answered += (await ws.recv()) == "ping"
    for ws in sockets:
        await ws.close()
    return before, after, opened, answered, len(sockets[:: max(1, count // 100)])


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "echo.json"), "w") as file:
        json.dump({"routes": [{"request": {"method": "GET", "path": "/echo"},
                               "websocket": {"replies": [{"match": "any", "then": [{"send": {"text": "{{request.body}}"}}]}], "template": True}}]}, file)
    stubd = Stubd(BINARY, folder, "--quiet", "--workers", "1")
    reference, reference_port = run_reference()
    try:
        ours, theirs = f"ws://127.0.0.1:{stubd.port}/echo", f"ws://127.0.0.1:{reference_port}/"
        rows = {("stubd", 1): [], ("reference", 1): [], ("stubd", 16): [], ("reference", 16): []}
        for _ in range(2):  # alternating, twice
            for connections in (1, 16):
                rows[("stubd", connections)].append(asyncio.run(round_trips(ours, connections, SECONDS)))
                rows[("reference", connections)].append(asyncio.run(round_trips(theirs, connections, SECONDS)))
        print("| WebSocket echo (Python websockets client) | round trips/s |")
        print("|---|---|")
        for (server, connections), values in rows.items():
            name = "stubd (template echo, one loop)" if server == "stubd" else "Python websockets echo server (reference)"
            print(f"| {name}, {connections} connection{'s' if connections > 1 else ''} | {' / '.join(f'{v:,.0f}' for v in values)} |")
        before, after, opened, answered, asked = asyncio.run(idle(ours, IDLE, stubd.process.pid))
        print(f"\n{IDLE:,} idle conversations on one loop: opened in {opened:.1f} s; stubd's resident size {before / 1024:.1f} MiB → "
              f"{after / 1024:.1f} MiB, {(after - before) * 1024 / IDLE / 1024:.1f} KiB each; {answered} of {asked} sampled still answer")
    finally:
        reference.terminate()
        stubd.stop()


if __name__ == "__main__":
    main()
