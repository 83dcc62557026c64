# Every class of bad input gets a 4xx with its stable code, and changes
# nothing: the database's orders, ledger, accounts and balances are compared
# before and after each bad request.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup PT EUR both; B=$ACC; BK=$KEY
deposit "$B" 50000
req POST /v1/orders '{"client_order_id":"ok-1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":300}' "$BK"

snapshot() {
  sql "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM ledger), (SELECT count(*) FROM accounts), (SELECT count(*) FROM trades), (SELECT sum(available) || '/' || sum(held) FROM accounts)"
}
# bad METHOD PATH BODY STATUS CODE [FIELD] — with the account's key
bad() {
  before=$(snapshot)
  req "$1" "$2" "$3" "$BK"
  got="$ST $(jqb .error.code)"
  want="$4 $5"
  if [ -n "${6:-}" ]; then got="$got $(jqb .error.field)"; want="$want $6"; fi
  after=$(snapshot)
  if [ "$got" = "$want" ] && [ "$before" = "$after" ] && [ "$(jqb .error.request_id)" != null ]; then
    ok "$1 $2 $(printf '%.60s' "$3") -> $want"
  else
    fail "$1 $2 $(printf '%.60s' "$3") -> $want" "got [$got], state [$before] -> [$after]"
  fi
}
o() { # an order body with one field replaced: o FIELD JSONVALUE
  printf '%s' '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":3,"price_cents":400}' |
    jq -c --argjson v "$2" ".$1 = \$v"
}

# bodies
bad POST /v1/orders 'not json' 400 BAD_JSON
bad POST /v1/orders '' 400 BAD_JSON
bad POST /v1/orders '[1,2]' 400 BAD_JSON
bad POST /v1/orders '"text"' 400 BAD_JSON
bad POST /v1/orders '{"client_order_id":"v-1"} trailing' 400 BAD_JSON
bad POST /v1/orders "$(printf '{"client_order_id":"v-\377"}')" 400 BAD_JSON
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200"' 400 BAD_JSON
bad POST /v1/orders "$(o extra 1)" 400 UNKNOWN_FIELD extra
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","gpu":"h100-sxm","side":"buy","type":"limit","gpus":2,"hours":3,"price_cents":400}' 400 DUPLICATE_FIELD gpu
bad POST /v1/orders '{"gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":3,"price_cents":400}' 400 MISSING_FIELD client_order_id
bad POST /v1/orders "$(o gpu '"h999"')" 400 UNKNOWN_GPU gpu
bad POST /v1/orders "$(o gpu '"H200"')" 400 UNKNOWN_GPU gpu
bad POST /v1/orders "$(o gpu 7)" 400 WRONG_TYPE gpu
bad POST /v1/orders "$(o gpus '"2"')" 400 WRONG_TYPE gpus
bad POST /v1/orders "$(o gpus null)" 400 WRONG_TYPE gpus
bad POST /v1/orders "$(o gpus true)" 400 WRONG_TYPE gpus
bad POST /v1/orders "$(o gpus '[2]')" 400 WRONG_TYPE gpus
bad POST /v1/orders "$(o gpus 2.5)" 400 NOT_INTEGER gpus
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"limit","gpus":1e400,"hours":3,"price_cents":400}' 400 NOT_INTEGER gpus
bad POST /v1/orders "$(o gpus 0)" 400 OUT_OF_RANGE gpus
bad POST /v1/orders "$(o gpus -1)" 400 OUT_OF_RANGE gpus
bad POST /v1/orders "$(o gpus 513)" 400 OUT_OF_RANGE gpus
bad POST /v1/orders "$(o gpus 99999999999999999999)" 400 NOT_INTEGER gpus
bad POST /v1/orders "$(o hours 0)" 400 OUT_OF_RANGE hours
bad POST /v1/orders "$(o hours 721)" 400 OUT_OF_RANGE hours
bad POST /v1/orders "$(o price_cents 0)" 400 OUT_OF_RANGE price_cents
bad POST /v1/orders "$(o price_cents 1000001)" 400 OUT_OF_RANGE price_cents
bad POST /v1/orders "$(o price_cents 4.19)" 400 NOT_INTEGER price_cents
# integers are checked on the literal as written, not on the double strtod
# makes of it (jq would round these, so the bodies are written out)
ob() { # an order body with gpus written as the literal $1
  printf '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"limit","gpus":%s,"hours":3,"price_cents":400}' "$1"
}
bad POST /v1/orders "$(ob 0.99999999999999999)" 400 NOT_INTEGER gpus
bad POST /v1/orders "$(ob 1.0000000000000001)" 400 NOT_INTEGER gpus
bad POST /v1/orders "$(ob 2.0000000000000000001e0)" 400 NOT_INTEGER gpus
bad POST /v1/orders "$(ob 15e-1)" 400 NOT_INTEGER gpus
bad POST /v1/orders "$(ob 9007199254740993)" 400 NOT_INTEGER gpus
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":3,"price_cents":400.00000000000000001}' 400 NOT_INTEGER price_cents
for lit in 8 8.0 8.000 0.8e1 80e-1 8E0 800e-2; do
  req POST /v1/orders/preview "$(ob "$lit")" "$BK"
  expect_eq "gpus $lit is the integer 8" "$ST $(jqb .gpus)" "200 8"
