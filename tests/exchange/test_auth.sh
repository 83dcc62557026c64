# Authorization and limits: no key or a bad key is 401; another account's
# order or rental is 404, exactly like an id that does not exist; roles;
# admin routes; rate limits (429 + Retry-After); the log never shows a key.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup US USD buyer; B=$ACC; BK=$KEY; deposit "$B" 100000
signup US USD seller; S=$ACC; SK=$KEY
signup US USD buyer; X=$ACC; XK=$KEY

req GET /v1/account ""
expect_eq "no key: 401 UNAUTHORIZED" "$ST $(jqb .error.code)" "401 UNAUTHORIZED"
hdr=$(curl -s -D - -o /dev/null "$GPUXD_URL/v1/account")
expect_match "401 says how to authenticate" "$hdr" "WWW-Authenticate: Bearer"
req GET /v1/account "" "gpux_0000000000000000000000000000000000000000000000000000000000000000"
expect_eq "a well-formed unknown key: 401" "$ST" 401
req GET /v1/account "" "not-a-key"
expect_eq "a malformed key: 401" "$ST" 401
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $BK" "$GPUXD_URL/v1/account")
expect_eq "another auth scheme: 401" "$code" 401
req GET /v1/account "" "$BK"
expect_eq "the right key: 200, this account" "$ST $(jqb .id)" "200 $B"

req POST /v1/orders '{"client_order_id":"s","gpu":"h200","side":"sell","type":"limit","gpus":1,"hours":5,"price_cents":400}' "$SK"
req POST /v1/orders '{"client_order_id":"b","gpu":"h200","side":"buy","type":"limit","gpus":2,"hours":5,"price_cents":400}' "$BK"
OID=$(jqb .id); RID=$(jqb '.fills[0].rental_id')
req GET "/v1/orders/$OID" "" "$XK"
expect_eq "another account's order: 404 NOT_FOUND" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req GET "/v1/orders/999999" "" "$XK"
expect_eq "the same as an order that does not exist" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req DELETE "/v1/orders/$OID" "" "$XK"
expect_eq "cancelling another account's order: 404" "$ST" 404
req GET "/v1/orders/$OID" "" "$BK"
expect_eq "... and the order still rests" "$(jqb .status)" "partially_filled"
req POST "/v1/rentals/$RID/stop" "" "$XK"
expect_eq "stopping another account's rental: 404" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req GET /v1/orders "" "$XK"
expect_eq "lists show only the caller's orders" "$(jqb '.orders | length')" 0
req GET /v1/rentals "" "$XK"
expect_eq "... and rentals" "$(jqb '.rentals | length')" 0
req GET /v1/ledger "" "$XK"
expect_eq "... and ledger rows" "$(jqb '.entries | length')" 0

req POST /v1/orders '{"client_order_id":"x","gpu":"h200","side":"sell","type":"limit","gpus":1,"hours":5,"price_cents":400}' "$BK"
expect_eq "a buyer cannot sell: 403" "$ST $(jqb .error.code)" "403 FORBIDDEN"
req POST /v1/orders '{"client_order_id":"x","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":5,"price_cents":400}' "$SK"
expect_eq "a seller cannot buy: 403" "$ST $(jqb .error.code)" "403 FORBIDDEN"

req POST /v1/deposits '{"amount_minor":100}' "$BK"
expect_eq "no self-service deposits without --demo" "$ST" 403
req POST /v1/deposits '{"amount_minor":100}' "$ADMIN_KEY"
expect_eq "an admin deposit must name the account" "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD account_id"
req POST /v1/deposits '{"account_id":999999,"amount_minor":100}' "$ADMIN_KEY"
expect_eq "an admin deposit without a reference, on a real exchange: 400" \
  "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD reference"
req POST /v1/deposits '{"account_id":999999,"amount_minor":100,"reference":"no-account-1"}' "$ADMIN_KEY"
expect_eq "an admin deposit to no account: 404" "$ST" 404
req POST /v1/admin/clock '{"advance_seconds":60}' "$BK"
expect_eq "the clock needs the admin key: 403 with an account key" "$ST" 403
req POST /v1/admin/clock '{"advance_seconds":60}' "wrong-admin-key-0123456789"
expect_eq "... 401 with a wrong key" "$ST" 401
req POST /v1/admin/clock '{"advance_seconds":60}' "$ADMIN_KEY"
expect_eq "... 200 with it" "$ST" 200

# rate limits, on a server that logs
start_gpuxd --rate-limit 2 --ip-rate-limit 0 --market open || finish
signup US USD buyer; RK=$KEY
i=0; codes=""
while [ $i -lt 8 ]; do
  codes="$codes $(curl -s -o "$TMPD/rl" -w '%{http_code}' -H "Authorization: Bearer $RK" "$GPUXD_URL/v1/account")"
  i=$((i + 1))
done
expect_match "per key: a burst of 2N, then 429" "$codes" "^ 200 200 200 200 429"
hdr=$(curl -s -D - -o "$TMPD/rl" -H "Authorization: Bearer $RK" "$GPUXD_URL/v1/account")
expect_match "429 carries Retry-After" "$hdr" "Retry-After: [0-9]+"
expect_eq "and the error names it" "$(jq -r '.error.code + " " + (.error.retry_after|tostring)' "$TMPD/rl")" "RATE_LIMITED 1"
code=$(curl -s -o /dev/null -w '%{http_code}' "$GPUXD_URL/v1/market")
expect_eq "requests without that key are not limited by it" "$code" 200
sleep 1.1
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $RK" "$GPUXD_URL/v1/account")
expect_eq "after Retry-After the key works again" "$code" 200
log=$(cat "$GPUXD_LOG")
expect_match "one log line per request: id, method, path, status, ms" "$log" "r[0-9a-f]{12} GET /v1/account 429 [0-9.]+ms"
if grep -q "$RK" "$GPUXD_LOG" || grep -q "${RK#gpux_}" "$GPUXD_LOG"; then
  fail "the log never shows a key"
else
  ok "the log never shows a key"
fi

start_gpuxd --ip-rate-limit 3 --quiet || finish
i=0; codes=""
while [ $i -lt 8 ]; do
  codes="$codes $(curl -s -o /dev/null -w '%{http_code}' "$GPUXD_URL/v1/quotes")"
  i=$((i + 1))
done
expect_match "per address: a burst, then 429" "$codes" "429"
xd_finish
