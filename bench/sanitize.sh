#!/usr/bin/env bash
# make sanitize: the whole test suite under ThreadSanitizer, then under AddressSanitizer, each in
# its own build folder (.build-tsan, .build-asan). Prints, per sanitizer, the test result line
# and how many reports it made; reports are kept in bench/out/sanitize-*.log. ThreadSanitizer
# reports listed in bench/tsan.supp are toolchain noise (see that file for the proof).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
status=0
for sanitizer in thread address; do
  log=bench/out/sanitize-$sanitizer.log
  echo "sanitize: swift test --sanitize=$sanitizer (log: $log)"
  TSAN_OPTIONS="suppressions=$PWD/bench/tsan.supp halt_on_error=0 second_deadlock_stack=1" \
  ASAN_OPTIONS="detect_leaks=0 halt_on_error=0" \
    swift test --sanitize=$sanitizer --scratch-path .build-${sanitizer:0:1}san >"$log" 2>&1
  result=$?
  reports=$(grep -cE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log")
  suppressed=$(grep -oE "ThreadSanitizer: Matched [0-9]+ suppressions" "$log" | head -1)
  summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 | sed 's/^[^T]*//')
  echo "sanitize: $sanitizer: ${summary:-no test summary (exit $result)}; sanitizer reports: $reports${suppressed:+; $suppressed}"
  [ "$result" -eq 0 ] && [ "$reports" -eq 0 ] || status=1
done
exit $status
