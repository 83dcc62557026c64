#!/bin/sh
# The message catalogues (issue 8), all five strict: each i18n/po/*.po
# compiles with `msgfmt --check` (header, c-format directives, plural
# forms); its Language header names its file; nothing is untranslated or
# fuzzy; every message in the sources today is in it (a fresh xgettext run,
# as `make po` does, compared with msgcmp); and its Plural-Forms header picks
# the same form as gpux's C rule (i18n_plural_index, through
# build/tests/i18n_plural) for n = 0, 1, 2, 5, 21 — pt-BR and fr use the
# singular at zero, pt-PT, es and de the plural (CLDR; GNU gettext manual,
# "Plural forms").
. tests/lib.sh

po=i18n/po
PLURAL="$GPUX_BUILD/tests/i18n_plural"

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

# The plural index the catalogue's header gives for n (shell arithmetic reads
# the C-like expression; only its characters are let through).
po_plural() { # file n
  expr=$(grep -m1 '^"Plural-Forms: ' "$1" | sed -nE 's/.*plural=([^;]*);.*/\1/p')
  case "$expr" in
  "" | *[!n0-9\ \(\)\!\=\<\>\&\|\?:%+*/-]*) echo "?"; return ;;
  esac
  n=$2
  echo $(( $expr ))
}

# The msgid (and context) of the first entry msgattrib selects, on one line.
first_entry() { # file msgattrib-option
  msgattrib "$2" --no-obsolete --no-wrap "$1" 2>/dev/null |
    awk '/^$/ { body = 1; next } body && /^msg(ctxt|id) / { printf "%s ", $0 } body && /^msgstr/ { exit }'
}

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
  if [ "${untrans:-0}" -eq 0 ]; then
    ok "$lang: no untranslated message"
  else
    first=$(first_entry "$f" --untranslated)
    fail "$lang: no untranslated message" "${untrans} untranslated (first: $first)"
  fi
  if [ "${fuzzy:-0}" -eq 0 ]; then
    ok "$lang: no fuzzy message"
  else
    first=$(first_entry "$f" --only-fuzzy)
    fail "$lang: no fuzzy message" "${fuzzy} fuzzy (first: $first)"
  fi
  if [ -f "$TMPD/fresh.pot" ]; then
    if msgcmp -N "$f" "$TMPD/fresh.pot" >"$TMPD/msgcmp.out" 2>&1; then
      ok "$lang: has every message of the sources"
    else
      # "used but not defined": in the sources, not in the catalogue;
      # untranslated and fuzzy ones are counted above
      n=$(grep -c 'used but not defined' "$TMPD/msgcmp.out")
      if [ "$n" -gt 0 ]; then
        line=$(grep -m1 'used but not defined' "$TMPD/msgcmp.out" | cut -d: -f2)
        first=$(sed -n "$(( ${line:-2} - 1 )),$(( ${line:-2} ))p" "$TMPD/fresh.pot" | tr '\n' ' ')
        why="$n missing (first: $first); run 'make po' and translate $f"
      else
        why="$(grep -c . "$TMPD/msgcmp.out") untranslated or fuzzy (see above)"
      fi
      fail "$lang: has every message of the sources" "$why"
    fi
  fi
  # Plural-Forms against the C rule
  expect_match "$lang: two plural forms" "$(grep -m1 '^"Plural-Forms: ' "$f")" "nplurals=2;"
  if [ -x "$PLURAL" ]; then
    got="" want=""
    for n in 0 1 2 5 21; do
      got="$got $(po_plural "$f" $n)"
      want="$want $("$PLURAL" "$lang" $n)"
    done
    expect_eq "$lang: Plural-Forms picks the C rule's form for 0 1 2 5 21" "$got" "$want"
  else
    fail "$lang: Plural-Forms against the C rule" "$PLURAL not built (make build-tests)"
  fi
done

# the C rule itself, for the record of what the catalogues must say
expect_eq "pt-BR and fr: singular at 0, pt-PT, es, de: plural" \
  "$("$PLURAL" pt-BR 0) $("$PLURAL" fr 0) $("$PLURAL" pt-PT 0) $("$PLURAL" es 0) $("$PLURAL" de 0)" \
  "0 0 1 1 1"

finish
