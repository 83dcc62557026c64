# gpuxd under an attacker on another loopback address: 2,000 connections that
# send nothing and 500 that send their header one byte a second, all from
# 127.0.0.2, while a client on 127.0.0.1 places and reads orders. The caps
# refuse what is over them at accept, the header deadline cuts what is held,
# and the client is served throughout. (The client's timings are printed, not
# asserted.)
. tests/lib.sh
. tests/exchange/xlib.sh
HOSTILE="$GPUX_BUILD/tests/hostile"
xd_start --market open || finish
signup US USD both; K=$KEY
deposit "$ACC" 100000000

# The attack lasts until the client is done (SIGUSR1), and at least 8 s:
# every connection it opens is cut by the 5 s header deadline (+2 s of
# slack) before it ends; at most 60 s. Meanwhile, from the client's own
# address, one header and one body sent at a byte a second.
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.0.2 --idle 2000 --slow 500 --seconds 60 --min-seconds 8 \
  >"$TMPD/attack" 2>"$TMPD/attack.err" &
ATT=$!
at_exit "kill $ATT 2>/dev/null"
wait_for grep -q '^ready' "$TMPD/attack.err" || fail "the attacker dials its connections" "$(cat "$TMPD/attack.err")"
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.0.1 --idle 0 --slow 1 --seconds 8 >"$TMPD/header1" 2>/dev/null &
H1=$!
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.0.1 --idle 0 --slow 0 --slow-body 1 --seconds 8 >"$TMPD/body1" 2>/dev/null &
B1=$!
at_exit "kill $H1 $B1 2>/dev/null"

served=0 slowest=0 i=0
while [ $i -lt 20 ]; do
  i=$((i + 1))
  t1=$(curl -s -o "$TMPD/o" -w '%{http_code} %{time_total}' --max-time 3 -X POST \
    -H "Authorization: Bearer $K" \
    --data-binary "{\"client_order_id\":\"h$i\",\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":$((100 + i))}" \
    "$GPUXD_URL/v1/orders")
  t2=$(curl -s -o "$TMPD/l" -w '%{http_code} %{time_total}' --max-time 3 \
    -H "Authorization: Bearer $K" "$GPUXD_URL/v1/orders?client_order_id=h$i")
  if [ "${t1%% *}" = 201 ] && [ "${t2%% *}" = 200 ] &&
     [ "$(jq -r '.orders[0].client_order_id' "$TMPD/l")" = "h$i" ]; then
    served=$((served + 1))
  fi
  for t in "${t1#* }" "${t2#* }"; do
    slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
  done
  sleep 0.1   # the orders spread over the first seconds of the attack
done
expect_eq "during the attack: 20 orders placed and read back from 127.0.0.1" "$served" 20
echo "# slowest request of the client during the attack: ${slowest} s"
kill -0 "$ATT" 2>/dev/null && ok "... all while the attack was on" ||
  fail "the client's orders were placed while the attack was on" "the attack ended first"
kill -USR1 "$ATT" 2>/dev/null

wait $ATT
line=$(cat "$TMPD/attack")
echo "# attacker: $line"
set -- $line
opened=$2 refused=$4 cut=$6 open=$8 held=${10}
expect_eq "the attacker connected its 2,500 sockets (the kernel accepts them)" "$opened" 2500
check "connections over the per-address cap (128) were refused at once" test "$refused" -ge 2000
check "the ones let in were cut by the header deadline" test "$cut" -ge 100
expect_eq "none of them was still open at the end (8 s or more)" "$open" 0
check "no attacker connection was held past the 5 s header deadline (+2 s)" test "$held" -le 7000

# one byte a second no longer keeps a connection: a lone slow header from the
# client's own address is cut too, and the client is not locked out after
wait $H1 $B1
set -- $(cat "$TMPD/header1")
expect_eq "a header sent at one byte a second is cut" "$6:$8" "1:0"
set -- $(cat "$TMPD/body1")
expect_eq "a body sent at one byte a second is cut (body deadline)" "$6:$8" "1:0"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$GPUXD_URL/v1/market")
expect_eq "after the attack: served" "$code" 200

# the caps are flags
"$GPUXD" --help >"$TMPD/help"
for f in --max-connections --max-connections-per-addr --max-streams --max-streams-per-addr \
         --header-timeout --body-timeout; do
  check "gpuxd --help documents $f" grep -q -- "$f" "$TMPD/help"
done
"$GPUXD" --header-timeout 0 >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "--header-timeout 0 is refused (exit 2)" "$rc" 2
xd_finish
