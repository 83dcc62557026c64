#!/bin/bash
# A short run of the request-body fuzzer (tests/fuzz/fuzz_exchange_body.c,
# built by `make check` with clang, ASan and UBSan) from its seed corpus: every
# write endpoint's body validation and the ISO 8601 time parser, with the
# documented ranges and error shapes as invariants. Longer runs:
#   build/fuzz/fuzz_exchange_body -max_len=16384 -max_total_time=300 DIR
# or make fuzz FUZZ_SECONDS=300. FUZZ_SECONDS here: default 8 (the checks below need far less).
. "$(dirname "$0")/../lib.sh"
F="$GPUX_BUILD/fuzz/fuzz_exchange_body"
SEEDS="$(dirname "$0")/../fuzz/corpus/fuzz_exchange_body"
if [ ! -x "$F" ]; then
  fail "fuzz_exchange_body is built" "make $GPUX_BUILD/fuzz/fuzz_exchange_body (needs clang)"
  finish
fi
# every seed (docs/API.md examples, edge cases, earlier findings) on its own first
"$F" -runs=0 "$SEEDS" >"$TMPD/seeds.log" 2>&1
rc=$?
expect_eq "fuzz_exchange_body: every seed passes ($(ls "$SEEDS" | wc -l) files)" "$rc" 0
[ "$rc" -eq 0 ] || tail -30 "$TMPD/seeds.log"
# a copy of the corpus: libFuzzer adds what it finds to the first directory
cp -r "$SEEDS" "$TMPD/corpus"
n0=$(ls "$TMPD/corpus" | wc -l)
"$F" -max_len=16384 -max_total_time="${FUZZ_SECONDS:-8}" -artifact_prefix="$TMPD/crash-" \
  -print_final_stats=1 "$TMPD/corpus" >"$TMPD/fuzz.log" 2>&1
rc=$?
expect_eq "fuzz_exchange_body: ${FUZZ_SECONDS:-8} s without a crash, leak, UB or broken invariant" "$rc" 0
[ "$rc" -eq 0 ] || tail -30 "$TMPD/fuzz.log"
check "fuzz_exchange_body: no crash artifact" test -z "$(ls "$TMPD"/crash-* 2>/dev/null)"
runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$TMPD/fuzz.log")
check "fuzz_exchange_body: it ran (${runs:-0} inputs)" test "${runs:-0}" -gt 10000
check "fuzz_exchange_body: it found new paths ($n0 seeds → $(ls "$TMPD/corpus" | wc -l))" \
  test "$(ls "$TMPD/corpus" | wc -l)" -gt "$n0"
finish
