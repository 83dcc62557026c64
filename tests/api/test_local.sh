#!/bin/bash
# The embedded default: with no exchange configured gpux starts a local demo
# gpuxd (Unix socket under $XDG_RUNTIME_DIR, database under $XDG_DATA_HOME),
# opens a demo account, and reuses both afterwards; and the config file's
# rules (key = value, refused when a key is readable by others). HOME and the
# XDG directories are the test's own (tests/lib.sh), starting empty.
. "$(dirname "$0")/../lib.sh"
DATA="$XDG_DATA_HOME/gpux"
RUN=""   # the data directory's own runtime directory, $XDG_RUNTIME_DIR/gpux/d-HASH
local_pids() { pgrep -f -- "--socket $RUN/gpuxd.sock" | sort; }

check "nothing there yet" test ! -e "$XDG_RUNTIME_DIR/gpux" -a ! -e "$DATA"
"$GPUX" quotes >"$TMPD/out" 2>"$TMPD/err"
expect_eq "gpux quotes from nothing: exit 0" "$?" 0
RUN=$(ls -d "$XDG_RUNTIME_DIR"/gpux/d-*)
expect_match "one runtime directory for this data directory" "$RUN" "^$XDG_RUNTIME_DIR/gpux/d-[0-9a-f]{16}\$"
# docs/API.md demo market: best asks at start are the seed pages' prices
expect_match "gpux quotes from nothing: the demo market's H200 at \$4.19" "$(grep '^h200 ' "$TMPD/out")" '\$4\.19'
expect_match "gpux quotes from nothing: says it is the local demo exchange" "$(cat "$TMPD/err")" '^gpux: local demo exchange'
expect_match "the table says so too" "$(tail -1 "$TMPD/out")" 'Local demo exchange'
pid=$(cat "$DATA/gpuxd.pid" 2>/dev/null)
check "a gpuxd is running (pid $pid)" kill -0 "$pid"
expect_eq "exactly one local gpuxd" "$(local_pids)" "$pid"
expect_eq "its socket is private (0600)" "$(stat -c %a "$RUN/gpuxd.sock")" 600
expect_eq "the runtime dir is private (0700)" "$(stat -c %a "$RUN")" 700
expect_eq "the demo key is private (0600)" "$(stat -c %a "$DATA/demo.key")" 600
check "the database is in the data dir" test -s "$DATA/demo.db"
check "no config file was written" test ! -e "$XDG_CONFIG_HOME/gpux/config"

"$GPUX" account --format json >"$TMPD/out" 2>/dev/null
expect_eq "reused: same gpuxd" "$(cat "$DATA/gpuxd.pid")" "$pid"
expect_eq "reused: still one gpuxd" "$(local_pids)" "$pid"
expect_eq "the demo account: US\$ 10,000.00, local" "$(jq -c '.[0] | [.available_minor, .currency, .local_demo]' "$TMPD/out")" '[1000000,"USD",true]'
acct=$(jq '.[0].id' "$TMPD/out")

# the issue's order, on the embedded default
"$GPUX" order buy h200 --gpus 8 --hours 24 --market --max-price 5 --dry-run --format json >"$TMPD/pv" 2>/dev/null
total=$(jq '.[0].total_minor' "$TMPD/pv")
"$GPUX" order buy h200 --gpus 8 --hours 24 --market --max-price 5 --yes >"$TMPD/out" 2>&1
expect_match "order buy h200 --market --yes: filled" "$(cat "$TMPD/out")" 'Filled: order [0-9]+, 8 × H200 GPUs for 24 h'
"$GPUX" orders --format json 2>/dev/null | jq -c '[.[] | [.gpu, .status]]' >"$TMPD/o"
expect_eq "it shows in gpux orders" "$(cat "$TMPD/o")" '[["h200","filled"]]'
"$GPUX" rentals --format json 2>/dev/null | jq -c '[.[] | [.gpu, .gpus, .hours, .status]]' >"$TMPD/r"
expect_eq "it shows in gpux rentals" "$(cat "$TMPD/r")" '[["h200",8,24,"active"]]'
"$GPUX" account --format json >"$TMPD/out" 2>/dev/null
expect_eq "the balance went down by exactly the previewed total" "$(jq '.[0].available_minor' "$TMPD/out")" "$((1000000 - total))"
"$GPUX" table training --format csv >"$TMPD/out" 2>"$TMPD/err"
expect_eq "gpux table: the live H200 price from the local exchange" "$(grep '^h200,' "$TMPD/out" | awk -F, '{print $NF}')" \
  "$("$GPUX" quotes --format json 2>/dev/null | jq '.[] | select(.gpu == "h200") | .best_ask_cents')"

