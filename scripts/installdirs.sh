#!/bin/sh
# The directories `make install` creates, so that `make uninstall` removes
# exactly those (once empty) and never one that was there before it.
#
#   scripts/installdirs.sh make NOTE DIR...   create each DIR and its missing
#                                             parents; NOTE (a file) gets one
#                                             line per directory made here
#   scripts/installdirs.sh remove NOTE        remove NOTE, then each directory
#                                             it names that is empty, deepest first
#
# mkdir is the test of "made here": two parallel make jobs never both note one.
set -eu
what=$1 note=$2
shift 2
made() { # DIR: create DIR's missing components, then note each one made
  case $1 in /*) p="" ;; *) p="." ;; esac
  new=""
  old_ifs=$IFS
  IFS=/
  for c in $1; do
    IFS=$old_ifs
    [ -z "$c" ] && continue
    p="$p/$c"
    if [ ! -d "$p" ] && mkdir "$p" 2>/dev/null; then
      new="$new$p
"
    fi
  done
  IFS=$old_ifs
  # after the loop: the note's own directory may have been among them
  [ -z "$new" ] || printf '%s' "$new" >>"$note"
}
case $what in
  make)
    made "$(dirname "$note")"
    for d in "$@"; do made "$d"; done
    ;;
  remove)
    [ -f "$note" ] || exit 0
    dirs=$(awk '{ print length($0) " " $0 }' "$note" | sort -rn | cut -d' ' -f2-)
    rm -f "$note"
    printf '%s\n' "$dirs" | while IFS= read -r d; do
      [ -n "$d" ] && rmdir "$d" 2>/dev/null || true
    done
    ;;
  *) echo "usage: $0 make NOTE DIR... | remove NOTE" >&2; exit 2 ;;
esac
