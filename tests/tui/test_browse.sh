#!/bin/sh
# The TUI's browse screen, end to end: the real gpux in a real terminal
# (tmux), against a real gpuxd --demo (clock 10x, so prices move often).
# Every check polls the screen until it shows what a user would see.
. tests/lib.sh

start_gpuxd --demo --clock-speed 10 || finish
CFG="$TMPD/cfg"
WL=data/workloads.json

# A wrapper that says how gpux ended, and keeps the pane open afterwards.
cat >"$TMPD/gpux-wrap" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-wrap"

H=30
nsock=0
open_tui() { # W H [VAR=value...]: gpux on the demo exchange, monochrome, UTF-8
  # each run in a tmux server of its own (a server being killed cannot race it)
  tmx kill-server 2>/dev/null
  nsock=$((nsock + 1)); TMUX_SOCK="$TMPD/tmux-$nsock.sock"
  w=$1; H=$2; shift 2
  tui_start "$w" "$H" env NO_COLOR=1 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" "$@" \
    "$TMPD/gpux-wrap" --api "$GPUXD_URL"
}
header() { tui_screen | sed -n 2p; }
rows() { tui_screen | sed -n "3,$((H - 2))p" | grep -v '^ *$'; }
# The cursor row: the data row drawn in reverse video (monochrome theme).
cursor_row() {
  tmx capture-pane -e -p -t t | sed -n "3,$((H - 2))p" | grep -E "$(printf '\033')\\[([0-9;]*;)?7m" |
    sed "s/$(printf '\033')\\[[0-9;]*m//g" | head -1
}
wait_cursor_quick() { # the cursor row matches within 1 s
  wq=0
  while [ $wq -lt 10 ]; do
    cursor_row | grep -qE -- "$1" && return 0
    sleep 0.1; wq=$((wq + 1))
  done
  return 1
}
wait_cursor() { # grep -E pattern of the cursor row
  wc=0
  while [ $wc -lt 100 ]; do
    cursor_row | grep -qE -- "$1" && return 0
    sleep 0.1; wc=$((wc + 1))
  done
  return 1
}
# Prices of the data rows, in screen order, as integers of cents ("-" none).
prices() {
  rows | sed -E 's/.*\$([0-9,]+)\.([0-9][0-9]) *$/\1\2/; t; s/.*/-/' | tr -d ,
}
sorted_ok() { # asc|desc: the known prices in order, unknown ones last
  prices | awk -v dir="$1" '
    $1 == "-" { seen_none = 1; next }
    seen_none { bad = 1 }
    NR > 1 && have && ((dir == "asc" && $1 < last) || (dir == "desc" && $1 > last)) { bad = 1 }
    { last = $1; have = 1 }
    END { exit bad }'
}

# press KEY until the header matches (grep -E) PATTERN, at most N times; each
# press waited for (the header changes) before the next, so none overshoots
press_until() { # KEY PATTERN N
  k=0
  while [ $k -lt "$3" ] && ! header | grep -qE -- "$2"; do
    h0=$(header); tui_keys "$1"; k=$((k + 1))
    j=0; while [ $j -lt 50 ] && [ "$(header)" = "$h0" ]; do sleep 0.1; j=$((j + 1)); done
  done
  header | grep -qE -- "$2"
}

# ---- each tab shows its columns ------------------------------------------------
open_tui 120 30
if ! tui_wait 'H200 Hopper'; then fail "the table appears" "$(tui_screen)"; finish; fi
tui_wait 'prices updated' && ok "the status bar says when prices were updated" ||
  fail "status: prices updated" "$(tui_screen | tail -2)"
