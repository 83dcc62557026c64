#!/bin/bash
# The exchange client against a misbehaving server (tests/tools/faultd.c):
# every fault becomes a clear error (or a correct retry), never a crash; an
# order whose connection is reset after the exchange committed it is retried
# with the same client_order_id and exists exactly once.
. "$(dirname "$0")/../lib.sh"
PROBE="$GPUX_BUILD/tests/api_probe"
FAULTD="$GPUX_BUILD/tests/faultd"

start_gpuxd --demo --quiet || finish

FPID=""
faultd() { # MODE [ARGS...]: (re)start faultd in front of gpuxd; sets FURL
  [ -n "$FPID" ] && kill "$FPID" 2>/dev/null && wait "$FPID" 2>/dev/null
  rm -f "$TMPD/fport" "$TMPD/flog"
  "$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --upstream "$GPUXD_URL" \
    --log "$TMPD/flog" --mode "$@" 2>>"$TMPD/faultd.err" &
  FPID=$!
  at_exit "kill $FPID 2>/dev/null"
  wait_for test -s "$TMPD/fport"
  FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
}

probe() { # runs api_probe; prints its output; the exit status must be 0 or 1, never a signal
  "$PROBE" --backoff-ms 20 "$@" 2>&1
  rc=$?
  [ $rc -le 1 ] || echo "CRASH rc=$rc"
}

# mode | what the error must say
while IFS='|' read -r mode want; do
  faultd "$mode"
  out=$(probe --url "$FURL" quotes)
  expect_match "$mode: a clear error" "$out" "$want"
  case "$out" in *CRASH*) fail "$mode: no crash" "$out" ;; esac
done <<'CASES'
nonjson|^error kind=protocol .*the reply is not JSON
truncated|^error kind=network .*broke in the middle of the reply
truncated-json|^error kind=protocol .*ends before its JSON is complete
wrongtypes|^error kind=protocol .*quotes\[0\]\.best_ask_cents: expected a whole number, got a string
negative|^error kind=protocol .*best_ask_cents: -419 is out of range
bignum|^error kind=protocol .*best_ask_cents: .* too large to be exact
fraction|^error kind=protocol .*best_ask_cents: expected a whole number, got 4\.19
missing|^error kind=protocol .*best_ask_cents: expected a whole number or null, got nothing
huge|^error kind=protocol .*larger than 8 MiB
huge-cl|^error kind=protocol .*larger than 8 MiB
500|^error kind=http status=500 code=INTERNAL attempts=4 .*\(request rfault500\)
503|^error kind=http status=503 code=UNAVAILABLE attempts=4 .*try again in 1 s
502-html|^error kind=http status=502 .*without an error object
reset|^error kind=network status=0 code=- attempts=4 .*broke
CASES

# reads are retried: two 503s with Retry-After: 1, then the real answer
faultd 503 --times 2
t0=$(date +%s%N)
out=$(probe --url "$FURL" quotes)
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_match "503 twice, then served: the quotes arrive" "$out" '^quotes n=15 h200=4[0-9][0-9] '
# Retry-After: 1 honoured twice (the backoff alone would be 20-40 ms)
check "503 twice: Retry-After honoured (${ms} ms >= 1900)" test "$ms" -ge 1900
expect_eq "503 twice: three requests reached faultd" "$(grep -c '^GET /v1/quotes' "$TMPD/flog")" 3

# a reply slower than the timeout
faultd slow --delay-ms 1500
t0=$(date +%s%N)
out=$(probe --url "$FURL" --timeout-ms 400 --attempts 2 quotes)
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_match "slow reply: a timeout error" "$out" '^error kind=timeout .*no answer from the exchange at .* in 400 ms after 1 try'
check "slow reply: gave up at its 400 ms deadline, retries included (${ms} ms < 1400)" test "$ms" -lt 1400

# the CLI: one clear line on stderr, exit 1, nothing on stdout, no control character
faultd 502-html
GPUX_API="$FURL" "$GPUX" quotes >"$TMPD/out" 2>"$TMPD/err"
expect_eq "gpux quotes on a 502: exit 1" "$?" 1
expect_eq "gpux quotes on a 502: nothing on stdout" "$(wc -c <"$TMPD/out")" 0
expect_match "gpux quotes on a 502: the error says what happened" "$(cat "$TMPD/err")" '^gpux: the exchange answered HTTP 502'
expect_eq "gpux quotes on a 502: no control character reaches the terminal" \
  "$(LC_ALL=C tr -d '\n' <"$TMPD/err" | LC_ALL=C grep -c '[[:cntrl:]]')" 0
