# A failover done as docs/DEPLOY.md's first steps say, but without its
# synchronous_standby_names step: the standby, copied by pg_basebackup after
# the primary named it as its synchronous standby, is promoted with that
# setting still in place, so every commit on it waits for a standby that
# does not exist. gpuxd must not hang: a write is answered 500
# STORE_OUTCOME_UNKNOWN by --commit-deadline, GET /v1/ready fails while
# GET /v1/health answers, and once the operator clears the setting (the
# step DEPLOY.md adds) writes commit again, /v1/ready passes, and a retry of
# the unknown order with its client_order_id is one order.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
pg_start primary
pg_psql primary "ALTER SYSTEM SET synchronous_standby_names = 'standby'" >/dev/null
pg_psql primary "SELECT pg_reload_conf()" >/dev/null
pg_standby standby primary
wait_for test "$(pg_psql primary "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" = sync
expect_eq "the standby replicates synchronously" \
  "$(pg_psql primary "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" sync
expect_eq "the standby's own copy of the settings names itself as synchronous standby" \
  "$(pg_psql standby "SHOW synchronous_standby_names")" standby
URI="postgresql:///gpux?host=$TMPD/pg-primary,$TMPD/pg-standby&user=postgres&target_session_attrs=read-write"
GPUXD_DB_KEEP=$URI xd_start --market open --rate-limit 0 --commit-deadline 2000 || finish
signup US USD both; deposit "$ACC" 100000000
req GET /v1/ready
expect_eq "before the failover: /v1/ready 200" "$ST" 200

pg_kill primary
_pg_as "$PG_BIN/pg_ctl" -D "$TMPD/pg-standby/data" -w promote >/dev/null 2>&1
ok "the primary was killed and the standby promoted"
ORDER='{"client_order_id":"after-1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":300}'
# gpuxd first finds the primary gone (503 STORE_UNAVAILABLE) and reconnects to
# the promoted server; then each write waits for the missing standby
i=0 code=""
while [ $i -lt 30 ] && [ "$code" != STORE_OUTCOME_UNKNOWN ]; do
  i=$((i + 1))
  out=$(curl -s -m 20 -w ' %{http_code} %{time_total}' -X POST -H "Authorization: Bearer $KEY" \
    --data-binary "$ORDER" "$GPUXD_URL/v1/orders")
  set -- ${out##*\}}
  code=$(printf '%s' "${out%\}*}}" | jq -r '.error.code // "placed"' 2>/dev/null)
  [ "$code" = STORE_UNAVAILABLE ] && sleep 0.5
done
expect_eq "a write on the promoted server is answered STORE_OUTCOME_UNKNOWN (not left hanging)" \
  "$code ${1:-}" "STORE_OUTCOME_UNKNOWN 500"
echo "# answered after ${2:-?} s (--commit-deadline 2000: the deadline, the cancel, the reply)"
check "... by the deadline and the cancel's grace (under 5 s)" awk -v t="${2:-99}" 'BEGIN { exit !(t < 5) }'
req GET /v1/ready
expect_eq "/v1/ready fails: 503 NOT_READY" "$ST $(jqb .error.code)" "503 NOT_READY"
req GET /v1/health
expect_eq "/v1/health still answers 200 (the process is alive)" "$ST" 200
req GET /v1/quotes
expect_eq "reads are served meanwhile" "$ST" 200

# DEPLOY.md's step on the promoted server
pg_psql standby "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
pg_psql standby "SELECT pg_reload_conf()" >/dev/null
wait_for sh -c "curl -s -o /dev/null -w '%{http_code}' '$GPUXD_URL/v1/ready' | grep -qx 200"
req GET /v1/ready
expect_eq "after synchronous_standby_names = '' on it: /v1/ready 200" "$ST" 200
req POST /v1/orders "$ORDER" "$KEY"
case $ST in 200|201) ok "the unknown order sent again: answered $ST" ;; *) fail "the unknown order sent again" "$ST $BODY" ;; esac
expect_eq "... and it is one order" "$(sql "SELECT count(*) FROM orders WHERE client_order_id = 'after-1'")" 1
why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
xd_finish
