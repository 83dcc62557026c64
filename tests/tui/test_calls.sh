#!/bin/sh
# Who calls whom inside tui/, read from the build's objects (nm: an edge
# A -> B when A's object uses a symbol B's object defines; docs/ARCHITECTURE.md,
# "The screen loop"):
#  - no file calls another that calls it back, directly or around a cycle;
#  - the frame (tui/frame/) names no screen: of the screens' files only app.c
#    uses one, the bottom screen (market/browse_screen.c);
#  - the screen families (market/, fitpanel/, trade/) never use one another:
#    a screen opens another by place, through tui/screens.c.
. tests/lib.sh

objs=
for src in $(find tui -name '*.c' | sort); do
  o="$GPUX_BUILD/obj/${src%.c}.o"
  if [ ! -f "$o" ]; then
    fail "the object of $src is built" "$o missing (make build/gpux)"
    finish
  fi
  objs="$objs $o"
done

# "FILE SYMBOL D|U" lines for every object (FILE relative to tui/, no .o)
# shellcheck disable=SC2086
for o in $objs; do
  f=${o#"$GPUX_BUILD/obj/tui/"}
  f=${f%.o}
  nm -P "$o" | awk -v f="$f" '$2 == "U" { print f, $1, "U"; next }
                               $2 ~ /^[TDRBCGS]$/ { print f, $1, "D" }'
done >"$TMPD/syms"

# the edges, "A B" (A uses B)
awk '$3 == "D" { own[$2] = $1 } $3 == "U" { use[NR] = $1 " " $2 }
     END { for (i in use) { split(use[i], p, " "); if ((p[2] in own) && own[p[2]] != p[1]) print p[1], own[p[2]] } }' \
  "$TMPD/syms" | sort -u >"$TMPD/edges"

n_edges=$(wc -l <"$TMPD/edges")
[ "$n_edges" -gt 20 ] && ok "the call graph of tui/ is read ($n_edges edges)" ||
  fail "the call graph of tui/ is read" "only $n_edges edges"

# Take away, again and again, the files that call nothing left and those
# nothing left calls: what stays lies on a cycle.
cyc=$(awk '{ out[$1] = out[$1] " " $2; inn[$2] = inn[$2] " " $1; node[$1]; node[$2] }
  function live(list, n, a, i, k) { n = split(list, a, " "); k = 0
    for (i = 1; i <= n; i++) if (a[i] in node) k++; return k }
  END { do { gone = 0
          for (v in node) if (live(out[v]) == 0 || live(inn[v]) == 0) { delete node[v]; gone = 1 }
        } while (gone)
        for (v in node) printf "%s ", v }' "$TMPD/edges")
[ -z "$cyc" ] && ok "no file of tui/ calls one that calls it back (no cycle)" ||
  fail "no file of tui/ calls one that calls it back" "on a cycle: $cyc"

frame_to_screens=$(awk '$1 ~ /^frame\// && $2 ~ /^(market|fitpanel|trade)\// &&
                        !($1 == "frame/app" && $2 == "market/browse_screen")' "$TMPD/edges" | tr '\n' ';')
[ -z "$frame_to_screens" ] && ok "the frame names no screen but the bottom one" ||
  fail "the frame names no screen but the bottom one" "$frame_to_screens"

across=$(awk '{ split($1, a, "/"); split($2, b, "/") }
              a[1] != b[1] && a[1] ~ /^(market|fitpanel|trade)$/ && b[1] ~ /^(market|fitpanel|trade)$/' \
  "$TMPD/edges" | tr '\n' ';')
[ -z "$across" ] && ok "the screen families use none of one another's files" ||
  fail "the screen families use none of one another's files" "$across"

finish
