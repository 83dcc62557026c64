# Market states: pre_open (the default without --demo) refuses orders with
# 422 MARKET_NOT_OPEN and the opening time, while accounts, deposits,
# previews and cancels work; open; halted.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --opens-at 2030-01-01T09:00:00Z || finish

req GET /v1/market ""
expect_eq "the default state without --demo is pre_open, with the announced opening" \
  "$(jqb .state) $(jqb .opens_at) $(jqb .demo)" "pre_open 2030-01-01T09:00:00Z false"
signup PT EUR buyer; B=$ACC; BK=$KEY
expect_eq "accounts open in pre_open" "$ST" 201
deposit "$B" 100000
expect_eq "deposits work in pre_open" "$ST" 201
req POST /v1/deposits '{"amount_minor":100}' "$BK"
expect_eq "without --demo an account cannot pay itself in: 403" "$ST $(jqb .error.code)" "403 FORBIDDEN"

body='{"client_order_id":"p1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":400}'
req POST /v1/orders "$body" "$BK"
expect_eq "an order in pre_open: 422 MARKET_NOT_OPEN with the opening time" \
  "$ST $(jqb .error.code) $(jqb .error.state) $(jqb .error.opens_at)" "422 MARKET_NOT_OPEN pre_open 2030-01-01T09:00:00Z"
expect_match "the message names the opening time" "$(jqb .error.message)" "2030-01-01T09:00:00Z"
expect_eq "nothing was stored or held" "$(sql 'SELECT count(*) FROM orders') $(balance "$BK")" "0 100000 0"
req POST /v1/orders/preview "$body" "$BK"
expect_eq "a preview works and says why the order would be refused" \
  "$ST $(jqb .market_state) $(jqb .would_reject.code)" "200 pre_open MARKET_NOT_OPEN"

req POST /v1/admin/market '{"state":"open"}' "$KEY"
expect_eq "an account key cannot change the market: 403" "$ST $(jqb .error.code)" "403 FORBIDDEN"
req POST /v1/admin/market '{"state":"open"}'
expect_eq "nor can no key: 401" "$ST $(jqb .error.code)" "401 UNAUTHORIZED"
req POST /v1/admin/market '{"state":"open"}' "$ADMIN_KEY"
expect_eq "the operator opens the market" "$ST $(jqb .state)" "200 open"
req POST /v1/orders "$body" "$BK"
expect_eq "the same order (same id: nothing was stored before) is accepted now" "$ST $(jqb .status)" "201 open"
OID=$(jqb .id)

req POST /v1/admin/market '{"state":"halted"}' "$ADMIN_KEY"
req POST /v1/orders '{"client_order_id":"p2","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":400}' "$BK"
expect_eq "halted: 422 MARKET_HALTED" "$ST $(jqb .error.code) $(jqb .error.state)" "422 MARKET_HALTED halted"
req POST /v1/orders "$body" "$BK"
expect_eq "a replay of an accepted order still returns it while halted" "$ST $(jqb .id)" "200 $OID"
req DELETE "/v1/orders/$OID" "" "$BK"
expect_eq "cancels work while halted" "$ST $(jqb .status)" "200 cancelled"
expect_eq "and the hold is back" "$(balance "$BK")" "100000 0"

req POST /v1/admin/market '{"state":"pre_open","opens_at":"2031-02-03T04:05:06Z"}' "$ADMIN_KEY"
expect_eq "the operator can announce a new opening time" "$(jqb .state) $(jqb .opens_at)" "pre_open 2031-02-03T04:05:06Z"
req POST /v1/admin/market '{"state":"closed"}' "$ADMIN_KEY"
expect_eq "an unknown state: 400 BAD_VALUE" "$ST $(jqb .error.code)" "400 BAD_VALUE"

# --market on the command line, and --demo's default
start_gpuxd --market halted --quiet || finish
req GET /v1/market ""
expect_eq "--market halted" "$(jqb .state)" "halted"
start_gpuxd --demo --quiet || finish
req GET /v1/market ""
expect_eq "--demo opens the market" "$(jqb .state) $(jqb .simulated_payments)" "open true"
xd_finish
