# Matching over HTTP: price-time priority, partial fills, IOC, FOK, the hours
# rule, self-trade prevention, cancels, market sells, book depth and trades.
# All accounts are USD in the US (no VAT, FX 1), so a hold is gpus*hours*price.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup US USD seller; A=$ACC; AK=$KEY
signup US USD seller; Bs=$ACC; BK=$KEY
signup US USD buyer; C=$ACC; CK=$KEY; deposit "$C" 10000000
signup US USD buyer; D=$ACC; DK=$KEY; deposit "$D" 10000000
n=0
place() { # KEY GPU SIDE GPUS HOURS PRICE [TIF]
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"o$n\",\"gpu\":\"$2\",\"side\":\"$3\",\"type\":\"limit\",\"gpus\":$4,\"hours\":$5,\"price_cents\":$6,\"time_in_force\":\"${7:-gtc}\"}" "$1"
}

# --- price-time priority -----------------------------------------------------------
place "$AK" h200 sell 5 100 300; A1=$(jqb .id)
place "$BK" h200 sell 5 100 300; B1=$(jqb .id)
place "$AK" h200 sell 5 100 290; A2=$(jqb .id)
place "$CK" h200 buy 7 10 300
expect_eq "best price first, then the earliest order at the next price" \
  "$(jqb '[.fills[] | "\(.price_cents)x\(.gpus)"] | join(" ")')" "290x5 300x2"
expect_eq "the taker's fills name the makers' rentals" "$(jqb '[.fills[].liquidity] | unique | join(",")')" "taker"
req GET "/v1/orders/$A1" "" "$AK"
expect_eq "the earlier ask at 300 gave 2 GPUs" "$(jqb .filled_gpus) $(jqb .remaining_gpus)" "2 3"
req GET "/v1/orders/$B1" "" "$BK"
expect_eq "the later ask at the same price was not touched" "$(jqb .status) $(jqb .remaining_gpus)" "open 5"
req GET "/v1/orders/$A2" "" "$AK"
expect_eq "the cheaper ask is filled" "$(jqb .status)" "filled"

# --- partial fill of a resting taker -----------------------------------------------------
place "$CK" h200 buy 10 10 300
C2=$(jqb .id)
expect_eq "a GTC buy takes what crosses (3+5) and rests the rest" \
  "$(jqb .status) $(jqb .filled_gpus) $(jqb .remaining_gpus) $(jqb .hold_minor)" "partially_filled 8 2 6000"
req GET "/v1/books/h200?depth=5" ""
expect_eq "the book: no asks left, the bid rests at 300 x 2" \
  "$(jqb '.asks | length') $(jqb '.bids[0] | "\(.price_cents)x\(.gpus)"')" "0 300x2"

# --- IOC --------------------------------------------------------------------------------
place "$BK" l40s sell 3 100 305
req GET /v1/account "" "$DK"; d0=$(jqb .balance.available_minor)
place "$DK" l40s buy 4 10 310 ioc
expect_eq "IOC fills what it can and the rest expires" \
  "$(jqb .status) $(jqb .filled_gpus) $(jqb .remaining_gpus) $(jqb .hold_minor)" "expired 3 0 0"
req GET /v1/account "" "$DK"
# 3 GPUs x 10 h x 305 held for the rental, of which hour 1 (3*305) is billed
expect_eq "IOC: only the filled part stays held (3*10*305 - 915)" \
  "$(( d0 - $(jqb .balance.available_minor) )) $(jqb .balance.held_minor)" "9150 8235"
req GET "/v1/books/l40s" ""
expect_eq "an IOC never rests" "$(jqb '.bids | length')" "0"

# --- FOK --------------------------------------------------------------------------------
place "$BK" l40s sell 2 100 320
req GET /v1/account "" "$DK"; before=$(jqb '"\(.balance.available_minor) \(.balance.held_minor)"')
place "$DK" l40s buy 3 10 330 fok
expect_eq "FOK that cannot fill completely: expired, nothing filled" \
  "$ST $(jqb .status) $(jqb .filled_gpus) $(jqb '.fills | length')" "201 expired 0 0"
