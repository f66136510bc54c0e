#!/usr/bin/env bash
# Stops the stubd start-stubd.sh started (SIGTERM: it stops cleanly and removes its ready and pid files).
set -euo pipefail
STATE=${STUBD_STATE:-${TMPDIR:-/tmp}/stubd-ui-tests}
[ -s "$STATE/pid" ] || { echo "stop-stubd: no stubd started by start-stubd.sh ($STATE/pid)"; exit 0; }
PID=$(cat "$STATE/pid")
kill "$PID" 2>/dev/null || true
for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || exit 0; sleep 0.1; done
echo "stop-stubd: stubd ($PID) did not stop within 10 s; killing it" >&2
kill -9 "$PID" 2>/dev/null || true
