#!/bin/bash
# The client's market stream (api/stream.c) against a misbehaving server
# (tests/tools/faultd.c stream modes) and a real gpuxd: garbage, a huge line,
# silence, a connection dropped mid-event and a sequence gap each give a
# clear error and a reconnect (with Last-Event-ID, or without it to resync),
# never a hang; a server that does not stream is polled; `gpux watch` prints
# a trade placed by a script and exits 1 when there is no stream.
. "$(dirname "$0")/../lib.sh"
PROBE="$GPUX_BUILD/tests/stream_probe"
FAULTD="$GPUX_BUILD/tests/faultd"

FPID=""
faultd() { # MODE [ARGS...]: (re)start faultd (no upstream: canned replies); sets FURL
  [ -n "$FPID" ] && kill "$FPID" 2>/dev/null && wait "$FPID" 2>/dev/null
  rm -f "$TMPD/fport" "$TMPD/flog"
  "$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --log "$TMPD/flog" --mode "$@" \
    2>>"$TMPD/faultd.err" &
  FPID=$!
  at_exit "kill $FPID 2>/dev/null"
  wait_for test -s "$TMPD/fport"
  FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
}
probe() { # [--until TEXT] URL CHANNELS STALL_MS SECONDS: the probe must end by itself, in time
  timeout 20 "$PROBE" "$@" 2>&1
  rc=$?
  [ $rc -eq 0 ] || echo "PROBE rc=$rc"
}

# mode | the error the client reports
while IFS='|' read -r mode want; do
  faultd "$mode" --times 1 --delay-ms 1500
  # the canned stream after the fault sends quote 8 (6 s at most)
  out=$(probe --until 'event quote quotes seq=8 prev=7' "$FURL" quotes 1000 6)
  expect_match "$mode: a clear error" "$out" "^state retrying: .*$want"
  expect_match "$mode: then a reconnect that goes live again" \
    "$(printf '%s\n' "$out" | sed -n '/^state retrying/,$p')" '^state live'
  expect_match "$mode: events flow after the reconnect" "$out" 'event quote quotes seq=8 prev=7'
  case "$out" in *"PROBE rc="*) fail "$mode: the probe ends on time" "$out" ;; esac
done <<'CASES'
sse-garbage|something that is not an event
sse-huge|a line that is too long
sse-stall|went silent for 1 s
sse-drop|ended the stream
sse-gap|skipped an event; resyncing
CASES

faultd sse-drop --times 1
probe --until 'event quote quotes seq=8 prev=7' "$FURL" quotes 1000 2 >/dev/null
expect_eq "after a drop the client reconnects with the last event's id" \
  "$(grep '^LAST-EVENT-ID' "$TMPD/flog" | head -2 | tr '\n' ' ')" "LAST-EVENT-ID - LAST-EVENT-ID f-1 "
faultd sse-gap --times 1
probe --until 'event quote quotes seq=8 prev=7' "$FURL" quotes 1000 2 >/dev/null
expect_eq "after a gap the client reconnects without Last-Event-ID (fresh snapshots)" \
  "$(grep '^LAST-EVENT-ID' "$TMPD/flog" | head -2 | tr '\n' ' ')" "LAST-EVENT-ID - LAST-EVENT-ID - "
faultd sse-404
out=$(probe "$FURL" quotes 1000 3)
expect_match "a server that does not stream is polled" "$out" '^state polling'
expect_match "the polled /v1/quotes arrive as quotes snapshots" "$out" 'event snapshot quotes seq=7 prev=-1 quotes=1 .*polled=1'
expect_match "polling: /v1/quotes every 2 s (one or two in 3 s), not more" \
  "$(grep -c '^GET /v1/quotes' "$TMPD/flog")" '^[12]$'

# --- gpux watch against a real gpuxd -----------------------------------------------------
ADMIN=stream-test-admin-key-0123456789
printf '%s\n' "$ADMIN" >"$TMPD/admin.key"
chmod 600 "$TMPD/admin.key"
start_gpuxd --market open --quiet --admin-key-file "$TMPD/admin.key" || finish
mkjson() { printf '{"email":"w%s@example.com","country":"US","currency":"USD","role":"%s"}' "$RANDOM" "$1"; }
SK=$(curl -s -X POST "$GPUXD_URL/v1/accounts" --data-binary "$(mkjson seller)" | jq -r .api_key)
acc=$(curl -s -X POST "$GPUXD_URL/v1/accounts" --data-binary "$(mkjson buyer)")
BK=$(printf '%s' "$acc" | jq -r .api_key)
curl -s -X POST -H "Authorization: Bearer $ADMIN" "$GPUXD_URL/v1/deposits" \
  --data-binary "{\"account_id\":$(printf '%s' "$acc" | jq -r .id),\"amount_minor\":100000000,\"reference\":\"stream-1\"}" >/dev/null