n=$(jq '.workloads | length' $WL)
tab=0
while [ $tab -lt "$n" ]; do
  tui_keys $((tab + 1))
  first=$(jq -r ".workloads[$tab].columns[1].label" $WL)
  tui_wait "$first" || true
  seen=$(header)
  k=0
  while [ $k -lt 12 ] && header | grep -q '›'; do # scroll right while columns are hidden there
    h0=$(header)
    tui_keys l
    j=0; while [ $j -lt 50 ] && [ "$(header)" = "$h0" ]; do sleep 0.1; j=$((j + 1)); done
    seen="$seen|$(header)"
    k=$((k + 1))
  done
  tui_keys h h h h h h h h h h
  missing=""
  for label in $(jq -r ".workloads[$tab].columns[].label | gsub(\" \"; \"_\")" $WL); do
    l=$(printf '%s' "$label" | tr _ ' ')
    printf '%s' "$seen" | grep -qF -- "$l" || missing="$missing [$l]"
  done
  id=$(jq -r ".workloads[$tab].id" $WL)
  expect_eq "tab $((tab + 1)) ($id) shows all its columns" "$missing" ""
  tab=$((tab + 1))
done

# ---- sorting by price, both ways ------------------------------------------------
tui_keys 1 '<'
tui_wait 'Price/h ▲' && ok "< sorts by the price column (▲ in its header)" ||
  fail "sort indicator" "$(header)"
check "prices ascending" sorted_ok asc
tui_keys r
tui_wait 'Price/h ▼' || fail "r reverses" "$(header)"
check "prices descending after r" sorted_ok desc

# ---- unpublished values last both ways (training BF16: B300, B200 "Not published")
press_until '>' 'Tensor BF16 ▲' 10 || fail "> reaches the BF16 column" "$(header)"
last2=$(rows | tail -2 | awk '{print $1}' | tr '\n' ' ')
expect_eq "BF16 ascending: Not published (B200, B300) last" "$last2" "B200 B300 "
tui_keys r
tui_wait 'Tensor BF16 ▼' || fail "BF16 descending" "$(header)"
last2=$(rows | tail -2 | awk '{print $1}' | tr '\n' ' ')
expect_eq "BF16 descending: Not published still last" "$last2" "B200 B300 "
expect_match "BF16 descending: 1,307 TFLOPS first" "$(rows | head -1)" '^MI3'

# ---- ← → keep the GPU column and reveal the next columns; the price stays -----------
open_tui 80 24
tui_wait 'H200 Hopper' || fail "table at 80x24"
# the price is what a buyer compares: pinned at the right edge, as the GPU
# column is at the left, with › before it while columns between are hidden
expect_match "80 columns: the price column shows at once, at the right edge" "$(header)" '› +Price/h$'
expect_match "80 columns: each row ends with its price" "$(rows | grep 'H200')" '\$[0-9]+\.[0-9][0-9]$'
press_until l 'Full training, 8 GPUs' 10
expect_match "→ reveals the last columns" "$(header)" 'Full training, 8 GPUs'
expect_match "→ keeps the GPU column first" "$(header)" '^GPU +‹'
expect_match "→ keeps the price at the right edge" "$(header)" 'Price/h$'
expect_match "→ keeps the GPU names in the rows" "$(rows | head -1)" '^B300 Blackwell Ultra'
expect_match "the columns left of the view are gone" "$(header | grep -c 'Memory type')" '^0$'
# further right, past the last spec column, the 24 h trend (not pinned at 80
# columns) and then nothing more to reveal
press_until l '^[^›]*$' 12   # until no › is left
expect_match "→ at the end: the 24 h trend beside the price" "$(header)" '24 h trend +Price/h$'
expect_match "scrolled to the end: no › left" "$(header | grep -c '›')" '^0$'
tui_keys h h h h h h h h h h h h
tui_wait 'Memory type' && ok "← brings the first columns back" || fail "← scrolls back" "$(header)"
expect_match "at the left edge there is no ‹" "$(header | grep -c '‹')" '^0$'
expect_match "columns hidden on the right: › before the pinned price" "$(header)" '› +Price/h$'

