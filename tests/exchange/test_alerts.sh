# Alerts kept by the exchange (docs/API.md "Alerts", "The account channel"):
# every kind fires at the exact crossing — from above, from below, at the
# equal price — and not a cent before; a once-alert fires once, a re-arming
# one only after the price moved back by its rearm_cents; order_filled and
# rental_ending fire on their fill and their minute; an expired alert is
# silent; at most 100 live alerts; a read key manages alerts; bad bodies are
# 400 with the field. Each firing is an event of the account's log, delivered
# on the stream's account channel and resumed by Last-Event-ID across a
# reconnect and a kill -9 of gpuxd: nothing lost, nothing twice.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish

signup US USD seller; S=$ACC SK=$KEY
signup US USD buyer; B=$ACC BK=$KEY; deposit "$B" 1000000000
n=0
place() { # KEY GPU SIDE GPUS HOURS PRICE [TIF] — sets OID
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"o$n\",\"gpu\":\"$2\",\"side\":\"$3\",\"type\":\"limit\",\"gpus\":$4,\"hours\":$5,\"price_cents\":$6,\"time_in_force\":\"${7:-gtc}\"}" "$1"
  OID=$(jqb .id)
}
sell() { place "$SK" "$1" sell 1 720 "$2"; }   # GPU PRICE
buy() { place "$BK" "$1" buy 1 "${3:-1}" "$2"; }  # GPU PRICE [HOURS]
cancel() { req DELETE "/v1/orders/$1" "" "${2:-$SK}"; }
alert() { # BODY [KEY] — sets AID
  req POST /v1/alerts "$1" "${2:-$BK}"
  AID=$(jqb .id)
}
state() { req GET "/v1/alerts/$1" "" "${2:-$BK}"; jqb .state; }
# the firings of alert $1 in the account's log: "value_cents ..." in order
firings() {
  req GET "/v1/events?limit=200" "" "${2:-$BK}"
  jqb "[.events[] | select(.kind == \"alert\" and .alert_id == $1) |
        if .when == \"order_filled\" then .order_id elif .when == \"rental_ending\" then .rental_id
        else .value_cents end] | join(\" \")"
}

# --- validation ------------------------------------------------------------------------------
req POST /v1/alerts '{"when":"ask_below","gpu":"h200","price_cents":400}' "$BK"
expect_eq "an unknown condition is 400 BAD_VALUE on when" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE when"
req POST /v1/alerts '{"when":"ask_lte","price_cents":400}' "$BK"
expect_eq "a price alert needs its gpu" "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD gpu"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h201","price_cents":400}' "$BK"
expect_eq "an unknown GPU is 400 UNKNOWN_GPU" "$ST $(jqb .error.code)" "400 UNKNOWN_GPU"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":399.5}' "$BK"
expect_eq "a price that is not a whole number of cents is NOT_INTEGER" "$ST $(jqb .error.code) $(jqb .error.field)" "400 NOT_INTEGER price_cents"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":0}' "$BK"
expect_eq "a price of 0 is OUT_OF_RANGE" "$ST $(jqb .error.code)" "400 OUT_OF_RANGE"
req POST /v1/alerts '{"when":"rental_ending","minutes":30,"rearm_cents":5}' "$BK"
expect_eq "rearm_cents does not go with rental_ending" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION rearm_cents"
req POST /v1/alerts '{"when":"order_filled","gpu":"h200"}' "$BK"
expect_eq "gpu does not go with order_filled" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION gpu"
req POST /v1/alerts '{"when":"rental_ending","minutes":0}' "$BK"
expect_eq "minutes 0 is OUT_OF_RANGE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 OUT_OF_RANGE minutes"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":400,"label":"a\u0007b"}' "$BK"
expect_eq "a label with a control character is BAD_VALUE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE label"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":400,"expires_at":"2000-01-01T00:00:00Z"}' "$BK"
expect_eq "an expiry in the past is BAD_VALUE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE expires_at"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":400,"colour":"red"}' "$BK"
expect_eq "an unknown field is 400 UNKNOWN_FIELD" "$ST $(jqb .error.code) $(jqb .error.field)" "400 UNKNOWN_FIELD colour"
req POST /v1/alerts '{"when":"order_filled","order_id":999999}' "$BK"
expect_eq "an order that is not the account's is 404" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req POST /v1/alerts '{"when":"ask_lte","gpu":"h200","price_cents":400}'
expect_eq "alerts need a key" "$ST $(jqb .error.code)" "401 UNAUTHORIZED"
req GET /v1/alerts "" "$BK"
expect_eq "nothing was stored by the refused requests" "$ST $(jqb '.alerts | length')" "200 0"