faultd wrongtypes
GPUX_API="$FURL" "$GPUX" quotes >"$TMPD/out" 2>"$TMPD/err"
expect_eq "gpux quotes, wrong types: exit 1" "$?" 1
expect_match "gpux quotes, wrong types: names the field" "$(cat "$TMPD/err")" 'best_ask_cents: expected a whole number'
faultd slow --delay-ms 3000
t0=$(date +%s%N)
GPUX_API="$FURL" GPUX_TIMEOUT=0.5 "$GPUX" table training --format csv >"$TMPD/out" 2>"$TMPD/err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_eq "gpux table, exchange too slow: still exit 0" "$rc" 0
expect_eq "gpux table, exchange too slow: the table without prices" "$(sed -n 2p "$TMPD/out" | awk -F, '{print $1 "," $NF}')" "b300,"
expect_match "gpux table, exchange too slow: a warning" "$(cat "$TMPD/err")" '^gpux: no live prices: .*no answer from the exchange at .* in 500 ms after [12] tr'

# ---- orders: a connection reset after the exchange committed the order ----------
acct=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"faults@example.pt","country":"PT","currency":"EUR","role":"both"}')
KEY=$(printf '%s' "$acct" | jq -r .api_key)
curl -sS -X POST -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/deposits" -d '{"amount_minor":2000000}' >/dev/null

# the first POST is committed by gpuxd, then faultd resets the connection; the
# client sends the same client_order_id again and gets the original order back
faultd reset-order --times 1
out=$(probe --url "$FURL" --key "$KEY" place h200 buy market 8 24 500 coid-reset-1)
expect_match "reset after commit: the retry returns the original order" "$out" '^order id=[0-9]+ coid=coid-reset-1 status=filled replayed=1 reconciled=0'
expect_eq "reset after commit: the order was sent twice" "$(grep -c '^POST /v1/orders .*coid-reset-1' "$TMPD/flog")" 2
expect_eq "reset after commit: ... with the same body" "$(grep '^POST /v1/orders ' "$TMPD/flog" | sort -u | wc -l)" 1
out=$(probe --url "$GPUXD_URL" --key "$KEY" orders-by coid-reset-1)
expect_eq "reset after commit: exactly one order exists" "$out" "orders n=1"

# every POST is reset: the client asks for the order by client_order_id
faultd reset-order
out=$(probe --url "$FURL" --key "$KEY" place h200 buy market 1 2 500 coid-reset-2)
expect_match "every POST reset: reconciled by client_order_id" "$out" '^order id=[0-9]+ coid=coid-reset-2 status=filled replayed=[01] reconciled=1'
expect_eq "every POST reset: sent 4 times" "$(grep -c '^POST /v1/orders ' "$TMPD/flog")" 4
expect_eq "every POST reset: asked for it by id" "$(grep -c '^GET /v1/orders?client_order_id=coid-reset-2' "$TMPD/flog")" 1
out=$(probe --url "$GPUXD_URL" --key "$KEY" orders-by coid-reset-2)
expect_eq "every POST reset: exactly one order exists" "$out" "orders n=1"

# nothing ever answers: the outcome is reported as unknown, with the id
faultd reset
out=$(probe --url "$FURL" --key "$KEY" place h200 buy market 1 2 500 coid-reset-3)
expect_match "no answer at all: the outcome is unknown, and says so" "$out" '^error kind=unknown_outcome .*coid=coid-reset-3: the outcome of order coid-reset-3 is unknown'

# the same through gpux order: one order, and the result says what happened
faultd reset-order --times 1
GPUX_API="$FURL" GPUX_API_KEY="$KEY" "$GPUX" order buy h100-sxm --gpus 2 --hours 3 --market --max-price 4 --yes \
  >"$TMPD/out" 2>"$TMPD/err"
expect_eq "gpux order, reset after commit: exit 0" "$?" 0
expect_match "gpux order, reset after commit: filled" "$(cat "$TMPD/out")" '^Filled: order [0-9]+, 2 × H100 SXM GPUs for 3 h'
expect_match "gpux order, reset after commit: says it was placed once" "$(cat "$TMPD/out")" 'the exchange already had this order'
n=$(curl -sS -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/orders?gpu=h100-sxm" | jq '.orders | length')
expect_eq "gpux order, reset after commit: exactly one H100 SXM order" "$n" 1
finish
