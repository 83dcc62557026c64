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
  echo "== $(basename "$b")"
  "$b" || { echo "   ($(basename "$b") exited with status $?)"; status=1; }
  echo
done
exit $status