# ---- 80x24, the fine-tuning tab: names whole, every tab title whole -------------------
tui_keys 2
tui_wait 'QLoRA base model' || fail "the fine-tuning tab at 80x24" "$(header)"
expect_match "80x24 fine-tuning: GPU, memory, bandwidth and the price" "$(header)" \
  '^GPU +Memory +Bandwidth .*Price/h$'
expect_match "80x24: the GPU name is whole, its architecture not said twice" \
  "$(rows | grep 'RTX PRO')" '^RTX PRO 6000 Blackwell +[0-9]+ GB'
expect_eq "80x24: no tab title is cut" "$(tui_screen | sed -n 1p | grep -c '…')" 0
expect_match "80x24: short tab titles, the current tab's in full" "$(tui_screen | sed -n 1p)" \
  '^ 1 Training +2 Fine-tuning +3 Inference +4 Image/video +5 Rendering +6 HPC'
expect_match "80x24: the status bar keeps the prices' age" "$(tui_screen | sed -n 23p)" \
  'prices updated [0-9]+ s ago *$'
open_tui 80 24 LANGUAGE=pt_PT
tui_wait 'H200 Hopper' || fail "pt-PT at 80x24" "$(tui_screen)"
tui_keys 2
# (the training tab has a "Largura de banda" too: wait for the fine-tuning tab's header)
tui_wait '^GPU +Memória +Largura de banda .*Preço/h *$' || fail "pt-PT fine-tuning tab" "$(header)"
expect_match "pt-PT 80x24 fine-tuning: GPU, Memória, Largura de banda and Preço/h" "$(header)" \
  '^GPU +Memória +Largura de banda .*Preço/h$'
expect_match "pt-PT 80x24: prices in the house style at the right edge" "$(rows | grep 'H200')" \
  'US\$ [0-9]+,[0-9][0-9]$'
expect_eq "pt-PT 80x24: no tab title is cut" "$(tui_screen | sed -n 1p | grep -c '…')" 0
expect_match "pt-PT 80x24: short tab titles" "$(tui_screen | sed -n 1p)" \
  '^ 1 Treino +2 Afinação +3 Inferência +4 Imagem/vídeo +5 Renderização +6 HPC'
tui_wait 'preços de há [0-9]+ s *$' &&
  ok "pt-PT 80x24: the status bar keeps \"preços de há N s\" (the balance goes first)" ||
  fail "pt-PT status bar" "$(tui_screen | sed -n 23p)"
# narrower: the GPU column is cut to a share of the width, the architecture first
tui_resize 50 24 || fail "gpux draws a frame at 50x24" "$(tail -1 "$GPUX_FRAME_LOG")"
tui_wait '^GPU ' || fail "50 columns"
expect_match "50 columns: the price still shows" "$(header)" 'Preço/h$'
expect_match "50 columns: the architecture is cut before the name" "$(rows | grep 'RTX 4090')" \
  '^RTX 4090 Ada? ?[A-Za-z]*… +[0-9]+ GB'
expect_match "50 columns: a long name keeps its short form" "$(rows | grep 'RTX PRO')" \
  '^RTX PRO 6000( B…|…) '
open_tui 80 24   # English again, the first tab, for what follows
tui_wait 'H200 Hopper' || fail "80x24 again" "$(tui_screen)"

# ---- filtering as you type --------------------------------------------------------
tui_keys / h 2
tui_wait '1 of 9 shown' && ok "/ filters as you type: 1 of 9 shown" ||
  fail "filter count" "$(tui_screen | tail -2)"
expect_eq "the filter keeps H200 only" "$(rows | awk '{print $1}' | tr '\n' ' ')" "H200 "
tui_keys Enter
tui_wait 'filter "h2": 1 of 9 shown' && ok "Enter keeps the filter, the status bar says so" ||
  fail "kept filter" "$(tui_screen | tail -2)"
