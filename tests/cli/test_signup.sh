#!/bin/bash
# A new user on a real exchange (gpuxd without --demo), from the terminal:
# gpux signup with flags writes the key to a 0600 config file and `gpux
# account` then works with no --key; every bad field is refused with nothing
# created; an address already registered, a key already saved, an exchange
# that cannot be reached, one killed during the signup; the interactive
# signup in a real terminal (tmux) in English and Portuguese; gpux keys:
# a read-only key refused for an order and allowed for gpux orders, a revoked
# key refused, the last trade key kept; the opening time and the top-up
# instructions in gpux account and gpux deposit.
. "$(dirname "$0")/../lib.sh"

ADMIN=test-admin-key-0123456789abcdef
printf '%s\n' "$ADMIN" >"$TMPD/admin.key"
chmod 600 "$TMPD/admin.key"
TOPUP="Bank transfer to PT50 0002 0123 1234 5678 9015 4, reference: your account id"
start_gpuxd --quiet --admin-key-file "$TMPD/admin.key" --opens-at 2027-09-01T09:00:00Z \
  --topup-text "$TOPUP" --topup-url "https://pay.example.com/top-up" || finish
export TZ=Europe/Lisbon   # 09:00 UTC on 1 September 2027 is 10:00 in Lisbon (WEST)
CONF="$XDG_CONFIG_HOME/gpux/config"
ALL="$TMPD/all-output"   # every byte gpux prints, to check the key is never in it
g() { "$GPUX" --lang "${L:-en}" "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null; rc=$?; cat "$TMPD/out" "$TMPD/err" >>"$ALL"; return $rc; }
accounts() { sqlite3 -readonly "$GPUXD_DB" "SELECT count(*) FROM accounts WHERE kind = 'customer'"; }
admin() { curl -s -X POST -H "Authorization: Bearer $ADMIN" "$GPUXD_URL$1" --data-binary "$2"; }

# ---- bad fields: a clear error, nothing created, no config file ----------------------------
n0=$(accounts)
bad() { # description, expected message (regex), flags...
  d=$1 m=$2; shift 2
  g signup --api "$GPUXD_URL" "$@"
  expect_eq "$d: exit 2" "$rc" 2
  expect_match "$d: says why" "$(cat "$TMPD/err")" "$m"
}
OK_FLAGS="--email ana@example.pt --country PT --currency EUR --role buyer --yes"
bad "an e-mail without @" 'signup: "ana.example.pt" is not an e-mail address: it needs a name, an @ and a domain' \
  --email ana.example.pt --country PT --currency EUR --role buyer --yes
bad "an e-mail with a space" 'must not contain spaces' --email "ana @example.pt" --country PT --currency EUR --role buyer --yes
bad "an unknown country" '"XX" is not a country of this exchange.s VAT table; accepted: .*PT' \
  --email ana@example.pt --country XX --currency EUR --role buyer --yes
bad "a currency the exchange does not offer" 'the exchange does not offer "JPY"; accepted: EUR, USD, GBP' \
  --email ana@example.pt --country PT --currency JPY --role buyer --yes
bad "an unknown role" '"admin" is not a role; accepted: buyer, seller, both' \
  --email ana@example.pt --country PT --currency EUR --role admin --yes
bad "not on a terminal, a field missing" 'every field is needed as a flag: missing --currency, --role' \
  --email ana@example.pt --country PT
bad "not on a terminal, without --yes" 'add --yes' --email ana@example.pt --country PT --currency EUR --role buyer
g signup $OK_FLAGS
expect_eq "no exchange given: exit 2 (the local demo exchange has its account)" "$rc" 2
expect_match "... saying which flag" "$(cat "$TMPD/err")" "which exchange\? Give --api URL"
g signup --api http://127.0.0.1:1 $OK_FLAGS
expect_eq "an exchange that cannot be reached: exit 1" "$rc" 1
expect_match "... nothing was created" "$(cat "$TMPD/err")" "nothing was created"
expect_eq "none of them created an account" "$(accounts)" "$n0"
check "... or a config file" test ! -e "$CONF"

# ---- signup with flags ---------------------------------------------------------------------------
g signup --api "$GPUXD_URL" $OK_FLAGS
expect_eq "signup with flags: exit 0" "$rc" 0
out=$(cat "$TMPD/out")
expect_match "it says the account was created, with the VAT rate" "$out" "^Account [0-9]+ created on 127\.0\.0\.1:[0-9]+: ana@example\.pt, PT \(VAT 23(\.00)?%\), EUR, buyer\.$"
expect_match "... where the key is" "$out" "saved in $CONF, readable only by you"
expect_match "... how to top up" "$out" "To top up: Bank transfer to PT50"
expect_match "... and when the market opens, in the user's time zone" "$out" "Trading opens on 1 September 2027 at 10:00\."
expect_eq "the config file is mode 600" "$(stat -c %a "$CONF")" 600
expect_eq "... its directory 700" "$(stat -c %a "$(dirname "$CONF")")" 700
expect_match "... it holds the key" "$(grep '^key = ' "$CONF")" '^key = gpux_[0-9a-f]{64}$'
expect_eq "... and names the exchange" "$(grep '^api = ' "$CONF")" "api = $GPUXD_URL"
expect_eq "... and no temporary file is left beside it" "$(ls -A "$(dirname "$CONF")")" "config"
KEY=$(sed -n 's/^key = //p' "$CONF")
expect_eq "the key is not printed" "$(grep -c "$KEY" "$ALL")" 0
expect_eq "the exchange has the account" "$(accounts)" "$((n0 + 1))"

g account
expect_eq "gpux account with no --api and no --key: exit 0" "$rc" 0
expect_match "... it is the new account" "$(cat "$TMPD/out")" "ana@example\.pt"
expect_match "... before the opening it says when trading opens" "$(cat "$TMPD/out")" "Market +Trading opens on 1 September 2027 at 10:00\."
expect_match "... and how to top up" "$(cat "$TMPD/out")" "Top up +Bank transfer to PT50"
expect_match "... with the link" "$(cat "$TMPD/out")" "https://pay\.example\.com/top-up"
g account --format csv
expect_eq "account csv: market_state and opens_at (UTC)" \
  "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["market_state"], $c["opens_at"], $c["topup_url"] }' "$TMPD/out")" \
  "pre_open 2027-09-01T09:00:00Z https://pay.example.com/top-up"
L=pt-PT g account
expect_match "gpux account in Portuguese: the date in words" "$(cat "$TMPD/out")" "1 de setembro de 2027 às 10:00"
TZ=UTC g account
expect_match "... in the user's time zone: UTC gives 09:00" "$(cat "$TMPD/out")" "1 September 2027 at 09:00"

g deposit 50
expect_eq "gpux deposit on a real exchange: exit 1" "$rc" 1
expect_match "... it prints the operator's instructions" "$(cat "$TMPD/out")" "real payments.*|To top up: Bank transfer to PT50"
expect_match "... and the link" "$(cat "$TMPD/out")" "Top up at: https://pay\.example\.com/top-up"
expect_match "... and says nothing was deposited" "$(cat "$TMPD/err")" "nothing was deposited"
g deposit
expect_eq "gpux deposit without an amount on a real exchange: the same instructions" "$rc $(grep -c 'To top up' "$TMPD/out")" "1 1"

# ---- a second signup: the address, the key already saved -----------------------------------------
before=$(cat "$CONF")
g signup --api "$GPUXD_URL" --email bob@example.pt --country DE --currency EUR --role seller --yes
expect_eq "a config file that holds a key: refused (exit 1)" "$rc" 1
expect_match "... it says so, and how to replace it" "$(cat "$TMPD/err")" "already holds an API key.*--force.*nothing was created"
expect_eq "... nothing created" "$(accounts)" "$((n0 + 1))"
expect_eq "... the config file untouched" "$(cat "$CONF")" "$before"
g signup --api "$GPUXD_URL" --email ANA@example.pt --country PT --currency EUR --role buyer --yes --force
expect_eq "an address already registered: exit 1" "$rc" 1
expect_match "... in plain words" "$(cat "$TMPD/err")" "ANA@example\.pt has an account on this exchange already"
expect_eq "... the config file untouched" "$(cat "$CONF")" "$before"
HOME2="$TMPD/home2"; mkdir -p "$HOME2"
XDG_CONFIG_HOME="$HOME2/.config" g signup --api "$GPUXD_URL" --email bob@example.pt --country DE \
  --currency GBP --role seller --yes --show-key --format json
expect_eq "--show-key --format json: exit 0" "$rc" 0
expect_eq "... the key printed is the one saved" "$(jq -r '.[0].api_key' "$TMPD/out")" \
  "$(sed -n 's/^key = //p' "$HOME2/.config/gpux/config")"
expect_eq "... with the account's fields" "$(jq -c '.[0] | [.country, .currency, .role, .vat_rate_bp]' "$TMPD/out")" '["DE","GBP","seller",1900]'

# ---- gpux keys -----------------------------------------------------------------------------------
admin /v1/admin/market '{"state":"open"}' >/dev/null
ACC=$(sqlite3 -readonly "$GPUXD_DB" "SELECT id FROM accounts WHERE email = 'ana@example.pt'")
admin /v1/deposits "{\"account_id\":$ACC,\"amount_minor\":100000,\"reference\":\"signup-1\"}" >/dev/null
g keys list --format json
expect_eq "keys list: one trade key, named default, the one in use" "$(jq -c '[.[] | [.scope, .name, .current]]' "$TMPD/out")" '[["trade","default",true]]'
g keys create --read-only --name ci --save "$TMPD/ci.key"
expect_eq "keys create --read-only --save: exit 0" "$rc" 0
expect_match "... it says where the key went" "$(cat "$TMPD/out")" "^Key [0-9]+ \(ci, read-only\) created and written to $TMPD/ci\.key \(mode 0600\)\.$"
expect_eq "... the file is mode 600" "$(stat -c %a "$TMPD/ci.key")" 600
RK=$(cat "$TMPD/ci.key")
expect_match "... and holds the key" "$RK" '^gpux_[0-9a-f]{64}$'
expect_eq "... which is not printed" "$(grep -c "$RK" "$ALL")" 0
g keys create --save "$TMPD/ci.key"
expect_eq "--save never writes over a file" "$rc $(cat "$TMPD/ci.key")" "1 $RK"
g keys list --format csv
expect_eq "... and a key it could not save is revoked again" "$(tail -n +2 "$TMPD/out" | wc -l)" 2
RID=$(awk -F, '$2 == "ci" { print $1 }' "$TMPD/out")
GPUX_API_KEY=$RK g orders
expect_eq "a read-only key lists the orders (gpux orders)" "$rc" 0
GPUX_API_KEY=$RK g order buy h200 --gpus 1 --hours 1 --limit 0.5 --yes
expect_eq "... but an order is refused: exit 1" "$rc" 1
expect_match "... by the exchange, 403 KEY_SCOPE" "$(cat "$TMPD/err")" "KEY_SCOPE"
expect_eq "... and nothing was placed" "$(sqlite3 -readonly "$GPUXD_DB" "SELECT count(*) FROM orders WHERE account = $ACC")" 0
g order buy h200 --gpus 1 --hours 1 --limit 0.5 --yes
expect_eq "once the operator credited the top-up, the signup's key places an order: exit 0" "$rc" 0
expect_eq "... it rests on the book" "$(sqlite3 -readonly "$GPUXD_DB" "SELECT count(*) FROM orders WHERE account = $ACC AND status = 'open'")" 1
L=pt-PT GPUX_API_KEY=$RK g cancel "$(sqlite3 -readonly "$GPUXD_DB" "SELECT id FROM orders WHERE account = $ACC")"
expect_match "... nor a cancel, said in the user's language" "$rc $(cat "$TMPD/err")" "^1 .*esta chave da API é só de leitura"
GPUX_API_KEY=$RK g keys revoke "$RID"
expect_match "a read-only key cannot revoke keys" "$rc $(cat "$TMPD/err")" "^1 .*read-only key"
g keys revoke "$RID"
expect_eq "keys revoke: exit 0" "$rc" 0
expect_match "... it says the key no longer works" "$(cat "$TMPD/out")" "^Key $RID \(ci\) is revoked: it no longer works\.$"
GPUX_API_KEY=$RK g orders
expect_eq "the revoked key is refused at once" "$rc" 1
expect_match "... with 401" "$(cat "$TMPD/err")" "401|UNAUTHORIZED"
GPUX_API_KEY=$RK g account
expect_match "... and gpux account says the key is unknown or revoked" "$(cat "$TMPD/err")" "does not know this API key, or it was revoked"
g keys list --format csv
TID=$(awk -F, '$3 == "trade" { print $1 }' "$TMPD/out")
g keys revoke "$TID"
expect_eq "the last trade key cannot be revoked: exit 1" "$rc" 1
expect_match "... it says why and what to do" "$(cat "$TMPD/err")" "last trade key, so it stays: create another first"
g account
expect_eq "... and still works" "$rc" 0
g keys revoke abc
expect_eq "keys revoke abc: exit 2" "$rc" 2
g keys frobnicate
expect_match "an unknown keys subcommand: exit 2, what is accepted" "$rc $(cat "$TMPD/err")" "^2 .*accepted: list, create, revoke ID"
g keys list --read-only
expect_eq "--read-only outside create: exit 2" "$rc" 2
expect_eq "the key was never printed by any of these" "$(grep -c "$KEY" "$ALL")" 0

# ---- the answer lost after the exchange created the account (tests/tools/faultd) --------------
"$GPUX_BUILD/tests/faultd" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --upstream "${GPUXD_URL#http://}" \
  --mode reset-signup --log "$TMPD/flog" 2>>"$TMPD/faultd.err" &
FPID=$!; at_exit "kill $FPID 2>/dev/null"
wait_for test -s "$TMPD/fport" || fail "faultd starts"
FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
HOME3="$TMPD/home3"; mkdir -p "$HOME3"
n=$(accounts)
XDG_CONFIG_HOME="$HOME3/.config" g signup --api "$FURL" --email fred@example.pt --country PT \
  --currency EUR --role buyer --yes
expect_eq "the answer to the signup lost: exit 1" "$rc" 1
expect_match "... gpux says the account may exist" "$(cat "$TMPD/err")" "may have created the account without gpux hearing back"
expect_eq "... (it does: the exchange committed it)" "$(accounts)" "$((n + 1))"
check "... and no config file was written" test ! -e "$HOME3/.config/gpux/config"
expect_eq "... nor a temporary file" "$(ls -A "$HOME3/.config/gpux" 2>/dev/null)" ""
expect_match "... the signup was sent once (never retried)" "$(grep -c '^POST /v1/accounts' "$TMPD/flog")" "^1$"
XDG_CONFIG_HOME="$HOME3/.config" g signup --api "$GPUXD_URL" --email fred@example.pt --country PT \
  --currency EUR --role buyer --yes
expect_match "signing up again says the address is registered" "$rc $(cat "$TMPD/err")" "^1 .*fred@example.pt has an account on this exchange already"
kill "$FPID" 2>/dev/null

# ---- a configured exchange, no key ----------------------------------------------------------------
mkdir -p "$TMPD/home4/.config/gpux"
printf 'api = %s\n' "$GPUXD_URL" >"$TMPD/home4/.config/gpux/config"
XDG_CONFIG_HOME="$TMPD/home4/.config" g account
expect_eq "gpux account with no key: exit 1" "$rc" 1
expect_match "... it points to gpux signup" "$(cat "$TMPD/err")" "no API key is configured: open an account with gpux signup"

# ---- the interactive signup in a real terminal --------------------------------------------------
term() { # LANG-TAG HOME-DIR: gpux signup in tmux, the pane kept after it exits
  tmx kill-server 2>/dev/null
  mkdir -p "$2"
  tui_start 110 40 env HOME="$2" XDG_CONFIG_HOME="$2/.config" TZ=Europe/Lisbon LANG=C.UTF-8 \
    sh -c "'$GPUX' --lang $1 signup --api '$GPUXD_URL'; echo \"rc=\$?\"; sleep 60"
}
term en "$TMPD/t-en"
check "a terminal: it asks for the e-mail address" tui_wait "E-mail address:"
tui_keys "carla.example.pt" Enter
check "... a bad address is refused as it is given" tui_wait 'is not an e-mail address'
tui_keys "carla@example.pt" Enter
check "... then the country" tui_wait "Country, two letters"
tui_keys "zz" Enter
check "... an unknown country is refused, listing the accepted ones" tui_wait '"zz" is not a country of this exchange.s VAT table; accepted: AT'
tui_keys "p" Tab
check "... Tab lists the country codes that fit" tui_wait "^PL +PT *$"
tui_keys C-u "pt" Enter
check "... it shows the VAT rate that will apply" tui_wait "PT: VAT of 23(\.00)?% is added to what you buy"
check "... the currency, the euro offered first for Portugal" tui_wait 'Currency \(EUR, USD, GBP\) \[EUR\]'
tui_keys Enter
check "... the role" tui_wait "Role: buyer, seller or both"
tui_keys "both" Enter
check "... a summary and a question" tui_wait "Create this account\? \[y/N\]"
tui_keys "y" Enter
check "... the account is created" tui_wait "Account [0-9]+ created on .*carla@example.pt, PT .*EUR, buyer and seller\."
check "... it says when the market opens" tui_wait "The market is open\.|Trading opens"
check "... exit 0" tui_wait "rc=0"
expect_eq "... the key is in the config file, mode 600" "$(stat -c %a "$TMPD/t-en/.config/gpux/config")" 600
expect_eq "... not on the screen" "$(tui_screen | grep -c gpux_)" 0

term pt-PT "$TMPD/t-pt"
check "pt-PT: it asks in Portuguese" tui_wait "Endereço de e-mail:"
tui_keys "dora@example.pt" Enter
tui_wait "País, duas letras" && tui_keys "xx" Enter
check "pt-PT: an unknown country, in Portuguese" tui_wait '«xx» não é um país'
tui_keys "PT" Enter
check "pt-PT: the VAT rate" tui_wait "IVA de 23"
tui_wait "Moeda \(" && tui_keys Enter
tui_wait "Papel:" && tui_keys "cliente" Enter
check "pt-PT: an unknown role is refused, listing the roles in Portuguese" tui_wait '«cliente» não é um papel; aceites: comprador, vendedor, ambos'
tui_keys "comprador" Enter
check "pt-PT: the question" tui_wait "Criar esta conta\? \[y/N\]"
tui_keys "s" Enter
check "pt-PT: created" tui_wait "Conta [0-9]+ criada em"
check "pt-PT: exit 0" tui_wait "rc=0"

# the exchange killed while the user answers: nothing created, no config written
term en "$TMPD/t-kill"
tui_wait "E-mail address:" && tui_keys "eva@example.pt" Enter
tui_wait "Country, two letters" && tui_keys "PT" Enter
tui_wait "Currency \(" && tui_keys Enter
tui_wait "Role:" && tui_keys "buyer" Enter
check "killed during signup: at the question" tui_wait "Create this account\?"
n=$(accounts)
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
tui_keys "y" Enter
check "... gpux says nothing was created" tui_wait "nothing was created|is as it was"
check "... exit 1" tui_wait "rc=1"
check "... and no config file was written" test ! -e "$TMPD/t-kill/.config/gpux/config"
check "... nor any temporary file" test ! -d "$TMPD/t-kill/.config/gpux" -o -z "$(ls -A "$TMPD/t-kill/.config/gpux" 2>/dev/null)"
GPUXD_DB_KEEP=$GPUXD_DB start_gpuxd --quiet || finish
expect_eq "... and the exchange has no account for it" "$(accounts)" "$n"
finish
