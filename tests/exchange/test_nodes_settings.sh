#!/bin/bash
# Settings are state, the same for every node of one PostgreSQL database
# (tests/pglib.sh starts a throwaway cluster): the first node's flags seed it;
# a node started or restarted later with other flags changes nothing (its
# log says which flags it ignored); a change made through one node holds for
# the very next request through the other (no waiting: its writer reads the
# settings' version at the start of each batch); an admin key revoked through
# one node is refused by the other at once; and the announced opening
# happens by itself at its time, once — one audit row, whichever node holds
# the lease — with orders refused before and taken after on both nodes.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start nset
# 120 exchange seconds per real second: an opening 10 minutes ahead comes in 5 s
SPEED=120
GPUXD_DB_KEEP=$PG_URI xd_start --market pre_open --clock-speed $SPEED --rate-limit 0 \
  --topup-text "Bank transfer, reference: your account id" || finish
A=$GPUXD_URL A_PID=$GPUXD_PID A_LOG=$GPUXD_LOG
GPUXD_DB_KEEP=$PG_URI xd_start --market open --clock-speed $SPEED --rate-limit 0 \
  --topup-text "something else" || finish
B=$GPUXD_URL B_LOG=$GPUXD_LOG
on() { GPUXD_URL=$1; }

on "$B"; req GET /v1/market
expect_eq "node B, started with --market open on a database that is pre_open: pre_open" "$(jqb .state)" pre_open
expect_eq "... and the first node's top-up text" "$(jqb .topup.text)" "Bank transfer, reference: your account id"
expect_match "node B's log says which flags it ignored" "$(cat "$B_LOG")" \
  "--market open is ignored: the database's setting is pre_open"
expect_match "... the top-up text too" "$(cat "$B_LOG")" "--topup-text .* is ignored"

# ---- a change through one node holds on the other at once ------------------------------
on "$A"; signup PT EUR seller; S=$ACC SK=$KEY
on "$A"; signup PT EUR buyer; BY=$ACC BK=$KEY
deposit "$BY" 1000000
on "$A"; req POST /v1/admin/market '{"state":"open"}' "$ADMIN_KEY"
expect_eq "opened through node A" "$ST $(jqb .state) $(jqb .changed)" "200 open true"
on "$B"; req POST /v1/orders '{"client_order_id":"s1","gpu":"h200","side":"sell","type":"limit","gpus":2,"hours":10,"price_cents":400}' "$SK"
expect_eq "the very next order, through node B, is taken" "$ST $(jqb .status)" "201 open"
on "$A"; req POST /v1/admin/fees '{"trade_bp":300}' "$ADMIN_KEY"
on "$B"; req POST /v1/orders/preview '{"gpu":"h200","side":"sell","type":"limit","gpus":1,"hours":1,"price_cents":100}' "$SK"
expect_eq "a fee set through node A: node B's next preview states it" "$(jqb .fees.trade_bp)" 300
on "$A"; req POST /v1/admin/market '{"state":"halted"}' "$ADMIN_KEY"
on "$B"; req POST /v1/orders '{"client_order_id":"b1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$BK"
expect_eq "halted through node A: node B refuses the next order" "$ST $(jqb .error.code)" "422 MARKET_HALTED"
if wait_for sh -c "curl -fsS '$B/v1/market' | jq -e '.state == \"halted\"'"; then
  ok "... and node B's GET /v1/market follows"
else
  fail "... and node B's GET /v1/market follows" "$(curl -s "$B/v1/market" | jq -c .state)"
fi

# ---- admin keys ------------------------------------------------------------------------------
on "$A"; req POST /v1/admin/keys '{"name":"ops-ana"}' "$ADMIN_KEY"
expect_eq "an admin key made through node A" "$ST $(jqb .name)" "201 ops-ana"
ANA=$(jqb .api_key); ANA_ID=$(jqb .id)
on "$B"; req GET /v1/admin/settings "" "$ANA"
expect_eq "... works on node B at once" "$ST" 200
on "$A"; req POST /v1/admin/keys '{"name":"ops-ana"}' "$ADMIN_KEY"
expect_eq "a second key of that name: 409 NAME_TAKEN" "$ST $(jqb .error.code)" "409 NAME_TAKEN"
on "$A"; req DELETE "/v1/admin/keys/$ANA_ID" "" "$ADMIN_KEY"
expect_eq "revoked through node A" "$ST" 200
on "$B"; req GET /v1/admin/settings "" "$ANA"
expect_eq "... refused by node B from the next request" "$ST" 401
on "$B"; req GET /v1/admin/keys "" "$ADMIN_KEY"
BOOT=$(jqb '.keys[0].id')
req DELETE "/v1/admin/keys/$BOOT" "" "$ADMIN_KEY"
expect_eq "the last active admin key cannot be revoked" "$ST $(jqb .error.code)" "409 LAST_ADMIN_KEY"

