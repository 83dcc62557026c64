#!/bin/bash
# A short run of the front-door fuzzer (tests/fuzz/fuzz_exchange_http.c, built
# by `make check` with clang, ASan and UBSan) from its seed corpus: raw bytes
# of pipelined requests through the real libmicrohttpd daemon, the guard, the
# router and the writer over a throwaway store, with docs/API.md's "Strict
# HTTP" as invariants (a framing refusal closes the connection and nothing
# after it runs; every reply well-formed; no hang after end of input).
# Longer runs: make fuzz FUZZ_SECONDS=300. FUZZ_SECONDS here: default 15.
. "$(dirname "$0")/../lib.sh"
F="$GPUX_BUILD/fuzz/fuzz_exchange_http"
SEEDS="$(dirname "$0")/../fuzz/corpus/fuzz_exchange_http"
if [ ! -x "$F" ]; then
  fail "fuzz_exchange_http is built" "make $GPUX_BUILD/fuzz/fuzz_exchange_http (needs clang)"
  finish
fi
"$F" -runs=0 "$SEEDS" >"$TMPD/seeds.log" 2>&1
rc=$?
expect_eq "fuzz_exchange_http: every seed passes ($(ls "$SEEDS" | wc -l) files)" "$rc" 0
[ "$rc" -eq 0 ] || tail -30 "$TMPD/seeds.log"
cp -r "$SEEDS" "$TMPD/corpus"
n0=$(ls "$TMPD/corpus" | wc -l)
"$F" -max_len=4096 -max_total_time="${FUZZ_SECONDS:-15}" -artifact_prefix="$TMPD/crash-" \
  -print_final_stats=1 "$TMPD/corpus" >"$TMPD/fuzz.log" 2>&1
rc=$?
expect_eq "fuzz_exchange_http: ${FUZZ_SECONDS:-15} s without a crash, leak, UB, hang or broken invariant" "$rc" 0
[ "$rc" -eq 0 ] || tail -40 "$TMPD/fuzz.log"
check "fuzz_exchange_http: no crash artifact" test -z "$(ls "$TMPD"/crash-* 2>/dev/null)"
runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$TMPD/fuzz.log")
check "fuzz_exchange_http: it ran (${runs:-0} inputs)" test "${runs:-0}" -gt 1000
check "fuzz_exchange_http: it found new paths ($n0 seeds → $(ls "$TMPD/corpus" | wc -l))" \
  test "$(ls "$TMPD/corpus" | wc -l)" -gt "$n0"
finish
