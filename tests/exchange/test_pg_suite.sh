# The whole exchange suite again, with every gpuxd on PostgreSQL: one
# throwaway cluster (tests/pglib.sh), a fresh database per gpuxd. Each test of
# tests/exchange/ runs as it does on SQLite (three at a time: they mostly
# wait on sockets); its "ok"/"not ok" lines are passed through with "pg" and
# the test's name in front. test_keys is left out: besides the key routes it
# rewrites an SQLite file into the old layout to test that file's migration
# (and test_lots_migration likewise); test_schema starts a cluster of its own
# to compare the two engines, test_secrets one whose role needs a password;
# test_sync_standby and test_overload start their own PostgreSQL clusters.
. tests/lib.sh
. tests/pglib.sh
pg_start suite
export GPUXD_BACKEND=pg GPUXD_PG_HOST="$PG_SOCK"
names=""
running=""
for t in tests/exchange/test_*.sh; do
  n=$(basename "$t" .sh)
  case $n in test_keys|test_lots_migration|test_schema|test_secrets|test_pg_suite|test_nodes*|test_failover|test_differential|test_sync_standby|test_overload) continue ;; esac
  names="$names $n"
  bash "$t" >"$TMPD/$n.out" 2>&1 </dev/null &
  echo $! >"$TMPD/$n.pid"
  running="$running $!"
  set -- $running
  if [ $# -ge 3 ]; then
    wait "$1"
    shift
    running="$*"
  fi
done
for n in $names; do
  wait "$(cat "$TMPD/$n.pid")"
  rc=$?
  sed -n -e "s/^ok - /ok - pg $n: /p" -e "s/^not ok - /not ok - pg $n: /p" "$TMPD/$n.out"
  if [ $rc -ne 0 ] && ! grep -q '^not ok' "$TMPD/$n.out"; then
    fail "pg $n exits 0" "$(tail -5 "$TMPD/$n.out")"
  fi
done
finish
