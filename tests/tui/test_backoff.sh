#!/bin/sh
# The TUI against an exchange that asks it to wait (503 with Retry-After: 30,
# through tests/tools/faultd) and one that trickles its reply: it asks again
# only when told (docs/API.md, Errors: UNAVAILABLE and Retry-After), and it
# says "the exchange answers too slowly" for a trickle rather than "no answer".
# (Before, the TUI sent 37 requests in 12 s against Retry-After: 30.)
. tests/lib.sh
FAULTD="$GPUX_BUILD/tests/faultd"
start_gpuxd --demo --quiet || finish
cat >"$TMPD/gpux-run" <<EOS
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOS
chmod +x "$TMPD/gpux-run"
FPID=""
faultd() { # MODE [ARGS...]
  [ -n "$FPID" ] && kill "$FPID" 2>/dev/null && wait "$FPID" 2>/dev/null
  rm -f "$TMPD/fport" "$TMPD/flog"
  "$FAULTD" --listen 127.0.0.1:0 --port-file "$TMPD/fport" --upstream "$GPUXD_URL" \
    --log "$TMPD/flog" --mode "$@" 2>>"$TMPD/faultd.err" &
  FPID=$!
  at_exit "kill $FPID 2>/dev/null"
  wait_for test -s "$TMPD/fport" || fail "faultd starts"
  FURL="http://127.0.0.1:$(cat "$TMPD/fport")"
}
# requests the TUI repeats (the sparklines' candles are asked once, at start)
requests() { grep -c -v -e '^FAULT' -e '^LAST-EVENT-ID' -e '^GET /v1/candles' "$TMPD/flog" 2>/dev/null || echo 0; }

# ---- Retry-After: 30 on every request
faultd 503 --retry-after 30 --times-log "$TMPD/ftimes30"
tui_start 100 24 env NO_COLOR=1 LANG=C.UTF-8 "$TMPD/gpux-run" --api "$FURL"
tui_wait 'UNAVAILABLE' || fail "the TUI says the exchange is unavailable" "$(tui_screen | tail -3)"
t0=$(date +%s%N)
n0=$(requests)
# the positive marker: the second quotes request, which Retry-After puts 30 s on
i=0
while [ $i -lt 450 ] && [ "$(grep -c '^GET /v1/quotes' "$TMPD/flog")" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
t1=$(date +%s%N)
n1=$(requests)
gap=$(( (t1 - t0) / 1000000 ))
echo "# requests: $n0 until the error was shown; the quotes asked again after $gap ms, $n1 requests in all"
check "Retry-After: 30: the quotes are asked again after 29 s or more ($gap ms)" \
  test "$(grep -c '^GET /v1/quotes' "$TMPD/flog")" -ge 2 -a "$gap" -ge 29000
# every request the TUI repeated (the same path again, not in the same second:
# two screens may ask for the market at once): never sooner than 29 s
soon=$(awk '$3 !~ /^\/v1\/candles/ { d = $1 - last[$3]
  if ($3 in last && d >= 1000 && d < 29000) print $3, d; if (!($3 in last) || d >= 1000) last[$3] = $1 }' "$TMPD/ftimes30")
expect_eq "... and no request was repeated sooner than that (market, account, stream alike)" "$soon" ""
awk '{ print $3 }' "$TMPD/ftimes30" | grep -v candles | sort | uniq -c | sed 's/^/# /' 
tmx kill-server 2>/dev/null

# ---- the api alone: one try, the wait said
out=$("$GPUX_BUILD/tests/api_probe" --url "$FURL" quotes 2>&1)
expect_match "api: a 503 with Retry-After: 30 is one request, reported with the wait" "$out" 'try again in 30 s'

# ---- a short Retry-After (3 s): every repeat of the quotes waits it out,
# whether the client library retries the request or the poller asks again
faultd 503 --retry-after 3 --times-log "$TMPD/ftimes"
tui_start 100 24 env NO_COLOR=1 LANG=C.UTF-8 "$TMPD/gpux-run" --api "$FURL"
wait_for test "$(grep -c ' GET /v1/quotes' "$TMPD/ftimes")" -ge 2
wait_for test "$(grep -c ' GET /v1/quotes' "$TMPD/ftimes")" -ge 3
gaps=$(awk '$3 == "/v1/quotes" { if (last) printf "%d ", $1 - last; last = $1 }' "$TMPD/ftimes")
echo "# Retry-After: 3: gaps between the quotes requests (ms): $gaps"
check "Retry-After: 3: the quotes asked again at least 3 times" test "$(grep -c ' GET /v1/quotes' "$TMPD/ftimes")" -ge 3
check "... each at least 2.9 s after the one before" \
  awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); if (n < 2) exit 1; for (i = 1; i <= n; i++) if (a[i] < 2900) exit 1 }'
tui_wait 'UNAVAILABLE' && ok "... and the status bar says why (UNAVAILABLE)" ||
  fail "the status bar says why" "$(tui_screen | tail -3)"
tmx kill-server 2>/dev/null

# ---- a trickle: one byte a second of the reply's body
faultd trickle --delay-ms 1000
tui_start 100 24 env NO_COLOR=1 LANG=C.UTF-8 "$TMPD/gpux-run" --api "$FURL"
tui_wait 'answers too slowly' && ok "a trickling exchange: \"the exchange answers too slowly\"" ||
  fail "a trickling exchange is described" "$(tui_screen | tail -3)"
check "... not as \"no answer\"" test "$(tui_screen | grep -c 'no answer')" -eq 0
tmx kill-server 2>/dev/null
finish