tui_keys Escape
tui_wait 'B300 Blackwell' && ok "Esc clears the filter" || fail "Esc clears" "$(rows)"
tui_keys / z z z
tui_wait 'No GPU matches' && ok "a filter that matches nothing says so" || fail "empty filter"
tui_keys Escape
tui_wait 'B300 Blackwell' || fail "Esc in the field clears the filter"

# ---- the mouse: X10 reports typed into the pane, as a terminal sends them ------------
mouse() { # CODE X Y: one report
  fmt="\\033[M\\$(printf %03o $((32 + $1)))\\$(printf %03o $((33 + $2)))\\$(printf %03o $((33 + $3)))"
  tmx send-keys -t t -l "$(printf "$fmt")"
}
click() { # X Y (0-based cell) [BUTTON: 0 left (press and release), 64/65 wheel up/down]
  mouse "${3:-0}" "$1" "$2"
  [ "${3:-0}" = 0 ] && mouse 3 "$1" "$2"
}
x=$(header | awk '{print index($0, "Memory") - 1}')
click "$x" 1
tui_wait 'Memory ▲' && ok "a click on a header sorts by it" || fail "header click" "$(header)"
click "$x" 1
tui_wait 'Memory ▼' && ok "a second click reverses the sort" || fail "header click again" "$(header)"
label2=$(jq -r '.workloads[1].columns[1].label' $WL)
x=$(tui_screen | sed -n 1p | awk '{print index($0, "2 ")}')
click "$x" 0
tui_wait "^GPU +$label2" && ok "a click on a tab opens it" || fail "tab click" "$(header)"
tui_keys 1
tui_wait 'Memory ▼' || fail "back to tab 1 with its sort"
click 3 5
row4=$(rows | sed -n 4p | awk '{print $1}')
wait_cursor "^$row4" && ok "a click on a row puts the cursor there" || fail "row click" "[$(cursor_row)]"
click 3 5 65
row7=$(rows | sed -n 7p | awk '{print $1}')
wait_cursor "^$row7" && ok "the wheel moves the cursor three rows" || fail "wheel" "[$(cursor_row)]"
tui_keys '<'   # back to a sort the next checks expect

# ---- the cursor stays on its GPU across a sort and price updates -------------------
tui_keys 2 1 # catalogue order is gone with the sort; the cursor walks down to H200
tui_keys g
k=0
while [ $k -lt 9 ] && ! wait_cursor_quick '^H200'; do tui_keys j; k=$((k + 1)); done
wait_cursor '^H200' && ok "the cursor is on H200" || fail "cursor on H200" "[$(cursor_row)]"
press_until '>' 'Tensor BF16 ▲' 10 || fail "> reaches the BF16 column again" "$(header)"
wait_cursor '^H200' && ok "after sorting by BF16 the cursor is still on H200" ||
  fail "cursor after BF16 sort" "[$(cursor_row)]"
press_until '<' 'Price/h ▲' 10 || fail "sort by price again" "$(header)"
wait_cursor '^H200' && ok "after sorting by price the cursor is still on H200" ||
  fail "cursor after sort" "[$(cursor_row)]"
before=$(prices | tr '\n' ' ')
k=0
while [ $k -lt 100 ] && [ "$(prices | tr '\n' ' ')" = "$before" ]; do sleep 0.1; k=$((k + 1)); done
[ "$(prices | tr '\n' ' ')" != "$before" ] && ok "prices update live" || fail "prices update"
expect_match "after a price update the cursor is still on H200" "$(cursor_row)" '^H200'
check "after a price update the rows are still sorted" sorted_ok asc
# a changed price flashes (bold + underline in the monochrome theme)
flash=0
k=0
while [ $k -lt 100 ]; do
  if tmx capture-pane -e -p -t t | sed -n "3,$((H - 2))p" |
     grep -qE "$(printf '\033')\\[([0-9;]*;)?4(;[0-9;]*)?m"; then flash=1; break; fi
  sleep 0.1; k=$((k + 1))
done
expect_eq "a changed price flashes" "$flash" 1

