# Two gpuxd nodes on one PostgreSQL database (tests/pglib.sh starts a
# throwaway cluster): any node takes any request, the same client_order_id
# sent to both at once is one order, crossing orders sent to both at once
# never fill the same resting GPUs twice, and what one node trades is in the
# other's quotes and books.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start nodes
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 || finish
A=$GPUXD_URL
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 || finish
B=$GPUXD_URL
on() { GPUXD_URL=$1; }

on "$A"; signup US USD seller; S=$ACC SK=$KEY
on "$B"; deposit "$S" 1000
expect_eq "an account opened on node A takes a deposit on node B" "$ST $(jqb .balance.available_minor)" "201 1000"
on "$B"; signup US USD buyer; BY=$ACC BK=$KEY
on "$A"; deposit "$BY" 100000000
expect_eq "and the other way round" "$ST" 201

on "$A"
req POST /v1/orders '{"client_order_id":"s1","gpu":"h200","side":"sell","type":"limit","gpus":10,"hours":720,"price_cents":400}' "$SK"
SID=$(jqb .id)
expect_eq "a sell order rests through node A" "$ST $(jqb .status)" "201 open"
on "$B"
if wait_for sh -c "curl -fsS '$B/v1/quotes' | jq -e '.quotes[] | select(.gpu == \"h200\") | .best_ask_cents == 400 and .ask_gpus == 10'"; then
  ok "node B quotes the ask made through node A"
else
  fail "node B quotes the ask made through node A" "$(curl -s "$B/v1/quotes" | jq -c '.quotes[] | select(.gpu == "h200")')"
fi
req GET /v1/orders/"$SID" "" "$SK"
expect_eq "node B serves the order placed through node A" "$ST $(jqb .remaining_gpus)" "200 10"

# 20 identical submissions, 10 to each node, all at once
body='{"client_order_id":"same-1","gpu":"b200","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":100}'
i=0
while [ $i -lt 20 ]; do
  u=$A; [ $((i % 2)) -eq 1 ] && u=$B
  curl -s -o "$TMPD/same$i" -w '%{http_code}\n' -X POST -H "Authorization: Bearer $BK" \
    --data-binary "$body" "$u/v1/orders" >"$TMPD/same$i.code" &
  pids="${pids:-} $!"
  i=$((i + 1))
done
wait $pids; pids=""
codes=$(cat "$TMPD"/same*.code | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
ids=$(cat "$TMPD"/same[0-9] "$TMPD"/same[0-9][0-9] 2>/dev/null | jq -r .id | sort -u | wc -l)
expect_eq "20 identical submissions split across two nodes: one order" \
  "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'same-1'") $ids" "1 1"
expect_match "one 201 and nineteen 200 replays" "$codes" "^200x19 201x1 $"

# crossing orders: 30 buys of 1 GPU, half to each node, against 10 resting GPUs
i=0
while [ $i -lt 30 ]; do
  u=$A; [ $((i % 2)) -eq 1 ] && u=$B
  curl -s -o /dev/null -X POST -H "Authorization: Bearer $BK" \
    --data-binary "{\"client_order_id\":\"x$i\",\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"limit\",\"time_in_force\":\"ioc\",\"gpus\":1,\"hours\":3,\"price_cents\":450}" \
    "$u/v1/orders" &
  pids="$pids $!"
  i=$((i + 1))
done
wait $pids
expect_eq "crossing orders on both nodes fill the 10 resting GPUs once" \
  "$(sql "SELECT coalesce(sum(gpus),0), count(*) FROM trades WHERE sell_order = $SID")" "10|10"
expect_eq "the sell order is filled, not over-filled" \
  "$(sql "SELECT status, filled, remaining FROM orders WHERE id = $SID")" "filled|10|0"
expect_eq "twenty of the buys expired unfilled" \
  "$(sql "SELECT count(*) FROM orders WHERE client_order_id LIKE 'x%' AND status = 'expired' AND filled = 0")" 20
why=$(ledger_check) && ok "the ledger adds up across nodes" || fail "the ledger adds up across nodes" "$why"
for n in A B; do
  eval "u=\$$n"
  if wait_for sh -c "curl -fsS '$u/v1/books/h200' | jq -e '(.asks | length) == 0'"; then
    ok "node $n: the filled ask has left the book"
  else
    fail "node $n: the filled ask has left the book" "$(curl -s "$u/v1/books/h200")"
  fi
done
on "$A"; req GET /v1/quotes
etag_a=$(curl -s -D - -o /dev/null "$A/v1/quotes" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
on "$B"
req POST /v1/orders '{"client_order_id":"s2","gpu":"h200","side":"sell","type":"limit","gpus":3,"hours":24,"price_cents":410}' "$SK"
if wait_for sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -H 'If-None-Match: $etag_a' '$A/v1/quotes')\" = 200 ]"; then
  ok "node A's quotes ETag changes when node B changes a book"
else
  fail "node A's quotes ETag changes when node B changes a book"
fi
xd_finish