done
req POST /v1/orders/preview "$(printf '{"gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":1e1,"price_cents":4.00e2}')" "$BK"
expect_eq "hours 1e1 and price_cents 4.00e2 are 10 and 400" "$ST $(jqb .hours) $(jqb .price_cents)" "200 10 400"
bad POST /v1/orders "$(o side '"hold"')" 400 BAD_VALUE side
bad POST /v1/orders "$(o type '"stop"')" 400 BAD_VALUE type
bad POST /v1/orders "$(o time_in_force '"day"')" 400 BAD_VALUE time_in_force
bad POST /v1/orders "$(o client_order_id '""')" 400 BAD_VALUE client_order_id
bad POST /v1/orders "$(o client_order_id '"has space"')" 400 BAD_VALUE client_order_id
bad POST /v1/orders "$(o client_order_id '"\u001b[31m"')" 400 BAD_VALUE client_order_id
bad POST /v1/orders "$(o client_order_id "\"$(printf 'x%.0s' $(seq 65))\"")" 400 STRING_TOO_LONG client_order_id
bad POST /v1/orders "$(o max_price_cents 500)" 400 BAD_COMBINATION max_price_cents
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":3}' 400 MISSING_FIELD price_cents
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"market","gpus":2,"hours":3,"price_cents":400}' 400 BAD_COMBINATION price_cents
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"market","gpus":2,"hours":3}' 400 MISSING_FIELD max_price_cents
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"sell","type":"market","gpus":2,"hours":3,"max_price_cents":400}' 400 BAD_COMBINATION max_price_cents
bad POST /v1/orders '{"client_order_id":"v-1","gpu":"h200","side":"buy","type":"market","gpus":2,"hours":3,"max_price_cents":400,"time_in_force":"gtc"}' 400 BAD_COMBINATION time_in_force
# a NUL (\u0000) would cut a name or value short: "h200\u0000x" taken as h200
# (found by tests/fuzz/fuzz_exchange_body.c)
bad POST /v1/orders "$(o client_order_id '"v-1\u0000x"')" 400 BAD_JSON
bad POST /v1/orders "$(o gpu '"h200\u0000x"')" 400 BAD_JSON
bad POST /v1/orders "$(o gpus 2 | sed 's/"gpus"/"gpus\\u0000"/')" 400 BAD_JSON
bad POST /v1/accounts '{"email":"a@b.pt\u0000 x","country":"PT","currency":"EUR","role":"buyer"}' 400 BAD_JSON
printf '\0' >"$TMPD/nul"
before=$(snapshot)
st=$(curl -s -o "$TMPD/resp" -w '%{http_code}' -X POST -H "Authorization: Bearer $BK" \
  --data-binary @"$TMPD/nul" "$GPUXD_URL/v1/rentals/1/stop")
expect_eq "a rental stop whose body is a NUL byte: BAD_JSON (not an empty body)" \
  "$st $(jq -r .error.code "$TMPD/resp") $(snapshot)" "400 BAD_JSON $before"
big=$(printf '{"client_order_id":"%s"}' "$(head -c 20000 /dev/zero | tr '\0' 'a')")
bad POST /v1/orders "$big" 413 BODY_TOO_LARGE
# business refusals change nothing either
bad POST /v1/orders "$(o gpus 512 | jq -c '.hours = 720')" 422 INSUFFICIENT_FUNDS
bad POST /v1/orders '{"client_order_id":"ok-1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":2,"price_cents":301}' 409 IDEMPOTENCY_CONFLICT

