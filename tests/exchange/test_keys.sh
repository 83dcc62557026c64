# API keys as objects: several named keys per account, scope trade or read
# (a read key gets 403 KEY_SCOPE for orders, cancels, stops, deposits and key
# changes), revocation at once (the next request is 401), the last trade key
# kept, last use recorded at most once a minute; the schema migration of a
# database from before keys had rows of their own; the top-up instructions
# of GET /v1/market.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --topup-url "https://pay.example.com/top-up" \
  --topup-text "Bank transfer to PT50 0002 0123 1234 5678 9015 4, reference: your account id" || finish

req GET /v1/market ""
expect_eq "the market carries the operator's top-up link" "$(jqb .topup.url)" "https://pay.example.com/top-up"
expect_match "... and the words" "$(jqb .topup.text)" "^Bank transfer to PT50"

signup PT EUR both; A=$ACC; AK=$KEY
req POST /v1/accounts '{"email":"Ana@Example.pt","country":"PT","currency":"EUR","role":"buyer"}'
expect_eq "an e-mail address opens an account" "$ST" 201
n=$(sql "SELECT count(*) FROM accounts")
req POST /v1/accounts '{"email":"ana@example.PT","country":"PT","currency":"EUR","role":"buyer"}'
expect_eq "... once: the same address in any case is 409 EMAIL_TAKEN" "$ST $(jqb .error.code) $(jqb .error.field)" "409 EMAIL_TAKEN email"
expect_eq "... and nothing is created" "$(sql "SELECT count(*) FROM accounts") $(sql "SELECT count(*) FROM api_keys WHERE account > $A + 1")" "$n 0"
signup US USD buyer; X=$ACC; XK=$KEY

req GET /v1/keys "" "$AK"
expect_eq "a new account has one key: trade, named default, the current one" \
  "$ST $(jqb '.keys | length') $(jqb '.keys[0].scope') $(jqb '.keys[0].name') $(jqb '.keys[0].current')" \
  "200 1 trade default true"
K1=$(jqb '.keys[0].id')
expect_eq "the list never shows a key or its hash" "$(printf '%s' "$BODY" | grep -c 'gpux_\|hash')" 0

req POST /v1/keys '{"name":"ci reader","scope":"read"}' "$AK"
expect_eq "a read key is created: 201, shown once" "$ST $(jqb .scope) $(jqb .name)" "201 read ci reader"
RK=$(jqb .api_key); R=$(jqb .id)
expect_match "... as gpux_ + 64 hex digits" "$RK" '^gpux_[0-9a-f]{64}$'
expect_eq "... stored only as its hash" "$(sql "SELECT count(*) FROM api_keys WHERE id = $R AND key_hash = x'$(printf '%s' "$RK" | sha256sum | cut -c1-64)'")" 1
expect_eq "... and nowhere in the database itself" "$(db_grep_count "$RK")" 0
req GET /v1/keys "" "$AK"
expect_eq "the list now has both keys, never the key itself" "$(jqb '[.keys[].name] | join(",")') $(jqb '.keys[1].api_key')" "default,ci reader null"
req POST /v1/keys '' "$AK"
expect_eq "no body: a trade key named by the exchange" "$ST $(jqb .scope) $(jqb .name)" "201 trade key-$(jqb .id)"
K3=$(jqb .id); K3K=$(jqb .api_key)

# --- what a read key may do --------------------------------------------------------
req GET /v1/account "" "$RK"
expect_eq "a read key reads the account" "$ST $(jqb .id)" "200 $A"
req GET /v1/orders "" "$RK"
expect_eq "... and the orders" "$ST" 200
req GET /v1/ledger "" "$RK"
expect_eq "... and the ledger" "$ST" 200
req POST /v1/orders/preview '{"gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$RK"
expect_eq "... and previews an order" "$ST" 200
req POST /v1/orders '{"client_order_id":"r1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$RK"
expect_eq "a read key cannot order: 403 KEY_SCOPE" "$ST $(jqb .error.code)" "403 KEY_SCOPE"
expect_eq "... and nothing was placed" "$(sql "SELECT count(*) FROM orders WHERE account = $A")" 0
req POST /v1/orders '{"client_order_id":"s1","gpu":"h200","side":"sell","type":"limit","gpus":1,"hours":3,"price_cents":400}' "$AK"
OID=$(jqb .id)
req DELETE "/v1/orders/$OID" "" "$RK"
expect_eq "... nor cancel" "$ST $(jqb .error.code)" "403 KEY_SCOPE"
req POST /v1/rentals/1/stop "" "$RK"
expect_eq "... nor stop a rental" "$ST $(jqb .error.code)" "403 KEY_SCOPE"
req POST /v1/deposits '{"amount_minor":100}' "$RK"
expect_eq "... nor deposit" "$ST $(jqb .error.code)" "403 KEY_SCOPE"
req POST /v1/keys '{"scope":"trade"}' "$RK"
expect_eq "... nor make itself a trade key" "$ST $(jqb .error.code)" "403 KEY_SCOPE"
req DELETE "/v1/keys/$K1" "" "$RK"
expect_eq "... nor revoke keys" "$ST $(jqb .error.code)" "403 KEY_SCOPE"

