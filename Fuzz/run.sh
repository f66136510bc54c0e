#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets with AddressSanitizer and runs each for a fixed number
# of executions (FUZZ_RUNS, default 1,000,000) from a copy of the seed corpus in Fuzz/corpus.
# Prints executions, executions/s and crashes per target; crash inputs are kept in
# Fuzz/.build/findings/. A report, not a test: it exits 0 even when something crashed.
set -uo pipefail
cd "$(dirname "$0")"
runs=${FUZZ_RUNS:-1000000}
echo "fuzz: building (swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)"
swift build --package-path . -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >.build-log 2>&1 || { tail -30 .build-log; exit 1; }
bin=$(swift build --package-path . -c release --show-bin-path -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
mkdir -p .build/findings
printf '%-22s %12s %10s %12s %8s\n' target executions seconds "exec/s" crashes
for target in FuzzFixtureReader FuzzCanonicalisation FuzzRouteLookup; do
  case $target in
    FuzzFixtureReader) seeds=corpus/fixture ;;
    FuzzCanonicalisation) seeds=corpus/canonicalisation ;;
    FuzzRouteLookup) seeds=corpus/lookup ;;
  esac
  work=$(mktemp -d); cp "$seeds"/* "$work"/
  log=.build/findings/$target.log
  start=$(date +%s.%N)
  "$bin/$target" -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix=.build/findings/"$target"- "$work" >"$log" 2>&1
  status=$?
  end=$(date +%s.%N)
  done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
  executions=$(echo "$done_line" | awk '{print $2}')
  [ -n "$executions" ] || executions=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
  seconds=$(python3 -c "print(f'{$end - $start:.1f}')")
  rate=$(python3 -c "print(f'{${executions:-0} / max($end - $start, 0.001):,.0f}')")
  crashes=$(ls .build/findings/"$target"-crash-* .build/findings/"$target"-leak-* .build/findings/"$target"-timeout-* 2>/dev/null | wc -l)
  [ $status -eq 0 ] || [ "$crashes" -gt 0 ] || crashes="exit $status"
  printf '%-22s %12s %10s %12s %8s\n' "$target" "${executions:-?}" "$seconds" "$rate" "$crashes"
  rm -rf "$work"
done
echo "fuzz: logs and any crash inputs in Fuzz/.build/findings/"
