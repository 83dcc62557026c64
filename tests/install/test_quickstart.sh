#!/bin/bash
# docs/DEPLOY.md, run as its reader would: every command of its sections "One
# machine, from the package to the first payout" and "PostgreSQL", in order,
# on a fresh scratch root. What cannot run here is done the way it would be
# on the machine: `apt install` unpacks the packages (dpkg -x) and runs the
# postinst's key creation; `systemctl enable --now|restart gpuxd` starts the
# packaged gpuxd with its unit's ExecStart and /etc/default/gpuxd; paths under
# /etc and /var/lib are the scratch root's, port 8420 is a free one, `sudo` is
# dropped, `sudo -u postgres psql` is psql on a throwaway cluster (tests/pglib.sh)
# whose role gpuxd must give its password. Each command must exit 0; then the
# facts the section promises: the market open, the buyer's deposit credited
# once, a rental, the seller's payout less the trade fee, the withdrawal sent,
# the ledger's invariants, and no password in gpuxd's logs.
# serial: it builds the packages in BUILD/deb, which test_deb empties and builds again
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pglib.sh"
. "$(dirname "$0")/../exchange/xlib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DOC="$ROOT/docs/DEPLOY.md"
R="$TMPD/root"
mkdir -p "$R"

# the ```sh blocks of a section (## TITLE up to the next ## heading)
blocks() {
  awk -v t="$1" '
    /^## / { on = (substr($0, 4) == t) }
    on && /^```sh$/ { inb = 1; next }
    on && /^```$/ { inb = 0; next }
    on && inb { print }' "$DOC"
}
QS=$(blocks "One machine, from the package to the first payout")
PGS=$(blocks "PostgreSQL")
check "DEPLOY.md has the quick start's commands" test "$(printf '%s\n' "$QS" | grep -c .)" -ge 20
check "... and the PostgreSQL section's" test "$(printf '%s\n' "$PGS" | grep -c .)" -ge 6

PW=$(printf '%s\n' "$PGS" | sed -n "s/.*PASSWORD '\([^']*\)'.*/\1/p")
check "the PostgreSQL section sets a password (to look for in the logs)" test -n "$PW"

pg_start qs
"$PG_BIN/dropdb" -h "$PG_SOCK" -U postgres gpux   # the section creates it
export USER=${USER:-$(id -un)}
# the role gpuxd must give its password, as it would on a real server
sed -i '1i local all gpuxd scram-sha-256' "$PG_DIR/data/pg_hba.conf"
_pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" reload >/dev/null

# ---- what the machine does for the commands that need it ---------------------------------
N=0
qs_install() { # the packages, as apt and the postinst would leave them
  for d in "$GPUX_BUILD"/deb/gpux_*.deb "$GPUX_BUILD"/deb/gpuxd_*.deb; do dpkg -x "$d" "$R" || return 1; done
  mkdir -p "$R/var/lib/gpuxd"
  "$R/usr/lib/gpuxd/gpuxd-admin-key" "$R/etc/gpuxd/admin.key" "$(id -un)"
}
qs_start() { # gpuxd as its unit starts it, with /etc/default/gpuxd
  [ -n "${QS_PID:-}" ] && { kill "$QS_PID"; wait "$QS_PID" 2>/dev/null; }
  GPUXD_DB=/var/lib/gpuxd/gpuxd.db GPUXD_OPTS="" PGPASSFILE=""
  # shellcheck disable=SC1090
  . "$R/etc/default/gpuxd"
  N=$((N + 1))
  db=$(printf '%s' "$GPUXD_DB" | sed "s|^/var/lib/gpuxd|$R/var/lib/gpuxd|")
  # a free port the first time; the same one on a restart, as 8420 would be
  opts=$(printf '%s' "$GPUXD_OPTS" | sed "s|127\.0\.0\.1:8420|127.0.0.1:${PORT:-0}|")
  pgpass=$(printf '%s' "$PGPASSFILE" | sed "s|^/etc/gpuxd|$R/etc/gpuxd|")
  rm -f "$TMPD/qs.port"
  # shellcheck disable=SC2086
  env ${pgpass:+PGPASSFILE=$pgpass} "$R/usr/bin/gpuxd" --db "$db" \
    --admin-key-file "$R/etc/gpuxd/admin.key" $opts --port-file "$TMPD/qs.port" \
    >"$TMPD/gpuxd-qs-$N.log" 2>&1 &
  QS_PID=$!
  echo "$QS_PID" >>"$TMPD/qs.pids"   # stopped by the test when it ends
  wait_for test -s "$TMPD/qs.port" || return 1
  PORT=$(cat "$TMPD/qs.port")
  wait_for curl -fsS "http://127.0.0.1:$PORT/v1/market"
}

# One line of the doc as it runs here (see the header).
translate() {
  case $1 in
    "make deb") echo "make --no-print-directory -C '$ROOT' BUILD='$GPUX_BUILD' deb >'$TMPD/deb.log' 2>&1"; return ;;
    "sudo apt install "*) echo "qs_install"; return ;;
    "sudo systemctl enable --now gpuxd"|"sudo systemctl restart gpuxd") echo "qs_start"; return ;;
  esac
  printf '%s\n' "$1" | sed \
    -e "s|^sudo -u postgres psql |psql -X -q -h '$PG_SOCK' -U postgres -d postgres |" \
    -e 's|^sudo ||; s/| sudo /| /' \
    -e 's|install -o gpuxd -g gpuxd |install |' \
    -e "s|/etc/default/gpuxd|$R/etc/default/gpuxd|g; s|/etc/gpuxd|$R/etc/gpuxd|g" \
    -e "s|localhost:5432:|$PG_SOCK:5432:|" \
    -e "s|gpuxd@localhost/gpux?|gpuxd@$(printf '%s' "$PG_SOCK" | sed 's|/|%2F|g')/gpux?|" \
    -e "s|127\.0\.0\.1:8420|127.0.0.1:\$PORT|g" \
    -e "s#^\(\([A-Z_]*=[^ ]* \)*\)gpux #\1'$R/usr/bin/gpux' #" \
    -e "s#\$(\(\([A-Z_]*=[^ ]* \)*\)gpux #\$(\1'$R/usr/bin/gpux' #g"
}

