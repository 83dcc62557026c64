#!/bin/bash
# A short run of the reply-decoder fuzzer (tests/fuzz/fuzz_api_decode.c, built
# by `make check` with clang, ASan and UBSan) from its seed corpus; longer
# runs: make fuzz FUZZ_SECONDS=300. FUZZ_SECONDS here: default 8 (the checks below need far less).
. "$(dirname "$0")/../lib.sh"
F="$GPUX_BUILD/fuzz/fuzz_api_decode"
if [ ! -x "$F" ]; then
  fail "fuzz_api_decode is built" "make $GPUX_BUILD/fuzz/fuzz_api_decode (needs clang)"
  finish
fi
# a copy of the corpus: libFuzzer adds what it finds to the first directory
cp -r "$(dirname "$0")/../fuzz/corpus/fuzz_api_decode" "$TMPD/corpus"
n0=$(ls "$TMPD/corpus" | wc -l)
"$F" -max_total_time="${FUZZ_SECONDS:-8}" -artifact_prefix="$TMPD/crash-" -print_final_stats=1 \
  "$TMPD/corpus" >"$TMPD/fuzz.log" 2>&1
rc=$?
expect_eq "fuzz_api_decode: ${FUZZ_SECONDS:-8} s without a crash, leak or UB" "$rc" 0
[ "$rc" -eq 0 ] || tail -30 "$TMPD/fuzz.log"
check "fuzz_api_decode: no crash artifact" test -z "$(ls "$TMPD"/crash-* 2>/dev/null)"
runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$TMPD/fuzz.log")
check "fuzz_api_decode: it ran (${runs:-0} inputs)" test "${runs:-0}" -gt 10000
check "fuzz_api_decode: it found new paths ($n0 seeds → $(ls "$TMPD/corpus" | wc -l))" test "$(ls "$TMPD/corpus" | wc -l)" -gt "$n0"
finish