order() { # KEY SIDE PRICE COID
  curl -s -X POST -H "Authorization: Bearer $1" "$GPUXD_URL/v1/orders" --data-binary \
    "{\"client_order_id\":\"$4\",\"gpu\":\"h200\",\"side\":\"$2\",\"type\":\"limit\",\"gpus\":2,\"hours\":3,\"price_cents\":$3}"
}
order "$SK" sell 415 w1 >/dev/null

"$GPUX" --api "$GPUXD_URL" watch h200 --format json >"$TMPD/watch.out" 2>"$TMPD/watch.err" &
WPID=$!
at_exit "kill $WPID 2>/dev/null"
"$GPUX" --api "$GPUXD_URL" watch h200 >"$TMPD/watch.txt" 2>"$TMPD/watch2.err" &
W2=$!
at_exit "kill $W2 2>/dev/null"
# both say on stderr when their stream is live: from then on they get every change
check "gpux watch says on stderr when its stream is live" wait_for grep -q 'the stream is live; Ctrl-C ends it' "$TMPD/watch.err"
wait_for grep -q 'the stream is live' "$TMPD/watch2.err" || fail "the second gpux watch goes live" "$(cat "$TMPD/watch2.err")"
tid=$(order "$BK" buy 415 w2 | jq -r '.fills[0].trade_id')
wait_for grep -q '"kind":"trade"' "$TMPD/watch.out"
expect_eq "gpux watch h200 prints the trade a script placed, as one JSON object" \
  "$(grep '"kind":"trade"' "$TMPD/watch.out" | jq -c '{trade_id, gpu, price_cents, gpus, hours, taker_side}')" \
  "{\"trade_id\":$tid,\"gpu\":\"h200\",\"price_cents\":415,\"gpus\":2,\"hours\":3,\"taker_side\":\"buy\"}"
wait_for grep -q 'last' "$TMPD/watch.out"
expect_match "and the quote change it caused (last 4.15, the ask gone)" \
  "$(grep '"kind":"quote"' "$TMPD/watch.out" | tail -1)" '"best_ask_cents":null,"last_cents":415'
expect_eq "every line is one JSON object" "$(jq -c . "$TMPD/watch.out" | wc -l)" "$(wc -l <"$TMPD/watch.out")"
wait_for grep -q 'trade' "$TMPD/watch.txt"
expect_match "the table form says it in words" "$(cat "$TMPD/watch.txt")" 'h200 +trade +\$4\.15 × 2 GPUs × 3 h \(buy\)'
kill -INT $WPID; wait $WPID; rc=$?
expect_eq "Ctrl-C ends gpux watch with status 0" "$rc" "0"
timeout 10 "$GPUX" --api "$GPUXD_URL" watch --count 1 --format csv >"$TMPD/watch.csv" 2>"$TMPD/watch3.err" &
W3=$!
wait_for grep -q 'the stream is live' "$TMPD/watch3.err" || fail "gpux watch --count 1 goes live" "$(cat "$TMPD/watch3.err")"
order "$SK" sell 420 w3 >/dev/null
wait $W3
out=$(cat "$TMPD/watch.csv")
expect_eq "csv: the header, then one row per change (--count 1)" \
  "$(printf '%s\n' "$out" | head -1)" "at,gpu,kind,trade_id,price_cents,gpus,hours,taker_side,best_bid_cents,best_ask_cents,last_cents"
expect_match "csv: the row of the new ask" "$(printf '%s\n' "$out" | sed -n 2p)" ',h200,quote,,,,,,,420,415$'

out=$(timeout 10 "$GPUX" --api http://127.0.0.1:1 watch 2>&1); rc=$?
expect_eq "gpux watch without an exchange exits 1" "$rc" "1"
expect_match "saying why" "$out" "^gpux: the exchange's market stream cannot be had: .*(connect|Connection)"
faultd sse-404
out=$(timeout 10 "$GPUX" --api "$FURL" watch 2>&1); rc=$?
expect_eq "gpux watch against an exchange that does not stream exits 1" "$rc" "1"
expect_match "saying so" "$out" "market stream cannot be had: .*(404|no such route)"
finish
