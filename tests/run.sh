#!/bin/bash
# Runs every test of gpux, JOBS at a time, and ends with one line
# "N passed, N failed, N skipped".
#
#   tests/run.sh BUILD_DIR [PATTERN]
#
# cmocka programs (BUILD/tests/test_*) count their own tests; scripts
# (tests/*/test_*.sh) print TAP-like lines "ok - ...", "not ok - ..." and
# "ok - ... # SKIP why" through tests/lib.sh (skip). A program or script that
# fails without saying which test failed counts as one failure, and so does
# one that runs no test. Each writes its own log, BUILD/test-logs/NAME.log.
#
# Tests run JOBS at a time (default: the number of cores): every test has its
# own temporary directory, HOME and XDG directories, tmux server, port (port 0)
# and PostgreSQL cluster. A script that cannot share the machine says so in a
# line "# serial: why" among its first 30 lines; it runs alone, after the
# others. The tests that took longest last time (BUILD/test-logs/times) start
# first (in a new build directory: the scripts, then the programs).
#
# Under CI (CI set in the environment, as .ci/run does) a skip is a failure
# unless its reason starts with "CI: " (tests/lib.sh, skip).
#
# The summary: each test's time as it ends, then the build's phases (when
# BUILD/build-times exists, written by make check), the slowest tests, the
# skips with their reasons, the failures, and the closing line.
set -u
build=${1:-build}
pattern=${2:-}
export GPUX_BUILD="$(cd "$build" && pwd)"
logs="$GPUX_BUILD/test-logs"
mkdir -p "$logs"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
t_start=$(date +%s)

# ---- the list: "name<TAB>command"; the scripts first (they take longer) ---------------------
parallel=()
serial=()
programs=()
for t in "$GPUX_BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  case "$n" in *"$pattern"*) ;; *) continue ;; esac
  programs+=("$n	$t")
