# Standing orders and renewals (docs/API.md "Standing orders", docs/
# ARCHITECTURE.md "Renewals"): "keep 8 GPUs for periods of 2 hours at no more
# than P" buys, extends each rental an hour before it ends from its seller's
# window while the funds are there, buys in its place when the window is
# used up (waiting while the book is above P), stops and says why when the
# funds run short or its account cancels it; the demo market with its clock
# sped up keeps 8 GPUs through its price moves. Money: USD accounts in the US
# (no VAT), worked out in the comments; the ledger is checked at the end.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish

n=0
order() { # KEY JSON-FIELDS — sets OID
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"k$n\",\"type\":\"limit\",$2}" "$1"
  OID=$(jqb .id)
}
seller() { signup US USD seller; echo "$KEY"; }
standing() { # KEY GPU GPUS HOURS CAP
  order "$1" "\"gpu\":\"$2\",\"side\":\"buy\",\"gpus\":$3,\"hours\":$4,\"price_cents\":$5,\"standing\":true"
}
# the buyer's active rentals of GPU: "gpus@price×hours ..."
rentals() { # KEY GPU
  req GET "/v1/rentals?status=active&gpu=$2" "" "$1"
  jqb '[.rentals[] | select(.role == "buyer") | "\(.gpus)@\(.price_cents)x\(.hours)"] | join(" ")'
}
sevents() { # KEY ORDER: the standing order's events
  req GET "/v1/events?limit=200" "" "$1"
  jqb "[.events[] | select(.kind == \"standing\" and .order_id == $2) | .event] | join(\" \")"
}
sstate() { req GET "/v1/orders/$2" "" "$1"; echo "$(jqb .standing.state) $(jqb .standing.reason)"; }

# --- buy, extend, extend, extend, and stop when the funds run short ----------------------------
S1=$(seller)
order "$S1" '"gpu":"h200","side":"sell","gpus":16,"hours":720,"price_cents":300'
signup US USD buyer; BK=$KEY; deposit "$ACC" 20000
standing "$BK" h200 8 2 320
SO=$OID
expect_eq "a standing order buys like a bid: 8 GPUs at 300" "$ST $(jqb .status) $(jqb .standing.state)" "201 filled active"
# hold 8 × 2 × 320 = 5120; kept 8 × 2 × 300 = 4800 (320 back); hour 1 billed 2400
expect_eq "its rental, and the first hour paid" "$(rentals "$BK" h200) $(balance "$BK")" "8@300x2 15200 2400"
advance 3600
# an hour before the end: extended by 2 h from the seller's 720 h window, 4800 held
expect_eq "an hour before its end the rental is extended by a period" "$(rentals "$BK" h200)" "8@300x4"
expect_eq "the period's funds are held (hour 2 billed meanwhile)" "$(balance "$BK")" "10400 4800"
order "$S1" '"gpu":"h200","side":"sell","gpus":8,"hours":720,"price_cents":350'
req DELETE "/v1/orders/$(sql "SELECT id FROM orders WHERE gpu = 'h200' AND price = 300 AND remaining > 0")" "" "$S1"
advance 7200
expect_eq "the market moved to 350, above the cap: the rental is extended at its own 300" "$(rentals "$BK" h200)" "8@300x6"
advance 7200
expect_eq "and again" "$(rentals "$BK" h200) $(balance "$BK")" "8@300x8 800 4800"
advance 7200
# the next period needs 4800; 800 are available
expect_eq "when the funds run short it stops, and says why" "$(sstate "$BK" "$SO")" \
  "stopped funds: the next period needs 4800 USD minor units; 800 are available"
expect_eq "the account heard every step" "$(sevents "$BK" "$SO")" "bought renewed renewed renewed stopped"
expect_eq "the rental it has runs to its end, not extended" "$(rentals "$BK" h200)" "8@300x8"
advance 3600
expect_eq "and then ends" "$(rentals "$BK" h200)" ""

# --- the seller's window used up: it buys in its place ---------------------------------------------
S2=$(seller); S3=$(seller)
order "$S2" '"gpu":"b200","side":"sell","gpus":8,"hours":4,"price_cents":700'
order "$S3" '"gpu":"b200","side":"sell","gpus":8,"hours":720,"price_cents":710'
signup US USD buyer; B2K=$KEY; deposit "$ACC" 1000000
standing "$B2K" b200 8 2 720
S2O=$OID
expect_eq "a standing order takes the cheapest: 8 at 700, from a 4-hour window" "$(rentals "$B2K" b200)" "8@700x2"
advance 3600
expect_eq "extended within the window (2 + 2 <= 4)" "$(rentals "$B2K" b200)" "8@700x4"
advance 7200
expect_eq "the window is used up: not extended" "$(rentals "$B2K" b200)" "8@700x4"
advance 3600
expect_eq "at its end the order buys the GPUs again, from the next seller at 710" "$(rentals "$B2K" b200)" "8@710x2"
expect_eq "and says so" "$(sevents "$B2K" "$S2O")" "bought renewed not_extended buying bought"

