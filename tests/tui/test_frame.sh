#!/bin/sh
# The frame loop in a real terminal (tmux, a server and socket of its own per
# run) against a real gpuxd --demo: resizes after mouse reports, a dialog
# through a shrink, the F-keys and escape sequences of TERM=vt100 and
# xterm-256color. Every check polls the screen until it shows what a user
# would see.
. tests/lib.sh

start_gpuxd --demo --quiet --clock-speed 0.001 || finish
KEY=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"frame@example.pt","country":"PT","currency":"EUR","role":"buyer"}' | jq -r .api_key)
curl -sS -X POST -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/deposits" \
  -d '{"amount_minor":500000}' >/dev/null

cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

nsock=0
open_tui() { # W H [VAR=value...]: gpux on the demo exchange, monochrome, UTF-8
  tmx kill-server 2>/dev/null
  nsock=$((nsock + 1)); TMUX_SOCK="$TMPD/tmux-$nsock.sock"
  w=$1; h=$2; shift 2
  tui_start "$w" "$h" env NO_COLOR=1 LANG=C.UTF-8 HOME="$TMPD" XDG_CONFIG_HOME="$TMPD/cfg" \
    GPUX_API_KEY="$KEY" "$@" "$TMPD/gpux-run" --api "$GPUXD_URL"
  tui_wait 'H200 Hopper' || { fail "the tables appear" "$(tui_screen)"; finish; }
}
line() { tui_screen | sed -n "$1p"; }
# X10 mouse reports typed into the pane, as a terminal sends them.
mouse() { # CODE X Y
  fmt="\\033[M\\$(printf %03o $((32 + $1)))\\$(printf %03o $((33 + $2)))\\$(printf %03o $((33 + $3)))"
  tmx send-keys -t t -l "$(printf "$fmt")"
}
click() { mouse 0 "$1" "$2"; mouse 3 "$1" "$2"; } # press and release
# The screen line (1-based) of the table's cursor row, drawn in reverse video
# (the monochrome theme), among lines 3 to H-2 of a screen H lines high.
ESC=$(printf '\033')
cursor_line() { # H
  tmx capture-pane -e -p -t t | grep -nE "$ESC\\[([0-9;]*;)?7m" | cut -d: -f1 |
    awk -v h="$1" '$1 >= 3 && $1 <= h - 2' | head -1
}
wait_cursor_line() { # H N: the cursor row is line N within 5 s
  j=0
  while [ $j -lt 50 ]; do
    [ "$(cursor_line "$1")" = "$2" ] && return 0
    sleep 0.1; j=$((j + 1))
  done
  return 1
}
wait_line() { # N PATTERN: line N of the screen matches within 5 s
  j=0
  while [ $j -lt 50 ]; do
    line "$1" | grep -qE -- "$2" && return 0
    sleep 0.1; j=$((j + 1))
  done
  return 1
}

# ---- a resize after a click is drawn without a key ------------------------------------
open_tui 100 30
wait_line 29 'prices updated' || fail "the status bar at 100x30" "$(tui_screen | tail -3)"
click 3 5
wait_cursor_line 30 6 || fail "the click puts the cursor on line 6" "line $(cursor_line 30)"
tui_resize 80 24 && wait_line 23 'prices updated' && wait_line 24 'F1Help' &&
  ok "after a click, a shrink to 80x24 draws the status and F-key bars" ||
  fail "resize after a click" "$(tui_screen | tail -4)"
click 3 6
wait_cursor_line 24 7 || fail "at 80x24 the click puts the cursor on line 7" "line $(cursor_line 24)"
mouse 64 3 6   # a wheel report too: three rows up from the click's
wait_cursor_line 24 4 || fail "the click and the wheel put the cursor on line 4" "line $(cursor_line 24)"
tui_resize 120 35 && wait_line 34 'prices updated' && wait_line 35 'F1Help' &&
  ok "after a click and a wheel, a growth to 120x35 draws them" ||
  fail "resize after clicks" "$(tui_screen | tail -4)"