# --- the account channel, from the start ------------------------------------------------------
curl -sN -H "Authorization: Bearer $BK" "$GPUXD_URL/v1/stream?channels=account" >"$TMPD/a1.sse" 2>/dev/null &
A1=$!
at_exit "kill $A1 2>/dev/null"
wait_for grep -q '"channel":"account"' "$TMPD/a1.sse"
expect_match "a new account stream begins with the log's head" "$(grep '^data:' "$TMPD/a1.sse" | head -1)" \
  '"channel":"account","seq":[0-9]+,"last_id":0'
req GET "/v1/stream?channels=account"
expect_eq "the account channel needs the account's key" "$ST $(jqb .error.code)" "401 UNAUTHORIZED"

# --- ask at or below: from above, exactly at the price ----------------------------------------
sell h200 500
alert '{"when":"ask_lte","gpu":"h200","price_cents":450,"label":"cheap H200"}'
expect_eq "ask_lte 450 with the ask at 500: armed" "$ST $(jqb .state) $(jqb .label)" "201 armed cheap H200"
sell h200 451
expect_eq "the ask at 451 (one cent above): still armed, nothing fired" "$(state "$AID") [$(firings "$AID")]" "armed []"
sell h200 450; O450=$OID
expect_eq "the ask at exactly 450 fires it once, with the price it saw" "$(state "$AID") [$(firings "$AID")]" "fired [450]"
cancel "$O450"
sell h200 440
expect_eq "a once-alert does not fire again when the ask crosses again" "[$(firings "$AID")]" "[450]"
alert '{"when":"ask_lte","gpu":"h200","price_cents":999}'
expect_eq "an alert whose condition holds when made fires at once" "$ST $(jqb .state) [$(firings "$AID")]" "201 fired [440]"

# --- ask at or above: from below ---------------------------------------------------------------
sell b200 700; L1=$OID
sell b200 719; L2=$OID
sell b200 720
alert '{"when":"ask_gte","gpu":"b200","price_cents":720}'
cancel "$L1"
expect_eq "ask_gte 720: the ask rising to 719 does not fire it" "[$(firings "$AID")]" "[]"
cancel "$L2"
expect_eq "the ask rising to exactly 720 fires it" "$(state "$AID") [$(firings "$AID")]" "fired [720]"

# --- bids ------------------------------------------------------------------------------------------
buy mi325x 300
alert '{"when":"bid_gte","gpu":"mi325x","price_cents":320}'
buy mi325x 319
expect_eq "bid_gte 320: a bid at 319 does not fire it" "[$(firings "$AID")]" "[]"
buy mi325x 320
expect_eq "a bid at exactly 320 fires it" "[$(firings "$AID")]" "[320]"
buy mi300x 280; buy mi300x 281; K1=$OID; buy mi300x 300; K2=$OID
alert '{"when":"bid_lte","gpu":"mi300x","price_cents":280}'
cancel "$K2" "$BK"
expect_eq "bid_lte 280: the bid falling to 281 does not fire it" "[$(firings "$AID")]" "[]"
cancel "$K1" "$BK"
expect_eq "the bid falling to exactly 280 fires it" "[$(firings "$AID")]" "[280]"

# --- last price and spread -------------------------------------------------------------------------
sell h100-sxm 300; buy h100-sxm 300
alert '{"when":"last_lte","gpu":"h100-sxm","price_cents":290}'
sell h100-sxm 291; buy h100-sxm 291
expect_eq "last_lte 290: a trade at 291 does not fire it" "[$(firings "$AID")]" "[]"
sell h100-sxm 290; buy h100-sxm 290
expect_eq "a trade at exactly 290 fires it" "[$(firings "$AID")]" "[290]"
alert '{"when":"last_gte","gpu":"h100-sxm","price_cents":295}'
sell h100-sxm 295; buy h100-sxm 295
expect_eq "last_gte 295: a trade at exactly 295 fires it" "[$(firings "$AID")]" "[295]"
sell a100-sxm 200; buy a100-sxm 150
alert '{"when":"spread_lte","gpu":"a100-sxm","price_cents":20}'
buy a100-sxm 179
expect_eq "spread_lte 20: a spread of 21 does not fire it" "[$(firings "$AID")]" "[]"
buy a100-sxm 180
expect_eq "a spread of exactly 20 fires it" "[$(firings "$AID")]" "[20]"

