#!/bin/bash
# Shell completions (build/completions/, written by `gpux --completions SHELL`
# from the command and option tables): each file loads in its shell and
# offers what `gpux --help` lists: the commands, every command's options,
# and the values (workloads, GPU ids, presets, languages, formats).
. "$(dirname "$0")/../lib.sh"

C="$GPUX_BUILD/completions"
G() { "$GPUX" --lang en "$@"; }
# the commands and each command's options, as --help prints them
help_cmds=$(G --help | awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort)
cmd_opts() { G "$1" --help | awk '/^Options:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort; }
global_opts=$(G --help | awk '/^Options/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort)

for f in gpux.bash _gpux gpux.fish; do
  check "completions: $f was written at build time" test -s "$C/$f"
done
expect_eq "gpux --completions tcsh: usage error (exit 2)" \
  "$("$GPUX" --completions tcsh >/dev/null 2>&1; echo $?)" 2

# ---- bash: drive the completion function as readline does (COMP_WORDS, COMP_CWORD) ----
bash_complete() { # words... (the last is the one completed) → the offers, one per line
  bash --norc --noprofile -c '
    . /usr/share/bash-completion/bash_completion 2>/dev/null
    . "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _gpux gpux "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$C/gpux.bash" "$@"
}
expect_eq "bash: complete -p gpux names the function _gpux" \
  "$(bash --norc -c ". '$C/gpux.bash'; complete -p gpux")" "complete -F _gpux gpux"
expect_eq "bash: gpux ta<Tab> completes to table" "$(bash_complete gpux ta)" "table"
expect_eq "bash: gpux <Tab> offers every command of gpux --help" "$(bash_complete gpux '')" "$help_cmds"
expect_eq "bash: gpux -<Tab> offers the global options" "$(bash_complete gpux -)" "$global_opts"
missing=""
for c in $help_cmds; do
  got=$(bash_complete gpux "$c" --)
  for o in $(cmd_opts "$c"); do
    printf '%s\n' "$got" | grep -qx -- "$o" || missing="$missing $c:$o"
  done
done
if [ -z "$missing" ]; then ok "bash: gpux CMD --<Tab> offers every option of gpux CMD --help"
else fail "bash: gpux CMD --<Tab> offers every option of gpux CMD --help" "missing:$missing"; fi
expect_eq "bash: gpux table <Tab> offers the workloads" "$(bash_complete gpux table '' | tr '\n' ' ')" \
  "finetune hpc imagegen inference rendering training "
expect_eq "bash: gpux --lang pt-PT table tr<Tab> (a global option's value is skipped)" \
  "$(bash_complete gpux --lang pt-PT table tr)" "training"
expect_eq "bash: gpux order <Tab> offers the sides" "$(bash_complete gpux order '' | tr '\n' ' ')" "buy sell "
expect_eq "bash: gpux order buy h1<Tab> offers the GPU ids" "$(bash_complete gpux order buy h1 | tr '\n' ' ')" \
  "h100-nvl h100-sxm "
expect_eq "bash: gpux book --depth 5 mi3<Tab> (an option's value is skipped)" \
  "$(bash_complete gpux book --depth 5 mi3 | tr '\n' ' ')" "mi300x mi325x "
expect_eq "bash: gpux fit llama-3.1-<Tab> offers the presets" "$(bash_complete gpux fit llama-3.1- | tr '\n' ' ')" \
  "llama-3.1-405b llama-3.1-70b llama-3.1-8b "
expect_eq "bash: gpux --lang <Tab> offers the languages" "$(bash_complete gpux --lang '' | tr '\n' ' ')" \
  "de en es fr pt-BR pt-PT "
expect_eq "bash: gpux quotes --format <Tab> offers the formats" "$(bash_complete gpux quotes --format '' | tr '\n' ' ')" \
  "csv json table "
expect_eq "bash: gpux orders --status <Tab>" "$(bash_complete gpux orders --status '' | tr '\n' ' ')" "all done open "
expect_eq "bash: gpux order buy h200 --gpus <Tab> offers nothing (a number)" \
  "$(bash_complete gpux order buy h200 --gpus '')" ""

# ---- zsh: the file loads through fpath and compinit, and its decision function offers ----
if command -v zsh >/dev/null 2>&1; then
  mkdir -p "$TMPD/zfunc"; cp "$C/_gpux" "$TMPD/zfunc/"
  z=$(zsh -f -c "fpath=('$TMPD/zfunc' \$fpath); autoload -U compinit; compinit -u -d '$TMPD/zcompdump'
    print -r -- \$_comps[gpux]" 2>&1)
  expect_eq "zsh: compinit finds _gpux in fpath for gpux" "$z" "_gpux"
  zc() { zsh -f -c "source '$C/_gpux' 2>/dev/null; _gpux_cands $*" 2>&1; }
  z=$(zsh -f -c "autoload -U compinit; compinit -u -d '$TMPD/zcompdump2'; source '$C/_gpux'; print -r -- \$_comps[gpux]" 2>&1)
  expect_eq "zsh: sourcing the file registers it (compdef)" "$z" "_gpux"
  expect_eq "zsh: gpux ta<Tab> offers table" "$(zc gpux ta | tr ' ' '\n' | grep '^ta')" "table"
  expect_eq "zsh: gpux <Tab> offers every command" "$(zc gpux "''" | tr ' ' '\n' | sed 1d | sort)" "$help_cmds"
  expect_eq "zsh: gpux order sell <Tab> offers the GPU ids" "$(zc gpux order sell "''" | cut -c1-12)" "w b300 b200 "
  # the real thing: an interactive zsh in a pseudo-terminal (zsh/zpty), Tab after "gpux ta"
  # (each step waits for a marker the shell prints, not for a time)
  cat >"$TMPD/zpty.zsh" <<ZEOF
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "PS1='> '; fpath=('$TMPD/zfunc' \\\$fpath); autoload -U compinit; compinit -u -d '$TMPD/zcompdump3'; print READY\\\$((1+1))"
zpty -r -m z out '*READY2*'
zpty -n -w z \$'gpux ta\\t'
zpty -r -m z out '*gpux table*' && print COMPLETED
zpty -d z
ZEOF
  z=$(timeout 20 zsh -f "$TMPD/zpty.zsh" 2>&1 | tr -d '\r' | grep -x COMPLETED)
  expect_eq "zsh, interactive: gpux ta<Tab> becomes gpux table" "$z" "COMPLETED"
else
  fail "zsh is installed (scripts/deps.sh check installs it)"
fi

# ---- fish: complete -C asks fish's own completion machinery ----
if command -v fish >/dev/null 2>&1; then
  fc() { fish --no-config -c "source '$C/gpux.fish'; complete -C '$1'" 2>&1 | cut -f1; }
  expect_eq "fish: gpux ta<Tab> completes to table" "$(fc 'gpux ta')" "table"
  expect_eq "fish: gpux <Tab> offers every command" "$(fc 'gpux ' | sort)" "$help_cmds"
  expect_eq "fish: gpux --lang pt-PT table t<Tab>" "$(fc 'gpux --lang pt-PT table t')" "training"
  expect_eq "fish: gpux order buy b<Tab> offers the GPU ids" "$(fc 'gpux order buy b' | tr '\n' ' ')" "b200 b300 "
  expect_eq "fish: gpux fit --method q<Tab>" "$(fc 'gpux fit --method q')" "qlora"
  expect_match "fish: gpux table --<Tab> offers --sort and the global --lang" \
    "$(fc 'gpux table --' | tr '\n' ' ')" "--sort .*--lang|--lang .*--sort"
else
  fail "fish is installed (scripts/deps.sh check installs it)"
fi
finish
