#!/bin/bash
# The docs are part of the feature: docs/gpux.1 and `gpux --help` must stay
# current with the code, so this test fails the build when they drift.
#
#  - the man page renders without a warning (groff -ww, for utf8 and ascii,
#    and through man -l; mandoc -Tlint when it is installed) and is ASCII;
#  - every command of gpux's command table (cli/commands.c) is in `gpux --help`,
#    has `gpux COMMAND --help`, a SYNOPSIS entry and a COMMANDS subsection;
#  - every option of every command (its option table in cli/*.c, which
#    `gpux COMMAND --help` must list too) is in its SYNOPSIS entry and its
#    subsection, and the man page names no option a command does not take;
#  - every global option is under OPTIONS; the version is the program's;
#  - every key bound in the interactive screen's key maps (the wbinding
#    arrays of every tui/ .c file and widgets/*.c) is named under INTERACTIVE SCREEN;
#  - every csv column id the commands print is in the command's subsection
#    (the exchange commands against gpux's own local demo exchange).
. "$(dirname "$0")/../lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MAN="$ROOT/docs/gpux.1"
G() { "$GPUX" --lang en "$@"; }

# ---- helpers over the man page's source -------------------------------------------------
# The source with roff's \- as - and font escapes removed, so "--sort" is findable.
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' "$MAN"; }
# Lines of section NAME (.SH NAME), up to the next .SH.
section() { plain | awk -v s="$1" '/^\.SH /{ on = ($0 == ".SH " s || $0 == ".SH \"" s "\"") ; next } on'; }
# Lines of COMMANDS subsection "CMD ..." (.SS CMD ...), up to the next .SS/.SH.
subsection() {
  plain | awk -v c="$1" '
    /^\.SH /{ on = 0; next }
    /^\.SS /{ split(substr($0, 5), w, /[ "|]/); on = (w[1] == c); next }
    on'
}
# One line per SYNOPSIS entry (.SY ... .YS): "COMMAND<TAB>the entry's text".
synopsis_entries() {
  section SYNOPSIS | awk '
    /^\.SY/ { cmd = ""; text = ""; on = 1; next }
    /^\.YS/ { if (on) print cmd "\t" text; on = 0; next }
    on { if (cmd == "" && $1 == ".B") cmd = $2; text = text " " $0 }'
}
synopsis_of() { synopsis_entries | awk -F'\t' -v c="$1" '$1 == c { print $2 }'; }
# The long options (--xyz) in a text, one per line, sorted and unique.
long_opts() { grep -oE -- '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u; }
has_opt() { printf '%s\n' "$1" | grep -qE -- "(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|$)"; }
has_word() { printf '%s\n' "$1" | grep -qE -- "(^|[^a-zA-Z0-9_.-])$2([^a-zA-Z0-9_]|$)"; }
# Report a list of missing things as one test line.
report() { # description, list (space-separated; empty = pass), what the list is
  if [ -z "$2" ]; then ok "$1"; else fail "$1" "${3:-missing}:$2"; fi
}

# ---- the page renders without warnings ------------------------------------------------------
if LC_ALL=C grep -qn '[^ -~]' "$MAN"; then
  fail "docs/gpux.1 is ASCII (special characters through groff escapes)" \
    "$(LC_ALL=C grep -n '[^ -~]' "$MAN" | head -3)"
else
  ok "docs/gpux.1 is ASCII (special characters through groff escapes)"
fi
if command -v groff >/dev/null 2>&1; then
  for dev in utf8 ascii; do
    # without -z: glyphs are looked up (and missing ones warned about) on output
    w=$(groff -man -T"$dev" -ww "$MAN" 2>&1 >/dev/null)
    expect_eq "groff -man -T$dev -ww renders docs/gpux.1 without warnings" "$w" ""
  done
  if command -v man >/dev/null 2>&1; then
    w=$(MANWIDTH=80 MANPAGER=cat PAGER=cat LANG=C.UTF-8 man -l "$MAN" 2>&1 >"$TMPD/man.txt")
    expect_eq "man -l docs/gpux.1 renders without warnings" "$w" ""
    expect_match "man -l docs/gpux.1 shows the page" "$(head -3 "$TMPD/man.txt")" 'GPUX\(1\)'
  else
    fail "man is installed (man-db: scripts/deps.sh check installs it)"
  fi
else
  fail "groff is installed (man-db brings groff-base: scripts/deps.sh check installs it)"
fi
if command -v mandoc >/dev/null 2>&1; then
  for page in "$MAN" "$ROOT/docs/gpuxd.8"; do
    w=$(mandoc -Tlint -Werror "$page" 2>&1)
    expect_eq "mandoc -Tlint finds no error in docs/$(basename "$page")" "$w" ""
  done
else
  fail "mandoc is installed (scripts/deps.sh check installs it)"
fi

# ---- the commands ------------------------------------------------------------------------
# The command table of cli/commands.c: {"name", cli_cmd_name, ...
cmds=$(grep -oE '^[[:space:]]*\{"[a-z]+", cli_cmd_[a-z_]+' "$ROOT/cli/commands.c" | sed -E 's/.*\{"([a-z]+)".*/\1/')
expect_match "the command table of cli/commands.c is found" "$(echo $cmds)" '^table fit( [a-z]+)+$'

help=$(G --help)
help_cmds=$(printf '%s\n' "$help" | awk '/^Commands:/{ on = 1; next } /^$/{ on = 0 } on { print $1 }')
synopsis=$(section SYNOPSIS)
syn_cmds=$(synopsis_entries | cut -f1)
sections=$(plain | awk '/^\.SH COMMANDS/{ on = 1; next } /^\.SH /{ on = 0 } on && /^\.SS /{ split(substr($0, 5), w, /[ "|]/); print w[1] }')
miss_help= miss_cmdhelp= miss_syn= miss_ss= extra=
for c in $cmds; do
  printf '%s\n' "$help_cmds" | grep -qx "$c" || miss_help="$miss_help $c"
  G "$c" --help 2>/dev/null | head -1 | grep -q "^usage: gpux $c" || miss_cmdhelp="$miss_cmdhelp $c"
  printf '%s\n' "$syn_cmds" | grep -qx "$c" || miss_syn="$miss_syn $c"
  printf '%s\n' "$sections" | grep -qx "$c" || miss_ss="$miss_ss $c"
done
for c in $help_cmds $sections; do
  printf '%s\n' "$cmds" | grep -qx "$c" || extra="$extra $c"
done
report "gpux --help lists every command of the command table" "$miss_help"
report "gpux COMMAND --help works for every command" "$miss_cmdhelp"
report "the man page's SYNOPSIS has every command" "$miss_syn"
report "the man page's COMMANDS has a subsection per command" "$miss_ss"
report "no command in gpux --help or the man page that gpux does not have" "$extra" "unknown"

# ---- every option of every command ------------------------------------------------------
# A command's option table: const struct cli_opt cli_CMD_opts[] = { {"--x", ...}, ... };
# a line of it that is only a macro's name (FIT_JOB_OPTIONS,: the fit job's
# options, shared by two tables) stands for the options of its #define.
table_opts() {
  cat "$ROOT"/cli/*.c | awk -v a="cli_$1_opts" '
    function opts(s) { while (match(s, /\{"--[a-z0-9-]+"/)) { print substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) } }
    def != "" { body[def] = body[def] $0; if ($0 !~ /\\$/) def = "" ; next }
    /^#define [A-Z_]+ \\$/ { def = $2; body[def] = ""; next }
    index($0, "struct cli_opt " a "[]") { on = 1 }
    on && /^[[:space:]]*[A-Z_]+,?[[:space:]]*$/ { m = $1; sub(/,$/, "", m); opts(body[m]); next }
    on { opts($0) }
    on && /\};/ { on = 0 }' | sort -u
}
global=$(awk '/cli_global_opts\[\] = \{/{ on = 1 } on { s = $0; while (match(s, /\{"--[a-z0-9-]+"/)) { print substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) } } on && /\};/{ on = 0 }' "$ROOT/cli/commands.c")
global=$(printf '%s\n' $global | sort -u)
expect_match "the global options of cli/commands.c are found" "$(echo $global)" '--api .*--lang'
options=$(section OPTIONS)
miss=
for o in $global; do has_opt "$options" "$o" || miss="$miss $o"; done
has_opt "$options" "-h" || miss="$miss -h"
report "the man page's OPTIONS has every global option" "$miss"
miss=
for o in $global; do printf '%s\n' "$help" | grep -qE -- "^  $o( |$)" || miss="$miss $o"; done
report "gpux --help lists every global option" "$miss"

for c in $cmds; do
  src=$(table_opts "$c")
  shown=$(G "$c" --help 2>/dev/null | grep -oE '^  --[a-z0-9-]+' | sed 's/^  //' | sort -u)
  expect_eq "gpux $c --help lists exactly the options of cli_${c}_opts" "$(echo $shown)" "$(echo $src)"
  syn=$(synopsis_of "$c")
  ss=$(subsection "$c")
  miss_syn= miss_ss= extra=
  for o in $src; do
    has_opt "$syn" "$o" || miss_syn="$miss_syn $o"
    has_opt "$ss" "$o" || miss_ss="$miss_ss $o"
  done
  for o in $(printf '%s\n%s\n' "$syn" "$ss" | long_opts); do
    printf '%s\n%s\n' "$src" "$global" | grep -qx -- "$o" || extra="$extra $o"
  done
  report "man SYNOPSIS of $c has each of its options" "$miss_syn"
  report "man COMMANDS $c describes each of its options" "$miss_ss"
  report "man SYNOPSIS and COMMANDS $c name no option $c does not take" "$extra" "unknown"
done

# ---- the version ------------------------------------------------------------------------
version=$(G --version)
expect_match "gpux --version is 'gpux X.Y.Z'" "$version" '^gpux [0-9]+\.[0-9]+\.[0-9]+$'
expect_match "the man page's .TH carries the program's version" "$(grep '^\.TH' "$MAN")" "\"$version\""

# ---- the keys of the interactive screen ----------------------------------------------------
# Every key of every wbinding array, named as the man page names it.
key_name() {
  case "$1" in
    "' '") echo Space ;;
    "'\\\\'") echo '\e' ;;
    WKEY_NONE) echo "" ;; # an action of the command line only (:NAME)
    "'\\n'") echo Enter ;;
    "'"?"' - '@'") echo "Ctrl-$(printf '%s' "$1" | cut -c2)" ;;
    "'"?"'") printf '%s\n' "$1" | cut -c2 ;;
    WKEY_UP) echo Up ;; WKEY_DOWN) echo Down ;; WKEY_LEFT) echo Left ;; WKEY_RIGHT) echo Right ;;
    WKEY_PGUP) echo PgUp ;; WKEY_PGDN) echo PgDn ;; WKEY_HOME) echo Home ;; WKEY_END) echo End ;;
    WKEY_TAB) echo Tab ;; WKEY_BTAB) echo Shift-Tab ;; WKEY_ESC) echo Esc ;;
    WKEY_RETURN | WKEY_ENTER) echo Enter ;; WKEY_DELETE) echo Delete ;;
    WKEY_F*) echo "F${1#WKEY_F}" ;;
    *) echo "?$1" ;;
  esac
}
keys=$(cat $(find "$ROOT/tui" -name "*.c" | sort) "$ROOT"/widgets/*.c | awk '
  /struct wbinding [a-z_]+\[[A-Z_]*\] = \{/ { on = 1; next }
  on && /^\};/ { on = 0 }
  on' | grep -oE "^[[:space:]]*\{ *('[^']+'( - '@')?|WKEY_[A-Z0-9]+)," |
  sed -E "s/^[[:space:]]*\{ *//; s/,$//" | sort -u)
expect_match "the key maps of tui/ and widgets/ are found" "$(echo $keys)" "WKEY_F10"
# The words the man page shows in bold under INTERACTIVE SCREEN (.B/.BR lines).
shown=$(section 'INTERACTIVE SCREEN' | grep -E '^\.BR? ' | cut -d' ' -f2- | tr -d '"' | tr ', ' '\n\n' | grep -v '^$' | sort -u)
miss=
while IFS= read -r k; do
  [ -n "$k" ] || continue
  n=$(key_name "$k")
  [ -n "$n" ] || continue
  printf '%s\n' "$shown" | grep -qxF -- "$n" || miss="$miss $n"
done <<EOF
$keys
EOF
report "INTERACTIVE SCREEN names every key of the key maps" "$miss"

# ---- csv column ids ------------------------------------------------------------------------
header() { head -1 | tr ',' ' '; }
check_ids() { # description, subsection, ids...
  d=$1; s=$(subsection "$2"); shift 2
  miss=
  for id in "$@"; do has_word "$s" "$id" || miss="$miss $id"; done
  if [ $# -eq 0 ]; then fail "$d" "no csv header"; else report "$d" "$miss"; fi
}
# table and fit need no exchange: an unreachable one leaves the price empty
for w in $(G table 2>&1 | sed -n 's/.*accepted: //p' | tr -d ','); do
  check_ids "man COMMANDS table names the csv columns of $w" table \
    $(G table "$w" --format csv --api http://127.0.0.1:1 2>/dev/null | header)
done
for m in full lora infer-int4 diffusion; do
  check_ids "man COMMANDS fit names the csv columns of --method $m" fit \
    $(G fit 7 --method "$m" --format csv --api http://127.0.0.1:1 2>/dev/null | header)
done
# the exchange commands, on gpux's own local demo exchange (stopped by lib.sh)
check_ids "man COMMANDS quotes names its csv columns" quotes $(G quotes --format csv 2>/dev/null | header)
check_ids "man COMMANDS book names its csv columns" book $(G book h200 --format csv 2>/dev/null | header)
check_ids "man COMMANDS order names the csv columns of a preview" order \
  $(G order buy h200 --gpus 1 --hours 2 --market --max-price 50 --dry-run --format csv 2>/dev/null | header)
G order buy h200 --gpus 1 --hours 2 --market --max-price 50 --yes --format csv >"$TMPD/placed" 2>/dev/null
check_ids "man COMMANDS order names the csv columns of a placed order" order $(header <"$TMPD/placed")
rental=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rental_ids") c = i } NR == 2 { print $c }' "$TMPD/placed")
G order buy h200 --gpus 1 --hours 2 --limit 0.01 --yes --format csv >"$TMPD/resting" 2>/dev/null
order=$(awk -F, 'NR == 2 { print $1 }' "$TMPD/resting")
# cancel prints the order as it is now: the columns of a placed order (see order)
check_ids "man COMMANDS order names the csv columns of gpux cancel" order \
  $(G cancel "${order:-0}" --format csv 2>/dev/null | header)
check_ids "man COMMANDS orders names its csv columns" orders $(G orders --format csv 2>/dev/null | header)
check_ids "man COMMANDS rentals names its csv columns" rentals $(G rentals --format csv 2>/dev/null | header)
check_ids "man COMMANDS stop names its csv columns" stop $(G stop "${rental:-0}" --format csv 2>/dev/null | header)
check_ids "man COMMANDS account names its csv columns" account $(G account --format csv 2>/dev/null | header)
check_ids "man COMMANDS deposit names its csv columns" deposit $(G deposit 5 --format csv 2>/dev/null | header)
check_ids "man COMMANDS keys names the csv columns of keys list" keys $(G keys list --format csv 2>/dev/null | header)

finish
