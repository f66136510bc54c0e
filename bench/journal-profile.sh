#!/usr/bin/env bash
# Instructions per journal entry read (callgrind, deterministic): fills a journal with N hits, then
# lists it (GET /__stubd/requests) R times; runs once with R reads and once with none and prints
# (Ir(R) - Ir(0)) / (R × N) — the cost of writing one entry as the admin API sends it.
#   bench/journal-profile.sh [STUBD_BINARY] [N] [R]
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
binary=${1:-.build/release/stubd}
entries=${2:-1000}
reads=${3:-10}
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
work=$(mktemp -d)
objcopy --strip-debug "$binary" "$work/stubd"
binary="$work/stubd"
cat > "$work/f.json" <<'JSON'
{"routes": [{"name": "user", "request": {"method": "GET", "path": "/r/0/item"},
  "response": {"headers": {"Content-Type": "application/json"}, "text": "{\"login\":\"octocat\",\"id\":583231}"}}]}
JSON
total() {
  local r=$1 port=$((20000 + RANDOM % 20000))
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.$r" "$binary" serve "$work" --port $port --quiet --workers 1 --no-cors \
    --journal-size $((entries + 10)) >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$port/__stubd/health" && break; sleep 0.1; done
  python3 bench/fixed_requests.py $port "$entries"
  [ "$r" = 0 ] || python3 bench/fixed_requests.py $port "$r" /__stubd/requests 127.0.0.1
  kill -INT $pid; wait $pid || true
  callgrind_annotate "$work/cg.$r" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
zero=$(total 0)
full=$(total "$reads")
echo "instructions per journal entry listed: $(( (full - zero) / (reads * entries) )) (binary ${1:-.build/release/stubd}, $entries entries, $reads reads)"
mkdir -p bench/out && cp "$work/cg.$reads" bench/out/journal-callgrind.out
rm -rf "$work"
echo "top functions by inclusive instructions (bench/out/journal-callgrind.out):"
callgrind_annotate --inclusive=yes bench/out/journal-callgrind.out 2>/dev/null | sed -n '/file:function/,$p' | sed -n '2,40p' | cut -c1-170 || true