# ---- help, generated from the key map ----------------------------------------------
tui_keys '?'
tui_wait 'Sort by the next column' && ok "? shows the help with every key" || fail "help"
expect_match "the help lists the table's keys too" "$(tui_screen)" 'Scroll columns right'
tui_keys x
tui_wait_gone 'Sort by the next column' && ok "any key closes the help" || fail "help closes"

# ---- choosing columns, remembered in the config file --------------------------------
tui_keys c
tui_wait 'Columns of' || fail "c opens the column chooser"
tui_keys j Space Enter   # hide "Memory" (the first column after GPU)
tui_wait_gone 'Columns of' || fail "Enter closes the chooser"
expect_match "the hidden column is gone" "$(header | grep -c 'Memory  ')" '^0$'
expect_match "the choice is saved" "$(grep '^columns.training' "$CFG/gpux/config")" \
  '^columns.training = memory_type,'
tui_keys q
tui_wait 'EXIT=0' && ok "q quits with status 0" || fail "q quits" "$(tui_screen | tail -3)"
open_tui 80 24
tui_wait 'H200 Hopper' || fail "restart"
expect_match "the column choice is remembered" "$(header)" '^GPU +Memory type'

# ---- any terminal size: 30 resizes, then a correct screen ------------------------------
for sz in 10x3 250x70 20x6 11x4 137x41 19x5 80x24 249x69 33x7 10x3 200x3 10x60 \
          64x20 121x33 20x5 21x6 250x70 10x3 45x12 88x30 160x50 12x9 30x10 99x31 \
          230x66 10x3 77x22 150x40 20x6 100x30; do
  tmx resize-window -t t -x "${sz%x*}" -y "${sz#*x}"   # one after another, not waiting for frames
done
H=30
check "after 30 resizes gpux draws a frame of the last size (100x30)" tui_wait_frame 100 30
tui_wait '^ 1 LLM training' && ok "after 30 resizes the tabs are back" || fail "tabs after resizes"
tui_wait 'H200 Hopper' && ok "after 30 resizes the table is back" || fail "table after resizes"
expect_match "after 30 resizes the status bar is on the second-last line" \
  "$(tui_screen | sed -n 29p)" 'prices updated'
expect_eq "after 30 resizes gpux still runs" "$(tui_screen | grep -c EXIT=)" 0
tui_resize 10 3
tui_wait '[Tt]oo small' && ok "below 20x6 a 'too small' notice" || fail "too small" "$(tui_screen)"
tui_resize 1 1 || fail "gpux draws a frame at 1x1" "$(tail -1 "$GPUX_FRAME_LOG")"
tui_resize 100 30
tui_wait 'H200 Hopper' && ok "from 1x1 back to 100x30" || fail "back from 1x1"
# narrow: the F-key bar shows whole items only, the tabs the current one's title
tui_resize 40 10
# the 40-column tab line, not the 100-column screen still there before the redraw
tui_wait '^ 1 Training +2 ' || fail "40x10"
expect_eq "40 columns: whole F-key items only (no cut one)" "$(tui_screen | sed -n 10p | sed 's/ *$//')" \
  "F1Help  F2Columns F3Filter F4Fit   F5Buy"
expect_match "40 columns: the current tab keeps its short title, the others their numbers" \
  "$(tui_screen | sed -n 1p)" '^ 1 Training +2 +3 +4 +5 +6 *$'
tui_resize 100 30
tui_wait 'H200 Hopper' || fail "back to 100x30"

# ---- the exchange goes away, then comes back ---------------------------------------------
kill "$GPUXD_PID"
wait_for sh -c "! kill -0 $GPUXD_PID 2>/dev/null"
tui_wait 'STALE: ' && ok "exchange killed: the status bar says STALE with the reason" ||
  fail "stale marker" "$(tui_screen | tail -2)"
expect_match "the reason is short and plain" "$(tui_screen | sed -n 29p)" \
  'STALE: exchange unreachable \(connection refused\) · 127\.0\.0\.1:[0-9]+ '
