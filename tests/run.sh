#!/bin/sh
# Runs every test of gpux and prints one closing line "N passed, N failed".
#
#   tests/run.sh BUILD_DIR [PATTERN]
#
# cmocka programs (BUILD/tests/test_*) count their own tests; scripts
# (tests/*/test_*.sh) print TAP-like lines "ok - ..." / "not ok - ..." through
# tests/lib.sh. A program or script that fails without saying which test
# failed counts as one failure. Output of each goes to BUILD/test-logs/.
set -u
build=${1:-build}
pattern=${2:-}
export GPUX_BUILD="$(cd "$build" && pwd)"
logs="$GPUX_BUILD/test-logs"
mkdir -p "$logs"
passed=0
failed=0
failures=""

run_one() { # name, command...
  name=$1; shift
  log="$logs/$name.log"
  start=$(date +%s)
  "$@" >"$log" 2>&1 </dev/null
  rc=$?
  secs=$(( $(date +%s) - start ))
  # cmocka: "[  PASSED  ] 5 test(s)." / "[  FAILED  ] 2 test(s), listed below:"
  p=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | sed -E 's/[^0-9]*([0-9]+).*/\1/' | awk '{s+=$1} END {print s+0}')
  f=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$log" | sed -E 's/[^0-9]*([0-9]+).*/\1/' | awk '{s+=$1} END {print s+0}')
  tp=$(grep -cE '^ok( |$)' "$log")
  tf=$(grep -cE '^not ok( |$)' "$log")
  p=$((p + tp)); f=$((f + tf))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; echo "  (ran no test)" >>"$log"; fi
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$f" -gt 0 ]; then
    printf '%-34s %4d passed %3d FAILED  (%ss)  log: %s\n' "$name" "$p" "$f" "$secs" "$log"
    grep -E '^not ok|^\[  FAILED  \]|^\[  ERROR   \]|ERROR|Sanitizer|runtime error' "$log" | head -20 | sed 's/^/    /'
    failures="$failures $name"
  else
    printf '%-34s %4d passed            (%ss)\n' "$name" "$p" "$secs"
  fi
}

for t in "$GPUX_BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  case "$n" in *"$pattern"*) ;; *) continue ;; esac
  run_one "$n" "$t"
done
for t in tests/*/test_*.sh; do
  [ -f "$t" ] || continue
  n=$(basename "$(dirname "$t")")_$(basename "$t" .sh)
  case "$n" in *"$pattern"*) ;; *) continue ;; esac
  run_one "$n" bash "$t"
done

echo
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
