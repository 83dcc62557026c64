#!/bin/sh
# The live-fit calculator panel, end to end: the real gpux in a real terminal
# (tmux) against a real gpuxd --demo. Every figure the screen shows is
# compared with what `gpux fit` prints for the same inputs (the CSV), and
# every check polls the screen until it shows what a user would see.
. tests/lib.sh

start_gpuxd --demo || finish
CFG="$TMPD/cfg"

cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

open_tui() { # W H [gpux flags...]: monochrome, UTF-8, on the demo exchange
  tmx kill-server 2>/dev/null
  # the old server must be gone, or the new session dies with it
  i=0; while tmx ls >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  rm -f "$TMUX_SOCK"
  W=$1; H=$2; shift 2
  tui_start "$W" "$H" env NO_COLOR=1 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" \
    "$TMPD/gpux-run" --api "$GPUXD_URL" "$@"
  tui_wait 'H200' || fail "the table appears" "$(tui_screen)"
}
# The table's part of each screen line (the panel, beside it, starts at "│").
table_part() { tui_screen | sed 's/│.*//'; }
panel_part() { tui_screen | sed -n 's/^[^│]*│//p'; }
# The panel's text as one line (wrapped lines joined, spaces squeezed).
panel_joined() { panel_part | sed 's/^ *//' | tr '\n' ' ' | tr -s ' '; }
wait_joined() { # wait until the panel's joined text contains TEXT (fixed string)
  i=0
  while [ $i -lt 100 ]; do
    panel_joined | grep -qF -- "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
# The table row of a GPU (its name then a space and its architecture).
row() { table_part | grep -E "^$1 " | head -1; }
# The first "N GB" of a GPU's row: the memory its job needs per GPU.
need_of() { row "$1" | grep -oE '[0-9][0-9,.]* GB' | head -1; }
wait_row() { # GPU regex: wait until its row matches
  i=0
  while [ $i -lt 100 ]; do
    row "$1" | grep -qE -- "$2" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
# A size in GB as view_fmt_gb writes it in English: whole numbers and from
# 100 GB without decimals, else one ("17.5 GB"), thousands grouped.
fmt_gb() {
  awk -v v="$1" 'BEGIN {
    r = sprintf("%.0f", v); d = v - r; if (d < 0) d = -d
    s = (d < 1e-9 || v >= 100) ? sprintf("%.0f", v) : sprintf("%.1f", v)
    if (v >= 1000) { n = index(s, "."); i = (n ? n - 1 : length(s)); s = substr(s, 1, i - 3) "," substr(s, i - 2) }
    print s " GB" }'
}
# gpux fit's CSV for the finetune table: "id,name,need,fits,gpus,weights,
# gradients,optimizer,activations,kv,margin" per GPU.
cli_csv() {
  "$GPUX" --api "$GPUXD_URL" fit "$@" --workload finetune --format csv |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { print $c["gpu"] "," $c["name"] "," $c["job_mem_gb"] "," $c["job_fits"] "," $c["job_gpus"] "," \
          $c["mem_weights_gb"] "," $c["mem_gradients_gb"] "," $c["mem_optimizer_gb"] "," \
          $c["mem_activations_gb"] "," $c["mem_kv_cache_gb"] "," $c["mem_margin_gb"] }'
}
# Every row of the table as gpux fit says: memory needed, ✓/✗, GPUs needed.
compare_rows() { # desc, gpux fit args...
  desc=$1; shift
  cli_csv "$@" >"$TMPD/fit.csv"
  [ -s "$TMPD/fit.csv" ] || { fail "$desc: gpux fit answers" "$("$GPUX" --api "$GPUXD_URL" fit "$@" 2>&1 | tail -2)"; return; }
  bad=""
  while IFS=, read -r id name need fits gpus rest; do
    mark=$([ "$fits" = true ] && echo "✓" || echo "✗")
    want="$(fmt_gb "$need") +[0-9,.]+ GB +$mark +$gpus "
    wait_row "$name" "$want" || bad="$bad [$name: want /$want/, got: $(row "$name")]"
  done <"$TMPD/fit.csv"
  if [ -z "$bad" ]; then ok "$desc: every row as gpux fit $* says"; else fail "$desc" "$bad"; fi
}

# ---- 70 B with QLoRA in the fine-tuning tab ------------------------------------------
open_tui 200 50
tui_keys 2
tui_wait 'QLoRA base model' || fail "the fine-tuning tab" "$(tui_screen | head -3)"
tui_keys f
tui_wait 'Fit calculator' && ok "f opens the fit calculator" || fail "f opens the panel" "$(tui_screen)"
tui_keys 7 0
tui_wait 'Per GPU at N' && ok "typing 70 gives the table its \"your model\" columns" ||
  fail "job columns appear" "$(tui_screen | head -3)"
tui_keys Tab Right Right
tui_wait '‹ QLoRA \(4-bit base\) ›' || fail "the method changes with →" "$(panel_part)"
wait_row 'H200' ' ✓ +1 ' && ok "QLoRA 70B: H200 fits (✓) on one GPU" || fail "H200 fits" "$(row H200)"
wait_row 'RTX 4090' ' ✗ ' && ok "QLoRA 70B: RTX 4090 does not (✗)" || fail "RTX 4090 does not fit" "$(row 'RTX 4090')"
compare_rows "QLoRA 70B" 70 --method qlora
# rows that cannot take the job are dimmed (the monochrome theme's dim: SGR 2;
# not the cursor row, drawn in reverse video)
esc=$(printf '\033')
# the SGR in effect where the name starts: dim (2) for RTX 4090, not for H200
dim_before() { tmx capture-pane -e -p -t t | sed 's/│.*//' | grep -E "$1 " | head -1 |
  grep -qE "$esc\\[([0-9]+;)*2(;[0-9]+)*m($esc\\[[0-9;]*m)*$1 "; }
if dim_before 'RTX 5090'; then
  ok "the RTX 5090 row (cannot take it) is dimmed"
else
  fail "RTX 5090 row dimmed" "$(tmx capture-pane -e -p -t t | grep 'RTX 5090' | cat -v | cut -c1-120)"
fi
if dim_before 'H200'; then
  fail "the H200 row is not dimmed" "$(tmx capture-pane -e -p -t t | grep 'H200 ' | cat -v | cut -c1-120)"
else
  ok "the H200 row (fits) is not dimmed"
fi

# ---- the architecture typed over the size's guess, as gpux fit --layers --------------------
wait_joined 'Architecture ▾ hide' && ok "a size: the Architecture fold is open on its guess" ||
  fail "Architecture fold open" "$(panel_joined)"
panel_part | grep -qE 'Layers +80 +Hidden +8192' && ok "the guess's figures in the fields, two to a line beside the table" ||
  fail "architecture figures" "$(panel_part | grep -E 'Layers|Hidden')"
tui_keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab
tui_wait '▶Layers' || fail "Tab reaches the layers field" "$(panel_part)"
tui_keys C-u 4 0
compare_rows "QLoRA 70B with 40 layers typed" 70 --method qlora --layers 40
tui_keys C-u
compare_rows "QLoRA 70B, layers emptied: the model's again" 70 --method qlora
tui_keys Tab Tab Tab Tab Tab Tab Tab Tab
tui_wait '▶Advanced' || fail "Tab reaches the Advanced fold" "$(panel_part)"
tui_keys Enter
tui_wait '▶Accounting' && ok "Enter opens the Advanced fold and goes into it" || fail "Advanced opens" "$(panel_part)"
tui_keys Right
compare_rows "QLoRA 70B with the ZeRO paper's accounting" 70 --method qlora --zero-accounting paper
tui_keys Left BTab Space
tui_wait '▸ show' || fail "Space closes the Advanced fold" "$(panel_part)"
i=0; while [ $i -lt 21 ]; do tui_keys BTab; i=$((i + 1)); done
tui_wait '▶Method' || fail "Shift-Tab back to the method" "$(panel_part)"

# ---- full training on 8 GPUs with ZeRO-3 -----------------------------------------------
tui_keys Left Left
tui_wait '‹ Full training ›' || fail "back to full training" "$(panel_part)"
tui_keys Tab Tab Tab Tab
tui_wait '▶GPUs' || fail "Tab reaches the GPUs field" "$(panel_part)"
tui_keys BSpace 8
tui_wait '‹ ZeRO-3 / FSDP' || fail "sharding ZeRO-3 is the default" "$(panel_part)"
compare_rows "full training, 8 GPUs, ZeRO-3" 70 --method full --gpus 8 --zero 3
# the panel's breakdown for the GPU under the cursor (the first row)
first=$(table_part | sed -n 3p | sed -E 's/^(.{0,34}[^ ]) {2,}.*/\1/; s/ (Ada Lovelace|Blackwell|Ampere|Hopper)$//')
line=$(grep ",$first," "$TMPD/fit.csv" | head -1)
if [ -z "$line" ]; then
  fail "the cursor row is a catalogue GPU" "[$first]"
else
  IFS=, read -r id name need fits gpus w g o a k m <<EOF
$line
EOF
  missing=""
  for v in "$w" "$g" "$o" "$a" "$m" "$need"; do
    s=$(fmt_gb "$v")
    panel_part | grep -qF -- "$s" || missing="$missing [$s]"
  done
  if [ -z "$missing" ]; then
    ok "the panel's memory breakdown for $name equals gpux fit's (weights $(fmt_gb "$w"), optimizer $(fmt_gb "$o"), margin $(fmt_gb "$m"))"
  else
    fail "panel breakdown for $name" "missing$missing in: $(panel_part | head -30)"
  fi
  panel_part | grep -qE "GPUs needed +$gpus( |$)" && ok "the panel's GPUs needed for $name: $gpus, as gpux fit" ||
    fail "panel GPUs needed" "want $gpus: $(panel_part | grep 'GPUs needed')"
  # the run time and cost as gpux fit prints them (the table output)
  rt=$("$GPUX" --api "$GPUXD_URL" fit 70 --method full --gpus 8 --zero 3 --workload finetune |
       grep -E "^$name " | sed -E 's/ {2,}/|/g' | cut -d'|' -f9)
  if [ -n "$rt" ] && panel_part | grep -qF "Run time      $rt"; then
    ok "the panel's run time for $name: $rt, as gpux fit"
  else
    fail "panel run time" "want [$rt]: $(panel_part | grep 'Run time')"
  fi
  # what b buys: gpux fit's Machines when the job needs its GPUs together
  # ("11 nodes of 8 (PCIe)"), else N × the GPU
  mach=$("$GPUX" --api "$GPUXD_URL" fit 70 --method full --gpus 8 --zero 3 --workload finetune |
         grep -E "^$name " | sed -E 's/ {2,}/|/g' | cut -d'|' -f8)
  case $mach in
    *" of "*) want="b: buy $name, $mach" ;;
    *) want="b: buy $gpus × $name" ;;
  esac
  panel_part | grep -qF "$want" && ok "the panel says what b orders: $want, as gpux fit" ||
    fail "what b orders" "want [$want]: $(panel_part | grep 'b:')"
  # b on the row: the order form (issue 7) prefilled with that GPU, the GPUs
  # the job runs on and the run's hours rounded up (gpux fit's train_hours)
  hours=$("$GPUX" --api "$GPUXD_URL" fit 70 --method full --gpus 8 --zero 3 --workload finetune --format csv |
    awk -F, -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["gpu"] == id { h = $c["train_hours"]; n = int(h); if (n < h) n++; print n }')
  tui_keys Escape
  tui_wait 'f edit, F4 hide' >/dev/null
  tui_keys b
  if tui_wait "Buy $name" && tui_wait "GPUs +$gpus( |$)" && tui_wait "Hours +$hours( |$)"; then
    ok "b opens the order form for $gpus × $name for $hours h"
  else
    fail "b prefills the order form" "want $gpus × $name, $hours h: $(tui_screen | head -12)"
  fi
  tui_keys Escape
  tui_wait 'Fit calculator' || fail "Esc from the order form: the tables and the panel" "$(tui_screen | head -3)"
  tui_keys f
  tui_wait '▶GPUs' || fail "f: the panel again, on the field it had" "$(panel_part | head -8)"
fi

# ---- a preset fills its architecture ------------------------------------------------------
tui_keys BTab BTab BTab BTab BTab
tui_wait '▶Model' || fail "Shift-Tab back to the model" "$(panel_part | head -4)"
tui_keys C-u l l a m a Space 7 0
tui_wait 'Llama 3.1 70B' && ok "\"llama 70\" narrows to Llama 3.1 70B" || fail "llama 70 search" "$(panel_part | head -6)"
tui_keys Enter
arch=$(jq -r '.models[] | select(.id == "llama-3.1-70b") | "\(.layers) layers · hidden \(.hidden) · \(.heads) heads (\(.kv_heads) KV)"' data/models.json |
  sed -E 's/hidden ([0-9])([0-9]{3})/hidden \1,\2/')
wait_joined "$arch" && ok "the preset fills its architecture: $arch" || fail "preset architecture" "want [$arch]: $(panel_joined)"
panel_part | grep -q 'Model  *Llama 3.1 70B' && ok "Enter takes the preset's name" || fail "preset name in the field" "$(panel_part | head -3)"
compare_rows "Llama 3.1 70B preset, full, 8 GPUs" llama-3.1-70b --method full --gpus 8 --zero 3

# ---- bad input marks the field and keeps the screen whole ------------------------------------
tui_keys Tab Tab Tab Tab  # Enter took the preset and went on to Method
tui_wait '▶GPUs' || fail "to the GPUs field" "$(panel_part | head -8)"
for bad in abc -3 0 99999999 ''; do
  before=$(need_of 'H200')
  tui_keys C-u
  [ -n "$bad" ] && tui_keys -l -- "$bad"
  if tui_wait 'GPUs must be a whole number from 1 to 1048576' && tui_wait '✗GPUs' &&
     tui_wait 'last valid answer'; then
    ok "GPUs \"$bad\": the field is marked, the reason shown under it, the answer greyed"
  else
    fail "bad GPUs \"$bad\"" "$(panel_part | head -12)"
  fi
  s=$(tui_screen)
  # typed key by key, "99999999" passes through 999999, a valid count: that
  # is then the last valid job; the others never were valid on the way
  now=$(need_of 'H200')
  case "$bad" in 9*) keep=true ;; *) keep=$([ "$now" = "$before" ] && echo true || echo false) ;; esac
  if printf '%s' "$s" | grep -q 'F10Quit' && printf '%s' "$s" | grep -q 'market open' &&
     printf '%s' "$now" | grep -qE '^[0-9,.]+ GB$' && [ "$keep" = true ] &&
     ! printf '%s' "$s" | grep -qiE 'nan|inf '; then
    ok "GPUs \"$bad\": the screen stays whole, the table keeps the last valid job ($now)"
  else
    fail "screen whole after \"$bad\"" "$s"
  fi