done
for t in tests/*/test_*.sh; do
  [ -f "$t" ] || continue
  n=$(basename "$(dirname "$t")")_$(basename "$t" .sh)
  case "$n" in *"$pattern"*) ;; *) continue ;; esac
  if head -30 "$t" | grep -q '^# serial: '; then
    serial+=("$n	bash $t")
  else
    parallel+=("$n	bash $t")
  fi
done

# longest first, by the times of the last run; unknown ones keep their order, first
order_by_last_times() { # entries on stdin
  if [ -s "$logs/times" ]; then
    awk -F'\t' 'NR == FNR { secs[$1] = $2; next } { print ((($1 in secs) ? secs[$1] : 1e9)) "\t" FNR "\t" $0 }' \
      "$logs/times" - | sort -t "$(printf '\t')" -k1,1nr -k2,2n | cut -f3-
  else
    cat
  fi
}
parallel+=("${programs[@]}")
mapfile -t parallel < <(printf '%s\n' "${parallel[@]}" | grep . | order_by_last_times)

# ---- one test -------------------------------------------------------------------------------
# Writes BUILD/test-logs/NAME.result: "passed failed skipped seconds".
count() { # PATTERN LOG: the sum of the numbers cmocka prints after PATTERN
  grep -aE "$1" "$2" | sed -E 's/[^0-9]*([0-9]+).*/\1/' | awk '{s+=$1} END {print s+0}'
}
run_one() { # NAME COMMAND...
  local name=$1; shift
  local log="$logs/$name.log" home start rc p f s
  # a program gets its own HOME and XDG directories too (a script's come from tests/lib.sh)
  home=$(mktemp -d "${TMPDIR:-/tmp}/gpuxrun.XXXXXX")
  mkdir -p "$home/run" && chmod 700 "$home/run"
  start=$(date +%s)
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
    XDG_RUNTIME_DIR="$home/run" "$@" >"$log" 2>&1 </dev/null
  rc=$?
  secs=$(( $(date +%s) - start ))
  # a local demo exchange the test's gpux started ends with it (its pid file
  # lives beside its database; older layouts kept it in the runtime directory)
  for pf in "$home"/.local/share/gpux/gpuxd.pid "$home"/run/gpux/*/gpuxd.pid; do
    [ -s "$pf" ] && kill "$(cat "$pf")" 2>/dev/null
  done
  rm -rf "$home"
  # cmocka: "[  PASSED  ] 5 test(s)." / "[  FAILED  ] 2 test(s), listed below:" / "[  SKIPPED ] 1 test(s)"
  p=$(( $(count '^\[  PASSED  \] [0-9]+ test' "$log") + $(grep -aE '^ok( |$)' "$log" | grep -cv ' # SKIP') ))
  f=$(( $(count '^\[  FAILED  \] [0-9]+ test' "$log") + $(grep -acE '^not ok( |$)' "$log") ))
  s=$(( $(count '^\[  SKIPPED \] [0-9]+ test' "$log") + $(grep -aE '^ok( |$)' "$log" | grep -c ' # SKIP') ))
  if [ -n "${CI:-}" ]; then # a skip that does not say why CI cannot run it
    ci=$(( $(count '^\[  SKIPPED \] [0-9]+ test' "$log") + $(grep -aE '^ok( |$)' "$log" | grep ' # SKIP' | grep -cv ' # SKIP CI: ') ))
    [ "$ci" -gt 0 ] && echo "not ok - $ci skipped under CI without a reason that starts with \"CI: \" (tests/lib.sh, skip)" >>"$log"
    f=$((f + ci))
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then f=1; echo "  (ran no test)" >>"$log"; fi
  echo "$p $f $s $secs" >"$logs/$name.result"
}

report() { # NAME: its line (and what failed)
  local name=$1 log="$logs/$1.log" p f s secs skipped=""
  read -r p f s secs <"$logs/$name.result"
  [ "$s" -gt 0 ] && skipped=$(printf '%3d skipped' "$s")
  if [ "$f" -gt 0 ]; then
    printf '%-34s %4d passed %3d FAILED %s (%ss)  log: %s\n' "$name" "$p" "$f" "$skipped" "$secs" "$log"
    grep -aE '^not ok|^\[  FAILED  \]|^\[  ERROR   \]|ERROR|Sanitizer|runtime error|\(ran no test\)' "$log" |
      head -20 | sed 's/^/    /'
  else
    printf '%-34s %4d passed            %s (%ss)\n' "$name" "$p" "$skipped" "$secs"
  fi
}

# ---- the pool ----------------------------------------------------------------------------------
declare -A running=()   # pid -> name
reap_one() {
  local pid
  wait -n -p pid
  [ -n "${pid:-}" ] || return 0
  report "${running[$pid]}"
  unset "running[$pid]"
}
start() { # "name<TAB>command"
  local name=${1%%	*} cmd=${1#*	}
  # shellcheck disable=SC2086
  run_one "$name" $cmd &
  running[$!]=$name
}
names=()
for e in "${parallel[@]}"; do
  while [ "${#running[@]}" -ge "$jobs" ]; do reap_one; done
  start "$e"
  names+=("${e%%	*}")
done
while [ "${#running[@]}" -gt 0 ]; do reap_one; done
for e in "${serial[@]}"; do
  start "$e"
  names+=("${e%%	*}")
  while [ "${#running[@]}" -gt 0 ]; do reap_one; done
done

# ---- the summary ----------------------------------------------------------------------------
passed=0 failed=0 skipped=0 total_secs=0 failures="" skips=""
: >"$logs/times.new"
for n in "${names[@]}"; do
  read -r p f s secs <"$logs/$n.result"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  total_secs=$((total_secs + secs))
  [ "$f" -gt 0 ] && failures="$failures $n"
  [ "$s" -gt 0 ] && skips="$skips$(grep -ahE '^ok .* # SKIP|^\[  SKIPPED \]' "$logs/$n.log" | sed "s|^|  $n: |")
"
  printf '%s\t%s\n' "$n" "$secs" >>"$logs/times.new"
done
# keep the times of tests this run did not run (a PATTERN run)
if [ -s "$logs/times" ]; then
  awk -F'\t' 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$logs/times.new" "$logs/times" >>"$logs/times.new"
fi
mv "$logs/times.new" "$logs/times"
wall=$(( $(date +%s) - t_start ))

echo
if [ -s "$GPUX_BUILD/build-times" ] && [ -z "$pattern" ]; then
  printf 'build:'
  awk '{ printf " %s %ss,", $1, $2; s += $2 } END { printf " %ss in all\n", s }' "$GPUX_BUILD/build-times"
fi
echo "slowest tests:"
for n in "${names[@]}"; do read -r _ _ _ secs <"$logs/$n.result"; printf '%6ss  %s\n' "$secs" "$n"; done |
  sort -rn | head -10
echo "tests: ${#names[@]} programs and scripts in ${wall}s, $jobs at a time (${total_secs}s one after another)"
[ -n "$skips" ] && printf 'skipped:\n%s' "$skips"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
