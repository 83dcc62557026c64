# The whole life of an order, each balance checked to the cent, VAT and FX
# included: account -> deposit -> limit buy crossing an ask -> fill -> rental
# -> hourly charges on the exchange clock -> early stop -> refund.
#
# Tables (data/fx.json, data/vat.json): EUR 920000 and GBP 790000 per USD
# x 10^6; PT 23 %, GB 20 %, DE 19 %, US 0. Formulas: docs/API.md.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

# --- an EUR buyer in Portugal buys H200 hours from a USD seller ---------------
signup US USD seller; S1=$ACC; S1K=$KEY
signup PT EUR buyer; B=$ACC; BK=$KEY
expect_eq "signup answers with the VAT rate of the country" "$(jqb .vat_rate_bp)" 2300
expect_match "the API key is shown once, gpux_ + 64 hex digits" "$BK" '^gpux_[0-9a-f]{64}$'
expect_eq "the key is stored only as a SHA-256 hash" \
  "$(sql "SELECT count(*) FROM api_keys WHERE account = $B AND key_hash = x'$(printf '%s' "$BK" | sha256sum | cut -c1-64)'")" 1
expect_eq "the key itself is nowhere in the database" "$(db_grep_count "$BK")" 0

req POST /v1/orders '{"client_order_id":"s1","gpu":"h200","side":"sell","type":"limit","gpus":10,"hours":48,"price_cents":419}' "$S1K"
expect_eq "a sell order rests (201, open)" "$ST $(jqb .status) $(jqb .hold_minor)" "201 open 0"
S1O=$(jqb .id)

deposit "$B" 500000
expect_eq "admin deposit: 201 and the new balance" "$ST $(jqb .balance.available_minor)" "201 500000"
expect_eq "balance after the deposit" "$(balance "$BK")" "500000 0"

# preview: unit(430) = ceil(430*0.92=395.6)=396 + ceil(396*0.23=91.08)=92 = 488 per GPU-hour
#          hold 8*24*488 = 93696; fills at 419: unit(419) = 386 + 89 = 475 -> 8*24*475 = 91200
req POST /v1/orders/preview '{"gpu":"h200","side":"buy","type":"limit","gpus":8,"hours":24,"price_cents":430}' "$BK"
expect_eq "preview: unit, hold, cost, balance after" \
  "$(jqb '[.unit_minor,.hold_minor,.cost.net_minor,.cost.vat_minor,.cost.total_minor,.balance_after_minor,.would_status,.fill_gpus] | @tsv')" \
  "$(printf '488\t93696\t74112\t17088\t91200\t408800\tfilled\t8')"
expect_eq "a preview changes nothing" "$(balance "$BK")" "500000 0"

req POST /v1/orders '{"client_order_id":"b-1","gpu":"h200","side":"buy","type":"limit","gpus":8,"hours":24,"price_cents":430,"time_in_force":"gtc"}' "$BK"
expect_eq "limit buy crossing the ask: 201 filled at the resting price" \
  "$ST $(jqb .status) $(jqb .filled_gpus) $(jqb '.fills[0].price_cents') $(jqb '.fills[0].liquidity')" "201 filled 8 419 taker"
BO=$(jqb .id)
RID=$(jqb '.fills[0].rental_id')
# hold 93696, released 2496 (cheaper fill), rental holds 91200, hour 1 billed 8*475 = 3800
expect_eq "buyer after the fill: available 500000-91200, held 91200-3800" "$(balance "$BK")" "408800 87400"
req GET "/v1/ledger?limit=100" "" "$BK"
expect_eq "ledger: hold, release of the cheaper fill, first hour net and VAT" \
  "$(jqb '[.entries[] | select(.bucket=="held") | "\(.kind):\(.amount_minor)"] | reverse | join(" ")')" \
  "hold:93696 release:-2496 charge:-3088 vat:-712"
req GET /v1/account "" "$S1K"
expect_eq "seller paid for hour 1 in USD: 8*419" "$(jqb .balance.available_minor)" 3352
req GET "/v1/orders/$S1O" "" "$S1K"
expect_eq "the ask is partially filled, 2 GPUs rest" "$(jqb .status) $(jqb .remaining_gpus) $(jqb '.fills[0].liquidity')" "partially_filled 2 maker"
req GET /v1/rentals "" "$S1K"
expect_eq "the seller sees the rental as seller, hourly payout 3352" \
  "$(jqb '.rentals[0] | "\(.role) \(.hourly_minor) \(.currency)"')" "seller 3352 USD"

