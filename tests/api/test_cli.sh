#!/bin/bash
# The scriptable exchange commands end to end against a real gpuxd --demo:
# quotes, book, order (preview, --dry-run, --yes, terminal rule), orders,
# cancel, rentals, stop, account, deposit; formats; exit statuses; prices as
# people type them; the key never printed.
. "$(dirname "$0")/../lib.sh"

start_gpuxd --demo --quiet || finish
acct=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"cli@example.pt","country":"PT","currency":"EUR","role":"both"}')
KEY=$(printf '%s' "$acct" | jq -r .api_key)
export GPUX_API="$GPUXD_URL" GPUX_API_KEY="$KEY"
ALL="$TMPD/all-output"   # every byte gpux prints, to check the key is never in it
g() { "$GPUX" "$@" >"$TMPD/out" 2>"$TMPD/err"; rc=$?; cat "$TMPD/out" "$TMPD/err" >>"$ALL"; return $rc; }

# ---- deposit, account --------------------------------------------------------------
g --lang pt-PT deposit 5000,50
expect_eq "deposit 5000,50 (pt-PT): exit 0" "$?" 0
expect_match "deposit: says what happened" "$(cat "$TMPD/out")" '^Deposited 5.000,50 €; available now 5.000,50 €\.$|^.*5\.000,50 €.*5\.000,50 €'
g account --format json
expect_eq "account: 5000.50 EUR available (raw cents)" "$(jq -c '.[0] | [.available_minor, .currency, .country]' "$TMPD/out")" '[500050,"EUR","PT"]'

# ---- quotes, book --------------------------------------------------------------------
g quotes --format json
expect_eq "quotes: 15 GPUs" "$(jq length "$TMPD/out")" 15
ask=$(jq '.[] | select(.gpu == "h200") | .best_ask_cents' "$TMPD/out")
# docs/API.md demo market: the seed page's "H200 a partir de US$ 4,19", drifting by cents
check "quotes: H200 best ask near US\$ 4.19 (got $ask)" test "$ask" -ge 410 -a "$ask" -le 430
expect_eq "quotes: nothing on stderr for a configured exchange" "$(cat "$TMPD/err")" ""
g --lang pt-PT quotes
expect_match "quotes (pt-PT): the seeds' money format" "$(grep '^h200 ' "$TMPD/out")" 'US\$ 4,[0-9][0-9]'
g quotes --format csv
expect_eq "quotes csv: header" "$(head -1 "$TMPD/out")" "gpu,name,best_ask_cents,ask_gpus,best_bid_cents,bid_gpus,last_cents,best_ask_n8_cents,ask_n8_units"
g book h200 --depth 2 --format json
expect_eq "book --depth 2: 2 asks and 2 bids" "$(jq -c '[.[].side]' "$TMPD/out")" '["ask","ask","bid","bid"]'
check "book: asks above bids" test "$(jq '.[1].price_cents' "$TMPD/out")" -gt "$(jq '.[2].price_cents' "$TMPD/out")"