# gpuxd gone: started again, on the same database and account
kill "$pid"
i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
"$GPUX" account --format json >"$TMPD/out" 2>/dev/null
pid2=$(cat "$DATA/gpuxd.pid")
check "after gpuxd died: a new one (pid $pid2)" test "$pid2" != "$pid" -a -n "$pid2"
expect_eq "after a restart: the same demo account" "$(jq '.[0].id' "$TMPD/out")" "$acct"

# two gpux at once from nothing: one gpuxd (the start-up lock)
stop_local_gpuxd
i=0; while [ -n "$(local_pids)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
rm -rf "$DATA"
"$GPUX" quotes >"$TMPD/a" 2>&1 & a=$!
"$GPUX" quotes >"$TMPD/b" 2>&1 & b=$!
wait $a; ra=$?; wait $b; rb=$?
expect_eq "two at once: both exit 0" "$ra$rb" 00
expect_eq "two at once: one gpuxd" "$(local_pids | wc -l)" 1
expect_eq "two at once: one demo account for both" "$("$GPUX" account --format json 2>/dev/null | jq '.[0].available_minor')" 1000000

# ---- the interactive screen on the embedded default: its gpuxd dies, and comes back ----
# (only processes whose command line holds this test's own runtime dir are killed)
stop_local_gpuxd
i=0; while [ -n "$(local_pids)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
tui_start 100 24 env NO_COLOR=1 LANG=C.UTF-8 "$GPUX"
if tui_wait 'prices updated'; then ok "TUI from nothing: prices from its own local demo exchange"
else fail "TUI from nothing" "$(tui_screen | tail -3)"; fi
pid=$(local_pids)
expect_eq "TUI: one local gpuxd (pid $pid)" "$(local_pids | wc -l)" 1
answered() { # PATH: the newest gpuxd of the local demo's log answered GET PATH with 200
  awk -v p="$1" '/gpuxd: listening on unix:/ { seen = 0 } $3 == "GET" && $4 == p && $5 == 200 { seen = 1 }
    END { exit !seen }' "$DATA/gpuxd.log"
}
restarted() { # STATUS-LINE-PATTERN: after a kill, STALE with the reason, then prices again
  t0=$(date +%s)
  # the status line as it says STALE with the reason: on a loaded machine the
  # old gpuxd may take a moment to go, and the bar first says that nothing
  # answers; the reason comes once the restart begins, for a short while, so
  # the bar is read every 0.1 s until it says it or says STALE no more
  stale= i=0
  while [ $i -lt 100 ]; do
    line=$(tui_screen | sed -n 23p)
    case $line in
      *"STALE: "*) stale=$line; printf '%s' "$line" | grep -qE -- "$2" && break ;;
      *) [ -n "$stale" ] && break ;;
    esac
    sleep 0.1; i=$((i + 1))
  done
  if [ -n "$stale" ]; then ok "$1: the status bar says STALE"
  else fail "$1: STALE" "$(tui_screen | sed -n 23p)"; fi
  expect_match "$1: a short plain reason, whole on the line" "$stale" "$2"
  if tui_wait_gone 'STALE'; then ok "$1: prices again, by itself ($(( $(date +%s) - t0 )) s)"
  else fail "$1: recovers" "$(tui_screen | sed -n 23p)"; fi
  expect_match "$1: fresh prices" "$(tui_screen | sed -n 23p)" 'prices updated [0-2] s ago *$'
  # once the new gpuxd has answered the TUI's account and market pollers too (the
  # prices came already), every client of the TUI has found it: a second gpuxd
  # would be running by now
  wait_for answered /v1/account && wait_for answered /v1/market ||
    fail "$1: the new gpuxd answers the TUI's pollers" "$(tail -5 "$DATA/gpuxd.log")"
  new=$(local_pids)
  expect_eq "$1: exactly one gpuxd afterwards" "$(printf '%s\n' "$new" | grep -c .)" 1
  check "$1: a new gpuxd (pid $new), in the pid file" test "$new" != "$pid" -a "$(cat "$DATA/gpuxd.pid")" = "$new"
  pid=$new
}
kill "$pid"   # SIGTERM: gpuxd removes its socket
restarted "gpuxd stopped under the TUI" '^ STALE: local demo exchange stopped; restarting it'
expect_match "the same demo account after the restart" "$(tui_screen | sed -n 23p)" 'balance \$'
kill -9 "$pid"   # SIGKILL: the socket stays, nobody listens (soon after the last restart)
restarted "gpuxd killed under the TUI" '^ STALE: (local demo exchange stopped; restarting it|exchange unreachable \(connection refused\))'
tmx kill-server 2>/dev/null

