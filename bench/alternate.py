#!/usr/bin/env python3
"""The one-loop throughput row, this build against another stubd build and the C evhttp baseline,
alternating — so a change's effect is told from the machine's drift (a single `make bench` run
measures each server once, minutes apart, and a noisy neighbour moves every figure).

    python3 bench/alternate.py .build/release/stubd OTHER_STUBD [ROUNDS=3] [SECONDS=8]

Each round runs the C baseline, this build and the other build one after the other (wrk -t1 -c50,
the plain 119-byte JSON route of `make bench`, `--workers 1`), after a 2 s warm-up each; prints
every round and the medians. Figures only: it never fails on them.
"""
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    this, other = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    work = tempfile.mkdtemp(prefix="stubd-alternate-")
    folder = os.path.join(work, "one")
    bench.write_fixtures(folder, 1)
    path = "/r/0/item"
    servers = [("C evhttp baseline", lambda port: [bench.BASELINE, str(port)], "/"),
               ("this build", lambda port: [this, "serve", folder, "--port", str(port), "--quiet", "--workers", "1", "--no-cors"], "/__stubd/health"),
               ("other build", lambda port: [other, "serve", folder, "--port", str(port), "--quiet", "--workers", "1", "--no-cors"], "/__stubd/health")]
    rates = {name: [] for name, _, _ in servers}
    for round_number in range(1, rounds + 1):
        line = []
        for name, command, ready in servers:
            port = bench.free_port()
            with bench.Server(name, command(port), f"http://127.0.0.1:{port}{ready}") as server:
                bench.wrk(f"http://127.0.0.1:{port}{path}", seconds=2)
                rate = bench.wrk(f"http://127.0.0.1:{port}{path}", seconds=seconds, server=server)["rps"]
            rates[name].append(rate)
            line.append(f"{name} {rate:,.0f}")
        print(f"round {round_number}: " + ", ".join(line), flush=True)
    base = statistics.median(rates["C evhttp baseline"])
    print("| server | req/s per round | median | ×baseline (medians) |")
    print("|---|---|---|---|")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"| {name} | {' / '.join(f'{v:,.0f}' for v in values)} | {median:,.0f} | {median / base:.2f} |")


if __name__ == "__main__":
    main()
