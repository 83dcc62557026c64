#!/bin/sh
# The TUI's order form end to end (issue 7): the real gpux in a real terminal
# (tmux, 80×24, keyboard only) against a real gpuxd --demo. What the screen
# shows is checked against what the exchange recorded (its API, with curl).
#
# The demo clock runs at 1/1000 of real time so the demo's drift does not
# move the book between the preview and the fill: the preview on screen is
# then exactly what the order costs.
. tests/lib.sh

FAULTD="$GPUX_BUILD/tests/faultd"
start_gpuxd --demo --quiet --clock-speed 0.001 || finish
MAIN_URL=$GPUXD_URL

cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

new_account() { # URL ROLE DEPOSIT_MINOR: prints the key
  k=$(curl -sS -X POST "$1/v1/accounts" \
    -d "{\"email\":\"tui@example.pt\",\"country\":\"PT\",\"currency\":\"EUR\",\"role\":\"$2\"}" |
    jq -r .api_key)
  if [ "$3" -gt 0 ]; then
    curl -sS -X POST -H "Authorization: Bearer $k" "$1/v1/deposits" -d "{\"amount_minor\":$3}" >/dev/null
  fi
  printf '%s' "$k"
}
flat() { sed 's/│/ /g' | tr '\n' ' ' | tr -s ' '; }
# The text inside the dialog box on screen, as one line.
dialog_text() { tui_screen | awk -F'│' 'NF >= 3 { print $2 }' | flat; }
api() { curl -sS -H "Authorization: Bearer $KEY" "$URL$1"; }
available() { api /v1/account | jq .balance.available_minor; }
held() { api /v1/account | jq .balance.held_minor; }
n_orders() { api /v1/orders | jq '.orders | length'; }

