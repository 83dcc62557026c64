#!/bin/sh
# The six languages end to end (issue 8), against a real gpuxd --demo:
#
#  - gpux table training --lang L shows L's headers (the msgstr of the .po,
#    read here, so the test follows the catalogue) and L's number, money and
#    "billions" formats; pt-PT renders the seed pages' tables cell for cell;
#  - the language from the environment alone, on this machine where those
#    locales are not installed (LANG=pt_BR.UTF-8, LANGUAGE=de:fr,
#    LC_ALL=fr_CA.UTF-8, LANG=pt → pt-PT, unknown → English); an unknown
#    --lang is exit 2 listing the languages; the language remembered in the
#    config file between --lang and the environment; CSV never localized;
#  - the TUI in tmux opens in the environment's language (env -i … LANG=…);
#    at 80×24 in German and French the tabs and the F-key bar hold on their
#    line, every F-key label whole, every tab and header label whole or
#    abbreviated with "…"; L switches the screen's language at once and the
#    choice is remembered at the next start (--lang still wins), and
#    "Automatic" gives the choice back to the environment;
#  - typed decimals in the language: "7,5" in the fit panel and "4,19" as
#    a limit price in pt-PT, and the fit panel's "7,5" becomes "7.5" when
#    the screen switches to English.
#
# Seed pages (pt-PT): ../shared/seeds/000_7d2d0ce89a47add6.txt (LLM training
# table) and ../shared/seeds/002_f3322caf67fa1350.txt (fine-tuning table);
# their rows are copied below.
. tests/lib.sh

# The exchange clock at 1/1000: the demo's best asks stay the seed pages'
# "from" prices (H200 US$ 4,19) for the whole test.
start_gpuxd --demo --quiet --clock-speed 0.001 || finish
URL=$GPUXD_URL
LANGS="en pt-PT pt-BR es fr de"
NNBSP=$(printf '\342\200\257')   # U+202F, French grouping and before %
NBSP=$(printf '\302\240')        # U+00A0, French before a currency or "Md"

# ---- the catalogues -----------------------------------------------------------------------
po_file() { # language tag → its catalogue ("" for English)
  case $1 in
  en) echo "" ;;
  pt-PT) echo i18n/po/pt_PT.po ;;
  pt-BR) echo i18n/po/pt_BR.po ;;
  *) echo "i18n/po/$1.po" ;;
  esac
}
# The msgstr of a msgid (with context ctx, or none when ctx is ""),
# translated and not fuzzy ("" if none).
po_str() { # file msgid [ctx]
  msgattrib --translated --no-fuzzy --no-obsolete --no-wrap "$1" 2>/dev/null |
    awk -v id="$2" -v want_ctx="${3:-}" '
      /^msgctxt / { ctx = substr($0, 10); sub(/^"/, "", ctx); sub(/"$/, "", ctx); next }
      /^msgid / { want = (ctx == want_ctx && $0 == "msgid \"" id "\""); ctx = ""; next }
      want && /^msgstr / { s = substr($0, 8); sub(/^"/, "", s); sub(/"$/, "", s); gsub(/\\"/, "\"", s); print s; exit }'
}
# What gpux shows for msgid (in context ctx) in language L (the msgid itself
# in English).
tr_() { # lang msgid [ctx]
  f=$(po_file "$1")
  if [ -z "$f" ]; then printf '%s' "$2"; return; fi
  s=$(po_str "$f" "$2" "${3:-}")
  printf '%s' "${s:-<$2: untranslated in $f>}"
}

# ---- gpux table training --lang L: headers and formats --------------------------------------------
# Expected formats, by language (i18n/format.c; pt-PT the seeds' strings):
# MI325X BF16, H200 bandwidth, H200's best ask, B300 on 1 and on 8 GPUs.
formats() { # lang → sets BF BW PR C1 C8
  case $1 in
  en) BF="1,307 TFLOPS" BW="4,800 GB/s" PR='$4.19' C1="≈ 10B" C8="≈ 110B" ;;
  pt-PT) BF="1.307 TFLOPS" BW="4.800 GB/s" PR='US$ 4,19' C1="≈ 10 mil M" C8="≈ 110 mil M" ;;
  pt-BR) BF="1.307 TFLOPS" BW="4.800 GB/s" PR='US$ 4,19' C1="≈ 10 bi" C8="≈ 110 bi" ;;
  es) BF="1307 TFLOPS" BW="4800 GB/s" PR='4,19 US$' C1="≈ 10 mil M" C8="≈ 110 mil M" ;;
  fr) BF="1${NNBSP}307 TFLOPS" BW="4${NNBSP}800 GB/s" PR="4,19${NBSP}\$US" C1="≈ 10${NBSP}Md" C8="≈ 110${NBSP}Md" ;;
  de) BF="1.307 TFLOPS" BW="4.800 GB/s" PR='4,19 $' C1="≈ 10 Mrd." C8="≈ 110 Mrd." ;;
  esac
}
has() { # desc text fixed-string
  if printf '%s\n' "$2" | grep -qF -- "$3"; then ok "$1"; else fail "$1" "[$3] not in [$2]"; fi
}

