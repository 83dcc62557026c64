#!/bin/bash
# One honest deadline: against an exchange that accepts and never answers,
# every command gives up when its timeout (--timeout, GPUX_TIMEOUT, or
# `timeout` in the config file) is spent — retries included — within a
# second, and says so: how long and how many tries. Retry-After as an HTTP
# date is honoured; an over-long reply header is named; --key-file and
# --key - keep the key out of ps.
. "$(dirname "$0")/../lib.sh"
FAULTD="$GPUX_BUILD/tests/faultd"

start_gpuxd --demo --quiet || finish
FPID=""
faultd() { # MODE [ARGS...]
  [ -n "$FPID" ] && kill "$FPID" 2>/dev/null && wait "$FPID" 2>/dev/null
  rm -f "$TMPD/fport" "$TMPD/flog"
  "$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --upstream "$GPUXD_URL" \
    --log "$TMPD/flog" --mode "$@" 2>>"$TMPD/faultd.err" &
  FPID=$!
  at_exit "kill $FPID 2>/dev/null"
  wait_for test -s "$TMPD/fport"
  FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
}
timed() { # command...: runs it, sets RC, MS (wall time) and ERR (its stderr)
  t0=$(date +%s%N)
  "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
  RC=$?
  MS=$(( ($(date +%s%N) - t0) / 1000000 ))
  ERR=$(cat "$TMPD/err")
}
within() { # description, deadline ms: MS is deadline ± 1 s
  check "$1: ended at ${MS} ms, within its ${2} ms deadline ± 1 s" \
    test "$MS" -ge $(( $2 - 1000 )) -a "$MS" -le $(( $2 + 1000 ))
}

faultd hang
for cmd in "quotes" "orders" "order buy h200 --gpus 1 --hours 1 --limit 4 --yes"; do
  # shellcheck disable=SC2086
  timed "$GPUX" --api "$FURL" --key gpux_nokey --timeout 3 $cmd
  expect_eq "gpux $cmd, hung exchange: exit 1" "$RC" 1
  within "gpux $cmd, --timeout 3" 3000
  expect_match "gpux $cmd: says how long and how many tries" "$ERR" \
    "no answer from the exchange at 127\.0\.0\.1:[0-9]+ in 3 s after [12] tr(y|ies)"
done
timed env GPUX_TIMEOUT=2 "$GPUX" --api "$FURL" quotes
within "GPUX_TIMEOUT=2 gpux quotes" 2000
expect_match "... and says 2 s" "$ERR" "in 2 s after"
mkdir -p "$XDG_CONFIG_HOME/gpux"
printf 'timeout = 2.5\n' >"$XDG_CONFIG_HOME/gpux/config"
timed "$GPUX" --api "$FURL" quotes
within "timeout = 2.5 in the config file" 2500
timed env GPUX_TIMEOUT=9 "$GPUX" --api "$FURL" --timeout 2 quotes
within "--timeout beats GPUX_TIMEOUT" 2000
rm "$XDG_CONFIG_HOME/gpux/config"
timed "$GPUX" --api "$FURL" --timeout 3 table training --format csv
expect_eq "gpux table, hung exchange: the table still comes (exit 0)" "$RC" 0
within "gpux table, --timeout 3" 3000
expect_match "gpux table: a warning with the time" "$ERR" "no live prices: .*in 3 s after"
timed "$GPUX" --api "$FURL" --timeout 0 quotes
expect_eq "--timeout 0 is bad usage" "$RC" 2

# Retry-After as an HTTP date: the next try waits until then
faultd 503-date --times 1 --delay-ms 2000
timed "$GPUX" --api "$FURL" --format csv quotes
expect_eq "503 with Retry-After as a date, then the exchange: exit 0" "$RC" 0
check "the retry waited for the date (${MS} ms >= 1000)" test "$MS" -ge 1000
expect_eq "two requests reached the exchange" "$(grep -c '^GET /v1/quotes' "$TMPD/flog")" 2

# an over-long reply header
faultd huge-header
timed "$GPUX" --api "$FURL" quotes
expect_eq "a 200 KB reply header: exit 1" "$RC" 1
expect_match "... named as such, not 'out of memory'" "$ERR" "reply header over 100 KB"

# keys out of ps: --key-file, --key -, and --key's text wiped
curl -s -X POST -d '{"email":"k@example.com","country":"US","currency":"USD","role":"both"}' \
  "$GPUXD_URL/v1/accounts" >"$TMPD/acc"
KEY=$(jq -r .api_key "$TMPD/acc")
printf '%s\n' "$KEY" >"$TMPD/key"
chmod 644 "$TMPD/key"
timed "$GPUX" --api "$GPUXD_URL" --key-file "$TMPD/key" account
expect_eq "--key-file readable by others: refused" "$RC:$(grep -c 'chmod 600' "$TMPD/err")" "1:1"
chmod 600 "$TMPD/key"
timed "$GPUX" --api "$GPUXD_URL" --key-file "$TMPD/key" --format csv account
expect_eq "--key-file (0600): the account" "$RC" 0
printf '%s\n' "$KEY" | "$GPUX" --api "$GPUXD_URL" --key - --format csv account >"$TMPD/out" 2>&1
expect_eq "--key -: the key from standard input" "$?" 0
faultd hang
"$GPUX" --api "$FURL" --key "$KEY" --timeout 3 orders >/dev/null 2>&1 &
GP=$!
# once its request reached the (hung) exchange, gpux is long past reading its arguments
wait_for grep -q '^GET /v1/orders' "$TMPD/flog" || fail "gpux's request reaches faultd" "$(cat "$TMPD/flog")"
if [ -r "/proc/$GP/cmdline" ]; then
  check "while gpux runs, ps does not show the key given with --key" \
    test "$(tr '\0' ' ' <"/proc/$GP/cmdline" | grep -c -- "$KEY")" -eq 0
else
  fail "while gpux runs, ps does not show the key given with --key" "gpux ended too soon"
fi
wait $GP
finish