# --- above the cap it waits for the price -----------------------------------------------------------
S4=$(seller); S5=$(seller)
order "$S4" '"gpu":"l40s","side":"sell","gpus":4,"hours":2,"price_cents":80'
order "$S5" '"gpu":"l40s","side":"sell","gpus":4,"hours":720,"price_cents":100'
signup US USD buyer; B3K=$KEY; deposit "$ACC" 1000000
standing "$B3K" l40s 4 2 90
S3O=$OID
advance 7200
expect_eq "its rental ended; the book is at 100, above its cap of 90: it rests, holding none" \
  "$(rentals "$B3K" l40s) $(sstate "$B3K" "$S3O")" " active null"
req GET "/v1/orders/$S3O" "" "$B3K"
expect_eq "with the period held at the cap: 4 × 2 × 90" "$(jqb .status) $(jqb .remaining_gpus) $(jqb .filled_gpus) $(jqb .hold_minor)" "open 4 0 720"
order "$S5" '"gpu":"l40s","side":"sell","gpus":4,"hours":720,"price_cents":85'
expect_eq "an ask comes down to 85: it buys (at its resting bid's 90)" "$(rentals "$B3K" l40s)" "4@90x2"

# --- cancelled by its account ---------------------------------------------------------------------------
req DELETE "/v1/orders/$S3O" "" "$B3K"
expect_eq "a standing order is cancelled whenever its account wants" "$ST $(jqb .standing.state) $(jqb .standing.reason)" \
  "200 stopped cancelled by the account"
advance 3600
expect_eq "its rental is not extended any more" "$(rentals "$B3K" l40s)" "4@90x2"
req DELETE "/v1/orders/$S3O" "" "$B3K"
expect_eq "a stopped standing order cannot be cancelled again" "$ST $(jqb .error.code)" "409 ORDER_NOT_OPEN"
expect_eq "renewals of a stopped order say why" \
  "$(sql "SELECT state || ' ' || reason FROM renewals WHERE order_id = $S3O ORDER BY id DESC LIMIT 1")" \
  "stopped cancelled by the account"

why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"

# --- the demo market, its clock sped up: 8 GPUs kept through its price moves ---------------------------
xd_start --demo --clock-speed 600 --rate-limit 0 --ip-rate-limit 0 || finish
req POST /v1/accounts '{"email":"keep@example.com","country":"US","currency":"USD","role":"buyer"}'
DK=$(jqb .api_key)
req POST /v1/deposits '{"amount_minor":100000000}' "$DK"
standing "$DK" h200 8 1 450
DO=$OID
expect_eq "a standing order of 8 H200 for 1-hour periods in the demo market" "$ST $(jqb .filled_gpus)" "201 8"
# 600 × real time: an hour is 6 s; three renewals in at most a minute,
# the H200 ask noted all the while
i=0
: >"$TMPD/asks"
while [ $i -lt 600 ] && [ "$(sevents "$DK" "$DO" | tr ' ' '\n' | grep -c renewed)" -lt 3 ]; do
  [ $((i % 5)) -eq 0 ] && curl -s "$GPUXD_URL/v1/quotes" | jq '.quotes[] | select(.gpu == "h200") | .best_ask_cents' >>"$TMPD/asks"
  sleep 0.1; i=$((i + 1))
done
expect_match "it was renewed period after period" "$(sevents "$DK" "$DO")" '^bought( bought)* renewed renewed renewed'
req GET "/v1/rentals?status=active&gpu=h200" "" "$DK"
expect_eq "it holds 8 GPUs all the while" "$(jqb '[.rentals[].gpus] | add')" "8"
moved=$(sort -u "$TMPD/asks" | wc -l)
if [ "$moved" -gt 1 ]; then ok "the demo's H200 ask moved meanwhile ($(sort -un "$TMPD/asks" | tr '\n' ' '))"; else fail "the demo's H200 ask moved meanwhile" "$(sort -u "$TMPD/asks" | tr '\n' ' ')"; fi
why=$(ledger_check) && ok "the demo's ledger adds up" || fail "the demo's ledger adds up" "$why"
xd_finish