for L in $LANGS; do
  out=$("$GPUX" --api "$URL" table training --lang "$L" 2>"$TMPD/err")
  rc=$?
  expect_eq "$L: table training exits 0, nothing on stderr" "$rc:$(cat "$TMPD/err")" "0:"
  head=$(printf '%s\n' "$out" | sed -n 1p)
  for id in "Memory" "Memory type" "Bandwidth" "Full training, 1 GPU" "Full training, 8 GPUs" "Price/h"; do
    has "$L: header \"$id\" as the catalogue says" "$head" "$(tr_ "$L" "$id")"
  done
  formats "$L"
  has "$L: MI325X BF16 is $BF" "$(printf '%s\n' "$out" | grep '^MI325X ')" "$BF"
  has "$L: H200 bandwidth is $BW" "$(printf '%s\n' "$out" | grep '^H200 ')" "$BW"
  has "$L: H200's best ask is $PR" "$(printf '%s\n' "$out" | grep '^H200 ')" "$PR"
  b300=$(printf '%s\n' "$out" | grep '^B300 ')
  has "$L: B300 on 1 GPU is $C1" "$b300" "$C1"
  has "$L: B300 on 8 GPUs is $C8" "$b300" "$C8"
  np=$(tr_ "$L" "Not published")
  expect_eq "$L: B300's bandwidth and BF16 say \"$np\"" \
    "$(printf '%s\n' "$b300" | grep -oF -- "$np" | wc -l | tr -d ' ')" 2
done

# ---- pt-PT: the seed pages' tables, cell for cell ----------------------------------------------
# Rows of the seeds without the GPU cell; prices without "a partir de" (the
# table shows the live best ask, which the demo starts at those prices).
seed_training="Memória|Tipo de memória|Largura de banda|Tensor BF16|Treino completo, 1 GPU|Treino completo, 8 GPU|Preço/h
288 GB|HBM3e|Não publicado|Não publicado|≈ 10 mil M|≈ 110 mil M|US\$ 8,99
180 GB|HBM3e|Não publicado|Não publicado|≈ 9 mil M|≈ 70 mil M|US\$ 7,99
256 GB|HBM3e|6.000 GB/s|1.307 TFLOPS|≈ 10 mil M|≈ 100 mil M|US\$ 4,82
192 GB|HBM3|5.300 GB/s|1.307 TFLOPS|≈ 9 mil M|≈ 75 mil M|US\$ 4,16
141 GB|HBM3e|4.800 GB/s|989 TFLOPS|≈ 7 mil M|≈ 55 mil M|US\$ 4,19
94 GB|HBM3|3.900 GB/s|835 TFLOPS|≈ 4 mil M|≈ 35 mil M|US\$ 3,19
80 GB|HBM3|3.350 GB/s|989 TFLOPS|≈ 4 mil M|≈ 30 mil M|US\$ 2,88
80 GB|HBM2e|2.039 GB/s|312 TFLOPS|≈ 4 mil M|≈ 30 mil M|US\$ 1,79
80 GB|HBM2e|1.935 GB/s|312 TFLOPS|≈ 4 mil M|≈ 30 mil M|US\$ 1,79"
seed_finetune="Memória|Largura de banda|QLoRA, modelo base|LoRA 16 bits, modelo base|Preço/h
24 GB|1.008 GB/s|≈ 15 mil M|≈ 7 mil M|US\$ 0,33
32 GB|1.792 GB/s|≈ 25 mil M|≈ 10 mil M|US\$ 0,69
48 GB|768 GB/s|≈ 35 mil M|≈ 15 mil M|US\$ 0,33
48 GB|864 GB/s|≈ 35 mil M|≈ 15 mil M|US\$ 0,79
48 GB|960 GB/s|≈ 35 mil M|≈ 15 mil M|US\$ 0,74
80 GB|2.039 GB/s|≈ 60 mil M|≈ 25 mil M|US\$ 1,79
80 GB|3.350 GB/s|≈ 60 mil M|≈ 25 mil M|US\$ 2,88
96 GB|1.792 GB/s|≈ 75 mil M|≈ 30 mil M|US\$ 1,69
141 GB|4.800 GB/s|≈ 110 mil M|≈ 45 mil M|US\$ 4,19"
# The table's cells after the GPU column, "|"-separated (cells are apart by
# two spaces or more; the rule line under the header and the notes under
# the table, "Preços por GPU-hora, ..." and the demo exchange's, are left out).
cells() {
  grep -v -e '^─' -e '^Preços por GPU-hora' -e '^Bolsa de demonstração' | sed -E 's/^[^ ]+( [^ ]+)* {2,}//; s/ {2,}/|/g; s/^ +//; s/ +$//'
}
for w in training finetune; do
  got=$("$GPUX" --api "$URL" table $w --lang pt-PT 2>/dev/null | cells)
  want=$([ $w = training ] && printf '%s\n' "$seed_training" || printf '%s\n' "$seed_finetune")
  if [ "$got" = "$want" ]; then
    ok "pt-PT: gpux table $w renders the seed page's table cell for cell"
  else
    fail "pt-PT: gpux table $w renders the seed page's table cell for cell" \
      "$(printf '%s\n' "$got" >"$TMPD/got"; printf '%s\n' "$want" >"$TMPD/want"; diff "$TMPD/want" "$TMPD/got" | head -6)"
  fi