advance 3600
expect_eq "admin clock: one hour billed" "$ST $(jqb .billed_hours)" "200 1"
expect_eq "hour 2: held 87400-3800" "$(balance "$BK")" "408800 83600"
advance 1800
expect_eq "half an hour later nothing more is billed" "$(balance "$BK")" "408800 83600"
advance 1800
expect_eq "hour 3 begins: held 83600-3800" "$(balance "$BK")" "408800 79800"
req GET /v1/account "" "$S1K"
expect_eq "seller paid 3 hours: 3*3352" "$(jqb .balance.available_minor)" 10056

req POST "/v1/rentals/$RID/stop" "" "$BK"
expect_eq "early stop: 200 stopped, 3 hours billed, 21 refunded" \
  "$ST $(jqb .status) $(jqb .hours_billed) $(jqb .billed_minor) $(jqb .refunded_minor)" "200 stopped 3 11400 79800"
expect_eq "refund: available 408800+79800, held 0 (paid 3*3800 = 11400)" "$(balance "$BK")" "488600 0"
expect_eq "VAT collected: 3 hours x 8 GPUs x 89 cents" \
  "$(sql "SELECT available FROM accounts WHERE kind = 'vat' AND currency = 'EUR'")" 2136
advance 7200
expect_eq "a stopped rental bills nothing more" "$(balance "$BK")" "488600 0"
req POST "/v1/rentals/$RID/stop" "" "$BK"
expect_eq "stopping twice: 409 RENTAL_NOT_ACTIVE" "$ST $(jqb .error.code)" "409 RENTAL_NOT_ACTIVE"

# --- a GBP buyer in Great Britain, a EUR seller in Germany, a market order -----
signup DE EUR seller; S2=$ACC; S2K=$KEY
signup GB GBP buyer; G=$ACC; GK=$KEY
req POST /v1/orders '{"client_order_id":"s2","gpu":"h100-sxm","side":"sell","type":"limit","gpus":4,"hours":10,"price_cents":288}' "$S2K"
deposit "$G" 100000
# unit(300) GBP/GB = ceil(237.0)=237 + ceil(47.4)=48 = 285; hold 2*10*285 = 5700
# unit(288) = ceil(227.52)=228 + ceil(45.6)=46 = 274; rental 2*10*274 = 5480; hour 1: 548
req POST /v1/orders '{"client_order_id":"m1","gpu":"h100-sxm","side":"buy","type":"market","gpus":2,"hours":10,"max_price_cents":300}' "$GK"
expect_eq "market buy with a cap: IOC, filled at 288" \
  "$ST $(jqb .status) $(jqb .time_in_force) $(jqb .max_price_cents) $(jqb '.fills[0].price_cents')" "201 filled ioc 300 288"
expect_eq "GBP buyer: available 100000-5480, held 5480-548" "$(balance "$GK")" "94520 4932"
req GET /v1/account "" "$S2K"
# payout floor(288*0.92 = 264.96) = 264 per GPU-hour, in EUR
expect_eq "EUR seller paid in EUR, rounded down: 2*264" "$(jqb .balance.available_minor)" 528
RID2=$(sql "SELECT id FROM rentals WHERE buyer = $G")
req POST "/v1/rentals/$RID2/stop" "" "$S2K"
expect_eq "the seller cannot stop the rental: 403" "$ST $(jqb .error.code)" "403 FORBIDDEN"
req POST "/v1/rentals/$RID2/stop" "{}" "$GK"
expect_eq "stop at once: 9 hours refunded" "$ST $(jqb .refunded_minor)" "200 4932"
expect_eq "GBP buyer paid exactly one hour" "$(balance "$GK")" "99452 0"

# --- a rental that runs to its end ----------------------------------------------
signup US USD both; U=$ACC; UK=$KEY
deposit "$U" 1000
req POST /v1/orders '{"client_order_id":"s3","gpu":"rtx-4090","side":"sell","type":"limit","gpus":1,"hours":2,"price_cents":33}' "$S1K"
req POST /v1/orders '{"client_order_id":"u1","gpu":"rtx-4090","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":33}' "$UK"
expect_eq "USD buyer in the US: no VAT, unit = price" "$(balance "$UK")" "934 33"
advance 3600
advance 3600
req GET /v1/rentals "" "$UK"
expect_eq "after its hours the rental is completed, all billed" \
  "$(jqb '.rentals[0] | "\(.status) \(.hours_billed) \(.billed_minor) \(.held_minor)"')" "completed 2 66 0"
expect_eq "and the hold is used up exactly" "$(balance "$UK")" "934 0"

why=$(ledger_check) && ok "ledger invariants hold" || fail "ledger invariants hold" "$why"
xd_finish