# --- re-arming: hysteresis -------------------------------------------------------------------------
sell l40s 120
alert '{"when":"ask_lte","gpu":"l40s","price_cents":90,"rearm_cents":10}'
R=$AID
sell l40s 90; R90=$OID
expect_eq "a re-arming alert fires at its price and waits to re-arm" "$(state "$R") [$(firings "$R")]" "rearming [90]"
sell l40s 99; R99=$OID
cancel "$R90"
expect_eq "the ask back at 99 (9 cents above) does not re-arm it" "$(state "$R")" "rearming"
sell l40s 90; R90=$OID
expect_eq "so the ask at 90 again does not fire it" "[$(firings "$R")]" "[90]"
cancel "$R90"; cancel "$R99"
expect_eq "the ask back at 120 (moved back by 10 or more) re-arms it, silently" "$(state "$R") [$(firings "$R")]" "armed [90]"
sell l40s 89
expect_eq "and the next crossing fires it again" "$(state "$R") [$(firings "$R")]" "rearming [90 89]"
req GET "/v1/alerts/$R" "" "$BK"
expect_eq "it counts its firings" "$(jqb .fired_count)" "2"

# --- order_filled -------------------------------------------------------------------------------------
buy rtx-4090 33; O=$OID
alert "{\"when\":\"order_filled\",\"order_id\":$O}"
ONE=$AID
alert '{"when":"order_filled"}'
ANY=$AID
place "$SK" rtx-4090 sell 1 720 33
expect_eq "an alert on an order fires on its fill and is done when the order is filled" \
  "$(state "$ONE") [$(firings "$ONE")]" "fired [$O]"
buy rtx-4090 40; O2=$OID
place "$SK" rtx-4090 sell 1 720 35
expect_eq "an alert on any order fires on each fill and stays armed" "$(state "$ANY") [$(firings "$ANY")]" "armed [$O $O2]"
req GET "/v1/events?limit=200" "" "$BK"
expect_eq "an order_filled firing says the fill (at the resting bid's price)" \
  "$(jqb "[.events[] | select(.alert_id == $ANY)] | last | \"\(.side) \(.fill_price_cents) \(.fill_gpus) \(.order_status)\"")" \
  "buy 40 1 filled"
req GET "/v1/events?limit=200" "" "$SK"
expect_eq "the seller, without alerts, hears nothing" "$(jqb '.events | length')" "0"

# --- rental_ending --------------------------------------------------------------------------------------
place "$SK" rtx-5090 sell 4 720 69
place "$BK" rtx-5090 buy 1 3 69
RID=$(jqb '.fills[0].rental_id')
alert "{\"when\":\"rental_ending\",\"minutes\":60,\"rental_id\":$RID}"
RE=$AID
advance 7140   # 1 h 59 min: the rental ends in 61 minutes
expect_eq "rental_ending 60: 61 minutes before the end it is armed" "$(state "$RE") [$(firings "$RE")]" "armed []"
advance 60
expect_eq "60 minutes before the end it fires, once" "$(state "$RE") [$(firings "$RE")]" "fired [$RID]"
alert '{"when":"rental_ending","minutes":30}'
AR=$AID
expect_eq "an alert on any rental, made 60 minutes before one ends, waits" "[$(firings "$AR")]" "[]"
advance 1800
expect_eq "and fires 30 minutes before that rental ends" "$(state "$AR") [$(firings "$AR")]" "armed [$RID]"
req POST /v1/alerts '{"when":"rental_ending","minutes":10,"rental_id":999999}' "$BK"
expect_eq "a rental that is not the account's is 404" "$ST $(jqb .error.code)" "404 NOT_FOUND"

