# Conditional and one-cancels-other orders (docs/API.md "Conditional and
# standing orders"): an order with a trigger waits off the book with its hold
# taken, enters the book only when its trigger holds while the market is open
# (through pre-open and halts it waits), as a new acceptance whose time
# priority survives a kill -9; it is never accepted without its funds; cancelled
# before, its hold returns; in an OCO group the first to enter or fill cancels
# the others; replays compare the new fields; at most 20 per account; bad
# fields are 400 naming them. Money: a USD account in the US (no VAT), so
# holds are gpus × hours × price.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish

signup US USD seller; SK=$KEY
signup US USD buyer; B=$ACC BK=$KEY; deposit "$B" 1000000
n=0
order() { # KEY JSON-FIELDS — sets OID
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"c$n\",\"type\":\"limit\",$2}" "$1"
  OID=$(jqb .id)
}
sell() { order "$SK" "\"gpu\":\"$1\",\"side\":\"sell\",\"gpus\":${3:-4},\"hours\":720,\"price_cents\":$2"; }
status() { req GET "/v1/orders/$1" "" "${2:-$BK}"; echo "$(jqb .status) $(jqb .remaining_gpus) $(jqb .filled_gpus) $(jqb .hold_minor)"; }
avail() { balance "$BK" | cut -d' ' -f1; }

# --- validation ---------------------------------------------------------------------------------
body='"gpu":"h200","side":"buy","gpus":2,"hours":5,"price_cents":520'
order "$BK" "$body,\"trigger\":480"
expect_eq "a trigger that is not an object is WRONG_TYPE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 WRONG_TYPE trigger"
order "$BK" "$body,\"trigger\":{\"when\":\"ask_below\",\"price_cents\":480}"
expect_eq "an unknown trigger condition names trigger.when" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE trigger.when"
order "$BK" "$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":480.5}"
expect_eq "a trigger price that is not whole names trigger.price_cents" "$ST $(jqb .error.code) $(jqb .error.field)" "400 NOT_INTEGER trigger.price_cents"
order "$BK" "$body,\"trigger\":{\"when\":\"ask_lte\"}"
expect_eq "a trigger needs its price" "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD trigger.price_cents"
order "$BK" "$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":480,\"x\":1}"
expect_eq "an unknown trigger field is UNKNOWN_FIELD" "$ST $(jqb .error.code) $(jqb .error.field)" "400 UNKNOWN_FIELD trigger.x"
order "$BK" "$body,\"oco_group\":\"a b\""
expect_eq "an oco_group with a space is BAD_VALUE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE oco_group"
order "$SK" "\"gpu\":\"h200\",\"side\":\"sell\",\"gpus\":2,\"hours\":5,\"price_cents\":520,\"standing\":true"
expect_eq "a standing sell is BAD_COMBINATION" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION standing"
order "$BK" "$body,\"standing\":true,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":480}"
expect_eq "a standing order takes no trigger" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION trigger"
order "$BK" "$body,\"standing\":\"yes\""
expect_eq "standing is a boolean" "$ST $(jqb .error.code)" "400 WRONG_TYPE"

# --- waiting with its hold, entering at the exact trigger ----------------------------------------
sell h200 500
a0=$(avail)
order "$BK" "$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":480}"
C=$OID
expect_eq "a conditional buy is accepted waiting, off the book, its hold taken (2 × 5 h × 520)" \
  "$ST $(status "$C")" "201 waiting 0 0 5200"
expect_eq "the hold left the available balance" "$(avail)" "$((a0 - 5200))"
req GET /v1/books/h200
expect_eq "the book has no bid from it" "$(jqb '.bids | length')" "0"
req POST /v1/orders/preview "{\"type\":\"limit\",$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":480}}" "$BK"
expect_eq "a preview says it would wait, and why" "$(jqb .would_status) $(jqb .trigger_holds) $(jqb .fill_gpus) $(jqb .hold_minor)" \
  "waiting false 0 5200"
sell h200 481
expect_eq "the ask at 481 leaves it waiting" "$(status "$C")" "waiting 0 0 5200"
sell h200 480
expect_eq "the ask at exactly 480 makes it enter: filled at 480, the rest of the hold back" \
  "$(status "$C")" "filled 0 2 0"
expect_eq "the buyer paid the first hour at 480 and holds four more: 1000000 - 2 × 5 × 480" \
  "$(balance "$BK")" "$((1000000 - 960 - 3840)) 3840"
req GET /v1/events "" "$BK"
expect_eq "the account hears it entered, at what price" \
  "$(jqb '[.events[] | select(.kind == "order")] | last | "\(.event) \(.order_id) \(.trigger.when) \(.trigger.price_cents) \(.value_cents) \(.status)"')" \
  "entered $C ask_lte 480 480 filled"

