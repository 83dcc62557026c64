#!/bin/bash
# gpux opens libcurl at run time. Where libcurl.so.4 cannot be loaded (here a
# file of that name that is no library, found first through LD_LIBRARY_PATH),
# what needs no exchange still works, and every command that needs one (and
# the interactive screen) says in one line which library and which package,
# exits 1, and leaves the terminal as it was.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$TMPD/nolib"
echo "not a library" >"$TMPD/nolib/libcurl.so.4"
nolib() { LD_LIBRARY_PATH="$TMPD/nolib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }

out=$(nolib "$GPUX" --version 2>&1); rc=$?
expect_eq "gpux --version works without libcurl" "$rc $(printf '%s' "$out" | cut -d' ' -f1)" "0 gpux"
nolib "$GPUX" --help >"$TMPD/out" 2>"$TMPD/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -q "usage" "$TMPD/out" && [ ! -s "$TMPD/err" ]; then
  ok "gpux --help works without libcurl"
else
  fail "gpux --help works without libcurl" "rc=$rc $(head -c 300 "$TMPD/err")"
fi

# the catalogue's commands print their tables without prices and say why
nolib "$GPUX" fit 70 >"$TMPD/out" 2>"$TMPD/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -q "H100" "$TMPD/out" && grep -q "libcurl4" "$TMPD/err"; then
  ok "gpux fit 70 prints its table without libcurl, and says prices need libcurl4"
else
  fail "gpux fit 70 without libcurl" "rc=$rc stderr=$(head -c 300 "$TMPD/err")"
fi

# commands that need an exchange: one line, exit 1, nothing on stdout
for args in "quotes" "--api http://127.0.0.1:9 quotes" "account"; do
  # shellcheck disable=SC2086
  nolib "$GPUX" $args >"$TMPD/out" 2>"$TMPD/err"; rc=$?
  err=$(cat "$TMPD/err")
  if [ "$rc" -eq 1 ] && [ ! -s "$TMPD/out" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
     case "$err" in "gpux: cannot load libcurl.so.4"*"install the package libcurl4") true ;; *) false ;; esac; then
    ok "gpux $args without libcurl: exit 1, one line naming libcurl.so.4 and libcurl4"
  else
    fail "gpux $args without libcurl" "rc=$rc stdout=$(head -c 200 "$TMPD/out") stderr=$err"
  fi
done

# the interactive screen: the same line after the terminal is restored
tui_start 100 30 sh -c "LD_LIBRARY_PATH='$TMPD/nolib' '$GPUX'; echo \"exit=\$?\"; \
  stty -a | grep -o -- ' -echo \| -icanon ' | tr -d ' ' | sed 's/^/raw:/'; sleep 30"
if tui_wait "^exit="; then
  screen=$(tui_screen)
  expect_match "the interactive screen without libcurl says which library and package" \
    "$(printf '%s' "$screen" | tr -d '\n')" "gpux: cannot load libcurl\.so\.4.*install the package libcurl4"
  expect_match "the interactive screen without libcurl exits 1" "$screen" "^exit=1$"
  alt=$(tmx display-message -p -t t '#{alternate_on}')
  raw=$(printf '%s\n' "$screen" | grep -c '^raw:')
  expect_eq "the interactive screen without libcurl leaves the terminal as it was (main screen, echo, line mode)" \
    "$alt $raw" "0 0"
else
  fail "the interactive screen without libcurl ends" "$(tui_screen | head -5)"
fi

finish
