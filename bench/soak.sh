#!/usr/bin/env bash
# make soak: SOAK_SECONDS (default 600) of mixed load on a release stubd with --workers 2 —
# immediate and delayed hits, reset/empty/garbage faults, sequences, misses (wrk, 2 threads,
# 100 connections) plus admin calls (add/remove routes, journal queries, resets) — sampling RSS
# and open descriptors every 30 s and printing their growth. HTTPS and the proxy are in the mix:
# a second wrk runs the same mix over HTTPS (the local CA's certificate), and misses are forwarded
# (--proxy-unmatched) to a second stubd. A report, never a test.
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
https_port=$((port + 1))
upstream_port=$((port + 2))
upstream_dir=$(mktemp -d)
cp -r fixtures/. "$upstream_dir"/
.build/release/stubd serve "$upstream_dir" --port $upstream_port --workers 1 --quiet >/dev/null 2>&1 &
upstream=$!
.build/release/stubd serve "$work" --port $port --https-port $https_port --ca-dir "$upstream_dir-ca" --workers 2 --quiet \
  --proxy-unmatched "http://127.0.0.1:$upstream_port" >"$work/stdout" 2>"$work/stderr" &
pid=$!
trap 'kill $pid $upstream 2>/dev/null || true; rm -rf "$work" "$upstream_dir" "$upstream_dir-ca"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/zen" && break; sleep 0.1; done
python3 bench/soak_sampler.py "$pid" "$port" "$seconds" &
sampler=$!
wrk -t1 -c20 -d"${seconds}s" -s bench/soak.lua "https://127.0.0.1:$https_port" >"$work/wrk-https" 2>&1 &
secure=$!
wrk -t2 -c100 -d"${seconds}s" -s bench/soak.lua "http://127.0.0.1:$port" >"$work/wrk" 2>&1 || true
wait $secure || true
wait $sampler
echo "--- wrk (HTTP; misses forwarded to a second stubd)"
grep -E "requests in|Socket errors|Non-2xx|Requests/sec" "$work/wrk" || cat "$work/wrk"
echo "--- wrk (HTTPS)"
grep -E "requests in|Socket errors|Non-2xx|Requests/sec" "$work/wrk-https" || cat "$work/wrk-https"
kill -INT $pid; wait $pid || true
echo "stubd stderr: $(wc -c <"$work/stderr") bytes"