done

# ---- csv and json do not depend on the language ------------------------------------------------
"$GPUX" --api "$URL" table training --format csv --lang en >"$TMPD/en.csv" 2>/dev/null
for L in pt-PT fr de; do
  "$GPUX" --api "$URL" table training --format csv --lang "$L" >"$TMPD/l.csv" 2>/dev/null
  check "$L: --format csv is the same as in English" cmp -s "$TMPD/en.csv" "$TMPD/l.csv"
done

# ---- the language from the environment alone ---------------------------------------------------
inst=$(locale -a 2>/dev/null | grep -ciE '^(pt_BR|pt_PT|de_DE|fr_FR|fr_CA|es_ES)')
echo "# locales installed here: $(locale -a 2>/dev/null | tr '\n' ' ')"
expect_eq "none of pt_BR, pt_PT, de_DE, fr_FR, fr_CA, es_ES is installed here (the lookup must not need them)" \
  "$inst" 0
memory_in() { # env assignments...: the "Memory" header gpux shows with them
  env -i HOME="$HOME" PATH="$PATH" "$@" "$GPUX" --api "$URL" table training 2>/dev/null |
    sed -n 1p | awk '{ print $2 }'
}
expect_eq "LANG=pt_BR.UTF-8: pt-BR" "$(memory_in LANG=pt_BR.UTF-8)" "$(tr_ pt-BR Memory)"
# pt-BR and pt-PT say "Memória" both: tell them apart by the price's words
expect_eq "LANG=pt_BR.UTF-8: pt-BR's \"≈ 7 bi\"" \
  "$(env -i HOME="$HOME" PATH="$PATH" LANG=pt_BR.UTF-8 "$GPUX" --api "$URL" table training 2>/dev/null |
     grep -c '≈ 7 bi')" 1
expect_eq "LANGUAGE=de:fr: German" "$(memory_in LANGUAGE=de:fr LANG=en_US.UTF-8)" "$(tr_ de Memory)"
expect_eq "LANGUAGE=xx:fr: the first known entry, French" "$(memory_in LANGUAGE=xx:fr)" "$(tr_ fr Memory)"
expect_eq "LC_ALL=fr_CA.UTF-8 over LANG=de_DE.UTF-8: French" \
  "$(memory_in LC_ALL=fr_CA.UTF-8 LANG=de_DE.UTF-8)" "$(tr_ fr Memory)"
expect_eq "LC_MESSAGES=es_MX.UTF-8 over LANG=de_DE.UTF-8: Spanish" \
  "$(memory_in LC_MESSAGES=es_MX.UTF-8 LANG=de_DE.UTF-8)" "$(tr_ es Memory)"
