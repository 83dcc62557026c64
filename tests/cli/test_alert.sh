#!/bin/bash
# `gpux alert add|list|rm`, `gpux watch --alerts [--exec CMD]` and the
# conditional and standing flags of `gpux order`, against a real gpuxd: what
# a user sees and what a script gets; the account's events shown once each
# across a kill -9 and restart of gpuxd (the stream resumes with its
# Last-Event-ID) and across a server that replays what was delivered
# (tests/tools/faultd.c sse-account-repeat); --exec gets each event's JSON on
# its standard input; bad flags are usage errors (exit 2) naming what is
# accepted; a revoked key ends the watch with exit 1.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../exchange/xlib.sh"
FAULTD="$GPUX_BUILD/tests/faultd"
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
PORT=$GPUXD_PORT
signup US USD seller; SK=$KEY
signup US USD buyer; BK=$KEY; deposit "$ACC" 100000000
export GPUX_API=$GPUXD_URL GPUX_API_KEY=$BK
sell() { # PRICE [GPU]: a resting ask of the seller
  n=$(( ${n:-0} + 1 ))
  req POST /v1/orders "{\"client_order_id\":\"s$n\",\"gpu\":\"${2:-h200}\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":4,\"hours\":720,\"price_cents\":$1}" "$SK"
  OID=$(jqb .id)
}

# --- usage -----------------------------------------------------------------------------------
"$GPUX" alert add h200 >"$TMPD/o" 2>"$TMPD/e"; rc=$?
expect_eq "alert add without a condition: exit 2" "$rc" "2"
expect_match "and it says which conditions there are" "$(cat "$TMPD/e")" '^gpux: alert add: give one condition: --ask-below PRICE'
"$GPUX" alert add h200 --ask-below 4.10 --bid-above 4 >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "two conditions: exit 2" "$rc" "2"
"$GPUX" alert add h201 --ask-below 4.10 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "an unknown GPU: exit 2, naming the ids" "$rc $(cat "$TMPD/e")" '^2 gpux: .*h200'
"$GPUX" alert add h200 --ask-below 4.105 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a price with three decimals: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: --ask-below'
"$GPUX" alert add --order-filled --rearm 1 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "--rearm without a price condition: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: alert add: --rearm goes with a price condition'
"$GPUX" alert frob >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "an unknown subcommand: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: alert: "frob" is not something alert does; accepted: add, list, rm ID'
"$GPUX" watch --exec true >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "--exec without --alerts: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: watch: --exec, --since and --give-up go with --alerts'
"$GPUX" order buy h200 --gpus 1 --hours 1 --limit 4 --if-ask-below 4 --if-bid-above 3 --dry-run >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "two triggers on an order: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: order: one trigger at most'
"$GPUX" order sell h200 --gpus 1 --hours 1 --limit 4 --standing --dry-run >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a standing sell: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: order: --standing is a limit buy'
req GET /v1/alerts "" "$BK"
expect_eq "nothing was stored by the refused commands" "$(jqb '.alerts | length')" "0"

# --- add, list ---------------------------------------------------------------------------------
sell 450
out=$("$GPUX" alert add h200 --ask-below 4.10 --rearm 0.05 --label "cheap H200")
expect_eq "alert add says what the exchange watches" "$out" \
  "Alert 1: H200 ask at or below \$4.10. The exchange watches it and tells you on gpux watch --alerts."
out=$("$GPUX" alert add h200 --ask-below 5)
expect_match "one that holds already fires at once, and says so" "$out" '^Alert 2: H200 ask at or below \$5.00 — it holds already'
"$GPUX" alert add --order-filled >/dev/null
"$GPUX" alert list >"$TMPD/list"
expect_match "alert list shows each alert in words" "$(cat "$TMPD/list")" 'H200 ask at or below \$4.10 +\$0.05 +armed +0 +— +— +cheap H200'
expect_match "with its state" "$(cat "$TMPD/list")" 'H200 ask at or below \$5.00 +once +fired +1 '
expect_match "and how many are live" "$(tail -1 "$TMPD/list")" '^2 of at most 100 alerts are live'
expect_eq "--format csv gives raw values" \
  "$("$GPUX" --format csv alert list | sed -n '1p;$p' | tr '\n' '|')" \
  "id,when,gpu,price_cents,minutes,rental_id,order_id,rearm_cents,model,method,hours,max_total_minor,rearm_minor,currency,state,fired_count,last_fired_at,expires_at,label|1,ask_lte,h200,410,,,,5,,,,,,,armed,0,,,cheap H200|"

# --- watch --alerts --exec, a kill -9 of gpuxd in the middle -------------------------------------
# the watch begins after the log's last event now (one fired above), so it
# has every later one however soon it connects
req GET /v1/events "" "$BK"
HEAD=$(jqb .head)
"$GPUX" watch --alerts --since "$HEAD" --exec "cat >>'$TMPD/exec.jsonl'" --give-up 60 \
  >"$TMPD/watch.out" 2>"$TMPD/watch.err" &
