#!/usr/bin/env bash
# make sanitize: the whole test suite under ThreadSanitizer, then under AddressSanitizer, each in
# its own build folder (.build-tsan, .build-asan), one test at a time (sanitized code runs several
# times slower; the suite's timing bounds assume an ordinary build). Prints, per sanitizer, the test result line
# and how many reports it made; reports are kept in bench/out/sanitize-*.log. Reports suppressed
# by bench/tsan.supp and bench/asan.supp are toolchain bugs, each proven there by a program
# without stubd code.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
status=0
for sanitizer in ${SANITIZERS:-thread address}; do
  log=bench/out/sanitize-$sanitizer.log
  echo "sanitize: swift test --sanitize=$sanitizer (log: $log)"
  TSAN_OPTIONS="suppressions=$PWD/bench/tsan.supp print_suppressions=1 halt_on_error=0 second_deadlock_stack=1" \
  ASAN_OPTIONS="detect_leaks=0 halt_on_error=0 suppressions=$PWD/bench/asan.supp" \
    swift test --no-parallel --sanitize=$sanitizer --scratch-path .build-${sanitizer:0:1}san >"$log" 2>&1
  result=$?
  reports=$(grep -cE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log")
  suppressed=$(grep -oE "ThreadSanitizer: Matched [0-9]+ suppressions" "$log" | head -1)
  summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 | sed 's/^[^T]*//')
  echo "sanitize: $sanitizer: ${summary:-no test summary (exit $result)}; sanitizer reports: $reports${suppressed:+; $suppressed}"
  [ "$result" -eq 0 ] && [ "$reports" -eq 0 ] || status=1
done
exit $status