expect_eq "LANG=pt: pt-PT (\"≈ 7 mil M\")" \
  "$(env -i HOME="$HOME" PATH="$PATH" LANG=pt "$GPUX" --api "$URL" table training 2>/dev/null |
     grep -c '^H200 .*≈ 7 mil M')" 1
expect_eq "LANG=xx_YY.UTF-8 (unknown): English" "$(memory_in LANG=xx_YY.UTF-8)" "Memory"
expect_eq "LC_ALL=C LANGUAGE=de: English (C ignores LANGUAGE, as gettext does)" \
  "$(memory_in LC_ALL=C LANGUAGE=de)" "Memory"
expect_eq "no language variable at all: English" "$(memory_in)" "Memory"
expect_eq "--lang de beats LANG=fr_FR.UTF-8" \
  "$(env -i HOME="$HOME" PATH="$PATH" LANG=fr_FR.UTF-8 "$GPUX" --api "$URL" table training --lang de 2>/dev/null |
     sed -n 1p | awk '{ print $2 }')" "$(tr_ de Memory)"

# an unknown --lang: exit 2, the languages listed, nothing on stdout
"$GPUX" --api "$URL" table training --lang xx >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--lang xx: exit 2" "$?" 2
expect_match "--lang xx: the error lists the languages" "$(cat "$TMPD/err")" \
  '^gpux: .*"xx".*en, pt-PT, pt-BR, es, fr, de$'
expect_eq "--lang xx: nothing on stdout" "$(cat "$TMPD/out")" ""
"$GPUX" --lang >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--lang without a value: exit 2" "$?" 2

# the language remembered in the config file (what the TUI's L writes):
# after --lang, before the environment
CONF="$XDG_CONFIG_HOME/gpux/config"
mkdir -p "$(dirname "$CONF")"
printf 'lang = fr\n' >"$CONF"
expect_eq "config lang = fr beats LANG=de_DE.UTF-8" \
  "$(env -i HOME="$HOME" PATH="$PATH" LANG=de_DE.UTF-8 "$GPUX" --api "$URL" table training 2>/dev/null |
     sed -n 1p | awk '{ print $2 }')" "$(tr_ fr Memory)"
expect_eq "config lang = fr beats LANGUAGE=de" \
  "$(env -i HOME="$HOME" PATH="$PATH" LANGUAGE=de "$GPUX" --api "$URL" table training 2>/dev/null |
     sed -n 1p | awk '{ print $2 }')" "$(tr_ fr Memory)"
expect_eq "--lang es beats config lang = fr" \
  "$(env -i HOME="$HOME" PATH="$PATH" "$GPUX" --api "$URL" table training --lang es 2>/dev/null |
     sed -n 1p | awk '{ print $2 }')" "$(tr_ es Memory)"
help=$(env -i HOME="$HOME" PATH="$PATH" "$GPUX" --help --lang en)
has "gpux --help states the order: --lang, L in the interactive screen, environment" "$help" \
  "Language: --lang, else the one chosen with L in the interactive screen"
printf 'lang = klingon\n' >"$CONF"
out=$(env -i HOME="$HOME" PATH="$PATH" LANG=de_DE.UTF-8 "$GPUX" --api "$URL" table training 2>"$TMPD/err")
expect_eq "config lang = klingon: the environment's language, exit 0" \
  "$?:$(printf '%s\n' "$out" | sed -n 1p | awk '{ print $2 }')" "0:$(tr_ de Memory)"
expect_match "config lang = klingon: a warning on stderr names it and the languages" "$(cat "$TMPD/err")" \
  'klingon.*en, pt-PT, pt-BR, es, fr, de'
rm -f "$CONF"

# ---- the TUI -------------------------------------------------------------------------------------
cat >"$TMPD/gpux-run" <<EOF
#!/bin/sh
"$GPUX" "\$@"
echo "EXIT=\$?"
exec sleep 600
EOF
chmod +x "$TMPD/gpux-run"

