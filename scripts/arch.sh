#!/bin/sh
# The folders' dependency graph, read from the code: a folder's sources (its
# *.c and *.h, subfolders included: a top-level folder is one library) use
# another folder when they say #include "other/...". The libraries are the
# Makefile's ALL_MODS.
#
#   scripts/arch.sh graph          "folder: used used ..." per library, in link
#                                  order (a folder before the ones it uses)
#   scripts/arch.sh includes       "file:line folder header" per #include of
#                                  another library's header
#   scripts/arch.sh uses FILE...   the libraries FILE... reach, directly or
#                                  through the ones they use, in link order
#   scripts/arch.sh table          docs/ARCHITECTURE.md's "may use" table as
#                                  "folder header used used ..." (the rows of
#                                  "The folders": a folder, its public header,
#                                  ..., and last what it may use, where the
#                                  folders are the words in backticks)
#
# tests/arch/test_architecture.sh holds the code to the table; the Makefile
# links each fuzzer against the libraries `uses` names.
set -eu
cd "$(dirname "$0")/.."
mods=$(sed -n 's/^ALL_MODS *:= *//p' Makefile)

# every #include "lib/..." of FILE...: "file:line lib header"
includes_of() {
  grep -HnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z0-9_]+/[A-Za-z0-9_./-]+"' "$@" 2>/dev/null |
    sed -E 's/^([^:]+):([0-9]+):.*"([a-z0-9_]+)\/([^"]+)"$/\1:\2 \3 \3\/\4/' |
    awk -v mods=" $mods " 'index(mods, " " $2 " ")'
}
sources_of() { find "$1" \( -name '*.c' -o -name '*.h' \) -type f | sort; }

# "user used" pairs of the library graph (each library also with itself, so tsort lists it)
pairs() {
  # shellcheck disable=SC2086
  { for m in $mods; do echo "$m $m"; done
    includes_of $(for m in $mods; do sources_of "$m"; done) |
      awk '{ split($1, p, "/"); if (p[1] != $2) print p[1], $2 }'
  } | sort -u
}
link_order() { pairs | tsort; }

case "${1:-}" in
  graph)
    p=$(pairs)
    for m in $(link_order); do
      printf '%s:%s\n' "$m" "$(printf '%s\n' "$p" | awk -v m="$m" '$1 == m && $2 != m { printf " %s", $2 }')"
    done ;;
  includes)
    # shellcheck disable=SC2046
    includes_of $(for m in $mods; do sources_of "$m"; done) | awk '{ split($1, p, "/"); if (p[1] != $2) print }' ;;
  uses)
    shift
    p=$(pairs)
    # shellcheck disable=SC2068
    want=$(includes_of $@ | awk '{ print $2 }' | sort -u)
    while :; do
      more=$(for w in $want; do printf '%s\n' "$p" | awk -v w="$w" '$1 == w { print $2 }'; done | sort -u)
      [ "$more" = "$want" ] && break
      want=$more
    done
    for m in $(link_order); do
      case " $(echo $want) " in *" $m "*) printf '%s ' "$m" ;; esac
    done
    echo ;;
  table)
    # rows "| `folder/` | `header` | what it is | may use |" of the table under
    # "## The folders"; what it is may hold a "|" of its own, may use is the last cell
    awk '/^## The folders/ { on = 1; next } /^## / { on = 0 } on && /^\| `[a-z0-9_]+\/` \|/' docs/ARCHITECTURE.md |
      awk -F'|' '{
        folder = $2; gsub(/[ `\/]/, "", folder)
        header = $3; gsub(/[ `]/, "", header)
        printf "%s %s/%s", folder, folder, header
        n = split($(NF - 1), w, "`")
        for (i = 2; i <= n; i += 2) printf " %s", w[i]
        printf "\n"
      }' ;;
  *)
    echo "usage: scripts/arch.sh graph|includes|uses FILE...|table" >&2
    exit 2 ;;
esac
