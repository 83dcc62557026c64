#!/bin/sh
# The message catalogues: each i18n/po/*.po compiles with `msgfmt --check`
# (header, c-format directives, plural forms); its Language header names its
# file; pt_PT is complete — nothing untranslated, nothing fuzzy, and every
# message in the sources today is in it (a fresh xgettext run, as `make po`
# does, compared with msgcmp). The other languages only report their counts
# for now: issue 8 makes them complete, and this script strict for them.
. tests/lib.sh

po=i18n/po
strict="pt_PT"

# the same extraction as the Makefile's `po` target
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  srcs=$(git ls-files '*.c' '*.h' | grep -v '^tests/')
else
  srcs=$(find . -path ./tests -prune -o \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | grep -v '^build')
fi
# shellcheck disable=SC2086
if xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kNP_:1,2 -kC_:1c,2 \
     -o "$TMPD/fresh.pot" $srcs 2>"$TMPD/xgettext.err"; then
  ok "xgettext reads the sources"
else
  fail "xgettext reads the sources" "$(head -3 "$TMPD/xgettext.err")"
fi

for lang in pt_PT pt_BR es fr de; do
  f="$po/$lang.po"
  if [ ! -f "$f" ]; then
    fail "$lang: catalogue exists" "$f missing"
    continue
  fi
  if stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$f" 2>&1); then
    ok "$lang: msgfmt --check passes ($stats)"
  else
    fail "$lang: msgfmt --check passes" "$stats"
    continue
  fi
  expect_match "$lang: header Language is $lang" "$(grep -m1 '^"Language: ' "$f")" "^\"Language: $lang\\\\n\"$"
  expect_match "$lang: header charset is UTF-8" "$(grep -m1 '^"Content-Type: ' "$f")" "charset=UTF-8"
  untrans=$(printf '%s' "$stats" | sed -nE 's/.* ([0-9]+) untranslated.*/\1/p')
  fuzzy=$(printf '%s' "$stats" | sed -nE 's/.* ([0-9]+) fuzzy.*/\1/p')
  case " $strict " in
  *" $lang "*)
    expect_eq "$lang: no untranslated message" "${untrans:-0}" 0
    expect_eq "$lang: no fuzzy message" "${fuzzy:-0}" 0
    if [ -f "$TMPD/fresh.pot" ]; then
      if msgcmp -N "$f" "$TMPD/fresh.pot" >"$TMPD/msgcmp.out" 2>&1; then
        ok "$lang: has every message of the sources"
      else
        n=$(grep -c 'used but not defined' "$TMPD/msgcmp.out")
        line=$(grep -m1 'used but not defined' "$TMPD/msgcmp.out" | cut -d: -f2)
        first=$(sed -n "$(( ${line:-2} - 1 ))p" "$TMPD/fresh.pot")
        fail "$lang: has every message of the sources" \
          "$n missing or untranslated (first: $first); run 'make po' and translate $f"
      fi
    fi
    ;;
  *)
    echo "# $lang: ${untrans:-0} untranslated, ${fuzzy:-0} fuzzy (complete in issue 8)"
    ;;
  esac
done

finish
