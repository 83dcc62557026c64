#!/bin/sh
# The TUI's order form in a real terminal (tmux, 80×24, keyboard only)
# against a real gpuxd --demo: a smoke run (the form opens, one preview, one
# placed order) and the retry through tests/tools/faultd, which needs the
# fault server's request log. The form's lines, the confirmation, the pages
# after an order, cancels and refusals are checked cell by cell in
# tests/unit/test_order_flow.c.
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

# ---- smoke: buy 8 × H200 for 24 h at market: the preview, y, one order ---------
URL=$MAIN_URL
KEY=$(new_account "$URL" buyer 500000)
open_tui "$URL" "$KEY"
form_for h200
type_order 8 24 5
# docs/API.md's worked example: 8 × H200 × 24 h at US$4.19 with 23 % VAT
tui_wait 'Total +€912\.00' && ok "the preview: 8 × H200 × 24 h at market costs €912.00 with VAT" ||
  fail "preview total" "$(tui_screen)"
tui_keys Enter
tui_wait 'Place this order\?' || fail "Enter asks for confirmation" "$(tui_screen)"
tui_keys y
tui_wait 'Order placed' && ok "y places the order" || fail "the result appears" "$(tui_screen)"
# the orders page asks the exchange after the order was answered: once it shows
# the order, a second one the TUI had sent would be there too
tui_keys o
tui_wait 'H200 +buy +filled' || fail "the order in the orders page" "$(tui_screen)"
expect_eq "one order at the exchange" "$(n_orders)" 1
expect_eq "... shown once" "$(tui_screen | grep -cE 'H200 +buy')" 1

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
