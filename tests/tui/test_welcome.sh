#!/bin/sh
# The welcome screen in a real terminal (tmux, 100×30): gpux with an exchange
# URL and no key, against a real gpuxd in pre-open (not --demo), creates an
# account from the keyboard; the key lands in the config file, mode 0600,
# and is never on the screen; the next start goes straight to the tables.
. tests/lib.sh

start_gpuxd --quiet --opens-at 2027-09-01T08:00:00Z --topup-text "Bank transfer to PT50 0000" ||
  finish
URL=$GPUXD_URL
CONF="$XDG_CONFIG_HOME/gpux/config"

cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

tui_start 100 30 env NO_COLOR=1 LANG=C.UTF-8 TZ=CET-1CEST,M3.5.0,M10.5.0/3 \
  "$TMPD/gpux-run" --api "$URL"
tui_wait 'Welcome to gpux' && ok "no key on a real exchange: the welcome screen" ||
  fail "welcome screen" "$(tui_screen)"
tui_screen | grep -q 'did not accept' && fail "no 'key refused' without a key" ||
  ok "no 'key refused' without a key"
tui_keys c
tui_wait 'E-mail address:' || fail "the signup form" "$(tui_screen)"
tui_keys -l 'ana@example'
tui_wait 'is not an e-mail address' && ok "an e-mail without a domain is refused as typed" ||
  fail "e-mail checked as typed" "$(tui_screen)"
tui_keys -l '.pt'
tui_keys Tab
tui_keys -l 'pt'
tui_wait 'VAT of 23% is added' && ok "the country shows its VAT rate" || fail "VAT rate" "$(tui_screen)"
tui_wait 'Currency: EUR' && ok "the currency follows the country" || fail "currency" "$(tui_screen)"
tui_keys Tab Tab Enter
tui_wait 'Your account is ready' && ok "Enter on the last field creates the account" ||
  fail "account created" "$(tui_screen)"
tui_wait 'Bank transfer to PT50' && ok "then: the operator's top-up words" ||
  fail "top-up words" "$(tui_screen)"
tui_screen | tr -s ' \n' ' ' | grep -q 'Trading opens on 1 September 2027 at 10:00' &&
  ok "then: when trading opens" || fail "opening time" "$(tui_screen)"
key=$(sed -n 's/^key = //p' "$CONF")
[ -n "$key" ] && ok "the key is in the config file" || fail "key saved" "$(cat "$CONF" 2>&1)"
expect_eq "the config file is 0600" "$(stat -c %a "$CONF")" 600
tui_screen | grep -qF -- "${key:-no key}" && fail "the key is never on the screen" ||
  ok "the key is never on the screen"
tui_keys q
tui_wait 'EXIT=0' || fail "q quits" "$(tui_screen)"
tmx kill-server 2>/dev/null

# the next start: the key from the config file, the tables at once
TMUX_SOCK="$TMPD/tmux-2.sock"
tui_start 100 30 env NO_COLOR=1 LANG=C.UTF-8 "$TMPD/gpux-run"
tui_wait 'H200|B300' && ok "the next start opens the tables" || fail "tables" "$(tui_screen)"
tui_screen | grep -q 'Welcome to gpux' && fail "no welcome once a key is saved" ||
  ok "no welcome once a key is saved"
tui_keys a
tui_wait 'ana@example\.pt' && ok "the account page with the saved key" ||
  fail "account page" "$(tui_screen)"
finish
