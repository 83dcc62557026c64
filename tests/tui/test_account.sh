#!/bin/sh
# The TUI's account and rentals pages in a real terminal: the real gpux in
# tmux at 80×24, keyboard only, against a real gpuxd --demo. A smoke run:
# each page opens and shows its account and its rentals; what the pages say
# cell by cell (the ledger, deposits, rentals updating live and stopped
# early, a bad key, the sell form, pt-PT prices) is checked in the screen
# harness, tests/unit/test_account_pages.c.
. tests/lib.sh

# the clock at 1/1000: nothing is billed while the test runs
start_gpuxd --demo --quiet --clock-speed 0.001 || finish
URL=$GPUXD_URL

cat >"$TMPD/gpux-run" <<EOF2
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF2
chmod +x "$TMPD/gpux-run"

KEY=$(curl -sS -X POST "$URL/v1/accounts" \
  -d '{"email":"acct@example.pt","country":"PT","currency":"EUR","role":"buyer"}' | jq -r .api_key)
curl -sS -X POST -H "Authorization: Bearer $KEY" "$URL/v1/deposits" -d '{"amount_minor":500000}' >/dev/null
r1=$(curl -sS -X POST -H "Authorization: Bearer $KEY" "$URL/v1/orders" \
  -d '{"client_order_id":"t-smoke-1","gpu":"h100-sxm","side":"buy","type":"market","gpus":2,"hours":3,"max_price_cents":400,"time_in_force":"ioc"}' |
  jq -r .fills[0].rental_id)

tui_start 80 24 env NO_COLOR=1 LANG=C.UTF-8 GPUX_API_KEY="$KEY" "$TMPD/gpux-run" --api "$URL"
tui_wait 'H200|B300' || { fail "the tables appear" "$(tui_screen)"; finish; }

# ---- the account page ---------------------------------------------------------------------------
tui_keys a
tui_wait 'Account [0-9]+ · acct@example\.pt · buyer' && ok "a: the account page names the account" ||
  fail "account page" "$(tui_screen)"
expect_match "the account page: the available balance" "$(tui_screen)" 'Available +€[0-9,.]+'

# ---- the rentals page ---------------------------------------------------------------------------
tui_keys R
tui_wait "^ +$r1 +H100 SXM +2 +o[0-9]+-1 \(2/8\) +eu-west +active +1/3 +2" && ok "R: the rental with hours used and left" ||
  fail "rentals page" "$(tui_screen)"
tui_keys Escape
tui_wait 'H200 Hopper' && ok "Esc goes back to the tables" || fail "Esc from rentals" "$(tui_screen)"
tui_keys q
tui_wait 'EXIT=0' && ok "q quits" || fail "quit" "$(tui_screen | tail -3)"
finish