# ---- a restart changes nothing ------------------------------------------------------------------
kill "$A_PID"; wait "$A_PID" 2>/dev/null
GPUXD_DB_KEEP=$PG_URI xd_start --market open --clock-speed $SPEED --rate-limit 0 || finish
A=$GPUXD_URL A_LOG=$GPUXD_LOG
on "$A"; req GET /v1/market
expect_eq "node A restarted with --market open: still halted" "$(jqb .state)" halted
on "$B"; req GET /v1/market
expect_eq "... on node B too" "$(jqb .state)" halted

# ---- the scheduled opening: by itself, once ---------------------------------------------------
on "$A"; req GET /v1/market
now=$(jqb .server_time)
at=$(date -u -d "$now + 10 minutes" +%Y-%m-%dT%H:%M:%SZ)
past=$(date -u -d "$now - 1 minute" +%Y-%m-%dT%H:%M:%SZ)
req POST /v1/admin/market "{\"opens_at\":\"$past\"}" "$ADMIN_KEY"
expect_eq "an opening in the past is refused" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE opens_at"
req POST /v1/admin/market '{"opens_at":"tomorrow"}' "$ADMIN_KEY"
expect_eq "a malformed time is refused" "$ST $(jqb .error.code)" "400 BAD_VALUE"
req POST /v1/admin/market '{"state":"open","opens_at":"2099-01-01T00:00:00Z"}' "$ADMIN_KEY"
expect_eq "an opening to announce for an open market: 400 BAD_COMBINATION" "$ST $(jqb .error.code)" "400 BAD_COMBINATION"
req POST /v1/admin/market "{\"state\":\"pre_open\",\"opens_at\":\"$at\"}" "$ADMIN_KEY"
expect_eq "the opening announced, 10 minutes of exchange time ahead" "$ST $(jqb .state) $(jqb .opens_at)" "200 pre_open $at"
on "$B"; req POST /v1/orders '{"client_order_id":"b2","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$BK"
expect_eq "before it: an order through node B is refused, naming the time" \
  "$ST $(jqb .error.code) $(jqb .error.opens_at)" "422 MARKET_NOT_OPEN $at"
if wait_for sh -c "curl -fsS '$A/v1/market' | jq -e '.state == \"open\"' && curl -fsS '$B/v1/market' | jq -e '.state == \"open\"'"; then
  ok "at the time the market opens by itself, on both nodes"
else
  fail "at the time the market opens by itself, on both nodes" "$(curl -s "$A/v1/market" | jq -c '[.state,.opens_at,.server_time]')"
fi
on "$A"; req GET /v1/market
expect_eq "... the announced time is cleared" "$(jqb .opens_at)" null
on "$B"; req POST /v1/orders '{"client_order_id":"b3","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$BK"
expect_eq "after it: the order through node B fills" "$ST $(jqb .status)" "201 filled"
sleep 1   # a second opening would be made by the next batches of either node by now
expect_eq "the opening happened once: one audit row" \
  "$(sql "SELECT count(*) FROM audit WHERE action = 'scheduled_opening'")" 1
on "$A"; req GET /v1/admin/audit "" "$ADMIN_KEY"
expect_eq "the audit names who did what: the scheduled opening by no key, the rest by theirs" \
  "$(jqb '[.entries[] | select(.action == "scheduled_opening" or .action == "admin_key_revoke") | "\(.action):\(.admin_key_name)"] | join(" ")')" \
  "scheduled_opening:null admin_key_revoke:bootstrap"
check "the ledger's invariants hold" ledger_check
xd_finish