open_tui() { # URL KEY [env...]: gpux at 80×24, monochrome, English, UTF-8
  tmx kill-server 2>/dev/null
  i=0; while [ -S "$TMUX_SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  u=$1; k=$2; shift 2
  tui_start 80 24 env NO_COLOR=1 LANG=C.UTF-8 GPUX_API_KEY="$k" "$@" "$TMPD/gpux-run" --api "$u"
  tui_wait 'H200 Hopper' || { fail "the tables appear" "$(tui_screen)"; finish; }
}
# The order form for one GPU: the filter keeps only its row, b opens the form.
form_for() { # GPU-ID
  tui_keys / "$1" Enter
  tui_wait 'filter "[^"]*": 1 of' || fail "the filter finds $1" "$(tui_screen | tail -2)"
  tui_keys b
  tui_wait 'Preview by the exchange' || fail "b opens the order form" "$(tui_screen)"
}
# Type GPUs, hours and the price into the form (focus starts on GPUs).
type_order() { # GPUS HOURS PRICE
  tui_keys C-u "$1" Tab C-u "$2" Tab C-u "$3"
}
# The preview's "Total" (what fills now, with VAT) in cents, from the screen.
screen_total() {
  tui_screen | sed -nE 's/.*Total +€([0-9,]+)\.([0-9][0-9]).*/\1\2/p' | head -1 | tr -d ,
}

# ---- buy 8 × H200 for 24 h at market: filled, the rental appears, the balance
# drops by exactly the previewed total -------------------------------------------
URL=$MAIN_URL
KEY=$(new_account "$URL" buyer 500000)
open_tui "$URL" "$KEY"
form_for h200
expect_match "the form is for the H200 row" "$(tui_screen | sed -n 2p)" '^Buy H200 · NVIDIA Hopper · 141 GB'
type_order 8 24 5
# docs/API.md's worked example: EUR account in PT, H200 at US$4.19, 8 GPUs × 24 h
# → 91 200 cents (€912.00) with 23 % VAT; the demo's best H200 ask is the seed's 4.19
tui_wait 'Total +€912\.00' && ok "the preview: 8 × H200 × 24 h at market costs €912.00 with VAT" ||
  fail "preview total" "$(tui_screen)"
expect_match "the preview fills at the best ask" "$(tui_screen)" 'Fills now +8 × \$4\.19'
expect_match "the preview shows the VAT and its rate" "$(tui_screen)" 'VAT 23% +€170\.88'
expect_match "the preview shows the balance after" "$(tui_screen)" 'Available +€5,000\.00 → €4,088\.00'
expect_match "the book is beside the form" "$(tui_screen)" 'ask +\$4\.19'
total=$(screen_total)
before=$(available)
tui_keys Enter
tui_wait 'Place this order\?' || fail "Enter asks for confirmation" "$(tui_screen)"
dlg=$(dialog_text)
expect_match "the confirmation repeats side, count, GPU, hours, type and cap" "$dlg" \
  'Buy 8 × H200 for 24 hours at the best prices on offer, paying at most \$5\.00 per GPU-hour \(market order\)'
expect_match "the confirmation says the total with VAT" "$dlg" 'Total with VAT: €912\.00'
expect_eq "nothing is placed before the confirmation" "$(n_orders)" 0
# y confirms; the second y and the Enter arrive while the order is on its way
tui_keys y y Enter
tui_wait 'Order placed' || fail "the result appears" "$(tui_screen)"
res=$(dialog_text)
expect_match "the result: filled, at which price" "$res" 'Filled: order [0-9]+, 8 × H200 GPUs for 24 h at \$4\.19 per GPU-hour'
sleep 1
expect_eq "y, y, Enter: exactly one order" "$(n_orders)" 1
expect_eq "the exchange's record: filled" "$(api /v1/orders | jq -r '.orders[0].status + " " + (.orders[0].filled_gpus|tostring)')" "filled 8"
after=$(available)
expect_eq "the balance dropped by exactly the previewed total" "$((before - after))" "$total"
expect_eq "... which is €912.00" "$total" 91200
tui_keys R
tui_wait 'Rental +GPU' || fail "R from the result opens the rentals" "$(tui_screen)"
tui_wait 'H200 +8 +active +1/24 +23 +\$4\.19' && ok "the rental appears: 8 × H200, 1 of 24 hours begun, 23 left" ||
  fail "rental row" "$(tui_screen)"
tui_wait 'Available €4,088\.00' && ok "the rentals page shows the balance after the fill" ||
  fail "balance line" "$(tui_screen | sed -n 2p)"

# ---- a limit order below the market rests, shows in orders, is cancelled and
# its hold returns ----------------------------------------------------------------
held0=$(held)
tui_keys Escape
tui_wait 'H200 Hopper' || fail "Esc goes back to the tables"
tui_keys b
tui_wait 'Preview by the exchange' || fail "b opens the form again"
# the same order again (Enter pressed on and on): only y would place it
tui_keys Enter
tui_wait 'Place the same order again\?' && ok "the same order again: asked as such" ||
  fail "same order again" "$(tui_screen)"
expect_match "... naming the order placed a moment ago" "$(dialog_text)" 'You placed this same order a moment ago \(order [0-9]+\)'
tui_keys Enter
tui_wait 'Not placed: nothing was sent' && ok "the same order again: Enter does not place it" ||
  fail "Enter on the same order" "$(tui_screen)"
expect_eq "the same order again: still one order" "$(n_orders)" 1
# the form kept what was typed; Type is the row above GPUs
tui_keys BTab Right Tab Tab Tab C-u 3
tui_wait 'Limit price/h' || fail "→ on Type makes a limit order" "$(tui_screen)"
tui_wait 'Waits on book +8 GPUs' && ok "the preview: nothing fills at US\$3.00, 8 GPUs would rest" ||
  fail "limit preview" "$(tui_screen)"
# 8 × 24 × unit(300) = 192 × (276 + 64) = 65 280 cents (docs/API.md's rounding)
expect_match "the preview: the hold of the resting GPUs" "$(tui_screen)" 'Held +€652\.80'
expect_match "a limit far below the best ask is flagged" "$(tui_screen | flat)" 'far from the market'
tui_keys Enter
tui_wait 'Place this order\?' || fail "confirmation of the limit order" "$(tui_screen)"
expect_match "the confirmation names the limit price" "$(dialog_text)" \
  'at \$3\.00 per GPU-hour or less \(limit order\)'
tui_keys Enter
tui_wait 'Resting: order' && ok "the result: resting" || fail "resting result" "$(tui_screen)"
oid=$(api '/v1/orders?status=open' | jq '.orders[0].id')
expect_eq "the exchange has it resting" "$(api "/v1/orders/$oid" | jq -r .status)" open
expect_eq "its hold is held" "$(( $(held) - held0 ))" 65280
tui_keys o
tui_wait "^ +$oid +H200 +buy +resting +8 +0 +24 +\\\$3\\.00" && ok "o: the resting order is listed" ||
  fail "orders page" "$(tui_screen)"
tui_keys g x
tui_wait "Cancel order $oid\\?" || fail "x asks before cancelling" "$(tui_screen)"
expect_match "the cancel confirmation names the hold that comes back" "$(dialog_text)" \
  'Its hold of €652\.80 goes back'
tui_keys y
tui_wait "Cancelled order $oid: €652\\.80 released" && ok "cancelled: the freed hold is named" ||
  fail "cancel note" "$(tui_screen | sed -n 2,4p)"
tui_wait 'Available €4,088\.00 · held' && ok "the balance line shows the hold back at once" ||
  fail "balance after cancel" "$(tui_screen | sed -n 2p)"
expect_eq "the exchange: cancelled" "$(api "/v1/orders/$oid" | jq -r .status)" cancelled
expect_eq "the hold returned" "$(held)" "$held0"
tui_wait "^ +$oid +H200 +buy +cancelled" && ok "the list updates in place: cancelled" ||
  fail "cancelled row" "$(tui_screen)"

# ---- the exchange refuses at submit (the market closed after the preview) -----
tui_keys b
tui_wait 'Preview by the exchange' || fail "b on the orders page opens the form"
tui_keys BTab Left Tab Tab Tab C-u 5
tui_wait 'Max price/h' || fail "back to a market order" "$(tui_screen)"
tui_wait 'Total +€912\.00' || fail "market preview again" "$(tui_screen)"
tui_keys Enter
tui_wait 'Place this order\?' || fail "confirmation before the halt" "$(tui_screen)"
curl -sS -X POST "$URL/v1/admin/market" -d '{"state":"halted"}' >/dev/null
n0=$(n_orders)
tui_keys y
tui_wait 'Not placed' || fail "refused at submit: not placed" "$(tui_screen)"
expect_match "the exchange's reason in words, with what to do" \
  "$(dialog_text)" 'Trading is halted on the exchange'
expect_eq "refused at submit: no new order" "$(n_orders)" "$n0"
tui_keys Escape
expect_match "the form keeps what was typed" "$(tui_screen | cut -c1-37 | grep -E '^(GPUs|Hours|Max price/h)' | tr -s ' ' | tr '\n' '|')" \
  '^GPUs 8 ?\|Hours 24 ?\|Max price/h 5 ?\|$'
curl -sS -X POST "$URL/v1/admin/market" -d '{"state":"open"}' >/dev/null

# ---- insufficient funds: the clear message, and no order -------------------------
KEY=$(new_account "$URL" buyer 1000)
open_tui "$URL" "$KEY"
form_for h200
type_order 8 24 5
tui_wait 'Not enough money' || fail "the preview warns: insufficient funds" "$(tui_screen)"
tui_keys Enter
sleep 1
form=$(tui_screen | cut -c1-37 | flat)
# the hold at the cap: 8 × 24 × unit(500) = 192 × (460 + 106) = 108 672 cents
expect_match "insufficient funds: the amounts and what to do next" "$form" \
  'Not enough money: this order needs €1,086\.72 held and €10\.00 is available\. Top up your balance, or buy fewer GPUs or hours, or lower the price\.'
expect_eq "insufficient funds: no confirmation offered" "$(tui_screen | grep -c 'Place this order')" 0
expect_eq "insufficient funds: no order" "$(n_orders)" 0

# ---- a buyer pressing s gets a clear message ----------------------------------------
tui_keys Escape
tui_wait 'balance €10\.00' || true
sleep 0.5
tui_keys s
tui_wait 'buyer account: selling GPU hours needs a seller account' &&
  ok "s on a buyer account: a clear message, no sell form" || fail "buyer pressing s" "$(tui_screen | tail -2)"

# ---- a pre-open market: the clear message, and no order ---------------------------
start_gpuxd --demo --quiet --clock-speed 0.001 --market pre_open --opens-at 2030-01-01T09:00:00Z || finish
URL=$GPUXD_URL
KEY=$(new_account "$URL" buyer 500000)
open_tui "$URL" "$KEY"
tui_wait 'pre-open' && ok "the status bar says pre-open" || fail "status pre-open" "$(tui_screen | tail -2)"
form_for h200
type_order 8 24 5
tui_wait 'The market is not open yet' || fail "the preview warns: market not open" "$(tui_screen)"
tui_keys Enter
sleep 1
form=$(tui_screen | cut -c1-37 | flat)
expect_match "pre-open: the opening time and what still works" "$form" \
  'The market is not open yet: it opens on 2030-01-01 09:00 UTC\. No order can be placed before then'
expect_eq "pre-open: no confirmation offered" "$(tui_screen | grep -c 'Place this order')" 0
expect_eq "pre-open: no order" "$(n_orders)" 0

# ---- the connection dropped right after the exchange committed the order:
# exactly one order, shown once --------------------------------------------------------
URL=$MAIN_URL
KEY=$(new_account "$URL" buyer 500000)
rm -f "$TMPD/fport" "$TMPD/flog"
"$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --upstream "$URL" \
  --log "$TMPD/flog" --mode reset-order --times 1 2>>"$TMPD/faultd.err" &
FPID=$!
at_exit "kill $FPID 2>/dev/null"
wait_for test -s "$TMPD/fport" || fail "faultd starts"
FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
open_tui "$FURL" "$KEY"
form_for h100-sxm
type_order 2 3 4
tui_wait 'Total +€' || fail "preview through faultd" "$(tui_screen)"
tui_keys Enter
tui_wait 'Place this order\?' || fail "confirmation through faultd" "$(tui_screen)"
tui_keys y y Enter
tui_wait 'Order placed' || fail "the result after the reset" "$(tui_screen)"
res=$(dialog_text)
expect_match "reset after commit: filled" "$res" 'Filled: order [0-9]+, 2 × H100 SXM GPUs for 3 h'
expect_match "reset after commit: says it was placed once" "$res" 'the exchange already had this order'
expect_eq "reset after commit: faultd saw the same client order id twice" \
  "$(grep '^POST /v1/orders ' "$TMPD/flog" | sed -E 's/.*"client_order_id": ?"([^"]+)".*/\1/' | sort | uniq -c | awk '{print $1}')" 2
expect_eq "reset after commit: exactly one order" "$(n_orders)" 1
tui_keys o
tui_wait 'H100 SXM +buy +filled' || fail "the order in the orders page" "$(tui_screen)"
expect_eq "reset after commit: shown once" "$(tui_screen | grep -c 'H100 SXM')" 1
tui_keys q
tui_wait 'EXIT=0' && ok "q quits from the orders page" || fail "quit" "$(tui_screen | tail -3)"
finish
