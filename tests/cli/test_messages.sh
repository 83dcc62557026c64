#!/bin/bash
# The words of the exchange commands where they used to mislead: a pre-open
# market says when trading opens (in the user's language and time zone); a
# cancel or stop that comes too late says why in one sentence; a bad deposit
# quotes the amount once; a cancel says how much had filled, in plural forms;
# empty listings say there are none (on stderr); table and fit name the demo
# exchange and that prices are before tax; unknown config settings are warned.
. "$(dirname "$0")/../lib.sh"

err_of() { "$@" 2>&1 >/dev/null; }

# ---- a market that opens on 1 September 2027 at 09:00 UTC -------------------------------
start_gpuxd --demo --quiet --market pre_open --opens-at 2027-09-01T09:00:00Z || finish
acct=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"m@example.pt","country":"PT","currency":"EUR","role":"both"}')
export GPUX_API="$GPUXD_URL" GPUX_API_KEY=$(printf '%s' "$acct" | jq -r .api_key)
"$GPUX" deposit 1000 >/dev/null 2>&1
# a zone one hour east of UTC, named WEST (no tzdata needed): 09:00 UTC is 10:00 there
export TZ=WEST-1
e=$(err_of "$GPUX" order buy h200 --gpus 1 --hours 2 --limit 4 --yes)
expect_eq "order --yes before the opening: when trading opens, in local time" "$e" \
  "gpux: The market is not open yet: trading opens on 1 September 2027 at 10:00 WEST. No order can be placed before then; previews, top-ups and cancels work now. [MARKET_NOT_OPEN]"
"$GPUX" order buy h200 --gpus 1 --hours 2 --limit 4 --dry-run >/dev/null 2>&1
expect_eq "order --dry-run before the opening: exit 1" "$?" 1
e=$(err_of "$GPUX" --lang pt-PT order buy h200 --gpus 1 --hours 2 --limit 4 --dry-run)
expect_match "pt-PT: the opening in Portuguese words" "$e" "1 de setembro de 2027 às 10:00 WEST"
e=$(err_of "$GPUX" --lang de order buy h200 --gpus 1 --hours 2 --limit 4 --dry-run)
expect_match "de: the opening in German words" "$e" "1\. September 2027 um 10:00 WEST"
e=$(TZ=UTC0 err_of "$GPUX" --lang fr order buy h200 --gpus 1 --hours 2 --limit 4 --dry-run)
expect_match "fr, TZ=UTC0: 09:00 in French words" "$e" "1 septembre 2027 à 09:00 UTC"
expect_eq "no 'no opening time has been announced' when one has" \
  "$(printf '%s' "$e" | grep -c 'announced')" 0
unset TZ

# ---- deposit: the amount quoted once --------------------------------------------------------
e=$(err_of "$GPUX" deposit -5)
expect_eq "deposit -5: \"-5\" quoted once" "$(printf '%s' "$e" | grep -o '"-5"' | wc -l)" 1
expect_match "deposit -5: says why and what is accepted" "$e" '^gpux: deposit: "-5": .*; accepted: 0\.01 to 1,000,000,000 in your account'
e=$(err_of "$GPUX" deposit 0)
expect_match "deposit 0: out of range" "$e" '^gpux: deposit: "0" is out of range; accepted: 0\.01 to'

# ---- empty listings ---------------------------------------------------------------------------
out=$("$GPUX" orders --status open 2>"$TMPD/err")
expect_eq "orders --status open, none: exit 0" "$?" 0
expect_eq "orders --status open, none: no bare header on stdout" "$out" ""
expect_eq "orders --status open, none: says so on stderr" "$(cat "$TMPD/err")" "gpux: You have no open orders."
out=$("$GPUX" rentals --status active --format csv 2>"$TMPD/err")
expect_match "rentals --status active --format csv, none: the csv header stays" "$out" "^id,gpu,role,"
expect_eq "rentals --status active, none: says so on stderr" "$(cat "$TMPD/err")" "gpux: You have no active rentals."
expect_eq "orders --gpu h200 --format json, none: an empty array" "$("$GPUX" orders --gpu h200 --format json 2>/dev/null)" "[]"
expect_eq "rentals --gpu b200, none: names the GPU" "$(err_of "$GPUX" rentals --gpu b200)" "gpux: You have no rentals of B200 yet."
expect_eq "pt-PT: orders --status done, none" "$(err_of "$GPUX" --lang pt-PT orders --status done)" \
  "gpux: Não tem ordens terminadas."