nsock=0
open_tui() { # W H [VAR=value...] [-- gpux args...]: only what env -i lets through
  tmx kill-server 2>/dev/null
  nsock=$((nsock + 1)); TMUX_SOCK="$TMPD/tmux-$nsock.sock"
  W=$1; H=$2; shift 2
  vars=""
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars="$vars $1"; shift; done
  [ "${1:-}" = "--" ] && shift
  # each session starts with nothing remembered (its own XDG_STATE_HOME: env -i
  # drops the one tui_start gives); the language is the config file's
  # shellcheck disable=SC2086
  tui_start "$W" "$H" env -i HOME="$HOME" TERM=xterm-256color PATH=/usr/bin:/bin \
    XDG_STATE_HOME="$TMPD/state-open.$nsock" \
    GPUX_API_KEY="${KEY:-}" GPUX_FRAME_LOG="$GPUX_FRAME_LOG" $vars "$TMPD/gpux-run" --api "$URL" "$@"
}
# The fixed string appears on screen within 10 s.
wait_text() {
  i=0
  while [ $i -lt 100 ]; do
    tui_screen | grep -qF -- "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
fkey() { printf 'F%s%s' "$1" "$(tr_ "$2" "$3")"; }   # "F1Hilfe"
quit_tui() {
  tui_keys q
  tui_wait 'EXIT=0' || fail "q quits" "$(tui_screen | tail -3)"
}

# Every line at most W columns; the F-key bar whole; tab and header labels
# whole or abbreviated with "…" (never cut in the middle of a word without it).
screen_holds() { # lang W
  L=$1; W=$2
  tui_screen >"$TMPD/screen"
  wide=0
  while IFS= read -r line; do
    n=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)
    [ "$n" -gt "$W" ] && wide=$((wide + 1))
  done <"$TMPD/screen"
  expect_eq "$L ${W}×24: no line wider than $W columns" "$wide" 0
  if iconv -f UTF-8 -t UTF-8 "$TMPD/screen" >/dev/null 2>&1 && ! grep -q "$(printf '\357\277\275')" "$TMPD/screen"; then
    ok "$L ${W}×24: valid UTF-8, no character cut in two (no U+FFFD)"
  else
    fail "$L ${W}×24: valid UTF-8, no character cut in two" "$(cat "$TMPD/screen")"
  fi
  bar=$(tail -1 "$TMPD/screen")
  missing=""
  for k in "1 Help" "2 Columns" "3 Filter" "4 Fit" "5 Buy" "6 Sort" "10 Quit"; do
    want=$(fkey "${k%% *}" "$L" "${k#* }")
    printf '%s' "$bar" | grep -qF -- "$want" || missing="$missing [$want]"
  done
  expect_eq "$L ${W}×24: the F-key bar holds on one line, every label whole" "$missing" ""
  # the tabs: "1 …   2 …": each label the workload's title, its short title,
  # or a prefix of one of them ending in "…"
  tabs=$(sed -n 1p "$TMPD/screen")
  bad=""
  i=1
  while [ $i -le 6 ]; do
    next=$((i + 1))
    lab=$(printf '%s\n' "$tabs" | sed -E "s/^.*(^| )$i ([^ ].*)\$/\\2/; s/ +$next .*\$//; s/ +\$//")
    full=$(tr_ "$L" "$(jq -r ".workloads[$((i - 1))].title" data/workloads.json)")
    sid=$(jq -r ".workloads[$((i - 1))].short_title // empty" data/workloads.json)
    short=$([ -n "$sid" ] && tr_ "$L" "$sid" tab)
    case "$lab" in
    "$full" | "$short") ;;
    *…)
      pre=${lab%…}
      case "$full" in "$pre"*) ;; *)
        case "$short" in "$pre"?*) ;; *) bad="$bad [$i: $lab]" ;; esac ;;
      esac
      ;;
    *) bad="$bad [$i: $lab]" ;;
    esac
    i=$next
  done
  expect_eq "$L ${W}×24: the six tabs on one line, each whole or abbreviated with …" "$bad" ""
  # the header: every label one of the workload's columns, or cut with …
  hdr=$(sed -n 2p "$TMPD/screen" | sed -E 's/[‹›▲▼]//g; s/^ +//; s/ +$//')
  labels=$(jq -r '.workloads[0].columns[].label' data/workloads.json | while IFS= read -r id; do tr_ "$L" "$id"; echo; done)
  bad=""
  printf '%s\n' "$hdr" | sed -E 's/ {2,}/\n/g' >"$TMPD/hdr"
  while IFS= read -r h; do
    [ -z "$h" ] && continue
    if printf '%s\n' "$labels" | grep -qxF -- "$h"; then continue; fi
    case "$h" in
    *…) printf '%s\n' "$labels" | grep -qF -- "${h%…}" || bad="$bad [$h]" ;;
    *) bad="$bad [$h]" ;;
    esac
  done <"$TMPD/hdr"
  expect_eq "$L ${W}×24: every header label whole or cut with …" "$bad" ""
}