expect_eq "FOK: the balance is as before" "$(balance "$DK")" "$before"
req GET "/v1/books/l40s" ""
expect_eq "FOK: the ask is untouched" "$(jqb '.asks[0] | "\(.price_cents)x\(.gpus)"')" "320x2"
place "$DK" l40s buy 2 10 330 fok
expect_eq "FOK that can fill: filled at 320" "$(jqb .status) $(jqb '.fills[0].price_cents')" "filled 320"

# --- the hours rule ------------------------------------------------------------------------
place "$AK" a100-sxm sell 4 10 350
place "$DK" a100-sxm buy 2 20 360
expect_eq "a bid for 20 h does not match an ask of up to 10 h: it rests" \
  "$(jqb .status) $(jqb .filled_gpus)" "open 0"
HB=$(jqb .id)
place "$DK" a100-sxm buy 2 10 360
expect_eq "a bid for 10 h matches it, at the ask's price" "$(jqb .status) $(jqb '.fills[0].price_cents')" "filled 350"
place "$BK" a100-sxm sell 1 19 340
expect_eq "a sell of up to 19 h skips the bid for 20 h" "$(jqb .status)" "open"
place "$BK" a100-sxm sell 1 20 340
expect_eq "a sell of up to 20 h fills it at the bid's price, for 20 h" \
  "$(jqb .status) $(jqb '.fills[0].price_cents') $(jqb '.fills[0].hours')" "filled 360 20"

# --- self-trade prevention ----------------------------------------------------------------
signup US USD both; E=$ACC; EK=$KEY; deposit "$E" 1000000
place "$EK" b300 sell 2 10 500
place "$EK" b300 buy 2 10 500
expect_eq "an account's bid never trades with its own ask" "$(jqb .status) $(jqb .filled_gpus)" "open 0"
place "$CK" b300 buy 2 10 500
expect_eq "another account's bid does" "$(jqb .status) $(jqb '.fills[0].price_cents')" "filled 500"

# --- cancel -------------------------------------------------------------------------------
req GET /v1/account "" "$CK"; held=$(jqb .balance.held_minor)
req DELETE "/v1/orders/$C2" "" "$CK"
expect_eq "cancel: 200 cancelled, nothing rests" "$ST $(jqb .status) $(jqb .remaining_gpus) $(jqb .hold_minor)" "200 cancelled 0 0"
req GET /v1/account "" "$CK"
expect_eq "cancel releases the hold (2*10*300)" "$(( held - $(jqb .balance.held_minor) ))" 6000
req GET "/v1/books/h200" ""
expect_eq "the cancelled bid left the book" "$(jqb '.bids | length')" 0
req DELETE "/v1/orders/$C2" "" "$CK"
expect_eq "cancel twice: 409 ORDER_NOT_OPEN" "$ST $(jqb .error.code) $(jqb .error.status)" "409 ORDER_NOT_OPEN cancelled"

# --- market sell with a floor -------------------------------------------------------------
place "$DK" rtx-4090 buy 2 5 40
req POST /v1/orders '{"client_order_id":"ms1","gpu":"rtx-4090","side":"sell","type":"market","gpus":3,"hours":8,"min_price_cents":35}' "$AK"
expect_eq "market sell: fills the bid above the floor, the rest expires" \
  "$(jqb .status) $(jqb .filled_gpus) $(jqb .min_price_cents) $(jqb '.fills[0].price_cents')" "expired 2 35 40"

# --- trades and quotes --------------------------------------------------------------------
req GET "/v1/trades/h200?limit=2" ""
expect_eq "trades: newest first, with a cursor" \
  "$(jqb '[.trades[].price_cents] | join(",")') $(jqb '.next_cursor != null')" "300,300 true"
req GET "/v1/trades/h200?limit=200&cursor=$(jqb .next_cursor)" ""
expect_eq "the next page holds the older trades" "$(jqb '[.trades[].price_cents] | join(",")')" "300,290"
req GET /v1/quotes ""
expect_eq "quotes: last trade price per GPU" "$(jqb '.quotes[] | select(.gpu=="l40s") | .last_cents')" 320

why=$(ledger_check) && ok "ledger invariants hold" || fail "ledger invariants hold" "$why"
xd_finish
