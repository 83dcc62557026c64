#!/bin/bash
# After `make check` has built everything, the same build on an unchanged
# tree has nothing to do: the test programs' objects are kept (.SECONDARY),
# so no test program is recompiled or relinked, and the completions are
# not written again.
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
finish