# --- expiry --------------------------------------------------------------------------------------------
sell rtx-a6000 40
req GET /v1/market
exp=$(jqb .server_time | sed 's/Z$//')
exp=$(date -u -d "$exp 1 hour" +%Y-%m-%dT%H:%M:%SZ)
alert "{\"when\":\"ask_lte\",\"gpu\":\"rtx-a6000\",\"price_cents\":30,\"expires_at\":\"$exp\"}"
EX=$AID
expect_eq "an alert with an expiry is armed until then" "$(state "$EX") $(jqb .expires_at)" "armed $exp"
advance 7200
expect_eq "after its expiry it says so" "$(state "$EX")" "expired"
sell rtx-a6000 30
expect_eq "and a crossing after it does not fire it" "[$(firings "$EX")]" "[]"

# --- delete, and another account's alert -----------------------------------------------------------
req DELETE "/v1/alerts/$EX" "" "$SK"
expect_eq "another account's alert is 404" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req DELETE "/v1/alerts/$EX" "" "$BK"
expect_eq "the owner deletes it" "$ST $(jqb .deleted) $(jqb .id)" "200 true $EX"
req GET "/v1/alerts/$EX" "" "$BK"
expect_eq "a deleted alert is gone" "$ST" "404"

# --- a read key manages alerts ------------------------------------------------------------------------
req POST /v1/keys '{"name":"dash","scope":"read"}' "$BK"
RK=$(jqb .api_key)
alert '{"when":"ask_gte","gpu":"b300","price_cents":100000}' "$RK"
expect_eq "a read key may add an alert" "$ST" "201"
req DELETE "/v1/alerts/$AID" "" "$RK"
expect_eq "and delete it" "$ST" "200"
req POST /v1/orders '{"client_order_id":"rk","gpu":"b300","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":1}' "$RK"
expect_eq "but still not trade" "$ST $(jqb .error.code)" "403 KEY_SCOPE"

# --- at most 100 live alerts --------------------------------------------------------------------------
signup US USD buyer; CK=$KEY
i=0
codes=""
while [ $i -lt 100 ]; do
  codes="$codes$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $CK" \
    --data-binary '{"when":"order_filled"}' "$GPUXD_URL/v1/alerts") "
  i=$((i + 1))
done
expect_eq "100 alerts are accepted" "$(printf '%s' "$codes" | tr ' ' '\n' | grep -c '^201$')" "100"
alert '{"when":"order_filled"}' "$CK"
expect_eq "the 101st is 409 TOO_MANY_ALERTS" "$ST $(jqb .error.code) $(jqb .error.max)" "409 TOO_MANY_ALERTS 100"
req GET "/v1/alerts?limit=1" "" "$CK"
first=$(jqb '.alerts[0].id')
expect_eq "the list says how many are live, and the most" "$(jqb .live) $(jqb .max) $(jqb '.next_cursor != null')" "100 100 true"
req DELETE "/v1/alerts/$first" "" "$CK"
alert '{"when":"order_filled"}' "$CK"
expect_eq "once one is deleted another fits" "$ST" "201"

