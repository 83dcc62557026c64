# Shared helpers for the shell tests (sourced, POSIX sh).
#
#   ok "description"           record a pass
#   fail "description" [why]   record a failure
#   check "description" CMD... pass when CMD succeeds
#   expect_eq "desc" GOT WANT  pass when the strings are equal
#   skip "description" "why"   record a skip: "ok - description # SKIP why". A skip
#                              is never a pass: tests/run.sh counts it apart, and under
#                              CI (CI set in the environment; .ci/run sets it) it is a
#                              failure unless why starts with "CI: " and says why the
#                              check cannot run on a CI machine (a skip of something
#                              scripts/deps.sh can install is a failure there). A skip
#                              without a reason is a failure everywhere.
#   start_gpuxd [ARGS...]      start a gpuxd on a free loopback port (port 0 +
#                              --port-file) with a fresh database (or $GPUXD_DB_KEEP);
#                              sets GPUXD_PID, GPUXD_URL, GPUXD_DB, GPUXD_LOG.
#                              GPUXD_BACKEND=pg: the fresh database is one of its own
#                              on the PostgreSQL cluster whose socket directory is
#                              $GPUXD_PG_HOST (tests/exchange/test_pg_suite.sh)
#   wait_for CMD...            retry CMD for up to 10 s
#   tmux helpers: tui_start W H CMD..., tui_wait TEXT, tui_screen, tui_keys K...,
#                 tui_resize W H (returns once gpux has drawn a frame of W×H),
#                 tui_wait_frame W H (gpux's last frame is W×H, 10 s)
#
# Tests print "ok - ..." / "not ok - ..."; tests/run.sh counts them.
# A test script ends with `finish`, which exits non-zero if anything failed.
set -u
: "${GPUX_BUILD:=$(pwd)/build}"
GPUX="$GPUX_BUILD/gpux"
GPUXD="$GPUX_BUILD/gpuxd"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gpuxtest.XXXXXX")
_cleanups=""
_failed=0

ok() { echo "ok - $1"; }
fail() { echo "not ok - $1${2:+: $2}"; _failed=$((_failed + 1)); }
skip() {
  if [ -z "${2:-}" ]; then fail "$1" "skipped without saying why"; return; fi
  echo "ok - $1 # SKIP $2"
}
check() { d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else fail "$d"; fi; }
expect_eq() {
  if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got [$2], want [$3]"; fi
}
expect_match() { # desc text regex
  if printf '%s' "$2" | grep -qE -- "$3"; then ok "$1"; else fail "$1" "[$2] does not match /$3/"; fi
}
at_exit() { _cleanups="$1; $_cleanups"; }
# Every test has its own HOME and XDG directories: gpux's config file and the
# local demo exchange that gpux starts when no exchange is configured (the
# embedded default, api/local.c) live and die with the test.
export HOME="$TMPD/home" XDG_CONFIG_HOME="$TMPD/home/.config"
export XDG_DATA_HOME="$TMPD/home/.local/share" XDG_RUNTIME_DIR="$TMPD/run"
unset GPUX_API GPUX_API_KEY GPUX_TIMEOUT
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
stop_local_gpuxd() { # the local demo exchanges gpux may have started (one per data
  # directory, its pid file beside its database), each waited for until it has
  # exited (its socket gone with it), at most 10 s
  _stopped=""
  for _pf in $(find "$TMPD" -name gpuxd.pid 2>/dev/null); do
    [ -s "$_pf" ] || continue
    _p=$(cat "$_pf")
    kill "$_p" 2>/dev/null && _stopped="$_stopped $_p"
    rm -f "$_pf"
  done
  for _p in $_stopped; do
    _i=0
    while kill -0 "$_p" 2>/dev/null && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  done
}
_cleanup() { eval "$_cleanups"; stop_local_gpuxd; rm -rf "$TMPD"; }
trap _cleanup EXIT INT TERM

