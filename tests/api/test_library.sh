#!/bin/bash
# The exchange client library (api/) against a real gpuxd --demo on loopback:
# every endpoint of docs/API.md through the blocking calls (api_probe suite),
# and the asynchronous interface (many requests at once through
# api_fds/poll/api_perform, which must never block).
. "$(dirname "$0")/../lib.sh"
PROBE="$GPUX_BUILD/tests/api_probe"

start_gpuxd --demo --quiet || finish
"$PROBE" --url "$GPUXD_URL" suite
[ $? -eq 0 ] || fail "api_probe suite exits 0"

# the asynchronous pump: 20 quotes + 20 market requests started at once
out=$("$PROBE" --url "$GPUXD_URL" pump 20)
expect_match "pump: all 40 requests answered, none failed" "$out" '^pump ok=40 err=0 pending=0 '
ms=$(printf '%s' "$out" | sed -E 's/.*max_perform_ms=([0-9]+).*/\1/')
# api_perform only does what is ready; 200 ms is far above its real cost
# (a few ms, see the report), so this can only fail if it waits on the network
check "pump: api_perform never blocked (longest call ${ms} ms)" test "$ms" -lt 200

# against a slow exchange the pump still returns at once: replies take 300 ms each
"$GPUX_BUILD/tests/faultd" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --mode slow \
  --delay-ms 300 --upstream "$GPUXD_URL" >"$TMPD/faultd.log" 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_for test -s "$TMPD/fport"
out=$("$PROBE" --url "http://127.0.0.1:$(cat "$TMPD/fport")" pump 2)
expect_match "slow exchange: the 4 requests answered" "$out" '^pump ok=4 err=0 pending=0 '
ms=$(printf '%s' "$out" | sed -E 's/.*max_perform_ms=([0-9]+).*/\1/')
check "slow exchange: api_perform never waited for it (longest call ${ms} ms)" test "$ms" -lt 200
finish