# 0. each language from LANG alone (none of these locales is installed): the
# F-keys, tabs and headers at 80×24, then its formats in the rows at 200×30
for L in $LANGS; do
  case $L in
  en) loc=en_US.UTF-8 ;; pt-PT) loc=pt_PT.UTF-8 ;; pt-BR) loc=pt_BR.UTF-8 ;;
  es) loc=es_ES.UTF-8 ;; fr) loc=fr_FR.UTF-8 ;; de) loc=de_DE.UTF-8 ;;
  esac
  open_tui 80 24 LANG=$loc
  if wait_text "$(fkey 1 "$L" Help)" && wait_text "$(tr_ "$L" Memory)"; then
    ok "TUI $L: opens in $L from LANG=$loc alone (env -i)"
  else
    fail "TUI $L: opens in $L from LANG=$loc alone" "$(tui_screen)"
  fi
  wait_text "H200" || true
  screen_holds "$L" 80
  tui_resize 200 30
  formats "$L"
  if wait_text "$C1" && wait_text "$PR" && wait_text "$BW"; then
    ok "TUI $L: the rows in $L's formats ($C1, $BW, $PR)"
  else
    fail "TUI $L: the rows in $L's formats ($C1, $BW, $PR)" "$(tui_screen)"
  fi
  quit_tui
done

# 1. German from LANG alone (de_DE is not installed), at 80×24
open_tui 80 24 LANG=de_DE.UTF-8
if wait_text "$(fkey 1 de Help)"; then
  ok "TUI: opens in German from LANG=de_DE.UTF-8 alone (env -i, no locale installed)"
else
  fail "TUI: opens in German from the environment" "$(tui_screen)"
fi
wait_text "$(tr_ de Memory)" && ok "TUI de: the table's headers in German" || fail "TUI de headers" "$(tui_screen)"
wait_text "4.800 GB/s" && ok "TUI de: German number format (4.800 GB/s)" || fail "TUI de numbers" "$(tui_screen)"
screen_holds de 80

# 2. the help lists L; L there opens the language menu; French chosen with the arrows
tui_keys '?'
wait_text "$(tr_ de "gpux keys")" || fail "TUI: ? opens the help" "$(tui_screen)"
# scroll the help (↓) until the line of L shows, or its end
want=$(tr_ de "Language (remembered for the next start)")
k=0
while [ $k -lt 100 ] && ! tui_screen | grep -qF -- "$want"; do tui_keys Down; sleep 0.05; k=$((k + 1)); done
if wait_text "$want"; then
  ok "TUI: the ? help lists L, the language menu"
else
  fail "TUI: the help lists L" "$(tui_screen)"
fi
tui_keys L
wait_text "Português (Brasil)" && ok "TUI: L on the help screen opens the language menu" ||
  fail "TUI: L from help" "$(tui_screen)"
menu=$(tui_screen)
missing=""
for name in "English" "Português (Portugal)" "Português (Brasil)" "Español" "Français" "Deutsch"; do
  printf '%s' "$menu" | grep -qF -- "$name" || missing="$missing [$name]"
done
expect_eq "TUI: the menu names the six languages each in itself" "$missing" ""
# Automatic (the environment's German) is marked; Français is 5 down
tui_keys Down Down Down Down Down Enter
if wait_text "$(fkey 1 fr Help)"; then
  ok "TUI: choosing Français switches the F-key bar at once"
else
  fail "TUI: the switch to French" "$(tui_screen)"
fi
wait_text "$(tr_ fr Memory)" && ok "TUI: ... and the table's headers" || fail "TUI fr headers" "$(tui_screen)"
wait_text "4${NNBSP}800 GB/s" && ok "TUI: ... and the numbers (4 800 GB/s, narrow no-break space)" ||
  fail "TUI fr numbers" "$(tui_screen)"
expect_eq "TUI: the choice is written to the config file" "$(grep '^lang' "$XDG_CONFIG_HOME/gpux/config")" "lang = fr"
screen_holds fr 80
quit_tui