# accounts
bad POST /v1/accounts '{"email":"a@b.pt","country":"XX","currency":"EUR","role":"buyer"}' 400 UNKNOWN_COUNTRY country
bad POST /v1/accounts '{"email":"a@b.pt","country":"pt","currency":"EUR","role":"buyer"}' 400 UNKNOWN_COUNTRY country
bad POST /v1/accounts '{"email":"a@b.pt","country":"PRT","currency":"EUR","role":"buyer"}' 400 STRING_TOO_LONG country
bad POST /v1/accounts '{"email":"a@b.pt","country":"PT","currency":"JPY","role":"buyer"}' 400 BAD_VALUE currency
bad POST /v1/accounts '{"email":"nope","country":"PT","currency":"EUR","role":"buyer"}' 400 BAD_VALUE email
bad POST /v1/accounts '{"email":"a b@c.d","country":"PT","currency":"EUR","role":"buyer"}' 400 BAD_VALUE email
bad POST /v1/accounts "{\"email\":\"$(printf 'a%.0s' $(seq 260))@b.c\",\"country\":\"PT\",\"currency\":\"EUR\",\"role\":\"buyer\"}" 400 STRING_TOO_LONG email
bad POST /v1/accounts '{"email":"a@b.pt","country":"PT","currency":"EUR","role":"admin"}' 400 BAD_VALUE role
bad POST /v1/accounts '{"email":"a@b.pt","country":"PT","currency":"EUR"}' 400 MISSING_FIELD role
bad POST /v1/accounts '{"email":"a@b.pt","country":"PT","currency":"EUR","role":"buyer","admin":true}' 400 UNKNOWN_FIELD admin

# deposits (admin key), clock
before=$(snapshot)
req POST /v1/deposits "{\"account_id\":$B,\"amount_minor\":0}" "$ADMIN_KEY"
expect_eq "deposit of 0: OUT_OF_RANGE, nothing changed" "$ST $(jqb .error.code) $(snapshot)" "400 OUT_OF_RANGE $before"
req POST /v1/deposits "{\"account_id\":$B,\"amount_minor\":100000000001}" "$ADMIN_KEY"
expect_eq "deposit over the maximum: OUT_OF_RANGE" "$ST $(jqb .error.code)" "400 OUT_OF_RANGE"
req POST /v1/deposits "{\"account_id\":$B,\"amount_minor\":\"5\"}" "$ADMIN_KEY"
expect_eq "deposit of a string: WRONG_TYPE" "$ST $(jqb .error.code) $(snapshot)" "400 WRONG_TYPE $before"
req POST /v1/admin/clock '{"advance_seconds":0}' "$ADMIN_KEY"
expect_eq "clock: advance_seconds 0 is OUT_OF_RANGE" "$ST $(jqb .error.code)" "400 OUT_OF_RANGE"
req POST /v1/admin/market '{"state":"pre_open","opens_at":"9999-12-31T23:59:60Z"}' "$ADMIN_KEY"
expect_eq "opens_at that falls in the year 10000 (leap second): BAD_VALUE" \
  "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE opens_at"

# paths and queries
bad GET "/v1/books/h200?depth=abc" "" 400 BAD_PARAM depth
bad GET "/v1/books/h200?depth=0" "" 400 BAD_PARAM depth
bad GET "/v1/books/h200?depth=101" "" 400 BAD_PARAM depth
bad GET "/v1/books/h200?dpeth=5" "" 400 BAD_PARAM dpeth
bad GET "/v1/books/nope" "" 404 UNKNOWN_GPU
bad GET "/v1/orders?status=weird" "" 400 BAD_PARAM status
bad GET "/v1/orders?gpu=nope" "" 400 UNKNOWN_GPU gpu
bad GET "/v1/orders?limit=201" "" 400 BAD_PARAM limit
bad GET "/v1/orders?cursor=-4" "" 400 BAD_PARAM cursor
bad GET "/v1/orders?limit=1&limit=2" "" 400 BAD_PARAM limit
bad GET "/v1/orders/abc" "" 404 NOT_FOUND
bad GET "/v1/orders/0" "" 404 NOT_FOUND
bad GET "/v1/nothing" "" 404 NOT_FOUND
bad PUT "/v1/orders" "" 405 METHOD_NOT_ALLOWED
hdr=$(curl -s -D - -o /dev/null -X PATCH "$GPUXD_URL/v1/orders/1")
expect_match "405 lists the allowed methods" "$hdr" "Allow: GET, DELETE"
hdr=$(curl -s -D - -o "$TMPD/e" "$GPUXD_URL/v1/nothing")
rid=$(printf '%s' "$hdr" | tr -d '\r' | sed -n 's/^X-Request-Id: //p')
expect_eq "the error's request_id is the X-Request-Id header" "$(jq -r .error.request_id "$TMPD/e")" "$rid"
expect_match "errors are JSON" "$hdr" "Content-Type: application/json"

why=$(ledger_check) && ok "ledger invariants hold" || fail "ledger invariants hold" "$why"
xd_finish
