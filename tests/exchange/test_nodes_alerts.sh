# Alerts and conditional orders on two gpuxd nodes sharing one PostgreSQL
# database (tests/pglib.sh starts a throwaway cluster): an alert made through
# one node fires in the other node's transaction that crosses it, exactly
# once when both nodes cross it at once; its firing reaches an account stream
# on the first node (LISTEN/NOTIFY); so does a job alert (the cheapest total
# of a job, every node keeping every job alert); a conditional order made through one node
# enters when the other changes the book; a time-based alert fires on the
# lease holder; a stream resumed on the other node with Last-Event-ID — after
# a kill -9 of the first — misses nothing and repeats nothing.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start nalerts
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
A=$GPUXD_URL APID=$GPUXD_PID
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
B=$GPUXD_URL
on() { GPUXD_URL=$1; }
n=0
order() { # KEY JSON-FIELDS — sets OID (through the current node)
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"n$n\",\"type\":\"limit\",$2}" "$1"
  OID=$(jqb .id)
}
sell() { order "$SK" "\"gpu\":\"$1\",\"side\":\"sell\",\"gpus\":${3:-1},\"hours\":720,\"price_cents\":$2"; }
firings() { # ALERT: its firings' values, through the current node
  req GET "/v1/events?limit=200" "" "$BK"
  jqb "[.events[] | select(.kind == \"alert\" and .alert_id == $1) | .value_cents // .rental_id] | join(\" \")"
}

on "$A"; signup US USD seller; SK=$KEY
signup US USD buyer; BK=$KEY; deposit "$ACC" 100000000
curl -sN -H "Authorization: Bearer $BK" "$A/v1/stream?channels=account" >"$TMPD/a.sse" 2>/dev/null &
SA=$!
at_exit "kill $SA 2>/dev/null"
wait_for grep -q '"channel":"account"' "$TMPD/a.sse"

# --- made on A, fired on B, heard on A --------------------------------------------------------
on "$A"; sell h200 500
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":450}' "$BK"
AL=$(jqb .id)
on "$B"; sell h200 451
expect_eq "an alert made through node A: node B's ask at 451 does not fire it" "[$(firings "$AL")]" "[]"
sell h200 450
expect_eq "node B's ask at exactly 450 fires it, in B's transaction" "[$(firings "$AL")]" "[450]"
if wait_for grep -q '"alert_id":'"$AL" "$TMPD/a.sse"; then
  ok "the firing reaches the account stream on node A (LISTEN/NOTIFY)"
else
  fail "the firing reaches the account stream on node A (LISTEN/NOTIFY)" "$(tail -3 "$TMPD/a.sse")"
fi

# --- crossed on both nodes at once: one firing ---------------------------------------------------
on "$B"; sell b200 900
on "$A"; req POST /v1/alerts '{"when":"ask_lte","gpu":"b200","price_cents":800}' "$BK"
ONCE=$(jqb .id)
req POST /v1/alerts '{"when":"ask_lte","gpu":"b200","price_cents":800,"rearm_cents":1000000}' "$BK"
REARM=$(jqb .id)
i=0
pids=""
while [ $i -lt 20 ]; do
  u=$A; [ $((i % 2)) -eq 1 ] && u=$B
  curl -s -o /dev/null -X POST -H "Authorization: Bearer $SK" \
    --data-binary "{\"client_order_id\":\"x$i\",\"gpu\":\"b200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":1,\"hours\":720,\"price_cents\":$((800 - i))}" \
    "$u/v1/orders" &
  pids="$pids $!"
  i=$((i + 1))
done
wait $pids
expect_eq "20 crossing asks sent to both nodes at once: the once-alert fired once" \
  "$(firings "$ONCE" | wc -w) $(sql "SELECT state, fired FROM alerts WHERE id = $ONCE")" "1 fired|1"
expect_eq "and an alert that cannot re-arm too" "$(sql "SELECT state, fired FROM alerts WHERE id = $REARM")" "rearming|1"

# --- a job alert: made on A, fired by B's change; crossed on both nodes at once, once ---------------
# Llama 3.1 405B at FP8 (tests/exchange/test_job_alerts.sh): G GPUs of one
# H200 or B200 machine for 24 h; the asks above are single GPUs, which cannot
# serve it, so only machines of 8 count
JOB='{"model":"llama-3.1-405b","method":"infer-fp8","params_millions":405900,"layers":126,"hidden":16384,"heads":128,"kv_heads":8,"head_dim":128,"vocab":128256,"ffn":53248,"seq_len":8192}'
G=$("$GPUX_BUILD/gpux" fit llama-3.1-405b --method infer-fp8 --seq 8192 --format json | jq -r '.[] | select(.gpu == "h200") | .gpus_run')
node() { # GPU PRICE — a machine of 8 on NVLink, through the current node
  order "$SK" "\"gpu\":\"$1\",\"side\":\"sell\",\"gpus\":8,\"hours\":720,\"price_cents\":$2,\"node_gpus\":8,\"interconnect\":\"nvlink\""
}
jfirings() { # ALERT: its firings' totals, through the current node
  req GET "/v1/events?limit=200" "" "$BK"
  jqb "[.events[] | select(.kind == \"alert\" and .alert_id == $1) | \"\\(.gpu):\\(.total_minor)\"] | join(\" \")"
}
on "$A"; req POST /v1/alerts "{\"when\":\"job_total_lte\",\"job\":$JOB,\"hours\":24,\"max_total_minor\":$((G * 24 * 450))}" "$BK"
JA=$(jqb .id)
expect_eq "a job alert made through node A, no machine able to run its job: armed" "$ST $(jqb .state)" "201 armed"
on "$B"; node h200 451
expect_eq "node B's machine at 451 does not fire it" "[$(jfirings "$JA")]" "[]"
node h200 450
expect_eq "node B's machine at exactly 450 fires it, in B's transaction" "[$(jfirings "$JA")]" "[h200:$((G * 24 * 450))]"
if wait_for grep -q '"alert_id":'"$JA" "$TMPD/a.sse"; then
  ok "the job alert's firing reaches the account stream on node A"