done
tui_keys C-u 8
tui_wait_gone 'last valid answer' && ok "a good value again: the answer is live" || fail "recovers" "$(panel_part | head -12)"
tui_keys BTab BTab BTab BTab BTab C-u z z z
tui_wait 'no preset matches' && ok "a model nobody knows: a short reason" || fail "bad model" "$(panel_part | head -6)"
tui_keys C-u 7 0

# ---- Esc back to the table, F4 hides, f brings it back, $ sorts by the job's cost ------------
tui_keys Escape
tui_wait 'f edit, F4 hide' && ok "Esc: back to the table, the panel stays" || fail "Esc" "$(panel_part | head -2)"
tui_keys j
tui_wait '^ RTX 5090 Blackwell' >/dev/null || true
tui_keys '$'
tui_wait 'sorted: cheapest per hour' || fail "\$ sorts by the job's cost" "$(tui_screen | head -3)"
# the cursor stays on its GPU as the rows move: the panel still answers for it
at=$(table_part | sed -n '3,12p' | grep -n '^RTX 5090 ' | cut -d: -f1)
if panel_part | grep -q '^ RTX 5090 Blackwell' && [ -n "$at" ]; then
  ok "\$: the cursor stays on RTX 5090 (now row $at), the panel answers for it"
else
  fail "cursor across the cheapest sort" "row [$at]: $(panel_part | sed -n '15,20p')"
