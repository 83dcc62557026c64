#!/bin/sh
# Runs every benchmark program in BUILD/bench and prints what each reports.
#
#   bench/run.sh BUILD_DIR
#
# Figures are printed, never asserted. Other benchmarks (e.g. gpuxd over HTTP)
# add their own steps below the loop.
set -u
build=${1:-build}
status=0
for b in "$build"/bench/*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  case $(basename "$b") in bench_store) continue ;; esac   # driven by bench/store.sh below
  echo "== $(basename "$b")"
  "$b" || { echo "   ($(basename "$b") exited with status $?)"; status=1; }
  echo
done
echo "== GET /v1/quotes beside nginx (bench/quotes.sh)"
bench/quotes.sh "$build" || { echo "   (bench/quotes.sh exited with status $?)"; status=1; }
echo
echo "== store backends (bench/store.sh)"
bench/store.sh "$build" || { echo "   (bench/store.sh exited with status $?)"; status=1; }
exit $status
