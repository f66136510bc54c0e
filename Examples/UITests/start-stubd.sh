#!/usr/bin/env bash
# Starts stubd in the background for a UI-test run and returns once it answers: for an Xcode
# scheme's test pre-action, an xcodebuild wrapper, a GitHub Actions step or Xcode Cloud's
# ci_scripts/ci_pre_xcodebuild.sh. Prints STUBD_BASE_URL=… (append it to $GITHUB_ENV, or export it).
#
#   Examples/UITests/start-stubd.sh fixtures --port 8080        # arguments go to `stubd serve`
#   Examples/UITests/stop-stubd.sh
#
# STUBD: the stubd to run (default: stubd on PATH). STUBD_STATE: folder for the ready, pid and log
# files (default: $TMPDIR/stubd-ui-tests). STUBD_WAIT: seconds to wait for it (default 30).
set -euo pipefail
STUBD=${STUBD:-stubd}
STATE=${STUBD_STATE:-${TMPDIR:-/tmp}/stubd-ui-tests}
WAIT=${STUBD_WAIT:-30}
mkdir -p "$STATE"
# A stubd this script started earlier and nobody stopped: stop it, it holds the port.
if [ -s "$STATE/pid" ] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null; then
    kill "$(cat "$STATE/pid")" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$(cat "$STATE/pid" 2>/dev/null || echo 0)" 2>/dev/null || break; sleep 0.1; done
fi
rm -f "$STATE/ready" "$STATE/pid"
# Detached: no standard input, output to the log, and no other descriptor of whoever ran this
# script (Xcode, a CI runner, a test harness waits for its pipes to close: stubd must not hold them).
(
    for fd in $(ls /dev/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
    exec "$STUBD" serve "$@" --ready-file "$STATE/ready" --pid-file "$STATE/pid"
) < /dev/null > "$STATE/log" 2>&1 &
STARTED=$!
deadline=$(( $(date +%s) + WAIT ))
until [ -s "$STATE/ready" ]; do
    if ! kill -0 "$STARTED" 2>/dev/null; then
        echo "start-stubd: stubd exited before it was ready:" >&2; tail -20 "$STATE/log" >&2; exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "start-stubd: stubd was not ready within ${WAIT}s (STUBD_WAIT):" >&2; tail -20 "$STATE/log" >&2
        kill "$STARTED" 2>/dev/null || true; exit 1
    fi
    sleep 0.1
done
echo "STUBD_BASE_URL=$(head -1 "$STATE/ready")"