fi
costs=$(table_part | sed -n '3,12p' | grep -E '✓|✗' | grep -E '\$[0-9]' | sed -E 's/^[^$]*\$([0-9,]+\.[0-9]{2}).*/\1/' | tr -d , | head -9)
if printf '%s\n' "$costs" | awk 'NR > 1 && $1 + 0 < last + 0 { bad = 1 } { last = $1 } END { exit bad }'; then
  ok "\$: rows by the job's cost per hour, cheapest first"
else
  fail "cheapest order" "$costs"
fi
tui_keys F4
tui_wait_gone 'Per GPU at N' && ok "F4 hides the panel and its columns" || fail "F4 hides" "$(tui_screen | head -3)"
tui_keys f
tui_wait 'Per GPU at N' && tui_wait 'Model  *70' && ok "f shows it again with what was typed" ||
  fail "f again" "$(tui_screen)"
tui_keys Escape
tui_wait 'f edit, F4 hide' >/dev/null
tui_keys q
tui_wait 'EXIT=0' && ok "q quits cleanly with the panel open" || fail "quit" "$(tui_screen | tail -3)"

# ---- 80×24: usable, compact -------------------------------------------------------------------
open_tui 80 24
tui_keys 2 f 7 0
tui_wait 'Per GPU at N' || fail "80x24: job columns" "$(tui_screen)"
tui_keys Tab Right Right
tui_wait 'RTX 4090: Not on 1 GPU: needs 4 × 18.2 GB, has 24 GB ✗' &&
  ok "80x24: the panel below the table answers for the row under the cursor" ||
  fail "80x24 answer" "$(tui_screen)"