WP=$!
at_exit "kill $WP 2>/dev/null"
sell 410; A1=$OID      # fires alert 1 (and order_filled does not: nothing of the buyer filled)
req DELETE "/v1/orders/$A1" "" "$SK"   # back at 450: re-armed (450 >= 4.10 + 0.05)
sell 409               # fires it again
wait_for sh -c "[ \$(grep -c . '$TMPD/exec.jsonl' 2>/dev/null) -ge 2 ]"
expect_eq "--exec got each firing's JSON on its standard input" \
  "$(jq -r '"\(.id) \(.kind) \(.alert_id) \(.value_cents)"' "$TMPD/exec.jsonl" | tr '\n' '|')" \
  "2 alert 1 410|3 alert 1 409|"
expect_match "and the line in words on standard output" "$(cat "$TMPD/watch.out")" \
  'Alert 1: H200 ask at or below \$4.10 — now \$4.09 \(cheap H200\)'
DB=$GPUXD_DB
kill -9 "$GPUXD_PID"; { wait "$GPUXD_PID"; } 2>/dev/null
"$GPUXD" --listen "127.0.0.1:$PORT" --port-file "$TMPD/again.port" --db "$DB" \
  --admin-key-file "$TMPD/admin.key" --quiet --market open --rate-limit 0 --ip-rate-limit 0 \
  >"$TMPD/gpuxd-again.log" 2>&1 &
GPUXD_PID=$!
_xd_pids="$_xd_pids $GPUXD_PID"
at_exit "kill $GPUXD_PID 2>/dev/null"
wait_for test -s "$TMPD/again.port" || fail "gpuxd starts again on port $PORT" "$(tail -3 "$TMPD/gpuxd-again.log")"
"$GPUX" order buy h200 --gpus 1 --hours 1 --limit 4.20 --yes >/dev/null   # fills: order_filled fires
wait_for sh -c "[ \$(grep -c . '$TMPD/exec.jsonl') -ge 3 ]"
kill "$WP"; wait "$WP" 2>/dev/null
expect_eq "after gpuxd was killed and restarted, every event once, none missing" \
  "$(jq -r .id "$TMPD/exec.jsonl" | tr '\n' ' ')" "2 3 4 "
expect_match "(the watch said it reconnected)" "$(cat "$TMPD/watch.err")" 'the stream is live again'
expect_eq "the event after the restart is the fill" "$(jq -r 'select(.id == 4) | "\(.when) \(.fill_price_cents)"' "$TMPD/exec.jsonl")" \
  "order_filled 409"
out=$("$GPUX" --format json watch --alerts --since 2 --count 2)
expect_eq "--since ID begins after that event; --format json: each event's own object" \
  "$(printf '%s\n' "$out" | jq -r .id | tr '\n' ' ')" "3 4 "

# --- a server that replays what was delivered ---------------------------------------------------
"$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --log "$TMPD/flog" --mode sse-account-repeat 2>/dev/null &
FP=$!
at_exit "kill $FP 2>/dev/null"
wait_for test -s "$TMPD/fport"
out=$(timeout 20 "$GPUX" --api "http://127.0.0.1:$(cat "$TMPD/fport")" --format csv watch --alerts --count 4 2>"$TMPD/fe")
expect_eq "a replay that overlaps what was delivered is shown once (1 2 3, then 2 3 4)" \
  "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1 | tr '\n' ' ')" "1 2 3 4 "
expect_eq "the reconnect sent the last event's number" "$(grep '^LAST-EVENT-ID' "$TMPD/flog" | sed -n 2p)" "LAST-EVENT-ID 3"
kill "$FP"

# --- conditional and standing orders from the command line ---------------------------------------
out=$("$GPUX" order buy b200 --gpus 2 --hours 3 --limit 7 --if-ask-above 8 --oco pair --yes)
expect_match "a conditional order's confirmation says what it waits for" "$out" 'for its trigger \(B200 ask at or above \$8.00\)'
expect_match "and the result says it waits" "$out" 'Waiting: order [0-9]+, 2 × B200 GPUs at \$7.00 per GPU-hour wait off the book'
expect_match "gpux orders shows it waiting" "$("$GPUX" orders)" 'waiting for its trigger'
out=$("$GPUX" order buy h200 --gpus 1 --hours 2 --limit 4.60 --standing --yes)
expect_match "a standing order says what it keeps" "$out" '^Standing: it keeps 1 GPU for periods of 2 h'

# --- a revoked key ends the watch -----------------------------------------------------------------
req POST /v1/keys '{"name":"w","scope":"read"}' "$BK"
RK=$(jqb .api_key) RKID=$(jqb .id)
GPUX_API_KEY=$RK "$GPUX" watch --alerts --give-up 5 >/dev/null 2>"$TMPD/rev.err" &
WP=$!
# the watch is connected once its key has been used (gpuxd notes a key's use as it opens the stream)
key_used() { curl -fsS -H "Authorization: Bearer $BK" "$GPUXD_URL/v1/keys" |
  jq -e --argjson id "$RKID" '.keys[] | select(.id == $id) | .last_used_at != null' >/dev/null; }
if wait_for key_used; then ok "the watch connected (its key used)"; else fail "the watch connected (its key used)" "last_used_at stayed null"; fi
req DELETE "/v1/keys/$RKID" "" "$BK"
i=0; while [ $i -lt 200 ] && kill -0 "$WP" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$WP" 2>/dev/null; then kill "$WP"; rc=running; else wait "$WP"; rc=$?; fi
expect_eq "a watch whose key is revoked ends with exit 1" "$rc" "1"
expect_match "saying why" "$(cat "$TMPD/rev.err")" 'gpux: .*(UNAUTHORIZED|lost)'
xd_finish
