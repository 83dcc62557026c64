# Two gpuxd nodes on one PostgreSQL database; node A, which holds the lease
# (it bills the hours), is killed with SIGKILL in the middle of order streams
# sent to both. Every order either node acknowledged is there through node
# B, the ledger adds up, and node B takes the lease over: the hours go on
# being billed, none twice.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start kill
lease_holders() {
  # the lease is the advisory lock 0x67707578626c6c ("gpuxbll")
  pg_psql kill "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 6778997 AND objid = 2019716204"
}
wait_lease() { # until one session holds the lease, 10 s
  i=0
  while [ $i -lt 100 ]; do [ "$(lease_holders)" = 1 ] && return 0; sleep 0.1; i=$((i + 1)); done
  return 1
}
# an exchange hour every 6 seconds, so the test sees hours fall due
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 --clock-speed 600 || finish
A=$GPUXD_URL APID=$GPUXD_PID
if wait_lease; then
  ok "node A holds the lease"
else
  fail "node A holds the lease" "$(lease_holders)"
fi
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 --clock-speed 600 || finish
B=$GPUXD_URL
GPUXD_URL=$A
keys=""
for i in 1 2 3 4; do
  signup US USD both; deposit "$ACC" 100000000; keys="$keys $KEY"
done
stream() { # URL KEY TAG: orders until the server is gone; "coid status id" per answer
  i=0
  while [ $i -lt 80 ]; do
    i=$((i + 1))
    side=buy; [ $((i % 2)) -eq 0 ] && side=sell
    out=$(curl -s -m 5 -w ' %{http_code}' -X POST -H "Authorization: Bearer $2" \
      --data-binary "{\"client_order_id\":\"$3-$i\",\"gpu\":\"h200\",\"side\":\"$side\",\"type\":\"limit\",\"gpus\":$((i % 5 + 1)),\"hours\":$((i % 7 + 1)),\"price_cents\":$((400 + (i * 7919) % 41 - 20))}" \
      "$1/v1/orders")
    code=${out##* }
    echo "$3-$i $code $(printf '%s' "${out% *}" | jq -r .id 2>/dev/null)"
    [ "$code" = 000 ] && break
  done
}
pids=""
n=0
for k in $keys; do
  n=$((n + 1))
  u=$A; [ $((n % 2)) -eq 0 ] && u=$B
  stream "$u" "$k" "c$n" >"$TMPD/stream$n" &
  pids="$pids $!"
done
# kill node A in the middle of the streams: once both nodes have acknowledged
# orders of every stream (30 s at most: a loaded machine answers fewer per second)
acked_by() { awk '$2 ~ /^2/' "$1" 2>/dev/null | wc -l; }
t=0
while [ $t -lt 300 ]; do
  short=0
  for n in 1 2 3 4; do [ "$(acked_by "$TMPD/stream$n")" -ge 5 ] || short=1; done
  [ $short = 0 ] && break
  sleep 0.1; t=$((t + 1))
done
kill -9 "$APID"
{ wait "$APID"; } 2>/dev/null
t0=$(date +%s.%N)
if wait_lease; then
  ok "node B took the lease over, $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-4) s after the kill"
else
  fail "node B took the lease over" "$(lease_holders)"
fi
wait $pids
acked=$(cat "$TMPD"/stream* | awk '$2 ~ /^2/' | wc -l)
if [ "$acked" -gt 20 ]; then ok "orders were acknowledged by both nodes ($acked)"; else fail "orders were acknowledged by both nodes" "$acked"; fi
GPUXD_URL=$B
missing=0
n=0
for k in $keys; do
  n=$((n + 1))
  : >"$TMPD/have$n"
  cursor=""
  while :; do
    req GET "/v1/orders?limit=200${cursor:+&cursor=$cursor}" "" "$k"
    jqb '.orders[] | "\(.client_order_id) \(.id)"' >>"$TMPD/have$n"
    cursor=$(jqb .next_cursor)
    [ "$cursor" = null ] && break
  done
  while read -r coid code id; do
    case $code in 2??) grep -qx "$coid $id" "$TMPD/have$n" || missing=$((missing + 1)) ;; esac
  done <"$TMPD/stream$n"
done
expect_eq "every acknowledged order is there through node B" "$missing" 0
why=$(ledger_check) && ok "the ledger adds up after the kill" || fail "the ledger adds up after the kill" "$why"
billed1=$(sql "SELECT coalesce(sum(hours_billed),0) FROM rentals")
# an exchange hour is 6 s here: wait for the next one to be billed (20 s at most)
t=0
while [ $t -lt 200 ] && [ "$(sql "SELECT coalesce(sum(hours_billed),0) FROM rentals")" -le "$billed1" ]; do
  sleep 0.1; t=$((t + 1))
done
billed2=$(sql "SELECT coalesce(sum(hours_billed),0) FROM rentals")
if [ "$billed2" -gt "$billed1" ]; then ok "node B bills the hours that fall due ($billed1 -> $billed2)"
else fail "node B bills the hours that fall due" "$billed1 -> $billed2"; fi
expect_eq "no hour billed twice: every rental's charge is its billed hours" \
  "$(sql "SELECT count(*) FROM rentals WHERE billed <> hours_billed * gpus * (net_unit + vat_unit) OR hours_billed > hours")" 0
why=$(ledger_check) && ok "and the ledger still adds up" || fail "and the ledger still adds up" "$why"
xd_finish