# ---- the market buy of the issue: preview, place, orders, rentals, balance ----------
g order buy h200 --gpus 8 --hours 24 --market --max-price 5 --dry-run --format json
expect_eq "dry run: exit 0" "$?" 0
total=$(jq '.[0].total_minor' "$TMPD/out")
after=$(jq '.[0].balance_after_minor' "$TMPD/out")
price=$(curl -sS "$GPUXD_URL/v1/quotes" | jq '.quotes[] | select(.gpu == "h200") | .best_ask_cents')
# docs/API.md rounding: unit = ceil(p × 0.92) + ceil(that × 23 %), per GPU-hour, 8 × 24 of them
net=$(( (price * 920000 + 999999) / 1000000 )); vat=$(( (net * 2300 + 9999) / 10000 ))
expect_eq "dry run: total = 8 × 24 × unit(price), VAT and FX included" "$total" "$(( 8 * 24 * (net + vat) ))"
expect_eq "dry run: places nothing" "$(curl -sS -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/orders" | jq '.orders | length')" 0
g order buy h200 --gpus 8 --hours 24 --market --max-price 5 </dev/null
expect_eq "no --yes and not a terminal: usage, exit 2" "$?" 2
expect_match "no --yes and not a terminal: says to pass --yes" "$(cat "$TMPD/err")" 'pass --yes'
g order buy h200 --gpus 8 --hours 24 --market --max-price 5 --yes
expect_eq "market buy --yes: exit 0" "$?" 0
expect_match "market buy: shows the preview first" "$(head -1 "$TMPD/out")" '^Buy 8 × H200 for 24 hours at the best prices on offer, paying at most \$5\.00 per GPU-hour'
expect_match "market buy: the preview has the total with VAT" "$(cat "$TMPD/out")" 'Total with VAT: €[0-9.,]+ \(€[0-9.,]+ before tax \+ €[0-9.,]+ VAT at 23%\)'
expect_match "market buy: filled, at which price" "$(cat "$TMPD/out")" "Filled: order [0-9]+, 8 × H200 GPUs for 24 h at \\\$4\\.[0-9]{2} per GPU-hour"
g orders --format json
expect_eq "orders: the buy is there, filled" "$(jq -c '[.[] | select(.gpu == "h200") | [.side, .type, .status, .filled_gpus]]' "$TMPD/out")" '[["buy","market","filled",8]]'
g orders --status open --format json
expect_eq "orders --status open: none" "$(jq length "$TMPD/out")" 0
g orders --status done --format csv
expect_eq "orders --status done: one row" "$(tail -n +2 "$TMPD/out" | wc -l)" 1
g rentals --format json
expect_eq "rentals: an active 8 × 24 h H200 rental" "$(jq -c '[.[] | [.gpu, .role, .status, .gpus, .hours, .price_cents]]' "$TMPD/out")" "[[\"h200\",\"buyer\",\"active\",8,24,$price]]"
rental=$(jq '.[0].id' "$TMPD/out")
g account --format json
expect_eq "account: reduced by exactly the previewed total" "$(jq '.[0].available_minor' "$TMPD/out")" "$(( 500050 - total ))"
expect_eq "account: ... which is the preview's balance after" "$(jq '.[0].available_minor' "$TMPD/out")" "$after"
g orders
expect_match "orders (table): a readable row" "$(cat "$TMPD/out")" 'H200 +buy +market +\$5\.00 +\$4\.19 +8 +24 +8 +0 +filled'

# ---- limit orders, cancel, stop -------------------------------------------------------
g --lang pt-PT order buy h200 --gpus 1 --hours 2 --limit 1,50 --yes --format json
expect_eq "limit 1,50 (pt-PT) → 150 cents, resting" "$(jq -c '.[0] | [.price_cents, .status, .remaining_gpus]' "$TMPD/out")" '[150,"open",1]'
oid=$(jq '.[0].id' "$TMPD/out")
g cancel "$oid"
expect_match "cancel: done" "$(cat "$TMPD/out")" "^Cancelled order $oid"
g cancel "$oid"
expect_eq "cancel again: exit 1" "$?" 1
expect_eq "cancel again: it says once that it was cancelled" "$(cat "$TMPD/err")" "gpux: order $oid was cancelled already"
g stop "$rental"
expect_match "stop: hours billed and refund" "$(cat "$TMPD/out")" "^Stopped rental $rental: 1 of 24 hours billed .*refunded\\."
g order buy h200 --gpus 1 --hours 2 --market --max-price 0.01 --yes
expect_eq "market buy below every ask: exit 1" "$?" 1
expect_match "market buy below every ask: not filled, says why" "$(cat "$TMPD/out")" '^Not filled: order [0-9]+ expired \(ioc\)'
g order buy b300 --gpus 512 --hours 720 --limit 9 --yes
expect_eq "too expensive: exit 1" "$?" 1
expect_match "too expensive: the exchange's reason, in words and code" "$(cat "$TMPD/err")" '^gpux: Not enough money: this order needs .* held and .* is available\..*\[INSUFFICIENT_FUNDS\]$'
g order sell h200 --gpus 1 --hours 1 --limit 900 --yes --format json
expect_eq "a sell at 900.00 rests on the book" "$(jq -r '.[0].status' "$TMPD/out")" open

# ---- on a terminal, without --yes: the preview, then a question ----------------------
tui_start 120 30 sh -c "GPUX_API='$GPUXD_URL' GPUX_API_KEY='$KEY' '$GPUX' order buy h200 --gpus 1 --hours 3 --limit 2.22; echo EXIT=\$?; sleep 30"
if tui_wait 'Place this order\? \[y/N\]'; then
  expect_match "terminal: the preview comes before the question" "$(tui_screen)" 'Buy 1 × H200 for 3 hours at \$2\.22 per GPU-hour or less'
  tui_keys n Enter
  tui_wait 'EXIT=' || true
  expect_match "terminal: n → not placed, exit 1" "$(tui_screen)" 'not placed'
  expect_match "terminal: n → exit 1" "$(tui_screen)" 'EXIT=1'
else
  fail "terminal: asks before placing" "$(tui_screen)"
