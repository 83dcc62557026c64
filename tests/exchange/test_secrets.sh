#!/bin/bash
# What gpuxd keeps to itself. Files: the database, its WAL and shared-memory
# files, its lock, the pid and port files are created mode 0600 (gpuxd runs
# with umask 077). Passwords: on a PostgreSQL cluster that requires one
# (scram-sha-256 for its role), gpuxd started with the password in the URI,
# in a ?password= parameter and in a key=value string, serving requests,
# restarted, refused for a wrong password, pointed at a host that is not
# there — and every log it wrote holds the password nowhere, while it still
# names the database (user, host) with "***" where the password was. A gpuxd
# started while its database is down answers 503 STORE_UNAVAILABLE with
# Retry-After (GET /v1/health 200, GET /v1/ready 503 NOT_READY), says so in
# its log, and serves once the database is back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/xlib.sh"
. "$(dirname "$0")/../pglib.sh"

# ---- file modes (SQLite) -----------------------------------------------------------
xd_start --market open --pid-file "$TMPD/gpuxd.pid" || finish
signup US USD buyer
for f in "$GPUXD_DB" "$GPUXD_DB-wal" "$GPUXD_DB-shm" "$GPUXD_DB.lock" "$TMPD/gpuxd.pid" \
  "$TMPD/gpuxd-1.port"; do
  expect_eq "$(basename "$f") is mode 0600" "$(stat -c %a "$f" 2>&1)" 600
done
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# ---- passwords (PostgreSQL) -----------------------------------------------------------
PW='Pw-S3cr3t-x9'
pg_start sec
pg_psql sec "CREATE ROLE gpuxpw LOGIN PASSWORD '$PW'" >/dev/null
"$PG_BIN/createdb" -h "$PG_SOCK" -U postgres -O gpuxpw gpuxpw
# that role must give its password (the cluster's other lines say trust)
sed -i '1i local gpuxpw gpuxpw scram-sha-256' "$PG_DIR/data/pg_hba.conf"
_pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" reload >/dev/null
check "the role needs its password (psql without it is refused)" \
  sh -c "! PGPASSWORD= psql -X -w -h '$PG_SOCK' -U gpuxpw -d gpuxpw -c 'SELECT 1' 2>/dev/null"

URI="postgresql://gpuxpw:$PW@/gpuxpw?host=$PG_SOCK"
GPUXD_DB_KEEP=$URI start_gpuxd --admin-key-file "$TMPD/admin.key" --market open || finish
expect_match "with the password in the URI: gpuxd serves" "$(curl -s "$GPUXD_URL/v1/market" | jq -r .state)" open
signup PT EUR buyer
deposit "$ACC" 5000
expect_eq "... a deposit on that database" "$ST" 201
expect_match "its start-up line names the database without the password" \
  "$(grep 'database' "$GPUXD_LOG" | head -1)" "database postgresql://gpuxpw:\*\*\*@/gpuxpw\?host="
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
GPUXD_DB_KEEP="postgresql:///gpuxpw?host=$PG_SOCK&user=gpuxpw&password=$PW" start_gpuxd \
  --admin-key-file "$TMPD/admin.key" || finish
expect_match "restarted with ?password=: it serves the same database" \
  "$(curl -s -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/account" | jq -r .balance.available_minor)" 5000
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
GPUXD_DB_KEEP="host=$PG_SOCK dbname=gpuxpw user=gpuxpw password='$PW'" start_gpuxd \
  --admin-key-file "$TMPD/admin.key" || finish
expect_eq "a key=value string with a quoted password: it serves" \
  "$(curl -s -o /dev/null -w '%{http_code}' "$GPUXD_URL/v1/market")" 200
kill "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# a wrong password and a host that is not there: the errors, in the log
wrong() { # description, --db value
  _n=$(( ${_gpuxd_n:-0} + 1 )); _gpuxd_n=$_n
  "$GPUXD" --listen 127.0.0.1:0 --port-file "$TMPD/gpuxd-$_n.port" --db "$2" >"$TMPD/gpuxd-$_n.log" 2>&1 &
  _p=$!
  wait_for grep -q 'trying again every second' "$TMPD/gpuxd-$_n.log"
  expect_match "$1: the log says why, without the password" "$(head -3 "$TMPD/gpuxd-$_n.log")" "$3"
  kill "$_p"; wait "$_p" 2>/dev/null
}
wrong "a wrong password (URI)" "postgresql://gpuxpw:$PW-not@/gpuxpw?host=$PG_SOCK" \
  'postgresql://gpuxpw:\*\*\*@/gpuxpw.*password authentication failed'
