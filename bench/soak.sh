#!/usr/bin/env bash
# make soak: SOAK_SECONDS (default 600) of mixed load on a release stubd with --workers 2 —
# immediate and delayed hits, reset/empty/garbage faults, sequences, misses (wrk, 2 threads,
# 100 connections) plus admin calls (add/remove routes, journal queries, resets) — sampling RSS
# and open descriptors every 30 s and printing their growth. A report, never a test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SOAK_SECONDS:-600}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product stubd >/dev/null
work=$(mktemp -d)
cp -r fixtures/. "$work"/
cat > "$work/soak.json" <<'JSON'
{"routes": [
  {"request": {"method": "GET", "path": "/soak/delayed"}, "response": {"text": "late"}, "delay": 0.05},
  {"request": {"method": "GET", "path": "/soak/reset"}, "fault": "reset"},
  {"request": {"method": "GET", "path": "/soak/empty"}, "fault": "empty"},
  {"request": {"method": "GET", "path": "/soak/garbage"}, "fault": "garbage"},
  {"request": {"method": "GET", "path": "/soak/sequence"}, "responses": [{"status": 500}, {"text": "ok"}], "afterLast": "cycle"}
]}
JSON
port=$((20000 + RANDOM % 20000))
.build/release/stubd serve "$work" --port $port --workers 2 --quiet >"$work/stdout" 2>"$work/stderr" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/zen" && break; sleep 0.1; done
python3 bench/soak_sampler.py "$pid" "$port" "$seconds" &
sampler=$!
wrk -t2 -c100 -d"${seconds}s" -s bench/soak.lua "http://127.0.0.1:$port" >"$work/wrk" 2>&1 || true
wait $sampler
echo "--- wrk"
grep -E "requests in|Socket errors|Non-2xx|Requests/sec" "$work/wrk" || cat "$work/wrk"
kill -INT $pid; wait $pid || true
echo "stubd stderr: $(wc -c <"$work/stderr") bytes"
