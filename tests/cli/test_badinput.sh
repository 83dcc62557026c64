#!/bin/bash
# Bad input to gpux's commands (issue 2): every case exits 2 with one line on
# stderr "gpux: <what was wrong>; <what is accepted>" that names the bad
# value, prints nothing on stdout, and never crashes (also under make asan,
# where a sanitizer report would turn the exit status into a failure).
. "$(dirname "$0")/../lib.sh"

# bad "args" | text the message must contain (the bad value) | text naming what is accepted
while IFS='|' read -r args bad accepted; do
  [ -z "$args" ] && continue
  eval "set -- $args"
  "$GPUX" "$@" >"$TMPD/out" 2>"$TMPD/err"
  rc=$?
  err=$(cat "$TMPD/err")
  if [ "$rc" -eq 2 ] && [ ! -s "$TMPD/out" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
     case "$err" in "gpux: "*) true ;; *) false ;; esac &&
     case "$err" in *"$bad"*) true ;; *) false ;; esac &&
     case "$err" in *"$accepted"*) true ;; *) false ;; esac; then
    ok "gpux $args -> exit 2, says \"$bad\" and \"$accepted\""
  else
    fail "gpux $args" "rc=$rc stdout=$(head -c 200 "$TMPD/out") stderr=$err"
  fi
done <<'CASES'
fit abc|"abc"|70B
fit -5|"-5"|negative
fit 0|"0"|zero
fit 1e400|"1e400"|1.3T
fit 1000000T|"1000000T"|100T
fit ''|""|70
fit 7,5|"7,5"|7.5
fit 70 --method bogus|"bogus"|qlora
fit 70 --method|--method|METHOD
fit 70 --method=|--method|METHOD
fit 70 --method qlora --method lora|--method given twice|once
fit 70 --gpus 0|0|1 to 1048576
fit 70 --gpus -1|-1|1 to 1048576
fit 70 --gpus abc|"abc"|1 to 1048576
fit 70 --gpus 2.5|"2.5"|1 to 1048576
fit 70 --gpus 99999999999999999999999|99999999999999999999999|1 to 1048576
fit 70 --seq 0|0|1 to
fit 70 --batch x|"x"|1 to
fit 70 --zero 5|"5"|ZeRO-3
fit 70 --optimizer adamx|"adamx"|adam8bit
fit 70 --tokens -3|"-3"|300B
fit 70 --tokens abc|"abc"|1.3T
fit 70 --mfu 2|2|40%
fit 70 --mfu 0|0|40%
fit 70 --mfu abc|"abc"|40%
fit 70 --mfu 150%|150%|40%
fit 70 --checkpointing --no-checkpointing|--no-checkpointing|give one
fit 70 --checkpointing=yes|--checkpointing takes no value|--checkpointing
fit 70 --workload nope|"nope"|training
fit 70 --sort nope|"nope"|job_fits
fit 70 --sort cheapest:desc|cheapest|--sort cheapest
fit 70 --bogus|"--bogus"|--method
fit 70 80|"80"|--help
fit|which model|llama-3.1-8b
table|which workload|training
table nope|"nope"|finetune
table training --sort nope|"nope"|fit_full_8
table training --sort memory:sideways|"sideways"|COLUMN:desc
table training --sort|--sort|COLUMN
table training --sort memory --sort price|--sort given twice|once
table training --filter|--filter|EXPR
table training --bogus|"--bogus"|--sort
table training finetune|"finetune"|--help
bogus|"bogus"|table
--bogus table training|"--bogus"|--lang
-x|"-x"|--help
--lang xx table training|"xx"|pt-PT
--lang|--lang|L
--lang en --lang pt-PT table training|--lang given twice|once
table training --lang en --lang de|--lang given twice|once
--format xml table training|"xml"|csv
table training --format|--format|FORMAT
--ascii=yes table training|--ascii takes no value|--ascii
--data|--data|DIR
CASES

# a bad value is echoed back sanitised: no escape sequence reaches the terminal
"$GPUX" table "$(printf 'x\033[2J\007y')" >/dev/null 2>"$TMPD/err"
expect_eq "an argument with control characters: exit 2" "$?" 2
expect_eq "... and no control character on stderr" "$(LC_ALL=C tr -d '\n' <"$TMPD/err" | LC_ALL=C grep -c '[[:cntrl:]]')" 0

# the messages follow the language
err=$("$GPUX" --lang pt-PT table nope 2>&1 >/dev/null)
expect_match "pt-PT: the error is translated" "$err" '^gpux: table: .*desconhecida.*nope'

# ---- a damaged catalogue: the catalogue's own error, exit 1 --------------------------
mkdir -p "$TMPD/data"
"$GPUX" table training >/dev/null  # the embedded one works
for f in gpus workloads models demo_market; do
  # gpux has the JSON embedded; rebuild copies from the source tree
  cp "$(dirname "$0")/../../data/$f.json" "$TMPD/data/$f.json" 2>/dev/null
done
check "an intact copy of the catalogue in --data DIR loads" "$GPUX" --data "$TMPD/data" table training
printf '{"gpus": [ {"id": "x"' >"$TMPD/data/gpus.json"
"$GPUX" --data "$TMPD/data" table training >"$TMPD/out" 2>"$TMPD/err"
rc=$?
expect_eq "damaged gpus.json: exit 1" "$rc" 1
expect_match "damaged gpus.json: the message names the file" "$(cat "$TMPD/err")" '^gpux: .*gpus\.json'
expect_eq "damaged gpus.json: nothing on stdout" "$(cat "$TMPD/out")" ""
"$GPUX" --data "$TMPD/nonexistent" fit 70 >"$TMPD/out" 2>"$TMPD/err"
expect_eq "missing --data DIR: exit 1" "$?" 1
expect_match "missing --data DIR: names the file" "$(cat "$TMPD/err")" 'nonexistent/gpus\.json'

# ---- help, version, no command -------------------------------------------------------------
check "gpux --help exits 0" "$GPUX" --help
expect_match "gpux --help lists the commands" "$("$GPUX" --help)" 'table WORKLOAD'
expect_match "gpux -h = --help" "$("$GPUX" -h | head -1)" '^usage: gpux'
expect_match "gpux table --help: the command's usage" "$("$GPUX" table --help | head -1)" '^usage: gpux table WORKLOAD'
expect_match "gpux fit --help lists --method" "$("$GPUX" fit --help)" '--method METHOD'
expect_match "gpux --version" "$("$GPUX" --version)" '^gpux [0-9]+\.[0-9]+'
# with no command gpux opens the interactive screen (tests/tui); off a terminal
# it cannot, says why and where the same data is, and exits 1 without drawing
"$GPUX" </dev/null >"$TMPD/out" 2>"$TMPD/err"
rc=$?
expect_eq "gpux with no command, not on a terminal: exit 1" "$rc" 1
expect_match "... says the interactive screen needs a terminal" "$(head -1 "$TMPD/err")" \
  '^gpux: the interactive screen needs a terminal'
expect_match "... and points to gpux table" "$(cat "$TMPD/err")" 'gpux table training'
expect_eq "... with nothing on stdout (no escape sequence either)" "$(wc -c <"$TMPD/out")" 0

finish
