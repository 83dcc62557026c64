# PostgreSQL clusters for the tests (sourced after tests/lib.sh).
#
#   pg_start NAME [-c opt=value ...]   initdb a cluster into $TMPD/pg-NAME (owned by
#                             the unprivileged `postgres` system user: PostgreSQL
#                             refuses to run as root), listening only on a Unix
#                             socket inside that directory; waits until it
#                             accepts connections and creates database "gpux".
#                             Sets PG_DIR PG_SOCK PG_URI. Stopped and removed at
#                             exit, also when the test fails.
#   pg_standby NAME PRIMARY   a streaming standby of cluster PRIMARY made with
#                             pg_basebackup -R, started; sets the same variables.
#   pg_stop NAME [mode]       pg_ctl stop (fast unless mode says otherwise)
#   pg_kill NAME              kill -9 the cluster's postmaster (by its own pid)
#   pg_psql NAME SQL          one query, unaligned rows "a|b"
#   pg_uri NAME               the libpq URI of a cluster
#
# Nothing here touches the machine's own clusters: every path is under $TMPD,
# every socket is in its cluster's directory, no TCP port is opened. If
# PostgreSQL is not installed or a cluster does not start, the test FAILS with
# the reason: it never skips.
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
_pg_clusters=""

_pg_as() { # run a command as the postgres system user when we are root
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

_pg_require() {
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    fail "PostgreSQL is installed" "no initdb under /usr/lib/postgresql/*/bin: run scripts/deps.sh check"
    finish
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    fail "PostgreSQL can run unprivileged" "there is no 'postgres' system user"
    finish
  fi
}

pg_uri() { # NAME — a libpq URI on the cluster's Unix socket
  printf 'postgresql:///gpux?host=%s&user=postgres' "$TMPD/pg-$1"
}

_pg_set() { PG_DIR="$TMPD/pg-$1"; PG_SOCK="$PG_DIR"; PG_URI=$(pg_uri "$1"); }

_pg_wait_ready() { # NAME
  i=0
  while [ $i -lt 150 ]; do
    "$PG_BIN/pg_isready" -q -h "$TMPD/pg-$1" -d postgres -U postgres && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

_pg_launch() { # NAME — start an initialised data directory
  _d="$TMPD/pg-$1"
  if ! _pg_as "$PG_BIN/pg_ctl" -D "$_d/data" -l "$_d/log" -w -t 30 \
      -o "-k $_d -c listen_addresses=''" start >/dev/null 2>&1; then
    fail "PostgreSQL cluster $1 starts" "$(tail -5 "$_d/log" 2>/dev/null)"
    finish
  fi
  _pg_wait_ready "$1" || { fail "PostgreSQL cluster $1 accepts connections" "$(tail -5 "$_d/log")"; finish; }
}

pg_start() { # NAME [-c opt=value ...]
  _pg_require
  _n=$1; shift
  _d="$TMPD/pg-$_n"
  mkdir -p "$_d"
  # the test's own directory must be traversable by the postgres user
  chmod 755 "$TMPD"
  chown postgres "$_d" 2>/dev/null
  at_exit "_pg_cleanup $_n"
  _pg_clusters="$_pg_clusters $_n"
  if ! _pg_as "$PG_BIN/initdb" -D "$_d/data" -U postgres -A trust -N -E UTF8 --locale=C.UTF-8 \
      >"$_d/initdb.log" 2>&1; then
    fail "PostgreSQL cluster $_n is initialised" "$(tail -5 "$_d/initdb.log")"
    finish
  fi
  {
    echo "unix_socket_directories = '$_d'"
    echo "listen_addresses = ''"
    echo "max_connections = 200"
    echo "wal_level = replica"
    echo "max_wal_senders = 4"
    echo "fsync = ${PG_FSYNC:-off}"
    for _o in "$@"; do [ "$_o" = "-c" ] || echo "$_o"; done
  } >>"$_d/data/postgresql.conf"
  echo "local replication all trust" >>"$_d/data/pg_hba.conf"
  _pg_launch "$_n"
  if ! _pg_as "$PG_BIN/createdb" -h "$_d" -U postgres gpux >/dev/null 2>&1; then
    fail "database gpux is created on cluster $_n"
    finish
  fi
  _pg_set "$_n"
}

pg_standby() { # NAME PRIMARY — streaming replica via pg_basebackup -R
  _pg_require
  _n=$1 _p=$2
  _d="$TMPD/pg-$_n"
  mkdir -p "$_d"
  chown postgres "$_d" 2>/dev/null
  at_exit "_pg_cleanup $_n"
  _pg_clusters="$_pg_clusters $_n"
  if ! _pg_as "$PG_BIN/pg_basebackup" -h "$TMPD/pg-$_p" -U postgres -D "$_d/data" -R \
      -X stream -c fast >"$_d/basebackup.log" 2>&1; then
    fail "standby $_n is copied from $_p" "$(tail -5 "$_d/basebackup.log")"
    finish
  fi
  chmod 700 "$_d/data"
  {
    echo "unix_socket_directories = '$_d'"
    echo "primary_conninfo = 'host=$TMPD/pg-$_p user=postgres application_name=$_n'"
  } >>"$_d/data/postgresql.auto.conf"
  _pg_launch "$_n"
  _pg_set "$_n"
}

pg_psql() { # NAME SQL
  "$PG_BIN/psql" -X -q -At -h "$TMPD/pg-$1" -U postgres -d gpux -v ON_ERROR_STOP=1 -c "$2"
}

pg_pid() { head -1 "$TMPD/pg-$1/data/postmaster.pid" 2>/dev/null; }

pg_stop() { # NAME [mode]
  [ -f "$TMPD/pg-$1/data/postmaster.pid" ] || return 0
  _pg_as "$PG_BIN/pg_ctl" -D "$TMPD/pg-$1/data" -m "${2:-fast}" -w -t 30 stop >/dev/null 2>&1
}

pg_kill() { # NAME — kill -9 of the postmaster and of its own children (by pid)
  _p=$(pg_pid "$1")
  [ -n "$_p" ] || return 0
  _kids=$(pgrep -P "$_p")
  # shellcheck disable=SC2086
  kill -9 "$_p" $_kids 2>/dev/null
  i=0
  while [ $i -lt 100 ] && kill -0 "$_p" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
  return 0
}

_pg_cleanup() { # NAME — stop (immediate if need be) and remove
  pg_stop "$1" fast || pg_stop "$1" immediate
  _p=$(pg_pid "$1")
  [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null && pg_kill "$1"
  rm -rf "$TMPD/pg-$1"
}
