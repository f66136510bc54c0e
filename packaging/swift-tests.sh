#!/usr/bin/env bash
# The Swift suite as make test runs it: the nested example-package build (ExamplePackageTests: a whole
# stubd built again through a path dependency, minutes on 2 cores) runs as its own job beside the rest,
# so the suite never waits behind it; both must pass.
#   bash packaging/swift-tests.sh      (SWIFT and STUBD_OPENAPI from the environment, as make passes them)
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
python3 packaging/check-test-depth.py
$swift build --build-tests
bin=$($swift build --show-bin-path)
log=$bin/example-package-tests.log
# The test binary directly: a second `swift test` would wait on SwiftPM's lock of .build.
"$bin/stubdPackageTests.xctest" --testing-library swift-testing --filter ExamplePackageTests >"$log" 2>&1 &
examples=$!
trap 'kill $examples 2>/dev/null || true' EXIT
status=0
$swift test --skip-build --skip ExamplePackageTests || status=$?
example_status=0
wait $examples || example_status=$?
trap - EXIT
grep -E "Test run|✘|recorded an issue" "$log" | tail -20 || true
# The in-memory suites again with no network at all (a namespace whose loopback is down): a suite
# tagged .inMemory that opened a socket would fail here. Linux as root only; said when skipped.
if unshare -n true 2>/dev/null; then
  unshare -n $swift test --skip-build --filter "$(python3 packaging/check-test-depth.py --filter)" || { echo "swift-tests: an .inMemory suite needs the network"; status=1; }
else
  echo "swift-tests: the no-network run of the .inMemory suites needs Linux's unshare as root; not run here"
fi
if [ $example_status -ne 0 ]; then echo "swift-tests: ExamplePackageTests failed (whole log: $log)"; status=1; fi
exit $status