# ---- cancels and stops that come too late: an open market with two accounts ----------------
printf 'admin-key-for-the-tests-0123456789\n' >"$TMPD/admin.key"
chmod 600 "$TMPD/admin.key"
start_gpuxd --quiet --market open --admin-key-file "$TMPD/admin.key" || finish
unset GPUX_API_KEY
export GPUX_API="$GPUXD_URL"
mkacct() { # email role → key (with 1000 EUR deposited by the operator)
  a=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" -d "{\"email\":\"$1\",\"country\":\"PT\",\"currency\":\"EUR\",\"role\":\"$2\"}")
  curl -sS -X POST "$GPUXD_URL/v1/deposits" -H "Authorization: Bearer admin-key-for-the-tests-0123456789" \
    -d "{\"account_id\":$(printf '%s' "$a" | jq .id),\"amount_minor\":100000,\"reference\":\"msg-$1\"}" >/dev/null
  printf '%s' "$a" | jq -r .api_key
}
SELLER=$(mkacct s@example.pt seller)
BUYER=$(mkacct b@example.pt buyer)
"$GPUX" --key "$SELLER" order sell h200 --gpus 1 --hours 4 --limit 5 --yes >/dev/null 2>&1
oid=$("$GPUX" --key "$BUYER" order buy h200 --gpus 2 --hours 4 --limit 5 --yes --format json 2>/dev/null | jq '.[0].id')
out=$("$GPUX" --key "$BUYER" cancel "$oid" 2>&1)
expect_eq "cancel, 1 of 2 filled: the count in plural" "$out" "Cancelled order $oid; 1 of its 2 GPUs had filled."
expect_eq "cancel again: one sentence, said once" "$(err_of "$GPUX" --key "$BUYER" cancel "$oid")" \
  "gpux: order $oid was cancelled already"
oid2=$("$GPUX" --key "$BUYER" order buy h200 --gpus 1 --hours 4 --limit 4 --yes --format json 2>/dev/null | jq '.[0].id')
expect_eq "cancel, nothing filled: no '0 of 1 GPUs'" "$("$GPUX" --key "$BUYER" cancel "$oid2" 2>&1)" \
  "Cancelled order $oid2; none of it had filled."
# the seller's order filled entirely: nothing is left to cancel
soid=$("$GPUX" --key "$SELLER" orders --format json 2>/dev/null | jq '.[0].id')
expect_eq "cancel of a filled order: says it is filled" "$(err_of "$GPUX" --key "$SELLER" cancel "$soid")" \
  "gpux: order $soid is filled: nothing of it is left to cancel"
e=$(err_of "$GPUX" --key "$SELLER" --lang pt-PT cancel "$soid")
expect_eq "pt-PT: the same, one sentence" "$(printf '%s' "$e" | grep -c "ordem $soid.*ordem $soid")" 0
rid=$("$GPUX" --key "$BUYER" rentals --format json 2>/dev/null | jq '.[0].id')
expect_match "the fill's line: 1 GPU, singular" \
  "$("$GPUX" --key "$SELLER" order sell h200 --gpus 1 --hours 4 --limit 5 --yes >/dev/null 2>&1; \
     "$GPUX" --key "$BUYER" order buy h200 --gpus 1 --hours 4 --limit 5 --yes 2>/dev/null)" \
  "fill: 1 GPU × 4 h at"