# 3. the next start, still LANG=de_DE.UTF-8: French, remembered
open_tui 80 24 LANG=de_DE.UTF-8
wait_text "$(fkey 1 fr Help)" && ok "TUI: the next start opens in the remembered French, over LANG=de_DE.UTF-8" ||
  fail "TUI: remembered at the next start" "$(tui_screen)"
quit_tui
# --lang still wins over the remembered choice
open_tui 80 24 LANG=de_DE.UTF-8 -- --lang es
wait_text "$(fkey 1 es Help)" && ok "TUI: --lang es wins over the remembered French" ||
  fail "TUI: --lang over the config" "$(tui_screen)"
# Automatic (at the top): back to the environment's German, the line removed
tui_keys L
wait_text "Deutsch" || fail "TUI: L opens the menu" "$(tui_screen)"
tui_keys Up Up Up Up Up Up Up Enter
wait_text "$(fkey 1 de Help)" && ok "TUI: Automatic switches to the environment's German" ||
  fail "TUI: Automatic" "$(tui_screen)"
expect_eq "TUI: Automatic removes lang from the config file" \
  "$(grep -c '^lang' "$XDG_CONFIG_HOME/gpux/config")" 0
quit_tui

# 4. pt-PT: "7,5" in the fit panel's model field, then the switch to English
rm -f "$XDG_CONFIG_HOME/gpux/config"
open_tui 80 24 LANG=pt_PT.UTF-8
wait_text "$(fkey 1 pt-PT Help)" || fail "TUI pt-PT opens" "$(tui_screen)"
tui_keys f
wait_text "$(tr_ pt-PT "Fit calculator")" || fail "TUI pt-PT: f opens the fit panel" "$(tui_screen)"
tui_keys '7,5'
wait_text "7,5 mil M" && ok "TUI pt-PT: the fit panel takes \"7,5\" (7,5 mil M de parâmetros)" ||
  fail "TUI pt-PT: 7,5 in the fit panel" "$(tui_screen)"
tui_keys Escape L
wait_text "Deutsch" || fail "TUI: L opens the menu" "$(tui_screen)"
tui_keys Up Up Up Up Up Up Up Down Enter
wait_text "7.5 B parameters" && ok "TUI: switched to English, the model field's \"7,5\" reads 7.5" ||
  fail "TUI: the fit panel after the switch" "$(tui_screen)"
expect_match "TUI: the model field shows 7.5" "$(tui_screen | grep -E 'Model +')" 'Model +7\.5 '
quit_tui

# 5. pt-PT: "4,19" as a limit price in the order form
KEY=$(curl -sS -X POST "$URL/v1/accounts" \
  -d '{"email":"lang@example.pt","country":"PT","currency":"EUR","role":"buyer"}' | jq -r .api_key)
curl -sS -X POST -H "Authorization: Bearer $KEY" "$URL/v1/deposits" -d '{"amount_minor":500000}' >/dev/null
rm -f "$XDG_CONFIG_HOME/gpux/config"
open_tui 80 24 LANG=pt_PT.UTF-8
wait_text "H200" || fail "TUI pt-PT opens" "$(tui_screen)"
tui_keys / h200 Enter
wait_text 'filtro «h200»' || fail "TUI pt-PT: the filter keeps H200" "$(tui_screen | tail -2)"
tui_keys b
wait_text "Comprar H200" || fail "TUI pt-PT: the order form" "$(tui_screen)"
# Type → limit, then GPUs, hours, the price
tui_keys BTab Right Tab C-u 1 Tab C-u 2 Tab C-u '4,19'
wait_text "$(tr_ pt-PT "Limit price/h")" || fail "TUI pt-PT: a limit order" "$(tui_screen)"
tui_keys Enter
# (the form shows the best ask, US$ 4,19 too: the confirmation's own words are waited for)
if wait_text "$(tr_ pt-PT "Place this order?")" && tui_wait 'H200 por 2 horas a US\$ 4,19 por GPU-hora'; then
  ok "TUI pt-PT: \"4,19\" is taken as the limit price (US\$ 4,19 in the confirmation)"
else
  fail "TUI pt-PT: 4,19 as a limit price" "$(tui_screen)"
fi
tui_keys n
wait_text "$(tr_ pt-PT "Not placed: nothing was sent.")" || fail "TUI pt-PT: n does not place the order" "$(tui_screen)"
tui_keys Escape
wait_text "H200 Hopper" || fail "Esc from the pt-PT form" "$(tui_screen)"
quit_tui

finish