run_section() { # NAME COMMANDS
  printf '%s\n' "$2" | while IFS= read -r line; do
    [ -z "$line" ] && continue
    case $line in "#"*) continue ;; esac
    printf '%s\n' "$(translate "$line")" >>"$TMPD/script.sh"
    printf '%s\n' "$line" >>"$TMPD/lines.txt"
  done
}
: >"$TMPD/script.sh"
: >"$TMPD/lines.txt"
run_section quickstart "$QS"
run_section postgresql "$PGS"

# run it as one shell (the doc's variables carry from step to step), stopping at
# the first command that fails and naming it
{
  echo "set -u"
  declare -f qs_install qs_start wait_for
  echo "R='$R' TMPD='$TMPD' GPUX_BUILD='$GPUX_BUILD' N=0 QS_PID=''"
  i=0
  while IFS= read -r cmd; do
    i=$((i + 1))
    printf '%s || { echo "STEP %d FAILED"; exit 1; }\n' "$cmd" "$i"
  done <"$TMPD/script.sh"
  echo 'echo "QS_PID=$QS_PID PORT=$PORT"'
} >"$TMPD/run.sh"
at_exit 'for p in $(cat "$TMPD/qs.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done'
bash "$TMPD/run.sh" >"$TMPD/run.out" 2>"$TMPD/run.err"
rc=$?
failed=$(sed -n 's/^STEP \([0-9]*\) FAILED$/\1/p' "$TMPD/run.out")
expect_eq "every command of DEPLOY.md's quick start and PostgreSQL section exits 0" "$rc" 0
if [ -n "$failed" ]; then
  fail "... the one that failed" "$(sed -n "${failed}p" "$TMPD/lines.txt"): $(tail -5 "$TMPD/run.err")"
elif [ "$rc" -ne 0 ]; then
  fail "... the script of them ran" "$(tail -5 "$TMPD/run.err")"
fi
eval "$(grep '^QS_PID=' "$TMPD/run.out")"

# ---- what the section promises ------------------------------------------------------------
GPUXD_URL="http://127.0.0.1:${PORT:-0}"
GPUXD_DB="postgresql:///gpux?host=$PG_SOCK&user=postgres"
req GET /v1/market
expect_eq "after the PostgreSQL section: gpuxd serves its new database (pre_open, no fee yet)" \
  "$ST $(jqb .state) $(jqb .fees.trade_bp)" "200 pre_open 0"
expect_eq "... whose owner is the role gpuxd, which gave its password from the password file" \
  "$(psql -X -q -At -h "$PG_SOCK" -U postgres -d gpux -c "SELECT tableowner FROM pg_tables WHERE tablename = 'ledger'")" gpuxd
SQL_DB="$R/var/lib/gpuxd/gpuxd.db"
sq() { sqlite3 -readonly "$SQL_DB" "$1"; }
expect_eq "the quick start's SQLite exchange: the buyer's deposit credited once" \
  "$(sq "SELECT count(*), sum(amount) FROM deposits WHERE reference = 'SEPA-2026-000001'")" "1|50000"
expect_eq "... a rental of 8 H200 for 2 hours" "$(sq "SELECT gpus, hours FROM rentals")" "8|2"
# 8 GPUs at 4.20 US$ for the first hour, to a seller in EUR at 0.92: floor(420 x 0.92) = 386 a
# GPU-hour, 3088 an hour; the trade fee 2 % of each GPU-hour's payout, floor(386 x 0.02) = 7
expect_eq "... the seller's first hour paid out: 3088, less the 2 % trade fee of 8 x 7 = 56" \
  "$(sq "SELECT sum(amount) FROM ledger l JOIN accounts a ON a.id = l.account WHERE a.email = 'sales@gpu-farm.example' AND l.kind IN ('payout','fee')")" 3032
expect_eq "... the seller's withdrawal of 25.00 EUR sent with the bank's reference" \
  "$(sq "SELECT amount, status, payout_reference FROM withdrawals")" "2500|sent|BANK-OUT-000001"
expect_eq "... made by the admin key of the operator's own name" \
  "$(sq "SELECT k.name FROM withdrawals w JOIN admin_keys k ON k.id = w.admin_key")" "$(id -un)"
GPUXD_DB=$SQL_DB
w=$(ledger_check)
if [ -z "$w" ]; then ok "the quick start's ledger: its invariants hold"; else fail "the quick start's ledger: its invariants hold" "$w"; fi
expect_eq "the password of the PostgreSQL section is in none of gpuxd's logs" \
  "$(cat "$TMPD"/gpuxd-qs-*.log | grep -c -- "$PW")" 0
expect_eq "the admin key file the quick start made is the user's only (0600)" \
  "$(stat -c %a "$HOME/gpuxd-admin.key")" 600
finish