"$GPUX" --key "$BUYER" stop "$rid" >/dev/null 2>&1
expect_eq "stop again: one sentence, said once" "$(err_of "$GPUX" --key "$BUYER" stop "$rid")" \
  "gpux: rental $rid was stopped already"
rid2=$("$GPUX" --key "$BUYER" rentals --status active --format json 2>/dev/null | jq '.[0].id')
curl -sS -X POST "$GPUXD_URL/v1/admin/clock" -H "Authorization: Bearer admin-key-for-the-tests-0123456789" \
  -d '{"advance_seconds": 18000}' >/dev/null
expect_eq "stop of a rental that ran its hours: one sentence" "$(err_of "$GPUX" --key "$BUYER" stop "$rid2")" \
  "gpux: rental $rid2 has ended already: all its hours are used"
"$GPUX" --key "$SELLER" order sell h200 --gpus 1 --hours 1 --limit 5 --yes >/dev/null 2>&1
"$GPUX" --key "$BUYER" order buy h200 --gpus 1 --hours 1 --limit 5 --yes >/dev/null 2>&1
rid3=$("$GPUX" --key "$BUYER" rentals --status active --format json 2>/dev/null | jq '.[0].id')
expect_match "stop of a 1-hour rental: \"1 of 1 hour\", singular" "$("$GPUX" --key "$BUYER" stop "$rid3" 2>&1)" \
  "^Stopped rental $rid3: 1 of 1 hour billed \("
unset GPUX_API

# ---- table and fit on the local demo exchange: the same notes as quotes -----------------------
t=$("$GPUX" table training 2>/dev/null)
expect_match "table: prices per GPU-hour, before tax" "$t" "^Prices per GPU-hour, before tax\.$"
expect_match "table: names the local demo exchange" "$t" "^Local demo exchange: simulated money\.$"
f=$("$GPUX" fit 70 2>/dev/null)
expect_match "fit: prices and costs before tax" "$f" "^Prices per GPU-hour and costs, before tax\.$"
expect_match "fit: names the local demo exchange" "$f" "^Local demo exchange: simulated money\.$"
expect_eq "table --format csv: no note in the data" "$("$GPUX" table training --format csv 2>/dev/null | grep -c 'before tax')" 0
t=$("$GPUX" table training --api http://127.0.0.1:1 2>/dev/null)
expect_eq "table without prices: no price note" "$(printf '%s\n' "$t" | grep -c 'before tax')" 0

# ---- unknown config settings --------------------------------------------------------------------
mkdir -p "$XDG_CONFIG_HOME/gpux"
printf 'api = http://127.0.0.1:1\n# kye = commented out\nkye = gpux_123\nnonsense = 1\ncolumns.training = gpu,price\n' \
  >"$XDG_CONFIG_HOME/gpux/config"
chmod 600 "$XDG_CONFIG_HOME/gpux/config"
e=$(err_of "$GPUX" quotes)
expect_match "config: kye warned, with its line and the name meant" "$e" \
  "^gpux: $XDG_CONFIG_HOME/gpux/config, line 3: unknown setting \"kye\" is ignored; did you mean \"key\"\?$"
expect_match "config: an unknown name without a near one: the known names" "$e" \
  "line 4: unknown setting \"nonsense\" is ignored; known: api, key,"
expect_eq "config: known names and comments are not warned" "$(printf '%s\n' "$e" | grep -c 'line [125]:')" 0
rm -f "$XDG_CONFIG_HOME/gpux/config"

# ---- help ----------------------------------------------------------------------------------------------
expect_match "table --help: --filter matches the GPU id too, and takes expressions" \
  "$("$GPUX" --lang en table --help)" \
  "--filter EXPR .*words \\(id, name, vendor, architecture, a text column\\), COLUMN OP VALUE"
expect_match "--help: --api names the config file" "$("$GPUX" --lang en --help)" \
  "--api URL .*else api in the config file, else a local demo exchange"
finish