expect_match "stale: the prices' age stays on the line" "$(tui_screen | sed -n 29p)" \
  'prices updated [0-9]+ s ago *$'
tui_resize 80 30
tui_wait '^GPU ' || fail "stale at 80 columns"
expect_match "stale at 80 columns: STALE, its reason whole, and the prices' age" "$(tui_screen | sed -n 29p)" \
  '^ STALE: exchange unreachable \(connection refused\)( · [^ ]+)? +prices updated [0-9]+ s ago *$'
expect_eq "stale at 80 columns: nothing cut" "$(tui_screen | sed -n 29p | grep -c '…')" 0
tui_resize 100 30
expect_match "the data stays on screen" "$(rows | head -3)" 'Hopper|Blackwell|CDNA'
"$GPUXD" --listen "127.0.0.1:$GPUXD_PORT" --db "$GPUXD_DB" --demo --clock-speed 10 \
  >"$TMPD/gpuxd-restart.log" 2>&1 &
GPUXD_PID=$!
at_exit "kill $GPUXD_PID 2>/dev/null"
wait_for curl -fsS "$GPUXD_URL/v1/market" || fail "gpuxd restarts on the same port"
tui_wait_gone 'STALE' && ok "the exchange is back: the stale marker goes by itself" ||
  fail "recovers" "$(tui_screen | tail -2)"

# ---- leaving: signals restore the terminal ----------------------------------------------------
pid=$(pgrep -f -n "^$GPUX --api $GPUXD_URL")
[ -n "$pid" ] && kill -TERM "$pid"
tui_wait 'EXIT=143' && ok "SIGTERM: gpux leaves with status 143" || fail "SIGTERM" "$(tui_screen | tail -3)"
expect_eq "SIGTERM: the terminal left the alternate screen" \
  "$(tmx display-message -p -t t '#{alternate_on}')" 0

# ---- terminals: TERM values, ASCII, monochrome, no terminal ------------------------------------
# (NCURSES_GPM_TERMS= keeps ncurses from loading libgpm for TERM=linux: its
# loader leaks a few bytes, which LeakSanitizer would turn into exit status 23)
for term in xterm xterm-256color screen tmux vt100 linux; do
  open_tui 80 24 TERM=$term NCURSES_GPM_TERMS=
  if tui_wait 'H100 SXM'; then ok "TERM=$term: the table shows"; else fail "TERM=$term" "$(tui_screen)"; fi
  tui_keys q
  tui_wait 'EXIT=0' || fail "TERM=$term: q quits"
done
# keys whose sequences the terminal description does not name (TERM=vt100 in
# an xterm-like terminal: F5 arrives as ESC [ 1 5 ~) are decoded, and never
# replayed as keys (the 5 would switch to tab 5)
open_tui 80 24 TERM=vt100 NCURSES_GPM_TERMS=
tui_wait 'H100 SXM' || fail "TERM=vt100: the table"
tui_keys F5
tui_wait 'Order form' && ok "TERM=vt100: F5 opens the order form (not tab 5)" ||
  fail "TERM=vt100: F5" "$(tui_screen | head -3)"
tui_keys Escape
tui_wait_gone 'Order form' || fail "TERM=vt100: Esc back"
tui_keys End F10
tui_wait 'EXIT=0' && ok "TERM=vt100: End and F10 are keys (F10 quits, not tab 1)" ||
  fail "TERM=vt100: F10" "$(tui_screen | head -3)"