else
  fail "the job alert's firing reaches the account stream on node A" "$(tail -3 "$TMPD/a.sse")"
fi
on "$A"; req POST /v1/alerts "{\"when\":\"job_total_lte\",\"job\":$JOB,\"hours\":24,\"max_total_minor\":$((G * 24 * 400))}" "$BK"
JONCE=$(jqb .id)
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"job\":$JOB,\"hours\":24,\"max_total_minor\":$((G * 24 * 400)),\"rearm_minor\":100000000}" "$BK"
JREARM=$(jqb .id)
i=0
pids=""
while [ $i -lt 10 ]; do
  u=$A; [ $((i % 2)) -eq 1 ] && u=$B
  curl -s -o /dev/null -X POST -H "Authorization: Bearer $SK" \
    --data-binary "{\"client_order_id\":\"j$i\",\"gpu\":\"b200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":8,\"hours\":720,\"price_cents\":$((400 - i)),\"node_gpus\":8,\"interconnect\":\"nvlink\"}" \
    "$u/v1/orders" &
  pids="$pids $!"
  i=$((i + 1))
done
wait $pids
expect_eq "10 machines under the budget sent to both nodes at once: the job alert fired once" \
  "$(jfirings "$JONCE" | wc -w) $(sql "SELECT state, fired FROM alerts WHERE id = $JONCE")" "1 fired|1"
expect_eq "and a job alert that cannot re-arm too" "$(sql "SELECT state, fired FROM alerts WHERE id = $JREARM")" "rearming|1"

# --- a conditional order made on A enters when B changes the book ----------------------------------
on "$B"; sell mi300x 500; HIGH=$OID
on "$A"; order "$BK" '"gpu":"mi300x","side":"buy","gpus":1,"hours":2,"price_cents":460,"trigger":{"when":"ask_lte","price_cents":460}'
C=$OID
expect_eq "a conditional order accepted through node A waits" "$ST $(jqb .status)" "201 waiting"
on "$B"; sell mi300x 455
req GET "/v1/orders/$C" "" "$BK"
expect_eq "node B's ask at 455 makes it enter and fill, in B's transaction" "$(jqb .status) $(jqb .filled_value_cents)" "filled 455"

# --- time-based: the lease holder ---------------------------------------------------------------
on "$A"; sell rtx-5090 69 4
order "$BK" '"gpu":"rtx-5090","side":"buy","gpus":1,"hours":2,"price_cents":69'
RID=$(jqb '.fills[0].rental_id')
on "$B"; req POST /v1/alerts "{\"when\":\"rental_ending\",\"minutes\":30,\"rental_id\":$RID}" "$BK"
RE=$(jqb .id)
advance 5400
if wait_for sh -c "curl -s -H 'Authorization: Bearer $BK' '$A/v1/alerts/$RE' | jq -e '.state == \"fired\"'"; then
  ok "a rental_ending alert made on one node fires on the lease holder, 30 minutes before the end"
else
  fail "a rental_ending alert fires on the lease holder" "$(curl -s -H "Authorization: Bearer $BK" "$A/v1/alerts/$RE")"
fi

# --- resumed on B after a kill -9 of A -----------------------------------------------------------
wait_for sh -c "grep -q '\"alert_id\":$RE' '$TMPD/a.sse'"
LAST=$(grep '^id: ' "$TMPD/a.sse" | tail -1 | cut -c5-)
kill -9 "$APID"; { wait "$APID"; } 2>/dev/null
kill "$SA" 2>/dev/null
on "$B"
req DELETE "/v1/orders/$HIGH" "" "$SK"
sell mi300x 440
req POST /v1/alerts '{"when":"ask_lte","gpu":"mi300x","price_cents":999}' "$BK"   # fires at once
LATER=$(jqb .id)
curl -sN -H "Authorization: Bearer $BK" -H "Last-Event-ID: $LAST" "$B/v1/stream?channels=account" >"$TMPD/b.sse" 2>/dev/null &
SB=$!
at_exit "kill $SB 2>/dev/null"
req GET "/v1/events?limit=200" "" "$BK"
head=$(jqb .head)
wait_for sh -c "grep -q '^id: $head\$' '$TMPD/b.sse'"
all=$(cat "$TMPD/a.sse" "$TMPD/b.sse" | grep '^id: ' | cut -c5- | grep -v '^0$' | sort -n | tr '\n' ' ')
expect_eq "node A killed, the stream resumed on node B: every event once, none missing" "$all" "$(seq 1 "$head" | tr '\n' ' ')"
expect_match "(the last one fired on B after A was gone)" "$(grep '^data: ' "$TMPD/b.sse" | tail -1)" "\"alert_id\":$LATER"
why=$(ledger_check) && ok "the ledger adds up across nodes" || fail "the ledger adds up across nodes" "$why"
xd_finish
