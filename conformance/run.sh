#!/usr/bin/env bash
# make conformance: installs every client this Debian machine can run, builds the URLSession
# client, and runs conformance/run.py against the release stubd (prints the table, writes
# docs/CONFORMANCE.md). Exit status 1 when a client misses an expectation.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v javac >/dev/null || missing+=(default-jdk-headless)
[ -r /usr/share/java/okhttp.jar ] || missing+=(libokhttp-java)
command -v node >/dev/null || missing+=(nodejs)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
    echo "conformance: installing ${missing[*]}"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${missing[@]}"
fi
python3 -c 'import requests, httpx, aiohttp' 2>/dev/null || python3 -m pip install -q requests httpx aiohttp 2>/dev/null \
    || python3 -m pip install -q --break-system-packages requests httpx aiohttp

mkdir -p conformance/.build
swiftc -O conformance/clients/URLSessionClient.swift -o conformance/.build/URLSessionClient
python3 conformance/run.py --stubd .build/release/stubd --bin conformance/.build --out docs/CONFORMANCE.md --page docs/FAULTS.md
# How each client reads each way of sending a fault step (the table stubd's choice comes from).
python3 conformance/encodings.py --bin conformance/.build --page docs/FAULTS.md
# The same steps over HTTPS with HTTP/1.1 (URLSession on Linux in a mount namespace whose system
# bundle trusts stubd's CA), then over HTTP/2 (the clients that speak it here).
python3 conformance/run.py --stubd .build/release/stubd --bin conformance/.build --out docs/CONFORMANCE.md --page docs/FAULTS.md --https
python3 conformance/run.py --stubd .build/release/stubd --bin conformance/.build --out docs/CONFORMANCE.md --page docs/FAULTS.md --http2
# Chromium pages of stubd's own origin and of another, twenty page loads per sequence row.
python3 Tests/ui/fault_steps_test.py .build/release/stubd 20 --page docs/FAULTS.md
# Streams: every client's report of every fault inside a stream (Tests/streams/clients_test.py).
python3 -c 'import openai, anthropic, httpx' 2>/dev/null || python3 -m pip install -q openai anthropic httpx 2>/dev/null \
    || python3 -m pip install -q --break-system-packages openai anthropic httpx
python3 Tests/streams/clients_test.py .build/release/stubd --clients=all
python3 Tests/streams/clients_test.py .build/release/stubd --clients=all --http2
# WebSockets: every client's report of every fault (Tests/websockets/clients_test.py), OkHttp's included.
python3 -c 'import websockets, websocket' 2>/dev/null || python3 -m pip install -q websockets websocket-client 2>/dev/null \
    || python3 -m pip install -q --break-system-packages websockets websocket-client
python3 Tests/websockets/clients_test.py .build/release/stubd --clients=python-websockets,websocket-client,node,chromium,okhttp
