#!/bin/bash
# The local demo exchange cleans up after itself: it exits after its idle
# time with its WAL folded into the database and its socket and pid file
# removed; its WAL is checkpointed while it runs; a daemon of another gpuxd
# binary (a rebuild) is replaced; one data directory has one exchange whatever
# the runtime directory (and a second gpuxd on its database refuses to start);
# two data directories have two exchanges, also without XDG_RUNTIME_DIR; gpux
# demo status, stop and reset.
. "$(dirname "$0")/../lib.sh"
DATA="$XDG_DATA_HOME/gpux"
mkdir -p "$TMPD/bin"
cp "$GPUXD" "$TMPD/bin/gpuxd"
export GPUX_GPUXD="$TMPD/bin/gpuxd"
status() { "$GPUX" demo status --format json 2>/dev/null | jq -r ".[0].$1"; }
gone() { # PID: wait up to 10 s for it to end
  i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  ! kill -0 "$1" 2>/dev/null
}

expect_eq "demo status before anything: not running" "$(status running)" false
GPUX_DEMO_IDLE=4 "$GPUX" order buy h200 --gpus 1 --hours 1 --market --max-price 9 --yes >/dev/null 2>&1
expect_eq "an order on the local demo exchange" "$?" 0
pid=$(status pid)
SOCK=$(status socket)
RUN=$(dirname "$SOCK")
expect_eq "demo status: running, with its pid" "$(status running):$(kill -0 "$pid" && echo alive)" "true:alive"
expect_eq "its pid file" "$(cat "$DATA/gpuxd.pid")" "$pid"
"$GPUX" demo status >"$TMPD/st" 2>&1
expect_match "demo status in words" "$(head -1 "$TMPD/st")" "running \(process $pid\)"
grown() { [ "$(stat -c %s "$DATA/demo.db")" -gt 4096 ] && kill -0 "$pid" 2>/dev/null; }
check "while it runs, checkpoints fold the WAL into the database (demo.db grew past its first page)" \
  wait_for grown
if gone "$pid"; then ok "with no client it exits by itself after its idle time"
else fail "with no client it exits by itself after its idle time" "pid $pid still runs"; fi
check "its socket is removed" test ! -e "$SOCK"
check "its pid file is removed" test ! -e "$DATA/gpuxd.pid"
check "its WAL is folded into the database (no demo.db-wal left)" test ! -s "$DATA/demo.db-wal"
expect_match "its log says why it ended" "$(tail -1 "$DATA/gpuxd.log")" "idle, shutting down"
expect_eq "the order is in the database" "$(sqlite3 -readonly "$DATA/demo.db" "SELECT count(*) FROM orders WHERE account = (SELECT max(id) FROM accounts WHERE kind = 'customer')")" 1
expect_eq "demo status: not running" "$(status running):$(status pid)" "false:null"

# a stale pid file (a crash) is ignored, never signalled
echo 1 >"$DATA/gpuxd.pid"
expect_eq "a stale pid file: not running" "$(status running):$(status pid)" "false:null"
"$GPUX" quotes >/dev/null 2>&1
expect_eq "and gpux starts a new exchange over it" "$?" 0
pid=$(status pid)
check "a real pid in the pid file now (not 1)" test "$pid" != 1 -a "$pid" != null

# a rebuild: the binary is replaced (new file, same path); the old daemon too
cp "$GPUXD" "$TMPD/bin/gpuxd.new" && mv "$TMPD/bin/gpuxd.new" "$TMPD/bin/gpuxd"
expect_eq "demo status: it runs another gpuxd than gpux would start" "$(status stale_binary)" true
"$GPUX" account --format json >"$TMPD/acc" 2>/dev/null
expect_eq "after the rebuild: gpux works" "$?" 0
new=$(status pid)
check "the old daemon ($pid) was stopped" gone "$pid"
check "a new daemon ($new) from the new binary" test "$new" != "$pid" -a "$new" != null
expect_eq "... which is not stale" "$(status stale_binary)" false
expect_eq "the same demo account after the replacement" "$(jq '.[0].available_minor < 1000000' "$TMPD/acc")" true

# gpux demo stop
"$GPUX" demo stop >"$TMPD/out" 2>&1
expect_eq "demo stop: exit 0" "$?" 0
check "demo stop: the daemon is gone" gone "$new"
expect_match "demo stop says so" "$(cat "$TMPD/out")" "Stopped the local demo exchange"
"$GPUX" demo stop >"$TMPD/out" 2>&1
expect_match "demo stop again: it was not running" "$(cat "$TMPD/out")" "was not running"

# gpux demo reset
"$GPUX" demo reset </dev/null >"$TMPD/out" 2>&1
expect_eq "demo reset off a terminal without --yes: bad usage" "$?:$(test -e "$DATA/demo.db" && echo kept)" "2:kept"
"$GPUX" quotes >/dev/null 2>&1
pid=$(status pid)
"$GPUX" demo reset --yes >"$TMPD/out" 2>&1
expect_eq "demo reset --yes: exit 0" "$?" 0
check "demo reset: the daemon is gone" gone "$pid"
check "demo reset: database and key removed" test ! -e "$DATA/demo.db" -a ! -e "$DATA/demo.key"
"$GPUX" account --format json >"$TMPD/acc" 2>/dev/null
expect_eq "after the reset: a fresh demo account with the whole demo balance" "$(jq '.[0].available_minor' "$TMPD/acc")" 1000000

