# Admission by time (docs/API.md "Overload"): while the writer cannot commit
# (here PostgreSQL waits for a synchronous standby that does not exist, as a
# stuck commit would) and a write not yet answered has waited longer than
# --queue-wait, new writes are answered 503 UNAVAILABLE with Retry-After at
# once, and those queued before are answered so when their turn comes,
# without being run; a cancel is never refused for overload (it is queued);
# reads are served meanwhile; once commits work again, a refused order sent
# again is placed once. The timings are printed, not asserted
# (bench/store.sh --overload measures).
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start one
GPUXD_DB_KEEP=$(pg_uri one) xd_start --market open --queue-wait 200 --commit-deadline 3000 || finish
signup US USD both; K=$KEY
deposit "$ACC" 100000000
order() { # COID PRICE: the body of a resting buy
  printf '{"client_order_id":"%s","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":%s}' "$1" "$2"
}
req POST /v1/orders "$(order rest 101)" "$K"
REST=$(jqb .id)
expect_eq "a resting order to cancel later" "$ST" 201

# from here every COMMIT waits (for the commit deadline)
pg_psql one "ALTER SYSTEM SET synchronous_standby_names = 'nobody'" >/dev/null
pg_psql one "SELECT pg_reload_conf()" >/dev/null
placed() { # COID: "STATUS SECONDS" into $TMPD/w.COID
  curl -s -m 30 -o "$TMPD/o.$1" -w '%{http_code} %{time_total}' -X POST -H "Authorization: Bearer $K" \
    --data-binary "$(order "$1" 102)" "$GPUXD_URL/v1/orders" >"$TMPD/w.$1"
}
placed q1 & P1=$!
placed q2 & P2=$!
# more writes, one every 100 ms, each on its own connection, until one is
# refused: the oldest queued has waited > 200 ms by then
i=0 refused="" pids=""
while [ $i -lt 30 ] && [ -z "$refused" ]; do
  i=$((i + 1))
  curl -s -m 30 -o "$TMPD/r$i" -D "$TMPD/rh$i" -w '%{http_code} %{time_total}' -X POST \
    -H "Authorization: Bearer $K" --data-binary "$(order "n$i" 103)" "$GPUXD_URL/v1/orders" >"$TMPD/s$i" &
  pids="$pids $!"
  sleep 0.1
  for f in "$TMPD"/s*; do
    case "$(cat "$f")" in 503*) refused=${f##*/s}; break ;; esac
  done
done
out=$(cat "$TMPD/s$refused" 2>/dev/null)
expect_eq "a new write while the queue waits: 503 UNAVAILABLE" \
  "${out%% *} $(jq -r .error.code "$TMPD/r$refused" 2>/dev/null)" "503 UNAVAILABLE"
check "... with Retry-After" grep -qi '^Retry-After: 1' "$TMPD/rh$refused"
echo "# the refusal (write n$refused of $i) took ${out#* } s"
curl -s -m 30 -o "$TMPD/c" -w '%{http_code}' -X DELETE -H "Authorization: Bearer $K" \
  "$GPUXD_URL/v1/orders/$REST" >"$TMPD/cst" &
CP=$!
t=$(curl -s -m 5 -o /dev/null -w '%{http_code} %{time_total}' "$GPUXD_URL/v1/quotes")
expect_eq "a read while the writer waits: 200" "${t%% *}" 200
echo "# the read took ${t#* } s"
wait $CP
expect_match "the cancel sent meanwhile is queued, not refused as overload (answered $(cat "$TMPD/cst") $(jq -r '.error.code // .status' "$TMPD/c"))" \
  "$(cat "$TMPD/cst") $(jq -r '.error.code // .status' "$TMPD/c")" '^(200 cancelled|500 STORE_OUTCOME_UNKNOWN)$'
wait $P1 $P2 $pids
echo "# q1: $(cat "$TMPD/w.q1") $(jq -r '.error.code // .status' "$TMPD/o.q1"), q2: $(cat "$TMPD/w.q2") $(jq -r '.error.code // .status' "$TMPD/o.q2")"
# the writes sent before the first refusal: each was answered — 503 when its
# turn came after a longer wait than the bound (not run), or 500
# STORE_OUTCOME_UNKNOWN if it went into a COMMIT that then stuck — and no
# write answered 503 was placed
answers="" refused_ids=""
for k in $(seq "$i"); do
  a="$(cut -d' ' -f1 "$TMPD/s$k") $(jq -r '.error.code // .status' "$TMPD/r$k")"
  answers="$answers|$a"
  [ "$a" = "503 UNAVAILABLE" ] && refused_ids="$refused_ids${refused_ids:+,}'n$k'"
done
echo "# n1..n$i:$answers" | tr '|' ' '
expect_eq "the $i writes sent while the commit was stuck: each answered 503 UNAVAILABLE or 500 STORE_OUTCOME_UNKNOWN" \
  "$(echo "$answers" | tr '|' '\n' | grep -v '^$' | grep -cvE '^(503 UNAVAILABLE|500 STORE_OUTCOME_UNKNOWN)$')" 0
expect_eq "... none answered 503 was placed" \
  "$(sql "SELECT count(*) FROM orders WHERE client_order_id IN (${refused_ids:-''})")" 0

# commits work again: what was refused is placed when sent again, once
pg_psql one "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
pg_psql one "SELECT pg_reload_conf()" >/dev/null
wait_for sh -c "curl -s -o /dev/null -w '%{http_code}' '$GPUXD_URL/v1/ready' | grep -qx 200"
expect_eq "the refused order was not placed" "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'n$refused'")" 0
req POST /v1/orders "$(order "n$refused" 103)" "$K"
expect_eq "the refused order sent again (same client_order_id): placed" "$ST" 201
expect_eq "... once" "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'n$refused'")" 1
req DELETE "/v1/orders/$REST" "" "$K"
expect_match "the cancel sent again settles it (200, or 409 if it was done)" "$ST" '^(200|409)$'
expect_eq "... the order is cancelled" "$(sql "SELECT status FROM orders WHERE id = $REST")" cancelled
why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
xd_finish
