# Durability: a stream of orders from four clients, gpuxd killed with
# SIGKILL in the middle of it, restarted on the same database. Every order
# that was acknowledged (2xx) is there with the same id, a replay returns it,
# the ledger adds up, and the books are rebuilt from what was committed.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 || finish
DB=$GPUXD_DB

keys=""
for i in 1 2 3 4; do
  signup US USD both; deposit "$ACC" 100000000; keys="$keys $KEY"
done
stream() { # KEY TAG: orders until the server is gone; "coid status id" per answer
  i=0
  while [ $i -lt 2000 ]; do
    i=$((i + 1))
    side=buy; [ $((i % 2)) -eq 0 ] && side=sell
    out=$(curl -s -m 5 -w ' %{http_code}' -X POST -H "Authorization: Bearer $1" \
      --data-binary "{\"client_order_id\":\"$2-$i\",\"gpu\":\"h200\",\"side\":\"$side\",\"type\":\"limit\",\"gpus\":$((i % 5 + 1)),\"hours\":$((i % 7 + 1)),\"price_cents\":$((400 + (i * 7919) % 41 - 20))}" \
      "$GPUXD_URL/v1/orders")
    code=${out##* }
    echo "$2-$i $code $(printf '%s' "${out% *}" | jq -r .id 2>/dev/null)"
    [ "$code" = 000 ] && break
  done
}
pids=""
n=0
for k in $keys; do
  n=$((n + 1))
  stream "$k" "c$n" >"$TMPD/stream$n" &
  pids="$pids $!"
done
# kill in the middle of the stream: once more than 50 orders are answered
# (up to 30 s: a loaded machine answers fewer per second), not after a fixed time
acked_now() { cat "$TMPD"/stream* 2>/dev/null | awk '$2 ~ /^2/' | wc -l; }
t=0
while [ "$(acked_now)" -le 50 ] && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
kill -9 "$GPUXD_PID"
{ wait "$GPUXD_PID"; } 2>/dev/null
wait $pids
acked=$(cat "$TMPD"/stream* | awk '$2 ~ /^2/' | wc -l)
if [ "$acked" -gt 50 ]; then ok "orders were acknowledged before the crash ($acked)"; else fail "orders were acknowledged before the crash" "$acked"; fi

GPUXD_DB_KEEP=$DB xd_start --market open --rate-limit 0 || finish
missing=0
n=0
for k in $keys; do
  n=$((n + 1))
  req GET "/v1/orders?limit=200" "" "$k"
  cursor=$(jqb .next_cursor)
  jqb '.orders[] | "\(.client_order_id) \(.id)"' >"$TMPD/have$n"
  while [ "$cursor" != null ]; do
    req GET "/v1/orders?limit=200&cursor=$cursor" "" "$k"
    jqb '.orders[] | "\(.client_order_id) \(.id)"' >>"$TMPD/have$n"
    cursor=$(jqb .next_cursor)
  done
  while read -r coid code id; do
    case $code in 2??) grep -qx "$coid $id" "$TMPD/have$n" || missing=$((missing + 1)) ;; esac
  done <"$TMPD/stream$n"
done
expect_eq "every acknowledged order survived the crash with its id" "$missing" 0
line=$(awk '$2 ~ /^2/' "$TMPD/stream1" | tail -1)
set -- $line
i=${1#c1-}
side=buy; [ $((i % 2)) -eq 0 ] && side=sell
set -- $keys
req POST /v1/orders "{\"client_order_id\":\"c1-$i\",\"gpu\":\"h200\",\"side\":\"$side\",\"type\":\"limit\",\"gpus\":$((i % 5 + 1)),\"hours\":$((i % 7 + 1)),\"price_cents\":$((400 + (i * 7919) % 41 - 20))}" "$1"
expect_eq "a replay of the last acknowledged order returns it" "$ST $(jqb .id)" "200 $(echo "$line" | cut -d' ' -f3)"
why=$(ledger_check) && ok "balances add up after the crash" || fail "balances add up after the crash" "$why"
resting=$(sql "SELECT count(*) FROM orders WHERE remaining > 0 AND gpu = 'h200'")
req GET "/v1/books/h200?depth=100" ""
inbook=$(jqb '[.asks[].orders, .bids[].orders] | add // 0')
expect_eq "the book was rebuilt from the database" "$inbook" "$resting"
gpus=$(sql "SELECT coalesce(sum(remaining),0) FROM orders WHERE remaining > 0 AND gpu = 'h200' AND side = 'sell'")
expect_eq "with every resting GPU" "$(jqb '[.asks[].gpus] | add // 0')" "$gpus"
req POST /v1/orders '{"client_order_id":"after","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":500}' "$1"
expect_eq "trading goes on after the restart" "$ST" 201
why=$(ledger_check) && ok "and the ledger still adds up" || fail "and the ledger still adds up" "$why"
xd_finish