# --- bad bodies change nothing -----------------------------------------------------------
n0=$(sql "SELECT count(*) FROM api_keys WHERE account = $A")
req POST /v1/keys '{"scope":"admin"}' "$AK"
expect_eq "an unknown scope: 400 BAD_VALUE scope" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE scope"
req POST /v1/keys '{"label":"x"}' "$AK"
expect_eq "an unknown field: 400" "$ST $(jqb .error.field)" "400 label"
req POST /v1/keys "{\"name\":\"$(printf 'n%.0s' $(seq 65))\"}" "$AK"
expect_eq "a name over 64 bytes: 400 STRING_TOO_LONG" "$ST $(jqb .error.code)" "400 STRING_TOO_LONG"
req POST /v1/keys '{"name":"a\u001b[2Jb"}' "$AK"
expect_eq "a name with control characters: 400" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_VALUE name"
req POST /v1/keys '{"name":""}' "$AK"
expect_eq "an empty name: 400" "$ST" 400
expect_eq "... and no key was made by any of them" "$(sql "SELECT count(*) FROM api_keys WHERE account = $A")" "$n0"

# --- revocation -------------------------------------------------------------------------
req DELETE "/v1/keys/$R" "" "$XK"
expect_eq "another account's key: 404, as one that does not exist" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req DELETE "/v1/keys/999999" "" "$AK"
expect_eq "a key that does not exist: 404" "$ST" 404
req DELETE "/v1/keys/abc" "" "$AK"
expect_eq "a key id that is not a number: 404" "$ST" 404
req DELETE "/v1/keys/$R" "" "$AK"
expect_eq "revoking the read key: 200, revoked_at set" "$ST $(jqb '.revoked_at != null')" "200 true"
req GET /v1/orders "" "$RK"
expect_eq "the revoked key is refused on the very next request: 401" "$ST $(jqb .error.code)" "401 UNAUTHORIZED"
req DELETE "/v1/keys/$R" "" "$AK"
expect_eq "revoking it again: 404" "$ST" 404
req GET /v1/keys "" "$AK"
expect_eq "the list shows only active keys" "$(jqb '[.keys[].id] | join(",")')" "$K1,$K3"

req DELETE "/v1/keys/$K1" "" "$AK"
expect_eq "the key in use can revoke itself while another trade key exists" "$ST $(jqb .current)" "200 true"
req GET /v1/account "" "$AK"
expect_eq "... and is refused at once" "$ST" 401
req DELETE "/v1/keys/$K3" "" "$K3K"
expect_eq "the last trade key cannot be revoked: 409 LAST_TRADE_KEY" "$ST $(jqb .error.code)" "409 LAST_TRADE_KEY"
req GET /v1/account "" "$K3K"
expect_eq "... and still works" "$ST $(jqb .id)" "200 $A"

# --- at most XD_KEYS_MAX active keys ---------------------------------------------------
i=0; while [ $i -lt 19 ]; do req POST /v1/keys '{"scope":"read"}' "$XK"; i=$((i + 1)); done
expect_eq "twenty keys are fine" "$ST" 201
req POST /v1/keys '{"scope":"read"}' "$XK"
expect_eq "the twenty-first: 409 TOO_MANY_KEYS" "$ST $(jqb .error.code) $(jqb .error.max)" "409 TOO_MANY_KEYS 20"