# --- never without funds --------------------------------------------------------------------------
order "$BK" "\"gpu\":\"b300\",\"side\":\"buy\",\"gpus\":100,\"hours\":100,\"price_cents\":1000,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":1}"
expect_eq "a conditional order is refused without its funds" "$ST $(jqb .error.code) $(jqb .error.required_minor)" "422 INSUFFICIENT_FUNDS 10000000"
expect_eq "and nothing is stored" "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'c$n'")" "0"
a1=$(avail)
order "$BK" "\"gpu\":\"b300\",\"side\":\"buy\",\"gpus\":1,\"hours\":720,\"price_cents\":$((a1 / 720)),\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":1}"
BIG=$OID
expect_eq "a waiting order's hold is the account's: less than 1000 is left available" \
  "$ST $([ "$(avail)" -lt 1000 ] && echo less)" "201 less"
order "$BK" "\"gpu\":\"b300\",\"side\":\"buy\",\"gpus\":1,\"hours\":1,\"price_cents\":1000"
expect_eq "(a buy of 1000 with less than 1000 available is refused)" "$ST $(jqb .error.code)" "422 INSUFFICIENT_FUNDS"
req DELETE "/v1/orders/$BIG" "" "$BK"
expect_eq "cancelled before its trigger: 200, cancelled, no hold" "$ST $(jqb .status) $(jqb .hold_minor)" "200 cancelled 0"
expect_eq "and its hold is back" "$(avail)" "$a1"
req DELETE "/v1/orders/$BIG" "" "$BK"
expect_eq "a second cancel is 409 ORDER_NOT_OPEN" "$ST $(jqb .error.code) $(jqb .error.status)" "409 ORDER_NOT_OPEN cancelled"

# --- only while the market is open -------------------------------------------------------------
sell b200 400; LOW=$OID
sell b200 450
order "$BK" "\"gpu\":\"b200\",\"side\":\"buy\",\"gpus\":2,\"hours\":3,\"price_cents\":460,\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":450}"
W=$OID
order "$BK" "\"gpu\":\"b200\",\"side\":\"buy\",\"gpus\":1,\"hours\":3,\"price_cents\":460,\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":455}"
W2=$OID
req POST /v1/admin/market '{"state":"pre_open"}' "$ADMIN_KEY"
order "$BK" "\"gpu\":\"b200\",\"side\":\"buy\",\"gpus\":1,\"hours\":3,\"price_cents\":460"
expect_eq "(pre-open: a plain order is refused)" "$ST $(jqb .error.code)" "422 MARKET_NOT_OPEN"
order "$BK" "\"gpu\":\"b200\",\"side\":\"buy\",\"gpus\":1,\"hours\":3,\"price_cents\":460,\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":900}"
expect_eq "pre-open: a conditional order is accepted, waiting" "$ST $(jqb .status)" "201 waiting"
req DELETE "/v1/orders/$LOW" "" "$SK"
expect_eq "pre-open: the ask rises to 450, the trigger holds, but it waits" "$(status "$W")" "waiting 0 0 2760"
req POST /v1/admin/market '{"state":"halted"}' "$ADMIN_KEY"
expect_eq "halted: it still waits" "$(status "$W")" "waiting 0 0 2760"
req POST /v1/admin/market '{"state":"open"}' "$ADMIN_KEY"
expect_eq "the market opens: the one whose trigger holds enters at once" "$(status "$W")" "filled 0 2 0"
expect_eq "the one whose trigger does not hold waits on" "$(status "$W2")" "waiting 0 0 1380"

# --- time priority from its entry, kept across a kill -9 ------------------------------------------
order "$BK" "\"gpu\":\"mi300x\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":300,\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":500}"
EARLY=$OID
signup US USD buyer; B2K=$KEY; deposit "$ACC" 100000
order "$B2K" "\"gpu\":\"mi300x\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":300"
LATE=$OID
sell mi300x 500 1
expect_eq "the conditional bid (accepted first) enters after the plain one rests" "$(status "$EARLY")" "open 1 0 600"
DB=$GPUXD_DB
kill -9 "$GPUXD_PID"; { wait "$GPUXD_PID"; } 2>/dev/null
GPUXD_DB_KEEP=$DB xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
order "$SK" "\"gpu\":\"mi300x\",\"side\":\"sell\",\"gpus\":1,\"hours\":2,\"price_cents\":300,\"time_in_force\":\"ioc\""
expect_eq "after a restart a sell still fills the bid accepted later but resting first" \
  "$(status "$LATE" "$B2K" | cut -d' ' -f1) $(status "$EARLY" | cut -d' ' -f1)" "filled open"

