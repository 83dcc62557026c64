#!/bin/bash
# make install / make uninstall: programs, man pages, completions and docs
# under PREFIX (and DESTDIR), found where the user's tools look for them;
# the installed gpux starts the installed gpuxd for its local demo default.
. "$(dirname "$0")/../lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
P="$TMPD/x"
mk() { make --no-print-directory -C "$ROOT" BUILD="$GPUX_BUILD" "$@"; }

# a directory that was there before install stays after uninstall, empty or not
mkdir -p "$P/share/man"
mk install PREFIX="$P" >"$TMPD/install.log" 2>&1
expect_eq "make install PREFIX=$P exits 0" "$?" 0
for f in bin/gpux bin/gpuxd share/man/man1/gpux.1 share/man/man8/gpuxd.8 \
  share/bash-completion/completions/gpux share/zsh/site-functions/_gpux \
  share/fish/vendor_completions.d/gpux.fish share/doc/gpux/README.md share/doc/gpux/API.md; do
  check "installed: PREFIX/$f" test -s "$P/$f"
done
check "installed gpux and gpuxd are executable" test -x "$P/bin/gpux" -a -x "$P/bin/gpuxd"
expect_match "installed gpux --version" "$("$P/bin/gpux" --version)" "^gpux [0-9]+\.[0-9]+\.[0-9]+$"
expect_eq "MANPATH=PREFIX/share/man man -w gpux" "$(MANPATH="$P/share/man" man -w gpux 2>&1)" \
  "$P/share/man/man1/gpux.1"
expect_eq "MANPATH=PREFIX/share/man man -w 8 gpuxd" "$(MANPATH="$P/share/man" man -w 8 gpuxd 2>&1)" \
  "$P/share/man/man8/gpuxd.8"
# the usual MANPATH: none set, man derives it from PATH (PREFIX/bin → PREFIX/share/man)
expect_eq "PATH=PREFIX/bin:...: man -w gpux finds the installed page without MANPATH" \
  "$(env -u MANPATH PATH="$P/bin:/usr/bin:/bin" man -w gpux 2>&1)" "$P/share/man/man1/gpux.1"
expect_match "man gpux renders the installed page" \
  "$(MANPATH="$P/share/man" MANWIDTH=80 man gpux 2>/dev/null | col -b | head -5)" "gpux"

# the installed gpux, with neither the tree nor build/ on PATH, starts the installed gpuxd
out=$(cd "$TMPD" && env PATH="$P/bin:/usr/bin:/bin" "$P/bin/gpux" quotes --format csv 2>"$TMPD/q.err")
expect_match "installed gpux quotes: prices from the local demo exchange" "$out" "^h200,H200,[0-9]+"
pid=$(cat "$XDG_DATA_HOME"/gpux/gpuxd.pid 2>/dev/null)   # beside the demo database
expect_eq "the local demo exchange is the installed gpuxd" \
  "$(readlink "/proc/${pid:-0}/exe" 2>/dev/null)" "$P/bin/gpuxd"
stop_local_gpuxd

# DESTDIR stages the same tree under another root
mk install DESTDIR="$TMPD/stage" PREFIX=/usr >"$TMPD/stage.log" 2>&1
expect_eq "make install DESTDIR=... PREFIX=/usr exits 0" "$?" 0
check "DESTDIR: usr/bin/gpux under the staging root" test -x "$TMPD/stage/usr/bin/gpux"
check "DESTDIR: usr/share/man/man1/gpux.1 under the staging root" test -s "$TMPD/stage/usr/share/man/man1/gpux.1"

# PREFIX=$HOME/.local: bash-completion and fish find the completions there by themselves
L="$HOME/.local"
mk install PREFIX="$L" >"$TMPD/local.log" 2>&1
expect_eq "make install PREFIX=\$HOME/.local exits 0" "$?" 0
if [ -r /usr/share/bash-completion/bash_completion ]; then
  got=$(env PATH="$L/bin:/usr/bin:/bin" bash --norc --noprofile -c '
    . /usr/share/bash-completion/bash_completion
    _completion_loader gpux 2>/dev/null || __load_completion gpux
    complete -p gpux' 2>&1)
  expect_eq "bash-completion loads gpux's completion from \$HOME/.local by itself" "$got" "complete -F _gpux gpux"
else
  fail "bash-completion is installed (scripts/deps.sh check installs it)"
fi
if command -v fish >/dev/null 2>&1; then
  expect_eq "fish completes gpux ta<Tab> from \$HOME/.local by itself" \
    "$(env PATH="$L/bin:/usr/bin:/bin" fish -c 'complete -C "gpux ta"' 2>&1 | cut -f1)" "table"
else
  fail "fish is installed (scripts/deps.sh check installs it)"
fi
mk uninstall PREFIX="$L" >/dev/null 2>&1

mk uninstall PREFIX="$P" >"$TMPD/uninstall.log" 2>&1
expect_eq "make uninstall PREFIX=$P exits 0" "$?" 0
left=$(cd "$P" && find . -type f | sort)
expect_eq "make uninstall removes every file make install put there" "$left" ""
expect_eq "... and every directory it made, leaving the ones that were there" \
  "$(cd "$P" && find . -mindepth 1 -type d | sort | tr '\n' ' ')" "./share ./share/man "
finish
