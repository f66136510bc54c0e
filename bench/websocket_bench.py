"""make bench: WebSocket figures (issue 37) — echo round trips per second on one connection and on
16 at once, stubd (one loop) against two reference echo servers in the same run, alternating:
`bench/ws_echo.c` (RFC 6455 by hand on one libevent loop, the library stubd's engine uses) and
Python `websockets`; the load comes from `bench/ws_client.c` (C, poll(2)), which costs far less
than any of them. Then 10,000 idle conversations held by one loop (`--workers 1`) and the memory
each takes (stubd's resident size before and after, divided).

    python3 bench/websocket_bench.py [.build/release/stubd] [--idle=10000] [--seconds=3]
    (bench/out/ws_echo and bench/out/ws_client built by bench/run.sh)
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


OUT = os.path.join(HERE, "out")


def round_trips(port, path, connections, seconds):
    """Round trips per second by the C client."""
    result = subprocess.run([os.path.join(OUT, "ws_client"), str(port), path, str(connections), str(seconds)],
                            capture_output=True, text=True, timeout=seconds + 30)
    if result.returncode != 0:
        raise RuntimeError("ws_client: " + result.stderr.strip())
    return float(result.stdout)


def run_c_reference():
    process = subprocess.Popen([os.path.join(OUT, "ws_echo"), "0"], stdout=subprocess.PIPE, text=True)
    return process, int(process.stdout.readline())


def run_reference():
    """The reference echo server in a process of its own (so it has its own core, as stubd has)."""
    code = ("import asyncio, websockets\n"
            "async def echo(ws):\n    try:\n        async for m in ws: await ws.send(m)\n"
            "    except websockets.ConnectionClosed:\n        pass\n"
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
    c_reference, c_port = run_c_reference()
    reference, reference_port = run_reference()
    try:
        servers = [("stubd (templated echo route, one loop)", stubd.port, "/echo"),
                   ("C echo server on one libevent loop (bench/ws_echo.c)", c_port, "/"),
                   ("Python websockets echo server", reference_port, "/")]
        rows = {(name, connections): [] for name, _, _ in servers for connections in (1, 16)}
        for _ in range(2):  # alternating, twice
            for connections in (1, 16):
                for name, port, path in servers:
                    rows[(name, connections)].append(round_trips(port, path, connections, SECONDS))
        print("| WebSocket echo, C client (bench/ws_client.c) | 1 connection, round trips/s | 16 connections |")
        print("|---|---|---|")
        for name, _, _ in servers:
            print(f"| {name} | {' / '.join(f'{v:,.0f}' for v in rows[(name, 1)])} | {' / '.join(f'{v:,.0f}' for v in rows[(name, 16)])} |")
        ours = f"ws://127.0.0.1:{stubd.port}/echo"
        before, after, opened, answered, asked = asyncio.run(idle(ours, IDLE, stubd.process.pid))
        print(f"\n{IDLE:,} idle conversations on one loop: opened in {opened:.1f} s; stubd's resident size {before / 1024:.1f} MiB → "
              f"{after / 1024:.1f} MiB, {(after - before) * 1024 / IDLE / 1024:.1f} KiB each; {answered} of {asked} sampled still answer")
    finally:
        reference.terminate()
        c_reference.terminate()
        stubd.stop()


if __name__ == "__main__":
    main()