wait_for() { # retry a command for up to 10 s
  i=0
  while [ $i -lt 100 ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

start_gpuxd() { # args passed to gpuxd; sets GPUXD_PID GPUXD_URL GPUXD_DB GPUXD_LOG
  # port 0: the kernel picks a free port, gpuxd writes it to --port-file
  _n=$(( ${_gpuxd_n:-0} + 1 )); _gpuxd_n=$_n
  GPUXD_DB=${GPUXD_DB_KEEP:-"$TMPD/gpuxd-$_n.db"}
  if [ "${GPUXD_BACKEND:-sqlite}" = pg ] && [ -z "${GPUXD_DB_KEEP:-}" ]; then
    _pgdb="t$$_$_n"
    if ! createdb -h "$GPUXD_PG_HOST" -U postgres "$_pgdb" 2>"$TMPD/createdb.err"; then
      fail "a PostgreSQL database for gpuxd" "$(cat "$TMPD/createdb.err")"
      return 1
    fi
    GPUXD_DB="postgresql:///$_pgdb?host=$GPUXD_PG_HOST&user=postgres"
  fi
  GPUXD_LOG="$TMPD/gpuxd-$_n.log"
  rm -f "$TMPD/gpuxd-$_n.port"
  # --signup-limit 0: tests sign up as they need (test_door holds the limit);
  # --queue-wait 10000: a burst of writes on a busy machine is not refused as
  # overload (test_overload holds a bound of its own)
  "$GPUXD" --listen 127.0.0.1:0 --port-file "$TMPD/gpuxd-$_n.port" --db "$GPUXD_DB" --signup-limit 0 \
    --queue-wait 10000 "$@" \
    >"$GPUXD_LOG" 2>&1 &
  GPUXD_PID=$!
  at_exit "kill $GPUXD_PID 2>/dev/null"
  if ! wait_for test -s "$TMPD/gpuxd-$_n.port"; then
    fail "gpuxd starts" "$(tail -5 "$GPUXD_LOG")"
    return 1
  fi
  GPUXD_PORT=$(cat "$TMPD/gpuxd-$_n.port")
  GPUXD_URL="http://127.0.0.1:$GPUXD_PORT"
  # a failure said here: callers end with `|| finish`, which passes when nothing failed
  if ! wait_for curl -fsS "$GPUXD_URL/v1/market"; then
    fail "gpuxd answers GET /v1/market" "$(tail -5 "$GPUXD_LOG")"
    return 1
  fi
}

# ---- the TUI in a real terminal (tmux) ----
TMUX_SOCK="$TMPD/tmux.sock"
tmx() { tmux -S "$TMUX_SOCK" -f /dev/null "$@"; }
tui_start() { # W H command...
  w=$1; h=$2; shift 2
  # a server killed just before (tmx kill-server) must be gone, or the new session dies with it
  i=0; while tmx ls >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  # each session starts with nothing remembered (gpux keeps its tab, sorts,
  # filters and fit job per exchange under XDG_STATE_HOME): a test that
  # wants them kept sets XDG_STATE_HOME itself
  _tui_n=$(( ${_tui_n:-0} + 1 ))
  tmx new-session -d -x "$w" -y "$h" -s t -e "XDG_STATE_HOME=$TMPD/state.$_tui_n" "$@"
  at_exit "tmux -S '$TMUX_SOCK' kill-server 2>/dev/null"
}
tui_screen() { tmx capture-pane -p -t t; }
tui_keys() { tmx send-keys -t t "$@"; }
# gpux appends "frame N COLSxLINES" to $GPUX_FRAME_LOG after each frame it draws
# (tui/app.c): the marker that a resize was taken, where the screen alone
# cannot tell (tmux crops what was there until gpux redraws)
export GPUX_FRAME_LOG="$TMPD/frames"
tui_wait_frame() { # W H
  i=0
  while [ $i -lt 100 ]; do
    [ "$(tail -n 1 "$GPUX_FRAME_LOG" 2>/dev/null | cut -d' ' -f3)" = "$1x$2" ] && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
tui_resize() { tmx resize-window -t t -x "$1" -y "$2"; tui_wait_frame "$1" "$2"; }
tui_wait() { # wait until TEXT (a grep -E pattern) is on screen, 10 s
  i=0
  while [ $i -lt 100 ]; do
    tui_screen | grep -qE -- "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
tui_wait_gone() {
  i=0
  while [ $i -lt 100 ]; do
    tui_screen | grep -qE -- "$1" || return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

finish() { [ "$_failed" -eq 0 ]; exit $?; }
