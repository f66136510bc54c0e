#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets with AddressSanitizer and runs each from a copy of its
# seed corpus in Fuzz/corpus — for FUZZ_RUNS executions (default 1,000,000), or for FUZZ_SECONDS
# seconds each when that is set. Prints executions, executions/s and crashes per target; crash
# inputs are kept in Fuzz/.build/findings/ (FUZZ_SCRATCH/findings for another build folder).
#
# A report by default: it exits 0 even when something crashed. FUZZ_STRICT=1 (make test's short
# pass: FUZZ_CONFIGURATION=debug FUZZ_SECONDS=3) exits 1 when any target crashed, leaked, timed
# out or failed to run.
#
# Targets (one per reader of remote input; docs/SECURITY.md lists each reader's bounds), all in one
# executable, FuzzTargets, which runs the one FUZZ_TARGET names:
#   FuzzFixtureReader     fixture files (JSON)                    corpus/fixture
#   FuzzCanonicalisation  paths, queries, forms, media types      corpus/canonicalisation
#   FuzzRouteLookup       route lookup and near misses            corpus/lookup
#   FuzzHTTPHead          first bytes (HTTP/2, Expect), framing checks, Range, digits   corpus/http
#   FuzzGraphQL           GraphQL documents and requests          corpus/graphql
#   FuzzJSON              JSON bodies, JSON paths, the writer     corpus/json
#   FuzzWebSocketFrames   WebSocket frames from clients and servers, in pieces        corpus/websocket
#   FuzzServe             a whole stubd in memory: templates with request values, GraphQL,
#                         JSON, form and multipart bodies, regexes, streams, Range,
#                         hosts (Host, X-Stubd-Host through HostName)                  corpus/serve
#   FuzzHTTP2             HTTP/2 frames after the preface, in pieces, each request answered;
#                         an h2c upgrade first (HTTP2-Settings decoded) when the first byte says   corpus/http2
set -uo pipefail
cd "$(dirname "$0")"
runs=${FUZZ_RUNS:-1000000}
seconds=${FUZZ_SECONDS:-}
configuration=${FUZZ_CONFIGURATION:-release}
scratch=${FUZZ_SCRATCH:-.build}
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
echo "fuzz: building ($configuration, swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)"
mkdir -p "$scratch"
# SwiftPM keeps a path dependency's old file list in an existing build folder (a file added to
# stubd "cannot be found"): a failed build is tried once more in a fresh folder.
swift build --package-path . --scratch-path "$scratch" -c "$configuration" "${flags[@]}" >"$scratch/build.log" 2>&1 \
  || { echo "fuzz: retrying the build in a fresh folder"; rm -rf "$scratch"; mkdir -p "$scratch"
       swift build --package-path . --scratch-path "$scratch" -c "$configuration" "${flags[@]}" >"$scratch/build.log" 2>&1; } \
  || { tail -30 "$scratch/build.log"; exit 1; }
bin=$(swift build --package-path . --scratch-path "$scratch" -c "$configuration" --show-bin-path "${flags[@]}")
mkdir -p "$scratch/findings"
findings=$(cd "$scratch/findings" && pwd)
limit=(-runs="$runs")
[ -n "$seconds" ] && limit=(-max_total_time="$seconds")
printf '%-22s %12s %10s %12s %8s\n' target executions seconds "exec/s" crashes
failed=0
for entry in FuzzFixtureReader:fixture FuzzCanonicalisation:canonicalisation FuzzRouteLookup:lookup FuzzHTTPHead:http \
             FuzzGraphQL:graphql FuzzJSON:json FuzzWebSocketFrames:websocket FuzzServe:serve FuzzHTTP2:http2; do
  target=${entry%%:*}
  seeds=corpus/${entry##*:}
  work=$(mktemp -d); cp "$seeds"/* "$work"/
  log=$findings/$target.log
  rm -f "$findings/$target"-*
  start=$(date +%s.%N)
  # 64 KiB inputs: deep and wide documents need room; 10 s per input at most, 4 GiB of memory.
  # FuzzServe keeps one whole server for the run: LeakSanitizer cannot trace Swift's enum payloads
  # (pointers in spare bits) from its route table, and reports the table as leaked.
  leaks=1; [ "$target" = FuzzServe ] && leaks=0
  FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=$leaks "$bin/FuzzTargets" "${limit[@]}" -detect_leaks=$leaks -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix="$findings/$target"- "$work" >"$log" 2>&1
  status=$?
  end=$(date +%s.%N)
  done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
  executions=$(echo "$done_line" | awk '{print $2}')
  [ -n "$executions" ] || executions=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
  elapsed=$(python3 -c "print(f'{$end - $start:.1f}')")
  rate=$(python3 -c "print(f'{${executions:-0} / max($end - $start, 0.001):,.0f}')")
  crashes=$(ls "$findings/$target"-crash-* "$findings/$target"-leak-* "$findings/$target"-timeout-* "$findings/$target"-oom-* 2>/dev/null | wc -l)
  if [ $status -ne 0 ] || [ "$crashes" -gt 0 ]; then
    failed=1
    [ "$crashes" -gt 0 ] || crashes="exit $status"
    grep -E 'ERROR|Fatal error|SUMMARY' "$log" | head -3
  fi
  printf '%-22s %12s %10s %12s %8s\n' "$target" "${executions:-?}" "$elapsed" "$rate" "$crashes"
  rm -rf "$work"
done
echo "fuzz: logs and any crash inputs in $findings/"
if [ "${FUZZ_STRICT:-0}" = 1 ] && [ $failed -ne 0 ]; then
  echo "fuzz: a target crashed or failed (FUZZ_STRICT=1); reproduce with its input: FUZZ_TARGET=TARGET $bin/FuzzTargets $findings/TARGET-crash-…"
  exit 1
fi
exit 0
