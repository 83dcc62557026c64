#!/bin/bash
# A saved key belongs to the exchange it was saved for. gpux signup on
# exchange A saves its key with A's URL; pointing gpux at another exchange
# (--api, GPUX_API) sends no Authorization there — a throwaway listener
# (tests/tools/faultd, proxying to exchange B, logging whether each request
# carried the header) sees none —, while a key given with --key, --key-file
# or GPUX_API_KEY is used as given. A second signup, on B, goes to a profile
# of its own ([127.0.0.1-PORT]); --profile, GPUX_PROFILE and `profile =` pick
# one; a profile the file lacks is an error; the TUI on a new exchange
# without a key opens the welcome screen.
. "$(dirname "$0")/../lib.sh"

ADMIN=test-admin-key-0123456789abcdef
printf '%s\n' "$ADMIN" >"$TMPD/admin.key"
chmod 600 "$TMPD/admin.key"
CONF="$XDG_CONFIG_HOME/gpux/config"
g() { "$GPUX" "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null; rc=$?; return $rc; }

start_gpuxd --quiet --admin-key-file "$TMPD/admin.key" --market open || finish
A=$GPUXD_URL
start_gpuxd --quiet --admin-key-file "$TMPD/admin.key" --market open || finish
B=$GPUXD_URL
B_PORT=$GPUXD_PORT

# the listener: every request to it is logged, with whether it carried an
# Authorization header (never its value), and passed on to exchange B
"$GPUX_BUILD/tests/faultd" --listen 127.0.0.1:0 --port-file "$TMPD/lport" --log "$TMPD/llog" \
  --mode proxy --upstream "127.0.0.1:$B_PORT" 2>"$TMPD/faultd.err" &
at_exit "kill $! 2>/dev/null"
wait_for test -s "$TMPD/lport" || fail "the listener starts" "$(cat "$TMPD/faultd.err")"
L="http://127.0.0.1:$(cat "$TMPD/lport")"

g signup --api "$A" --email ana@example.pt --country PT --currency EUR --role buyer --yes
expect_eq "signup on exchange A: exit 0" "$rc" 0
KEY=$(sed -n 's/^key = //p' "$CONF")
expect_match "... its key is saved" "$KEY" '^gpux_[0-9a-f]{64}$'
expect_eq "... beside A's URL" "$(sed -n 's/^api = //p' "$CONF")" "$A"
g account
expect_eq "gpux account uses it on A" "$rc:$(grep -c ana@example.pt "$TMPD/out")" "0:1"

# ---- the key never goes to another exchange -------------------------------------------
auth_lines() { grep -c "^AUTHORIZATION $1" "$TMPD/llog" 2>/dev/null; }
g --api "$L" quotes
expect_eq "gpux --api OTHER quotes: exit 0 (public data)" "$rc" 0
g --api "$L" account
expect_eq "gpux --api OTHER account: refused, there is no key for it (exit 1)" "$rc" 1
GPUX_API=$L g orders
expect_eq "GPUX_API=OTHER gpux orders: refused too (exit 1)" "$rc" 1
GPUX_API=$L g deposit 10
expect_match "the other exchange got requests" "$(grep -c '^GET ' "$TMPD/llog")" '^[3-9]'
expect_eq "... and not one of them carried an Authorization header" "$(auth_lines yes)" 0
expect_eq "... the key is nowhere in what it received" "$(grep -c "$KEY" "$TMPD/llog")" 0
: >"$TMPD/llog"
g --api "$L" --key "$KEY" account
expect_eq "--key KEY is used as given, on any exchange" "$(auth_lines yes)" 1
printf '%s\n' "$KEY" >"$TMPD/k" && chmod 600 "$TMPD/k"
g --api "$L" --key-file "$TMPD/k" account
expect_eq "--key-file too" "$(auth_lines yes)" 2
GPUX_API=$L GPUX_API_KEY=$KEY g account
expect_eq "GPUX_API_KEY too" "$(auth_lines yes)" 3
g --api "$A/" account
expect_eq "A's URL spelt with a trailing / is A: its key is used (exit 0)" "$rc" 0
g --api "$(printf '%s' "$A" | sed 's/127\.0\.0\.1/127.0.0.1/; s/^http/HTTP/')" account
expect_eq "... and with the scheme in capitals" "$rc" 0

# ---- a second exchange: a profile of its own -------------------------------------------
before=$(cat "$CONF")
g signup --api "$B" --email bea@example.pt --country DE --currency EUR --role seller --yes
expect_eq "signup on exchange B (the file holds A's key): exit 0" "$rc" 0
expect_match "... the key went to a profile named after B" "$(cat "$TMPD/out")" \
  "saved in $CONF as profile \[127\.0\.0\.1-$B_PORT\]"
expect_eq "... A's lines are as they were" "$(head -n "$(printf '%s\n' "$before" | wc -l)" "$CONF")" "$before"
expect_eq "... B's profile holds B's URL" \
  "$(sed -n "/^\[127\.0\.0\.1-$B_PORT\]/,\$p" "$CONF" | sed -n 's/^api = //p')" "$B"
KEYB=$(sed -n "/^\[127\.0\.0\.1-$B_PORT\]/,\$p" "$CONF" | sed -n 's/^key = //p')
expect_match "... and B's key" "$KEYB" '^gpux_[0-9a-f]{64}$'
check "... which is not A's" test "$KEYB" != "$KEY"
expect_eq "the config file is still mode 600" "$(stat -c %a "$CONF")" 600
g --api "$B" account --format json
expect_eq "gpux --api B account: B's key, B's account" "$rc:$(jq -r '.[0].email' "$TMPD/out")" "0:bea@example.pt"
g --profile "127.0.0.1-$B_PORT" account --format json
expect_eq "gpux --profile B account: the same" "$rc:$(jq -r '.[0].email' "$TMPD/out")" "0:bea@example.pt"
GPUX_PROFILE="127.0.0.1-$B_PORT" g account --format json
expect_eq "GPUX_PROFILE=B gpux account: the same" "$(jq -r '.[0].email' "$TMPD/out")" "bea@example.pt"
g account --format json
expect_eq "gpux account without a profile: A's account" "$(jq -r '.[0].email' "$TMPD/out")" "ana@example.pt"
: >"$TMPD/llog"
g --api "$L" --profile "127.0.0.1-$B_PORT" account
expect_eq "--profile B with --api OTHER: B's key is not sent to OTHER" "$rc:$(auth_lines yes)" "1:0"
g --profile nosuch account
expect_eq "--profile that the file does not have: exit 1" "$rc" 1
expect_match "... saying so" "$(cat "$TMPD/err")" "there is no profile \[nosuch\] in $CONF"
printf 'profile = 127.0.0.1-%s\n%s\n' "$B_PORT" "$(cat "$CONF")" >"$CONF.new" && mv "$CONF.new" "$CONF"
chmod 600 "$CONF"
g account --format json
expect_eq "profile = B at the top of the file: B by default" "$(jq -r '.[0].email' "$TMPD/out")" "bea@example.pt"
g --api "$A" account --format json
expect_eq "... and --api A still finds A's key" "$(jq -r '.[0].email' "$TMPD/out")" "ana@example.pt"
printf '[Bad Name]\napi = x\n' >>"$CONF"
g account
expect_eq "a malformed profile line: exit 1" "$rc" 1
expect_match "... naming the line, not quoting it" "$(cat "$TMPD/err")" "line [0-9]+: a profile is a line \[NAME\]"
sed -i '/^\[Bad Name\]/,$d' "$CONF"

# ---- the TUI on a new exchange without a key: the welcome screen ------------------------
start_gpuxd --quiet --admin-key-file "$TMPD/admin.key" || finish
C=$GPUXD_URL
tui_start 100 30 env GPUX_API="$C" "$GPUX"
if tui_wait 'Welcome|Bem-vindo'; then ok "the TUI on an exchange it has no key for opens the welcome screen"
else fail "the TUI on an exchange it has no key for opens the welcome screen" "$(tui_screen | head -5)"; fi
finish
