#!/bin/sh
# Copy through OSC 52 in a real terminal (tmux with set-clipboard on, which
# takes the sequence into its paste buffer as a desktop terminal takes it
# into the clipboard): y on the tables copies the cursor row's cell, and the
# buffer holds exactly it; a terminal that takes no OSC 52 (TERM=linux,
# outside tmux) is told so in the status bar and nothing is written.
# Against a real gpuxd --demo; every check polls for what a user would see.
. tests/lib.sh

start_gpuxd --demo --quiet --clock-speed 0.001 || finish

open_tui() { # VAR=value...: gpux on the demo exchange, 120x30
  tmx kill-server 2>/dev/null
  # env's -u before its assignments
  tui_start 120 30 env "$@" NO_COLOR=1 LANG=C.UTF-8 HOME="$TMPD" XDG_CONFIG_HOME="$TMPD/cfg" \
    XDG_STATE_HOME="$TMPD/state" "$GPUX" --api "$GPUXD_URL"
  tmx set-option -g set-clipboard on
  tui_wait 'H200 Hopper' || { fail "the tables appear" "$(tui_screen)"; finish; }
}
buffer() { tmx show-buffer 2>/dev/null; }
wait_buffer() { # TEXT: the paste buffer holds exactly TEXT within 5 s
  j=0
  while [ $j -lt 50 ]; do
    [ "$(buffer)" = "$1" ] && return 0
    sleep 0.1; j=$((j + 1))
  done
  return 1
}

# ---- y: the first row's GPU (no sort yet), then its memory once sorted by it ----
open_tui
first=$(tui_screen | sed -n 3p | awk '{print $1}')
tui_keys y
tui_wait 'Copied the GPU.s name to the clipboard' &&
  wait_buffer "$first" && ok "y copies the cursor row's GPU through OSC 52 ($first)" ||
  fail "y copies the GPU's name" "buffer [$(buffer)] first [$first] $(tui_screen | tail -2)"
tui_keys : && tui_keys -l 'sort memory desc' && tui_keys Enter
tui_wait 'Mem(ory|…) *▼' || fail "sorted by memory" "$(tui_screen | head -3)"
tui_keys y
tui_wait 'Copied Memory of B300' && wait_buffer "288 GB" &&
  ok "y copies the sorted column's cell (288 GB)" ||
  fail "y copies the memory cell" "buffer [$(buffer)] $(tui_screen | tail -2)"

# ---- a terminal without OSC 52: said, nothing copied ----
open_tui -u TMUX TERM=linux
tmx delete-buffer 2>/dev/null
tui_keys y
tui_wait 'TERM=linux takes no OSC 52 copy' &&
  ok "TERM=linux: the status bar says the terminal takes no copy" ||
  fail "TERM=linux says so" "$(tui_screen | tail -2)"
[ -z "$(buffer)" ] && ok "nothing reached the paste buffer" || fail "no copy" "[$(buffer)]"

finish
