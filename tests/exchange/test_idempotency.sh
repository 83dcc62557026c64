# Idempotency by client_order_id, per account, forever: a replay returns the
# original order (200), another body with the same id is 409, and 20
# concurrent identical submissions create exactly one order.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup US USD buyer; B=$ACC; BK=$KEY
deposit "$B" 1000000
body='{"client_order_id":"same-1","gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":10,"price_cents":400}'
req POST /v1/orders "$body" "$BK"
expect_eq "first submission: 201" "$ST" 201
id=$(jqb .id)
req POST /v1/orders "$body" "$BK"
expect_eq "same id, same body: 200 and the original order" "$ST $(jqb .id)" "200 $id"
req POST /v1/orders '{"gpu":"h200","client_order_id":"same-1","hours":10,"side":"buy","type":"limit","price_cents":400,"gpus":2,"time_in_force":"gtc"}' "$BK"
expect_eq "field order and the explicit default do not make another body" "$ST $(jqb .id)" "200 $id"
req POST /v1/orders '{"client_order_id":"same-1","gpu":"h200","side":"buy","type":"limit","gpus":3,"hours":10,"price_cents":400}' "$BK"
expect_eq "same id, other body: 409 IDEMPOTENCY_CONFLICT naming the order" \
  "$ST $(jqb .error.code) $(jqb .error.order_id)" "409 IDEMPOTENCY_CONFLICT $id"
expect_eq "one order, one hold (2*10*400)" "$(sql 'SELECT count(*) FROM orders') $(balance "$BK")" "1 992000 8000"
req DELETE "/v1/orders/$id" "" "$BK"
req POST /v1/orders "$body" "$BK"
expect_eq "forever: after a cancel the id still returns the original, now cancelled" \
  "$ST $(jqb .id) $(jqb .status)" "200 $id cancelled"

signup US USD buyer; O=$ACC; OK=$KEY
deposit "$O" 1000000
req POST /v1/orders "$body" "$OK"
expect_eq "ids are per account: another account may use the same one" "$ST" 201

# a refused order stores nothing, so its id stays free
signup US USD buyer; P=$ACC; PK=$KEY
req POST /v1/orders '{"client_order_id":"poor","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$PK"
expect_eq "insufficient funds: 422 with the amounts" \
  "$ST $(jqb .error.code) $(jqb .error.required_minor) $(jqb .error.available_minor)" "422 INSUFFICIENT_FUNDS 400 0"
deposit "$P" 400
req POST /v1/orders '{"client_order_id":"poor","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$PK"
expect_eq "after a top-up the same id is accepted" "$ST $(jqb .status)" "201 open"

# 20 concurrent identical submissions
conc='{"client_order_id":"burst-7","gpu":"b200","side":"buy","type":"limit","gpus":4,"hours":24,"price_cents":700}'
i=0
pids=""
while [ $i -lt 20 ]; do
  curl -s -o "$TMPD/c$i" -w '%{http_code}\n' -X POST -H "Authorization: Bearer $BK" \
    --data-binary "$conc" "$GPUXD_URL/v1/orders" >"$TMPD/s$i" &
  pids="$pids $!"
  i=$((i + 1))
done
wait $pids   # not a bare wait: gpuxd is a child of this shell too
ids=$(cat "$TMPD"/c* | jq -r .id | sort -u)
codes=$(cat "$TMPD"/s* | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
expect_eq "20 concurrent submissions all get the same order" "$(printf '%s\n' "$ids" | wc -l)" 1
expect_eq "one 201 and nineteen 200" "$codes" "200x19 201x1 "
expect_eq "exactly one order in the database" \
  "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'burst-7'")" 1
expect_eq "held once: 4*24*700 on top of nothing" "$(balance "$BK")" "932800 67200"
why=$(ledger_check) && ok "ledger invariants hold" || fail "ledger invariants hold" "$why"
xd_finish