s=$(tui_screen)
nrows=$(printf '%s\n' "$s" | grep -cE '(✓|✗) *$|(✓|✗)  ')
if [ "$nrows" -ge 5 ] && printf '%s' "$s" | grep -q 'Fit calculator' &&
   printf '%s' "$s" | grep -q 'F10Quit' && printf '%s' "$s" | grep -q '▶Method'; then
  ok "80x24: table ($nrows rows), panel, status and F-keys all on screen"
else
  fail "80x24 layout" "$s"
fi
tui_keys BTab BSpace BSpace BSpace
tui_wait 'empty: type a model size' && ok "80x24: an empty model is marked" || fail "80x24 empty" "$(tui_screen)"
# a short terminal: the panel being edited keeps the table's header and cursor row
tui_resize 80 14
tui_wait '(▶|✗)Model' && tui_wait 'GPU  ' && ok "80x14: the focused panel keeps its field and the table header" ||
  fail "80x14" "$(tui_screen)"
tui_resize 30 8 || fail "gpux draws a frame at 30x8" "$(tail -1 "$GPUX_FRAME_LOG")"
tui_resize 80 24
tui_wait 'Fit calculator' && ok "resizes down to 30x8 and back: still whole" || fail "resize" "$(tui_screen)"

# ---- 200×50: beside the table, everything -----------------------------------------------------
open_tui 200 50
tui_keys 3 f l l a m a Space 8 Tab Right Right Right Right Right Right
tui_wait '‹ Inference INT4 ›' || fail "200x50: inference INT4" "$(panel_part | head -5)"
s=$(panel_part); missing=""
for want in 'Weights' 'KV cache' 'Activations' 'Margin' 'GPUs needed' 'Cost per hour' 'Decode' 'tok/s per sequence' 'BW efficiency' 'Context' 'Sequences' 'Llama 3.1 8B · 32 layers'; do
  printf '%s' "$s" | grep -q -- "$want" || missing="$missing [$want]"
done
if [ -z "$missing" ]; then ok "200x50: the detailed answer and the inference assumptions beside the table"
else fail "200x50: the panel shows everything" "missing$missing: $s"; fi
if tui_screen | sed -n 3p | grep -qE '^[A-Z].{100,}│ '; then ok "200x50: the panel stands beside the table"; else fail "beside" "$(tui_screen | head -3)"; fi
# the decode speed for H200 (filtered to it, so it is under the cursor)
tui_keys Escape
tui_wait 'f edit, F4 hide' >/dev/null
tui_keys / H 2 0 0 Enter
tui_wait '1 of [0-9]+ shown|f edit' >/dev/null
v=$("$GPUX" --api "$GPUXD_URL" fit llama-3.1-8b --method infer-int4 --workload inference --format csv |
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["gpu"] == "h200" { printf "%.0f", $c["decode_tokens_s"] }')
if [ -n "$v" ] && tui_wait "Decode +$v tok/s per sequence"; then
  ok "the panel's decode speed for H200 equals gpux fit's ($v tok/s per sequence)"
else
  fail "decode speed for H200" "want [$v]: $(panel_part | grep -E 'Decode|H200')"
fi

finish