fi
tmx kill-server 2>/dev/null
TMUX_SOCK="$TMPD/tmux2.sock"   # a fresh server: the old one may still be going away
tui_start 120 30 sh -c "GPUX_API='$GPUXD_URL' GPUX_API_KEY='$KEY' '$GPUX' order buy h200 --gpus 1 --hours 3 --limit 2.22; echo EXIT=\$?; sleep 30"
if tui_wait 'Place this order\? \[y/N\]'; then
  tui_keys y Enter
  tui_wait 'EXIT=' || true
  expect_match "terminal: y → placed, resting" "$(tui_screen)" 'Resting: order [0-9]+, 1 × H200 GPU at \$2\.22'
  expect_match "terminal: y → exit 0" "$(tui_screen)" 'EXIT=0'
else
  fail "terminal: asks before placing (2)" "$(tui_screen)"
fi
tmx kill-server 2>/dev/null
oid=$(curl -sS -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/orders?status=open" | jq '.orders[] | select(.price_cents == 222) | .id')
g cancel "$oid" >/dev/null

# ---- bad input: exit 2, one line saying what is accepted, nothing sent ----------------
while IFS='|' read -r args want; do
  # shellcheck disable=SC2086
  g $args </dev/null
  rc=$?
  if [ "$rc" -eq 2 ] && grep -qE -- "$want" "$TMPD/err" && [ "$(wc -l <"$TMPD/err")" -eq 1 ]; then
    ok "gpux $args: usage error"
  else
    fail "gpux $args: usage error" "rc=$rc err=$(cat "$TMPD/err")"
  fi
done <<'CASES'
order buy h999 --gpus 1 --hours 1 --limit 4 --yes|unknown GPU "h999"; accepted: b300, 
order rent h200 --gpus 1 --hours 1 --limit 4 --yes|not a side; accepted: buy, sell
order buy h200 --gpus 0 --hours 1 --limit 4 --yes|--gpus
order buy h200 --gpus 1 --hours 721 --limit 4 --yes|--hours
order buy h200 --gpus 1 --hours 1 --yes|either --limit PRICE or --market
order buy h200 --gpus 1 --hours 1 --limit 4 --market --yes|either --limit PRICE or --market
order buy h200 --gpus 1 --hours 1 --market --yes|needs --max-price
order sell h200 --gpus 1 --hours 1 --market --max-price 4 --yes|needs --min-price
order buy h200 --gpus 1 --hours 1 --limit abc --yes|--limit: .*accepted: a price in US\$ per GPU-hour
order buy h200 --gpus 1 --hours 1 --limit 4,19 --yes|--limit:
order buy h200 --gpus 1 --hours 1 --limit 4.191 --yes|--limit:
order buy h200 --gpus 1 --hours 1 --limit 0 --yes|out of range
order buy h200 --gpus 1 --hours 1 --market --max-price 5 --tif gtc --yes|cannot rest on the book
order buy h200 --gpus 1 --hours 1 --limit 4 --tif day --yes|accepted: gtc, ioc, fok
cancel abc|cancel
stop -3|stop
deposit -5|deposit
orders --status pending|accepted: open, done, all
book|which GPU
CASES
expect_eq "bad input sent no order" "$(curl -sS -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/orders?status=all" | jq '.orders | length')" 5

# ---- rental_ids: an array of integers in json, space-separated in csv -------------------
g order buy h200 --gpus 2 --hours 1 --market --max-price 9 --yes --format json
expect_eq "a filled order's rental_ids in json: an array of integers" \
  "$(jq -c '.[0].rental_ids | type == "array" and length >= 1 and all(type == "number")' "$TMPD/out")" true
g order buy h200 --gpus 2 --hours 1 --market --max-price 9 --yes --format csv
expect_match "... in csv: the ids, space-separated" \
  "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rental_ids") c = i } NR == 2 { print $c }' "$TMPD/out")" \
  '^[0-9]+( [0-9]+)*$'

# ---- the key ---------------------------------------------------------------------------
g --insecure account
expect_match "--insecure: said loudly on stderr" "$(cat "$TMPD/err")" '^gpux: WARNING: --insecure: the exchange.s TLS certificate is NOT verified'
g account --key gpux_0000000000000000000000000000000000000000000000000000000000000bad
expect_eq "a wrong key: exit 1" "$?" 1
expect_match "a wrong key: 401 and how to give a key" "$(cat "$TMPD/err")" 'UNAUTHORIZED'
check "the wrong key is not printed" test "$(grep -c 0000bad "$ALL")" -eq 0
check "the API key never appears in any output of this test" test "$(grep -cF "$KEY" "$ALL")" -eq 0
check "(the output checked is not empty)" test "$(wc -c <"$ALL")" -gt 5000
finish