# --- delivery: the stream, a reconnect, a kill -9 ------------------------------------------------------
req GET "/v1/events?limit=200" "" "$BK"
head=$(jqb .head)
i=0
while [ $i -lt 50 ] && [ "$(grep -c '^event: account' "$TMPD/a1.sse")" -lt "$head" ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "the account stream delivered every firing so far, in order" \
  "$(grep '^id: ' "$TMPD/a1.sse" | sed 1d | cut -c5- | tr '\n' ' ')" "$(seq 1 "$head" | tr '\n' ' ')"
expect_eq "each event is the log's: GET /v1/events gives the same data" \
  "$(grep '^data: ' "$TMPD/a1.sse" | sed -n 2p | cut -c7-)" \
  "$(printf '%s' "$BODY" | jq -c '.events[0]')"
kill "$A1"; wait "$A1" 2>/dev/null
LAST=$(grep '^id: ' "$TMPD/a1.sse" | tail -1 | cut -c5-)
sell h100-nvl 400
alert '{"when":"ask_lte","gpu":"h100-nvl","price_cents":380,"rearm_cents":10}'
D=$AID
sell h100-nvl 380; X=$OID; cancel "$X"; sell h100-nvl 375; X=$OID   # fires, re-arms, fires
expect_eq "two firings while no stream is connected" "[$(firings "$D")]" "[380 375]"
curl -sN -H "Authorization: Bearer $BK" -H "Last-Event-ID: $LAST" \
  "$GPUXD_URL/v1/stream?channels=account" >"$TMPD/a2.sse" 2>/dev/null &
A2=$!
at_exit "kill $A2 2>/dev/null"
wait_for sh -c "[ \$(grep -c '^event: account' '$TMPD/a2.sse') -ge 2 ]"
expect_eq "a reconnect with Last-Event-ID gets exactly the events after it" \
  "$(grep '^id: ' "$TMPD/a2.sse" | cut -c5- | tr '\n' ' ')" "$((LAST + 1)) $((LAST + 2)) "
expect_eq "and no snapshot" "$(grep -c '^event: snapshot' "$TMPD/a2.sse")" "0"
# a mixed stream: market and account events, one id for both
curl -sN -H "Authorization: Bearer $BK" "$GPUXD_URL/v1/stream?channels=account,quotes" >"$TMPD/m1.sse" 2>/dev/null &
M1=$!
at_exit "kill $M1 2>/dev/null"
wait_for grep -q '"channel":"account"' "$TMPD/m1.sse"
cancel "$X"; sell h100-nvl 370   # re-arms, fires
wait_for sh -c "grep -q '^event: account' '$TMPD/m1.sse'"
expect_match "on a mixed stream every id names both: <boot>-<k>/<account event>" \
  "$(grep '^id: ' "$TMPD/m1.sse" | tail -3 | tr '\n' ' ')" '^(id: [0-9a-f]{6}-[0-9]+/[0-9]+ ){3}$'
kill "$A2" "$M1"; wait "$A2" "$M1" 2>/dev/null
LAST=$(grep '^id: ' "$TMPD/a2.sse" | tail -1 | cut -c5-)
MLAST=$(grep '^id: ' "$TMPD/m1.sse" | tail -1 | cut -c5-)
DB=$GPUXD_DB
kill -9 "$GPUXD_PID"; { wait "$GPUXD_PID"; } 2>/dev/null
GPUXD_DB_KEEP=$DB xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
req GET "/v1/alerts/$D" "" "$BK"
expect_eq "after kill -9 the alert is there, as it was" "$(jqb .state) $(jqb .fired_count)" "rearming 3"
req GET /v1/books/h100-nvl
cancel "$(sql "SELECT id FROM orders WHERE gpu = 'h100-nvl' AND price = 370 AND remaining > 0")"
sell h100-nvl 365   # re-arms (back at 400), fires at 365: after the restart
expect_eq "it fires after the restart from the books rebuilt" "[$(firings "$D")]" "[380 375 370 365]"
curl -sN -H "Authorization: Bearer $BK" -H "Last-Event-ID: $LAST" \
  "$GPUXD_URL/v1/stream?channels=account" >"$TMPD/a3.sse" 2>/dev/null &
A3=$!
at_exit "kill $A3 2>/dev/null"
curl -sN -H "Authorization: Bearer $BK" -H "Last-Event-ID: $MLAST" \
  "$GPUXD_URL/v1/stream?channels=account,quotes" >"$TMPD/m2.sse" 2>/dev/null &
M2=$!
at_exit "kill $M2 2>/dev/null"
req GET "/v1/events?limit=200" "" "$BK"
head=$(jqb .head)
wait_for sh -c "grep -q '^id: $head\$' '$TMPD/a3.sse'"
all=$(cat "$TMPD/a1.sse" "$TMPD/a2.sse" "$TMPD/a3.sse" | grep '^id: ' | cut -c5- | grep -v '^0$' | sort -n | tr '\n' ' ')
expect_eq "across a reconnect and a kill -9: every event once, none missing" "$all" "$(seq 1 "$head" | tr '\n' ' ')"
wait_for sh -c "grep -q '^event: account' '$TMPD/m2.sse'"
expect_eq "a mixed id of the last boot resumes the account's part (market: fresh snapshots)" \
  "$(grep -c '^event: account' "$TMPD/m2.sse") $(grep -c '"channel":"quotes"' "$TMPD/m2.sse")" "1 1"
req GET "/v1/events?after=$((head - 1))" "" "$BK"
expect_eq "GET /v1/events pages the log after a number" "$(jqb '[.events[].id] | join(" ")') $(jqb .last_id)" "$head $head"
req GET "/v1/events?after=-1" "" "$BK"
expect_eq "a bad after is 400 BAD_PARAM" "$ST $(jqb .error.field)" "400 after"

why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
xd_finish
