#!/usr/bin/env bash
# Instructions per request (callgrind, deterministic): runs stubd under valgrind twice, with 0 and
# with N requests, and prints (Ir(N) - Ir(0)) / N plus the top inclusive functions.
#   bench/profile.sh [STUBD_BINARY] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/stubd}
count=${2:-20000}
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
work=$(mktemp -d)
# valgrind 3.19 gives up on some DWARF that Swift 6.3 emits; symbols are enough for a profile.
objcopy --strip-debug "$binary" "$work/stubd"
binary="$work/stubd"
python3 - "$work" <<'PY'
import json, sys
body = '{"login":"octocat","id":583231,"name":"The Octocat","company":"@github","location":"San Francisco","public_repos":8888}'
json.dump({"routes": [{"name": "user", "request": {"method": "GET", "path": "/r/0/item"},
           "response": {"headers": {"Content-Type": "application/json", "X-Content-Type-Options": "nosniff"}, "text": body}}]}, open(sys.argv[1] + "/f.json", "w"))
PY
total() {
  local n=$1 port=$((20000 + RANDOM % 20000))
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$binary" serve "$work" --port $port --quiet --workers 1 --no-cors ${STUBD_ARGS:-} >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$port/r/0/item" && break; sleep 0.1; done
  python3 bench/fixed_requests.py $port "$n"
  kill -INT $pid; wait $pid || true
  callgrind_annotate "$work/cg.$n" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
zero=$(total 1)
full=$(total $((count + 1)))
echo "instructions per request: $(( (full - zero) / count )) (binary $binary, $count requests)"
mkdir -p bench/out && cp "$work/cg.$((count + 1))" bench/out/callgrind.out
rm -rf "$work"
echo "top functions by own instructions (bench/out/callgrind.out):"
callgrind_annotate bench/out/callgrind.out 2>/dev/null | sed -n '/file:function/,$p' | sed -n '2,26p' | cut -c1-150 || true
