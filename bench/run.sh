#!/usr/bin/env bash
# stubd benchmark: builds release, installs the peers when missing, and prints one table of
# figures measured in this run (stubd vs a C evhttp baseline, nginx and WireMock), then writes
# docs/PERFORMANCE.md; then prints the WebSocket, forward-proxy (beside mitmproxy) and HTTP/2 (beside nginx) tables. Figures only: it never fails on timing.
#   BENCH_SECONDS=10  length of each wrk run      BENCH_WARMUP=20  WireMock JIT warm-up seconds
#   BENCH_QUICK=1     shorter runs, 1k/10k routes only (a smoke test of the script)
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
need=()
command -v wrk >/dev/null || need+=(wrk)
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
pkg-config --exists libevent 2>/dev/null || need+=(libevent-dev pkg-config)
command -v curl >/dev/null || need+=(curl)
command -v java >/dev/null || need+=(default-jre-headless)
command -v cc >/dev/null || need+=(gcc)
command -v mitmdump >/dev/null || need+=(mitmproxy)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench: installing ${need[*]}"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
mkdir -p bench/out
jar=bench/out/wiremock-standalone-2.35.1.jar
bash bench/wiremock-jar.sh
echo "bench: building stubd (release) and the C baseline"
swift build -c release --product stubd >/dev/null
cc -O2 -o bench/out/baseline bench/baseline.c $(pkg-config --cflags --libs libevent_openssl openssl)
cc -O2 -o bench/out/delay_client bench/delay_client.c
cc -O2 -o bench/out/stream_client bench/stream_client.c
cc -O2 -o bench/out/ws_echo bench/ws_echo.c $(pkg-config --cflags --libs libevent openssl)
cc -O2 -o bench/out/ws_client bench/ws_client.c
ulimit -n 20000 2>/dev/null || true
python3 bench/bench.py
# WebSockets: echo round trips beside a reference echo server, 10,000 idle conversations.
python3 -c 'import websockets' 2>/dev/null || python3 -m pip install -q websockets 2>/dev/null || python3 -m pip install -q --break-system-packages websockets
python3 bench/websocket_bench.py .build/release/stubd
# The forward proxy: stubbed HTTPS through it beside the direct port and mitmproxy; leaf minting.
python3 bench/proxy_bench.py .build/release/stubd
# HTTP/2: h2load beside nginx, h2c and TLS (Debian's nghttp2-client).
command -v h2load >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq nghttp2-client >/dev/null; }
python3 bench/h2_bench.py .build/release/stubd
