# Helpers for the gpuxd black-box tests (sourced after tests/lib.sh).
#
#   xd_start [ARGS...]        start gpuxd on loopback with the admin key of these
#                             tests (market open unless ARGS say otherwise)
#   req METHOD PATH [BODY] [KEY]   one request; sets ST (HTTP status) and BODY
#   jqb FILTER                jq -r FILTER on BODY
#   signup CC CUR ROLE        open an account; sets ACC and KEY
#   deposit ACC AMOUNT [REF]  admin deposit (a reference of its own unless REF)
#   balance KEY               prints "available held"
#   sql QUERY                 read-only query on the running gpuxd's database
#                             (sqlite3, or psql for a postgresql:// database)
#   ledger_check              the ledger's invariants hold (prints why not)
#   sqlite_before_lots FILE   take a stopped gpuxd's SQLite file back to before schema
#                             version 4 (drop the lots' columns; the version is the
#                             caller's to set)
#   sqlite_before_money FILE  undo schema migration 5 in an SQLite file (its tables
#                             and columns), for the tests of older layouts
#
# Money in these tests is checked to the minor unit against the formulas of
# docs/API.md ("Money, VAT, FX and rounding"), worked out by hand in comments.
ADMIN_KEY=test-admin-key-0123456789abcdef
printf '%s\n' "$ADMIN_KEY" >"$TMPD/admin.key"
chmod 600 "$TMPD/admin.key"

xd_start() {
  start_gpuxd --admin-key-file "$TMPD/admin.key" --quiet "$@"
}

req() { # METHOD PATH [BODY] [KEY]
  _m=$1 _p=$2 _b=${3:-} _k=${4:-}
  set -- -s -o "$TMPD/resp" -w '%{http_code}' -X "$_m"
  if [ -n "$_k" ]; then set -- "$@" -H "Authorization: Bearer $_k"; fi
  if [ -n "$_b" ]; then set -- "$@" --data-binary "$_b"; fi
  ST=$(curl "$@" "$GPUXD_URL$_p")
  BODY=$(cat "$TMPD/resp")
}

jqb() { printf '%s' "$BODY" | jq -r "$1"; }

signup() { # CC CUR ROLE
  _signups=$(( ${_signups:-0} + 1 ))
  req POST /v1/accounts "{\"email\":\"t$RANDOM.$_signups@example.com\",\"country\":\"$1\",\"currency\":\"$2\",\"role\":\"$3\"}"
  ACC=$(jqb .id)
  KEY=$(jqb .api_key)
}

deposit() { # ACC AMOUNT [REFERENCE] — every real deposit names its payment
  _deposits=$(( ${_deposits:-0} + 1 ))
  req POST /v1/deposits "{\"account_id\":$1,\"amount_minor\":$2,\"reference\":\"${3:-t$$-$_deposits-$RANDOM}\"}" "$ADMIN_KEY"
}

balance() { # KEY
  req GET /v1/account "" "$1"
  jqb '"\(.balance.available_minor) \(.balance.held_minor)"'
}

advance() { # SECONDS
  req POST /v1/admin/clock "{\"advance_seconds\":$1}" "$ADMIN_KEY"
}

sql() {
  case $GPUXD_DB in
    postgres*) # x'HEX' is a blob literal in SQLite, '\xHEX'::bytea in PostgreSQL
      psql -X -q -At -v ON_ERROR_STOP=1 "$GPUXD_DB" \
        -c "$(printf '%s' "$1" | sed "s/x'\([0-9a-f]*\)'/'\\\\x\1'::bytea/g")" ;;
    *) sqlite3 -readonly "$GPUXD_DB" "$1" ;;
  esac
}
sqlite_before_lots() { # FILE
  for _c in node_gpus interconnect region regions cpu_cores ram_gb disk_gb whole_nodes nodes_free job max_total alternatives; do
    sqlite3 "$1" "ALTER TABLE orders DROP COLUMN $_c"
  done
  for _c in node_gpus interconnect region cpu_cores ram_gb disk_gb nodes; do
    sqlite3 "$1" "ALTER TABLE rentals DROP COLUMN $_c"
  done
}
# How many times TEXT appears in the stored database (the file, or a dump)
db_grep_count() {
  case $GPUXD_DB in
    postgres*) pg_dump "$GPUXD_DB" | grep -c -- "$1" ;;
    *) grep -c -- "$1" "$GPUXD_DB" 2>/dev/null ;;
  esac
}