open_tui 80 24 LANG=C
tui_wait 'H200 Hopper' || fail "LANG=C shows the table"
nonascii=$(tui_screen | LC_ALL=C grep -c '[^ -~]')
expect_eq "LANG=C: only ASCII on screen" "$nonascii" 0
expect_match "LANG=C: the › marker is >" "$(header)" '> +Price/h$'
open_tui 80 24 TERM=dumb
tui_wait 'EXIT=1' && ok "TERM=dumb: exit status 1" || fail "TERM=dumb" "$(tui_screen)"
expect_match "TERM=dumb: points to the scriptable commands" "$(tui_screen)" 'gpux table training'
out=$("$GPUX" --api "$GPUXD_URL" </dev/null 2>&1 >/dev/null); rc=$?
expect_eq "not a terminal: exit status 1" "$rc" 1
expect_match "not a terminal: points to the scriptable commands" "$out" 'gpux table training'

# ---- monochrome: the header and the cursor row never merge ------------------------------------
# (the cursor row is reverse video; the header bold and underlined, never reverse)
ESC=$(printf '\033')
sgr_at() { # LINE: the attributes (SGR parameters) the line starts with, as ;1;4;
  tmx capture-pane -e -p -t t | sed -n "$1p" | sed -n "s/^$ESC\[\([0-9;]*\)m.*/;\1;/p"
}
for mono in NO_COLOR=1 TERM=vt100; do
  open_tui 80 24 NO_COLOR= NCURSES_GPM_TERMS= $mono
  tui_wait 'H200 Hopper' || fail "$mono: the table"
  tui_keys g
  wait_cursor '^B300' || fail "$mono: the cursor on the first row" "[$(cursor_row)]"
  hdr=$(sgr_at 2) cur=$(sgr_at 3)
  expect_match "$mono: the header is bold and underlined" "$hdr" ';1;(.*;)?4;'
  expect_eq "$mono: the header is not reverse video" "$(printf '%s' "$hdr" | grep -c ';7;')" 0
  expect_match "$mono: the cursor on the first row is reverse video, under the header" "$cur" ';7;'
  expect_eq "$mono: the cursor row is not underlined like the header" "$(printf '%s' "$cur" | grep -c ';4;')" 0
  tui_keys q
  tui_wait 'EXIT=0' || fail "$mono: q quits"
done

# ---- the help wraps its long lines at 80 columns -------------------------------------------
open_tui 80 24
tui_wait 'H200 Hopper' || fail "80x24 for the help"
tui_keys '?'
tui_wait 'Moving around' || fail "the help at 80x24" "$(tui_screen)"
tui_wait 'a tab or row to select' && ok "help at 80 columns: its hint wraps, whole" ||
  fail "the help's hint at 80x24" "$(tui_screen)"
k=0   # scroll until the line and its continuation show
while [ $k -lt 20 ] && ! tui_screen | grep -A1 'Fit calculator: show it' | tail -1 | grep -q 'table)'; do
  s0=$(tui_screen); tui_keys j; k=$((k + 1))
  j=0; while [ $j -lt 50 ] && [ "$(tui_screen)" = "$s0" ]; do sleep 0.1; j=$((j + 1)); done
done
expect_eq "help at 80 columns: no line cut with …" "$(tui_screen | sed -n '2,22p' | grep -c '…')" 0
# the continuation starts in the column of the description above it
pos=$(tui_screen | LC_ALL=C.UTF-8 awk '
  /Fit calculator: show it/ { c = index($0, "Fit calculator"); n = NR; next }
  n && NR == n + 1 { print (index($0, "table)") == c && c > 0) ? "under" : "at " index($0, "table)") " not " c; exit }')
expect_eq "help at 80 columns: \"…(Esc back to the table)\" wraps under its description" "$pos" under
tui_keys End
# at the end: ↑ (more above) in the top border, no ↓ (more below) in the bottom one
tui_wait_gone 'Moving around' && tui_wait '┌─ gpux keys ─+↑─┐' && tui_wait_gone 'any key closes ↓' &&
  ok "the wrapped help scrolls to its last line with End" || fail "help End" "$(tui_screen)"
tui_keys Home
tui_wait 'Moving around' && ok "... and back with Home" || fail "help Home" "$(tui_screen)"
tui_keys x
tui_wait_gone 'Moving around' || fail "the help closes"

finish
