#!/bin/bash
# After `make check` has built everything, the same build on an unchanged
# tree has nothing to do: the test programs' objects are kept (.SECONDARY),
# so no test program is recompiled or relinked, and the completions are
# not written again. Warnings are errors in the checked builds only: `make
# run` (and plain `make`) compile without -Werror, build-tests with it.
. "$(dirname "$0")/../lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$(make --no-print-directory -C "$ROOT" -n BUILD="$GPUX_BUILD" build-tests 2>&1)
expect_eq "make -n build-tests on an unchanged tree: no compile, link or archive step" \
  "$(printf '%s\n' "$out" | grep -E '^(cc|clang|gcc|ar) |--completions' | head -5)" ""
for t in "$GPUX_BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  if [ -f "$ROOT/tests/unit/$n.c" ]; then
    check "$n: its object is kept" test -f "$GPUX_BUILD/obj/tests/unit/$n.o"
  fi
done

# -W: as if util/buf.c had changed; -n: only print what would run
cc_line() { make --no-print-directory -C "$ROOT" -n -W util/buf.c BUILD="$GPUX_BUILD" "$@" 2>&1 |
  grep -E '^(cc|gcc|clang) .* util/buf\.c' | head -1; }
l=$(cc_line run)
expect_match "make run compiles util/buf.c" "$l" "util/buf\.c"
expect_eq "make run compiles without -Werror" "$(printf '%s' "$l" | grep -c -- '-Werror')" 0
l=$(cc_line)
expect_match "plain make compiles util/buf.c" "$l" "util/buf\.c"
expect_eq "plain make compiles without -Werror" "$(printf '%s' "$l" | grep -c -- '-Werror')" 0
l=$(cc_line build-tests)
expect_match "make build-tests (what make check builds) compiles with -Werror" "$l" " -Werror "
finish