# one data directory, two runtime directories (su, cron, another tmux): one
# exchange, found through the pid file beside the database
"$GPUX" demo stop >/dev/null 2>&1
mkdir -p "$TMPD/run2" && chmod 700 "$TMPD/run2"
"$GPUX" account --format json >"$TMPD/r1.json" 2>/dev/null
p1=$(status pid)
XDG_RUNTIME_DIR="$TMPD/run2" "$GPUX" account --format json >"$TMPD/r2.json" 2>/dev/null
expect_eq "another runtime directory, same data directory: gpux works" "$?" 0
p2=$(XDG_RUNTIME_DIR="$TMPD/run2" "$GPUX" demo status --format json 2>/dev/null | jq -r '.[0].pid')
expect_eq "... with the exchange already running (pid $p1)" "$p2" "$p1"
expect_eq "... and one gpuxd on the data directory's database" \
  "$(pgrep -f -- "--db $DATA/demo.db" | sort | tr '\n' ' ')" "$p1 "
expect_eq "... the same demo account" "$(jq -c '[.[0].id, .[0].email]' "$TMPD/r2.json")" \
  "$(jq -c '[.[0].id, .[0].email]' "$TMPD/r1.json")"
XDG_RUNTIME_DIR="$TMPD/run2" "$GPUX" order buy h200 --gpus 1 --hours 1 --limit 0.01 --yes \
  --format json >"$TMPD/o2.json" 2>/dev/null
oid=$(jq -r '.[0].id' "$TMPD/o2.json")
"$GPUX" cancel "$oid" >"$TMPD/c1" 2>&1
expect_eq "an order placed through one runtime directory is cancelled through the other" "$?" 0
check "... and the exchange still runs" kill -0 "$p1"
"$GPUXD" --demo --socket "$TMPD/run2/second.sock" --db "$DATA/demo.db" --quiet >"$TMPD/second.log" 2>&1
expect_eq "a second gpuxd on the same database refuses to start" "$?" 1
expect_match "... naming the gpuxd that has it" "$(cat "$TMPD/second.log")" \
  "demo\.db is in use by another gpuxd \(pid $p1\)"
check "... and leaves no socket" test ! -e "$TMPD/run2/second.sock"
expect_eq "the lock beside the database is private (0600)" "$(stat -c %a "$DATA/demo.db.lock")" 600

# two data directories, one user: two exchanges (with and without XDG_RUNTIME_DIR)
"$GPUX" demo stop >/dev/null 2>&1
for rt in with without; do
  for h in a b; do
    mkdir -p "$TMPD/$rt-$h"
    if [ $rt = with ]; then
      HOME="$TMPD/$rt-$h" XDG_DATA_HOME="$TMPD/$rt-$h/data" "$GPUX" account --format json >"$TMPD/$rt-$h.json" 2>/dev/null
    else
      env -u XDG_RUNTIME_DIR HOME="$TMPD/$rt-$h" XDG_DATA_HOME="$TMPD/$rt-$h/data" \
        "$GPUX" account --format json >"$TMPD/$rt-$h.json" 2>/dev/null
    fi
  done
  sa=$(HOME="$TMPD/$rt-a" XDG_DATA_HOME="$TMPD/$rt-a/data" sh -c \
    "$([ $rt = without ] && echo 'unset XDG_RUNTIME_DIR;') \"$GPUX\" demo status --format json" | jq -r '.[0].socket')
  sb=$(HOME="$TMPD/$rt-b" XDG_DATA_HOME="$TMPD/$rt-b/data" sh -c \
    "$([ $rt = without ] && echo 'unset XDG_RUNTIME_DIR;') \"$GPUX\" demo status --format json" | jq -r '.[0].socket')
  check "$rt XDG_RUNTIME_DIR: two data directories, two sockets" test "$sa" != "$sb"
  check "$rt XDG_RUNTIME_DIR: each data directory has its own database" \
    test -s "$TMPD/$rt-a/data/gpux/demo.db" -a -s "$TMPD/$rt-b/data/gpux/demo.db"
  expect_eq "$rt XDG_RUNTIME_DIR: each has its own demo account, in its own database" \
    "$(jq -r '.[0].local_demo' "$TMPD/$rt-a.json") $(jq -r '.[0].local_demo' "$TMPD/$rt-b.json") $(for h in a b; do
        sqlite3 -readonly "$TMPD/$rt-$h/data/gpux/demo.db" "SELECT count(*) FROM accounts WHERE kind = 'customer'"; done | tr '\n' ' ')" \
    "true true 1 1 "
  for h in a b; do
    s=$([ $h = a ] && echo "$sa" || echo "$sb")
    d=$(dirname "$s")
    pf="$TMPD/$rt-$h/data/gpux/gpuxd.pid"
    if [ -s "$pf" ]; then kill "$(cat "$pf")" 2>/dev/null; fi
    [ $rt = without ] && at_exit "rm -rf '$d'"
  done
done
finish