# --- last use: recorded, at most once a minute of exchange time -------------------------
req POST /v1/keys '{"name":"watch","scope":"read"}' "$K3K"; WK=$(jqb .api_key); W=$(jqb .id)
expect_eq "a new key was never used" "$(jqb .last_used_at)" "null"
req GET /v1/account "" "$WK"
used() { sql "SELECT coalesce(last_used_ms, 0) FROM api_keys WHERE id = $W"; }
check "its first use is recorded (by the writer, within a moment)" wait_for sh -c "[ \"\$(sqlite3 -readonly '$GPUXD_DB' 'SELECT last_used_ms IS NOT NULL FROM api_keys WHERE id = $W')\" = 1 ]"
u1=$(used)
i=0; while [ $i -lt 20 ]; do req GET /v1/orders "" "$WK"; i=$((i + 1)); done
# a write after them: the writer drains the noted uses at every commit, so once
# this deposit is answered a use noted by those reads would be written
deposit "$A" 1
expect_eq "(a deposit after the reads: committed)" "$ST" 201
expect_eq "twenty more reads within the minute write nothing" "$(used)" "$u1"
advance 61
sleep 1.1   # and never twice within a real second, however fast the clock
req GET /v1/orders "" "$WK"
check "a use a minute later is recorded again" wait_for sh -c "[ \"\$(sqlite3 -readonly '$GPUXD_DB' 'SELECT last_used_ms > $u1 FROM api_keys WHERE id = $W')\" = 1 ]"
req GET /v1/keys "" "$K3K"
expect_eq "GET /v1/keys shows it" "$(jqb ".keys[] | select(.id == $W) | .last_used_at != null")" "true"
expect_eq "the log never shows a key" "$(grep -c 'gpux_' "$GPUXD_LOG")" 0
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# --- a key stored by an earlier gpuxd: its row holds the SHA-256 of the key's text ------
# (the hash below is `printf %s gpux_0123…cdef | sha256sum`, fixed here so that a
# change of how gpuxd hashes cannot pass by changing both sides)
FK=gpux_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
sqlite3 "$GPUXD_DB" "INSERT INTO api_keys(account, key_hash, name, scope, created_ms) VALUES($A, x'1e00bd5fc87755e9d95ad2253be938ecaf3cebcb48b1257987de15c4bcf05238', 'from before', 'read', 0)"
GPUXD_DB_KEEP=$GPUXD_DB xd_start --market open || finish
req GET /v1/account "" "$FK"
expect_eq "a key stored by an earlier gpuxd still authenticates" "$ST $(jqb .id)" "200 $A"
req GET /v1/account "" "${FK%f}e"
expect_eq "... and a key one digit off does not" "$ST" 401
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# --- a database from before api_keys: migrated, its keys keep working --------------------
xd_start --market open || finish
signup DE EUR buyer; OA=$ACC; OK=$KEY
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
sqlite_before_money "$GPUXD_DB"
sqlite3 "$GPUXD_DB" "UPDATE accounts SET key_hash = (SELECT key_hash FROM api_keys k WHERE k.account = accounts.id); DROP TABLE api_keys; DROP INDEX accounts_email; PRAGMA user_version = 0;"
sqlite_before_lots "$GPUXD_DB"
expect_eq "(the old layout: the key in accounts.key_hash, version 0)" "$(sqlite3 "$GPUXD_DB" 'PRAGMA user_version')/$(sqlite3 "$GPUXD_DB" "SELECT count(*) FROM accounts WHERE key_hash IS NOT NULL")" "0/1"
GPUXD_DB_KEEP=$GPUXD_DB xd_start --market open || finish
req GET /v1/account "" "$OK"
expect_eq "after the migration the old key still works" "$ST $(jqb .id)" "200 $OA"
req GET /v1/keys "" "$OK"
expect_eq "... as a trade key named default" "$(jqb '.keys | length') $(jqb '.keys[0].scope') $(jqb '.keys[0].name')" "1 trade default"
expect_eq "the database is at the newest schema version (5), the old column emptied" \
  "$(sql 'PRAGMA user_version') $(sql 'SELECT count(*) FROM accounts WHERE key_hash IS NOT NULL')" "5 0"
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
sqlite3 "$GPUXD_DB" "PRAGMA user_version = 99"
out=$("$GPUXD" --listen 127.0.0.1:0 --db "$GPUXD_DB" --quiet 2>&1); rc=$?
expect_eq "a database from a newer gpuxd is refused" "$rc" 1
expect_match "... saying so" "$out" "schema version 99 is newer"

# --- top-up instructions are checked -------------------------------------------------------
out=$("$GPUXD" --topup-url "ftp://x" --db "$TMPD/never.db" 2>&1); rc=$?
expect_eq "--topup-url must be http(s): exit 2" "$rc" 2
expect_match "... with the reason" "$out" "topup-url: expected an http:// or https:// URL"
out=$("$GPUXD" --topup-text "$(printf 'pay\033[2J')" --db "$TMPD/never.db" 2>&1); rc=$?
expect_eq "--topup-text with control characters: exit 2" "$rc" 2
check "... and no database was made" test ! -e "$TMPD/never.db"
xd_start --demo --market open || finish
req GET /v1/market ""
expect_eq "a demo exchange without instructions: simulated payments, topup null" \
  "$(jqb .simulated_payments) $(jqb .topup.url) $(jqb .topup.text)" "true null null"
req POST /v1/accounts '{"email":"you@demo.gpux","country":"PT","currency":"EUR","role":"both"}'
req POST /v1/accounts '{"email":"you@demo.gpux","country":"PT","currency":"EUR","role":"both"}'
expect_eq "a demo market lets an address open several accounts" "$ST" 201
xd_finish
finish
