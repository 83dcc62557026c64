#!/bin/sh
# Nothing the user presses waits on the network, in a real terminal (tmux,
# a server of its own): with no exchange configured gpux uses its local demo
# exchange; when that one is frozen (SIGSTOP: it accepts on its socket and
# never answers), gpux still draws its first frame, and q ends it at once —
# while the exchange is still frozen, not after the client's timeouts (the
# demo account's check alone waits 15 s). A second gpux then finds the
# thawed exchange and shows live prices.
. tests/lib.sh

cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

nsock=0
open_tui() { # W H: gpux on its local demo exchange, monochrome, UTF-8
  tmx kill-server 2>/dev/null
  nsock=$((nsock + 1)); TMUX_SOCK="$TMPD/tmux-$nsock.sock"
  tui_start "$1" "$2" env NO_COLOR=1 LANG=C.UTF-8 "$TMPD/gpux-run" --lang en
}

# the local demo exchange, started by a first gpux
open_tui 80 24
tui_wait 'prices updated' || { fail "the local demo exchange starts" "$(tui_screen)"; finish; }
tui_keys q
tui_wait 'EXIT=0' || fail "the first gpux quits" "$(tui_screen | tail -3)"
pidfile="$XDG_DATA_HOME/gpux/gpuxd.pid"   # beside the demo database
pid=$(cat "$pidfile" 2>/dev/null)
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
  fail "the local demo exchange runs on" "no pid in $pidfile"
  finish
fi
ok "the local demo exchange runs on after gpux (pid $pid)"

# frozen: its socket accepts, nothing answers
kill -STOP "$pid"
at_exit "kill -CONT $pid 2>/dev/null"
: >"$GPUX_FRAME_LOG"
open_tui 80 24
i=0
while [ $i -lt 100 ] && ! [ -s "$GPUX_FRAME_LOG" ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$GPUX_FRAME_LOG" ] && tui_wait 'H200 Hopper' && ok "a frozen exchange: the first frame is drawn" ||
  fail "a frozen exchange: the first frame" "$(tui_screen)"
tui_keys q
if tui_wait 'EXIT=0'; then
  # still frozen: nothing was waited for
  if [ "$(ps -o stat= -p "$pid" | cut -c1)" = T ]; then
    ok "q ends gpux at once while the exchange is frozen"
  else
    fail "q ends gpux while the exchange is frozen" "the exchange is no longer stopped"
  fi
else
  fail "q ends gpux while the exchange is frozen" "$(tui_screen | tail -3)"
fi

# thawed: the next gpux finds it
kill -CONT "$pid"
open_tui 80 24
tui_wait 'prices updated' && ok "thawed, the exchange answers the next gpux" ||
  fail "thawed, the next gpux" "$(tui_screen)"
tui_keys q
tui_wait 'EXIT=0' >/dev/null
finish