sqlite_before_money() { # FILE
  sqlite3 "$1" "DROP TABLE settings; DROP TABLE currencies; DROP TABLE audit;
    DROP TABLE admin_keys; DROP TABLE deposits; DROP TABLE withdrawals;
    ALTER TABLE accounts DROP COLUMN debt; ALTER TABLE rentals DROP COLUMN fee_unit;
    ALTER TABLE rentals DROP COLUMN fees; DELETE FROM meta WHERE key = 'settings_version';"
}

# The ledger's invariants (docs/API.md): every entry is two rows in one
# currency summing to zero; each currency sums to zero; every balance in the
# accounts table equals the sum of its ledger rows, bucket by bucket
# (available, held, debt); no customer balance is negative (a debt is at most
# zero); held equals the holds of resting orders plus the unbilled hours of
# active rentals plus the pending withdrawals; what the accounts inside the
# exchange hold is what came in (deposits) less what went out (reversals and
# sent withdrawals).
ledger_check() {
  _why=""
  _bad=$(sql "SELECT entry FROM ledger GROUP BY entry HAVING count(*) <> 2 OR sum(amount) <> 0 OR count(DISTINCT currency) <> 1 LIMIT 3")
  [ -n "$_bad" ] && _why="$_why entries not balanced: $_bad;"
  _bad=$(sql "SELECT currency, sum(amount) FROM ledger GROUP BY currency HAVING sum(amount) <> 0")
  [ -n "$_bad" ] && _why="$_why currency sums: $_bad;"
  _bad=$(sql "SELECT a.id FROM accounts a WHERE a.available <> (SELECT coalesce(sum(amount),0) FROM ledger l WHERE l.account = a.id AND l.bucket = 'available') OR a.held <> (SELECT coalesce(sum(amount),0) FROM ledger l WHERE l.account = a.id AND l.bucket = 'held') OR a.debt <> (SELECT coalesce(sum(amount),0) FROM ledger l WHERE l.account = a.id AND l.bucket = 'debt') LIMIT 3")
  [ -n "$_bad" ] && _why="$_why balances differ from the ledger: $_bad;"
  _bad=$(sql "SELECT id FROM accounts WHERE kind IN ('customer','demo') AND (available < 0 OR held < 0 OR debt > 0) LIMIT 3")
  [ -n "$_bad" ] && _why="$_why negative: $_bad;"
  _bad=$(sql "SELECT a.id FROM accounts a WHERE a.kind IN ('customer','demo') AND a.held <> (SELECT coalesce(sum(hold),0) FROM orders o WHERE o.account = a.id) + (SELECT coalesce(sum((hours - hours_billed) * gpus * (net_unit + vat_unit)),0) FROM rentals r WHERE r.buyer = a.id AND r.status = 'active') + (SELECT coalesce(sum(amount),0) FROM withdrawals w WHERE w.account = a.id AND w.status = 'pending') LIMIT 3")
  [ -n "$_bad" ] && _why="$_why held is not holds + unbilled rentals + pending withdrawals: $_bad;"
  _bad=$(sql "SELECT currency FROM (SELECT l.currency, sum(l.amount) s FROM ledger l JOIN accounts a ON a.id = l.account WHERE a.kind <> 'external' GROUP BY l.currency) x WHERE s <> (SELECT coalesce(sum(amount),0) FROM ledger d WHERE d.kind = 'deposit' AND d.amount > 0 AND d.currency = x.currency) - (SELECT coalesce(sum(amount),0) FROM ledger d JOIN accounts e ON e.id = d.account WHERE e.kind = 'external' AND d.kind IN ('deposit_reversal','withdrawal') AND d.amount > 0 AND d.currency = x.currency)")
  [ -n "$_bad" ] && _why="$_why sum over accounts is not deposits less money out: $_bad;"
  if [ -n "$_why" ]; then echo "$_why"; return 1; fi
  return 0
}

# Every gpuxd these tests start is remembered, so xd_finish can stop them
# cleanly and look in their logs for sanitizer reports (under `make asan`,
# gpuxd's stderr goes to its log, not to the test's).
_xd_pids=""
eval "$(declare -f start_gpuxd | sed '1s/^start_gpuxd/_lib_start_gpuxd/')"
start_gpuxd() {
  _lib_start_gpuxd "$@"
  _rc=$?
  _xd_pids="$_xd_pids $GPUXD_PID"
  return $_rc
}

xd_finish() {
  for _p in $_xd_pids; do kill -TERM "$_p" 2>/dev/null; done
  for _p in $_xd_pids; do { wait "$_p"; } 2>/dev/null; done
  _san=$(grep -h -E -A3 "ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error" "$TMPD"/gpuxd-*.log 2>/dev/null | head -20)
  if [ -n "$_san" ]; then fail "gpuxd ran clean (sanitizers)" "$_san"; else ok "gpuxd ran clean (sanitizers)"; fi
  finish
}