# a press, its release and a wheel turn in one write (a busy machine, a fast
# mouse): curses reads them at once; the click is not lost behind the wheel
report() { # CODE X Y: one report, as printf's format
  printf '%s' "\\033[M\\$(printf %03o $((32 + $1)))\\$(printf %03o $((33 + $2)))\\$(printf %03o $((33 + $3)))"
}
tmx send-keys -t t -l "$(printf "$(report 0 3 8)$(report 3 3 8)$(report 64 3 8)")"
wait_cursor_line 35 6 && ok "a click and a wheel in one write: the click, then three rows up (line 6)" ||
  fail "a click and a wheel in one write" "line $(cursor_line 35)"

# ---- a dialog through a shrink from 200x50 to 80x24 -------------------------------------
open_tui 200 50
tui_keys b
tui_wait 'Preview by the exchange' || fail "b opens the order form" "$(tui_screen)"
tui_keys Enter
tui_wait 'Place this order' || fail "Enter asks to confirm" "$(tui_screen)"
tui_resize 80 24 || fail "a frame at 80x24" "$(tail -1 "$GPUX_FRAME_LOG")"
tui_wait 'Place this order' || fail "the dialog after the shrink" "$(tui_screen)"
blanks() { b=0; for n in 1 2 3 24; do [ -z "$(line $n | tr -d ' ')" ] && b=$((b + 1)); done; echo $b; }
j=0; while [ $j -lt 50 ] && [ "$(blanks)" != 0 ]; do sleep 0.1; j=$((j + 1)); done
expect_eq "a dialog shrunk from 200x50 to 80x24: rows 1-3 and the key bar drawn" "$(blanks)" 0
# text written to the terminal behind gpux's back (as another program could):
# Ctrl-L draws the whole screen again, the dialog included, and the text is gone
printf '\033[12;20HSTRAY-TEXT-ON-SCREEN' >"$(tmx display-message -p -t t '#{pane_tty}')"
tui_wait 'STRAY-TEXT-ON-SCREEN' || fail "text written to the pane's terminal shows" "$(tui_screen)"
tui_keys C-l
tui_wait_gone 'STRAY-TEXT-ON-SCREEN' && tui_wait 'Place this order' &&
  ok "Ctrl-L in the confirmation redraws it (what was written over it is gone)" ||
  fail "Ctrl-L in a confirmation" "$(tui_screen)"
tui_keys n
tui_wait_gone 'Place this order' || fail "n closes the dialog"
tui_wait 'Not placed' && ok "... and n still cancels" || fail "n after Ctrl-L" "$(tui_screen)"

# ---- F-keys and escape sequences by terminal type ---------------------------------------
for term in vt100 xterm-256color; do
  open_tui 80 24 TERM=$term
  tui_wait 'F5' || fail "$term: the F-key bar" "$(line 24)"
  tui_keys F5
  tui_wait 'Preview by the exchange' && ok "$term: F5 opens the order form, not tab 5" ||
    fail "$term: F5" "$(tui_screen)"
  # End as tmux sends it, in a form field: the form stays, no tab 4. A 2 typed
  # after it shows that it was read (keys are read in order): GPUs 1 → 12
  tmx send-keys -t t -l "$(printf '\033[4~')"
  tui_keys 2
  tui_wait '^GPUs +12( |$)' && tui_wait 'Preview by the exchange' && ! line 1 | grep -q 'Image' &&
    ok "$term: End (\\e[4~) in the order form keeps the form" || fail "$term: End" "$(tui_screen)"
  # an unknown sequence is swallowed whole, never typed: a 3 after it, GPUs 12 → 123
  tmx send-keys -t t -l "$(printf '\033[99;7~')"
  tui_keys 3
  if tui_wait '^GPUs +123( |$)' && ! tui_screen | grep -q '99;7~'; then
    ok "$term: an unknown sequence is swallowed whole"
  else
    fail "$term: an unknown sequence was typed" "$(tui_screen)"
  fi
  tui_keys Escape
  tui_wait 'H200 Hopper' || fail "$term: Esc back to the tables"
  tui_keys F10
  tui_wait 'EXIT=0' && ok "$term: F10 quits" || fail "$term: F10" "$(tui_screen)"
done

finish
