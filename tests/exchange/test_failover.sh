# A PostgreSQL primary with one synchronous standby (streaming replication
# made by pg_basebackup -R, synchronous_standby_names), gpuxd on a multi-host
# URI with target_session_attrs=read-write. The primary is killed with
# SIGKILL in the middle of order streams and the standby promoted: gpuxd
# answers 503 STORE_UNAVAILABLE meanwhile, reconnects by itself, no
# acknowledged order is lost, a retry with the same client_order_id settles
# what was left unknown, and the ledger adds up.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start primary
pg_standby standby primary
pg_psql primary "ALTER SYSTEM SET synchronous_standby_names = 'standby'" >/dev/null
pg_psql primary "SELECT pg_reload_conf()" >/dev/null
i=0
while [ $i -lt 100 ] && [ "$(pg_psql primary "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" != sync ]; do
  sleep 0.1; i=$((i + 1))
done
expect_eq "the standby replicates synchronously" \
  "$(pg_psql primary "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" sync
URI="postgresql:///gpux?host=$TMPD/pg-primary,$TMPD/pg-standby&user=postgres&target_session_attrs=read-write"
GPUXD_DB_KEEP=$URI xd_start --market open --rate-limit 0 || finish

keys=""
for i in 1 2 3; do
  signup US USD both; deposit "$ACC" 100000000; keys="$keys $KEY"
done
order_body() { # TAG I
  side=buy; [ $(($2 % 2)) -eq 0 ] && side=sell
  printf '{"client_order_id":"%s-%s","gpu":"h200","side":"%s","type":"limit","gpus":%s,"hours":%s,"price_cents":%s}' \
    "$1" "$2" "$side" $(($2 % 5 + 1)) $(($2 % 7 + 1)) $((400 + ($2 * 7919) % 41 - 20))
}
stream() { # KEY TAG: "coid status id" per answer, until $TMPD/stop exists (60 s at most)
  end=$(( $(date +%s) + 60 ))
  i=0
  while [ ! -e "$TMPD/stop" ] && [ "$(date +%s)" -lt $end ]; do
    i=$((i + 1))
    out=$(curl -s -m 10 -w ' %{http_code}' -X POST -H "Authorization: Bearer $1" \
      --data-binary "$(order_body "$2" $i)" "$GPUXD_URL/v1/orders")
    code=${out##* }
    echo "$2-$i $code $(printf '%s' "${out% *}" | jq -r '.id // .error.code' 2>/dev/null)"
  done
}
pids=""
n=0
for k in $keys; do
  n=$((n + 1))
  stream "$k" "c$n" >"$TMPD/stream$n" &
  pids="$pids $!"
done
acked_by() { awk '$2 ~ /^2/' "$@" 2>/dev/null | wc -l; }
# every stream has orders acknowledged by the primary before it is killed
# (30 s at most: a loaded machine answers fewer per second)
t=0
while [ $t -lt 300 ] && { [ "$(acked_by "$TMPD/stream1")" -lt 5 ] || [ "$(acked_by "$TMPD/stream2")" -lt 5 ] ||
                          [ "$(acked_by "$TMPD/stream3")" -lt 5 ]; }; do
  sleep 0.1; t=$((t + 1))
done
pg_kill primary
for n in 1 2 3; do wc -l <"$TMPD/stream$n" >"$TMPD/at_kill$n"; done
if _pg_as "$PG_BIN/pg_ctl" -D "$TMPD/pg-standby/data" -w -t 30 promote >"$TMPD/promote.log" 2>&1; then
  ok "the primary was killed and pg_ctl promote promoted the standby"
else
  fail "pg_ctl promote promotes the standby" "$(cat "$TMPD/promote.log")"
fi
expect_eq "the promoted standby is out of recovery (it takes writes)" \
  "$(pg_psql standby "SELECT pg_is_in_recovery()")" f
# each stream goes on until gpuxd has acknowledged three of its orders after
# the kill: those were written on the promoted standby (60 s at most)
after_kill() { tail -n "+$(( $(cat "$TMPD/at_kill$1") + 1 ))" "$TMPD/stream$1" | awk '$2 ~ /^2/' | wc -l; }
t=0
while [ $t -lt 600 ] && { [ "$(after_kill 1)" -lt 3 ] || [ "$(after_kill 2)" -lt 3 ] || [ "$(after_kill 3)" -lt 3 ]; }; do
  sleep 0.1; t=$((t + 1))
done
touch "$TMPD/stop"
wait $pids
cat "$TMPD"/stream* >"$TMPD/all"
acked=$(awk '$2 ~ /^2/' "$TMPD/all" | wc -l)
down=$(awk '$3 == "STORE_UNAVAILABLE"' "$TMPD/all" | wc -l)
unknown=$(awk '$3 == "STORE_OUTCOME_UNKNOWN"' "$TMPD/all" | wc -l)
other=$(awk '$2 !~ /^2/ && $3 != "STORE_UNAVAILABLE" && $3 != "STORE_OUTCOME_UNKNOWN"' "$TMPD/all" | head -3)
expect_eq "every reply is an acknowledgement or says the store is unavailable or the outcome unknown" "$other" ""
if [ "$acked" -gt 20 ]; then ok "orders were acknowledged ($acked; $down unavailable, $unknown unknown)"
else fail "orders were acknowledged" "$acked"; fi
expect_eq "gpuxd reconnected by itself: every stream has orders acknowledged after the failover" \
  "$([ "$(after_kill 1)" -ge 3 ] && [ "$(after_kill 2)" -ge 3 ] && [ "$(after_kill 3)" -ge 3 ] && echo yes)" yes
last=$(tail -n 2 "$TMPD/stream1" | awk '{print $2}' | tr '\n' ' ')
expect_match "... and the last orders of a stream are acknowledged" "$last" "^2.. 2.. $"

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
expect_eq "0 acknowledged orders lost" "$missing" 0
# the orders whose outcome was unknown: sent again, each is one order
bad=0
n=0
for k in $keys; do
  n=$((n + 1))
  awk '$3 == "STORE_OUTCOME_UNKNOWN" || $3 == "STORE_UNAVAILABLE" {print $1}' "$TMPD/stream$n" | head -5 |
  while read -r coid; do
    req POST /v1/orders "$(order_body "${coid%-*}" "${coid##*-}")" "$k"
    case $ST in 200|201) ;; *) echo "$coid $ST" ;; esac
    [ "$(sql "SELECT count(*) FROM orders WHERE client_order_id = '$coid'")" = 1 ] || echo "$coid twice"
  done
done >"$TMPD/retries"
expect_eq "a retry with the same client_order_id settles each one, once" "$(cat "$TMPD/retries")" ""
why=$(ledger_check) && ok "the ledger adds up on the promoted standby" || fail "the ledger adds up on the promoted standby" "$why"
xd_finish