# --- one-cancels-other ---------------------------------------------------------------------------
sell a100-sxm 200
order "$BK" "\"gpu\":\"a100-sxm\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":170,\"oco_group\":\"dip-or-break\",\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":170}"
O1=$OID
order "$BK" "\"gpu\":\"a100-sxm\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":260,\"oco_group\":\"dip-or-break\",\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":250}"
O2=$OID
a2=$(avail)
sell a100-sxm 165
expect_eq "OCO: the first to enter the book fills" "$(status "$O1" | cut -d' ' -f1)" "filled"
expect_eq "and the other is cancelled, its hold back" "$(status "$O2")" "cancelled 0 0 0"
req GET /v1/events "" "$BK"
expect_eq "the account hears why" \
  "$(jqb "[.events[] | select(.kind == \"order\" and .order_id == $O2)] | last | \"\(.event) \(.reason) \(.by_order_id) \(.oco_group)\"")" \
  "cancelled oco $O1 dip-or-break"
order "$BK" "\"gpu\":\"a100-pcie\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":150,\"oco_group\":\"g2\""
P=$OID
order "$BK" "\"gpu\":\"a100-pcie\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":300,\"oco_group\":\"g2\",\"trigger\":{\"when\":\"ask_gte\",\"price_cents\":290}"
Q=$OID
order "$BK" "\"gpu\":\"h200\",\"side\":\"buy\",\"gpus\":1,\"hours\":2,\"price_cents\":300,\"oco_group\":\"g2\""
expect_eq "an OCO group's orders are for one GPU" "$ST $(jqb .error.code) $(jqb .error.field)" "409 OCO_OTHER_GPU oco_group"
order "$SK" "\"gpu\":\"a100-pcie\",\"side\":\"sell\",\"gpus\":1,\"hours\":5,\"price_cents\":150"
expect_eq "OCO: a resting member's fill cancels the waiting one" "$(status "$P" | cut -d' ' -f1) $(status "$Q" | cut -d' ' -f1)" "filled cancelled"

# --- replays --------------------------------------------------------------------------------------
req POST /v1/orders "{\"client_order_id\":\"rp\",\"type\":\"limit\",$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":100}}" "$BK"
RP=$(jqb .id)
req POST /v1/orders "{\"client_order_id\":\"rp\",\"type\":\"limit\",$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":100}}" "$BK"
expect_eq "a replay with the same trigger is the order (200)" "$ST $(jqb .id) $(jqb .status)" "200 $RP waiting"
req POST /v1/orders "{\"client_order_id\":\"rp\",\"type\":\"limit\",$body,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":101}}" "$BK"
expect_eq "another trigger price is 409 IDEMPOTENCY_CONFLICT" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req POST /v1/orders "{\"client_order_id\":\"rp\",\"type\":\"limit\",$body}" "$BK"
expect_eq "no trigger is another body too" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req POST /v1/orders "{\"client_order_id\":\"rp\",\"type\":\"limit\",$body,\"oco_group\":\"x\",\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":100}}" "$BK"
expect_eq "and so is an oco_group" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req GET "/v1/orders?status=waiting" "" "$BK"
expect_eq "GET /v1/orders?status=waiting lists the waiting ones" "$(jqb '[.orders[].status] | unique | join(",")')" "waiting"
req GET "/v1/orders?status=closed&limit=200" "" "$BK"
expect_eq "and ?status=closed does not" "$(jqb '[.orders[] | select(.status == "waiting")] | length')" "0"

# --- at most 20 ----------------------------------------------------------------------------------
signup US USD buyer; LK=$KEY; deposit "$ACC" 1000000
i=0
while [ $i -lt 20 ]; do
  order "$LK" "\"gpu\":\"rtx-4090\",\"side\":\"buy\",\"gpus\":1,\"hours\":1,\"price_cents\":10,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":1}"
  [ "$ST" = 201 ] || break
  i=$((i + 1))
done
expect_eq "20 conditional orders are accepted" "$i" "20"
order "$LK" "\"gpu\":\"rtx-4090\",\"side\":\"buy\",\"gpus\":1,\"hours\":1,\"price_cents\":10,\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":1}"
expect_eq "the 21st is 409 TOO_MANY_CONDITIONAL" "$ST $(jqb .error.code) $(jqb .error.max)" "409 TOO_MANY_CONDITIONAL 20"
order "$LK" "\"gpu\":\"rtx-4090\",\"side\":\"buy\",\"gpus\":1,\"hours\":1,\"price_cents\":10,\"standing\":true"
expect_eq "standing orders count too" "$ST $(jqb .error.code)" "409 TOO_MANY_CONDITIONAL"
order "$LK" "\"gpu\":\"rtx-4090\",\"side\":\"buy\",\"gpus\":1,\"hours\":1,\"price_cents\":10"
expect_eq "plain orders do not" "$ST" "201"

why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
xd_finish