wrong "a host that is not there (key=value)" \
  "host=$TMPD/nowhere dbname=gpuxpw user=gpuxpw password=$PW connect_timeout=2" \
  "host=$TMPD/nowhere dbname=gpuxpw user=gpuxpw password=\*\*\* .*cannot connect"
wrong "a malformed percent-encoding in the password" "postgresql://gpuxpw:$PW%zz@/gpuxpw?host=$PG_SOCK" \
  'postgresql://gpuxpw:\*\*\*@'

# ---- the database down at start ----------------------------------------------------------
pg_stop sec
_n=$(( ${_gpuxd_n:-0} + 1 )); _gpuxd_n=$_n
"$GPUXD" --listen 127.0.0.1:0 --port-file "$TMPD/gpuxd-$_n.port" --db "$URI" \
  --admin-key-file "$TMPD/admin.key" >"$TMPD/gpuxd-$_n.log" 2>&1 &
DOWN_PID=$!
at_exit "kill $DOWN_PID 2>/dev/null"
wait_for test -s "$TMPD/gpuxd-$_n.port" || fail "gpuxd starts while its database is down" \
  "$(tail -3 "$TMPD/gpuxd-$_n.log")"
U="http://127.0.0.1:$(cat "$TMPD/gpuxd-$_n.port")"
st=$(curl -s -D "$TMPD/h" -o "$TMPD/b" -w '%{http_code}' "$U/v1/market")
expect_eq "started while its database is down: it answers 503" "$st" 503
expect_eq "... STORE_UNAVAILABLE" "$(jq -r .error.code "$TMPD/b")" STORE_UNAVAILABLE
expect_match "... with Retry-After: 1" "$(tr -d '\r' <"$TMPD/h")" "Retry-After: 1"
check "... and keeps running" kill -0 "$DOWN_PID"
expect_eq "... alive for a load balancer: GET /v1/health 200" \
  "$(curl -s -o /dev/null -w '%{http_code}' "$U/v1/health")" 200
st=$(curl -s -o "$TMPD/b" -w '%{http_code}' "$U/v1/ready")
expect_eq "... not ready: GET /v1/ready 503 NOT_READY" "$st $(jq -r .error.code "$TMPD/b")" "503 NOT_READY"
expect_match "its log says it answers 503 and tries again" "$(cat "$TMPD/gpuxd-$_n.log")" \
  "answering 503 STORE_UNAVAILABLE and trying again every second"
_pg_launch sec
if wait_for sh -c "curl -sf '$U/v1/market' >/dev/null"; then
  ok "once the database is back it serves by itself (200)"
  wait_for sh -c "curl -sf '$U/v1/ready' >/dev/null" && ok "... and is ready (GET /v1/ready 200)" ||
    fail "... and is ready (GET /v1/ready 200)" "$(curl -s "$U/v1/ready")"
else
  fail "once the database is back it serves by itself" "$(tail -3 "$TMPD/gpuxd-$_n.log")"
fi
expect_match "... and says so" "$(cat "$TMPD/gpuxd-$_n.log")" "the database answers again: serving"
expect_match "... the same database: the account is there" \
  "$(curl -s -H "Authorization: Bearer $KEY" "$U/v1/account" | jq -r .balance.available_minor)" 5000
kill "$DOWN_PID"; wait "$DOWN_PID" 2>/dev/null

# ---- every log gpuxd wrote: no password ------------------------------------------------------
n=$(ls "$TMPD"/gpuxd-*.log | wc -l)
expect_eq "the password is in none of gpuxd's $n logs" "$(cat "$TMPD"/gpuxd-*.log | grep -c -- "$PW")" 0
expect_eq "... nor its percent-decoded or quoted forms" \
  "$(cat "$TMPD"/gpuxd-*.log | grep -c -e "S3cr3t")" 0
xd_finish