# gpuxd cannot be found: a clear message, exit 1
stop_local_gpuxd
mkdir -p "$TMPD/bin" && cp "$GPUX" "$TMPD/bin/gpux"
PATH=/usr/bin:/bin "$TMPD/bin/gpux" quotes >"$TMPD/out" 2>"$TMPD/err"
expect_eq "no gpuxd anywhere: exit 1" "$?" 1
expect_match "no gpuxd anywhere: says what to do" "$(cat "$TMPD/err")" 'gpuxd .* is neither next to gpux nor on PATH.*--api URL'

# ---- the config file --------------------------------------------------------------------
start_gpuxd --demo --quiet || finish
KEY=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"conf@example.pt","country":"DE","currency":"EUR","role":"buyer"}' | jq -r .api_key)
CONF="$XDG_CONFIG_HOME/gpux/config"
mkdir -p "$(dirname "$CONF")"
printf '# gpux settings\napi = %s\nkey = %s\nlang = pt-PT\n' "$GPUXD_URL" "$KEY" >"$CONF"
chmod 644 "$CONF"
"$GPUX" account >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a key file readable by others: refused, exit 1" "$?" 1
expect_match "... saying how to fix it" "$(cat "$TMPD/err")" "can be read by other users; run: chmod 600 $CONF"
chmod 600 "$CONF"
"$GPUX" account --format json >"$TMPD/out" 2>"$TMPD/err"
expect_eq "chmod 600: the config's exchange and key are used" "$(jq -c '.[0] | [.country, .local_demo]' "$TMPD/out")" '["DE",false]'
expect_eq "a configured exchange: no local demo note" "$(cat "$TMPD/err")" ""
GPUX_API_KEY=gpux_00000000000000000000000000000000000000000000000000000000000000ff "$GPUX" account >"$TMPD/out" 2>"$TMPD/err"
expect_match "GPUX_API_KEY wins over the config file" "$(cat "$TMPD/err")" UNAUTHORIZED
printf 'api = %s\nkey %s\n' "$GPUXD_URL" "$KEY" >"$CONF"
"$GPUX" account >"$TMPD/out" 2>"$TMPD/err"
expect_match "a malformed line: names the line" "$(cat "$TMPD/err")" "$CONF, line 2: expected \"name = value\""
check "a malformed line: never quotes it (it may be the key)" test "$(grep -cF "$KEY" "$TMPD/err")" -eq 0
finish
