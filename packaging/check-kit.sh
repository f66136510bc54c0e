#!/usr/bin/env bash
# make test: the UI-test kit (StubdTesting) depends on no server module and builds alone with
# libevent's and OpenSSL's headers hidden — what a UI-test target for the iOS Simulator, where
# neither exists, needs. (The iOS build itself runs in the macOS CI job.)
set -euo pipefail
cd "$(dirname "$0")/.."

# 1. The compiler's boundary: the kit's dependency closure, read from SwiftPM's own description.
swift package describe --type json > .build/describe.json 2>/dev/null || swift package describe --type json > .build/describe.json
python3 - <<'PY'
import json, sys
package = json.load(open(".build/describe.json"))
targets = {t["name"]: t for t in package["targets"]}
closure, todo = set(), ["StubdTesting"]
while todo:
    name = todo.pop()
    if name in closure or name not in targets: continue
    closure.add(name)
    todo += targets[name].get("target_dependencies", [])
    products = targets[name].get("product_dependencies", [])
    if products:
        sys.exit(f"check-kit: FAILED: {name} depends on products {products}; the kit must need nothing outside this package")
system = sorted(n for n in closure if targets[n]["type"] == "system-target")
if system or closure != {"StubdTesting", "StubModel", "StubdHTTP", "TargetModel", "AdminContract"}:
    sys.exit(f"check-kit: FAILED: StubdTesting's closure is {sorted(closure)} (system libraries: {system}); it may use only StubModel (with StubdHTTP, "
             "the pure-Swift HTTP vocabulary it re-exports), TargetModel and AdminContract (the admin API's declarations)")
print(f"check-kit: StubdTesting depends on {', '.join(sorted(closure - {'StubdTesting'}))} only (no system library)")
PY

# 2. Built alone, in its own scratch folder, with libevent's and OpenSSL's headers out of sight.
hide="mount -t tmpfs none /usr/include/event2 && { [ ! -d /usr/include/openssl ] || mount -t tmpfs none /usr/include/openssl; }"
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    unshare -m bash -c "set -o pipefail; $hide && [ ! -e /usr/include/event2/event.h ] && swift build --target StubdTesting --scratch-path .build-kit 2>&1 | tail -1"
    echo "check-kit: StubdTesting built alone with /usr/include/event2 and /usr/include/openssl hidden"
else
    swift build --target StubdTesting --scratch-path .build-kit 2>&1 | tail -1
    echo "check-kit: StubdTesting built alone (headers not hidden: needs root and unshare)"
fi
