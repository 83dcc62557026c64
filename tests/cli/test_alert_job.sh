#!/bin/bash
# `gpux alert add SIZE|PRESET --job-total-below AMOUNT` against a real gpuxd:
# the job built as `gpux job` builds it (the same options, the same wire
# form: what the exchange keeps is what gpux job would send), the alert in
# words in `gpux alert add` and `gpux alert list` (csv: its raw fields), its
# firing in words on `gpux watch --alerts` once a machine brings the job's
# cheapest total under the budget, --rearm as an amount; bad flags are usage
# errors (exit 2) that name what is accepted; refusals of the exchange (a job
# no GPU can run, too many job alerts) exit 1 in words.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../exchange/xlib.sh"
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
signup US USD seller; SK=$KEY
signup US USD buyer; BK=$KEY; deposit "$ACC" 100000000
export GPUX_API=$GPUXD_URL GPUX_API_KEY=$BK
n=0
machine() { # PRICE: a machine of 8 H200 on NVLink, asked by the seller
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"m$n\",\"gpu\":\"h200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":8,\"hours\":720,\"price_cents\":$1,\"node_gpus\":8,\"interconnect\":\"nvlink\"}" "$SK"
  OID=$(jqb .id)
}
JOBOPTS="llama-3.1-405b --method infer-fp8 --seq 8192 --hours 24"
G=$("$GPUX" fit llama-3.1-405b --method infer-fp8 --seq 8192 --format json | jq -r '.[] | select(.gpu == "h200") | .gpus_run')

# --- usage -----------------------------------------------------------------------------------
"$GPUX" alert add --job-total-below 900 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a job alert without its model: exit 2, with an example" "$rc $(cat "$TMPD/e")" \
  '^2 gpux: alert add: --job-total-below watches a job: give its model once .*e\.g\. gpux alert add llama-3\.1-405b'
"$GPUX" alert add llama-3.1-405b --method infer-fp8 --job-total-below 900 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "inference without --hours: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: alert add: --hours H is required for this method'
"$GPUX" alert add $JOBOPTS --job-total-below 0 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a budget of 0: exit 2, naming what is accepted" "$rc $(cat "$TMPD/e")" \
  '^2 gpux: alert add: --job-total-below "0"; accepted: an amount in your account.s currency above 0, e\.g\. 900\.00'
"$GPUX" alert add $JOBOPTS --job-total-below 900 --rearm abc >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a re-arming that is not an amount: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: alert add: --rearm "abc"'
"$GPUX" alert add h200 --ask-below 4 --seq 8192 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a fit option with a price alert: exit 2, naming the option" "$rc $(cat "$TMPD/e")" \
  '^2 gpux: alert add: --seq goes with --job-total-below'
"$GPUX" alert add llama-3.1-405b --ask-below 4 --hours 24 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "--hours with a price alert: exit 2" "$rc $(cat "$TMPD/e")" '^2 gpux: alert add: --hours goes with --job-total-below'
"$GPUX" alert add llama-3.1-405b --method infer-fp9 --hours 24 --job-total-below 900 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "an unknown method: exit 2, as gpux job says it" "$rc $(cat "$TMPD/e")" '^2 gpux: fit: unknown method "infer-fp9"'
req GET /v1/alerts "" "$BK"
expect_eq "nothing was stored by the refused commands" "$(jqb '.alerts | length')" "0"

# --- add, list ---------------------------------------------------------------------------------
machine 500
BUDGET=$((G * 24 * 450))        # a machine at 4.50 a GPU-hour: G × 24 h × 450 cents
WORDS="cheapest total of llama-3.1-405b (Inference FP8) for 24 h at or below \$$((BUDGET / 100)).00"
out=$("$GPUX" alert add $JOBOPTS --job-total-below "$((BUDGET / 100))" --rearm 50 --label "405B")
expect_eq "alert add says what the exchange watches, in words" "$out" \
  "Alert 1: $WORDS. The exchange watches it and tells you on gpux watch --alerts."
req GET /v1/alerts/1 "" "$BK"
expect_eq "the exchange keeps the job as gpux sent it, the budget and re-arming in minor units" \
  "$(jqb '"\(.when) \(.job.model) \(.job.method) \(.job.seq_len) \(.hours) \(.max_total_minor) \(.rearm_minor) \(.currency)"')" \
  "job_total_lte llama-3.1-405b infer-fp8 8192 24 $BUDGET 5000 USD"
"$GPUX" job $JOBOPTS --max-total 100000 --dry-run --format json >"$TMPD/job.json"
expect_eq "(gpux job with the same options would pay $((G * 24 * 500)) now: the same job)" \
  "$(jq -r '.[] | select(.chosen) | "\(.gpu) \(.total_minor)"' "$TMPD/job.json")" "h200 $((G * 24 * 500))"
"$GPUX" alert list >"$TMPD/list"
expect_match "alert list shows the job alert in words, with its re-arming as money" "$(cat "$TMPD/list")" \
  "$(printf '%s' "$WORDS" | sed 's/[.()$]/\\&/g') +\\\$50\\.00 +armed +0 +— +— +405B"
expect_match "and says what its total is" "$(cat "$TMPD/list")" "A job alert's total is what gpux job would pay"
expect_eq "--format csv gives the raw fields" \
  "$("$GPUX" --format csv alert list | sed -n '1p;$p' | tr '\n' '|')" \
  "id,when,gpu,price_cents,minutes,rental_id,order_id,rearm_cents,model,method,hours,max_total_minor,rearm_minor,currency,state,fired_count,last_fired_at,expires_at,label|1,job_total_lte,,,,,,,llama-3.1-405b,infer-fp8,24,$BUDGET,5000,USD,armed,0,,,405B|"

# --- watch --alerts: the firing in words -------------------------------------------------------
"$GPUX" watch --alerts --since 0 >"$TMPD/watch.out" 2>"$TMPD/watch.err" &
WP=$!
at_exit "kill $WP 2>/dev/null"
machine 451
machine 450
wait_for grep -q 'Alert 1' "$TMPD/watch.out"
expect_match "gpux watch --alerts says the firing: the total now, the GPU, the machine" \
  "$(cat "$TMPD/watch.out")" \
  "Alert 1: $(printf '%s' "$WORDS" | sed 's/[.()$]/\\&/g') — now \\\$$((BUDGET / 100))\\.00 on H200, 1 node of $G \\(NVLink\\) \\(405B\\)"
expect_eq "once: the machine at 4.51 before it fired nothing" "$(grep -c 'Alert 1' "$TMPD/watch.out")" "1"
kill "$WP" 2>/dev/null; wait "$WP" 2>/dev/null

# --- refusals --------------------------------------------------------------------------------
"$GPUX" alert add 90000 --method full --hours 24 --job-total-below 1 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "a job no GPU can run: exit 1, in words" "$rc $(cat "$TMPD/e")" \
  '^1 gpux: alert add: no GPU can run this job, whatever the books hold'
signup US USD buyer; export GPUX_API_KEY=$KEY
i=0
while [ $i -lt 10 ]; do "$GPUX" alert add $JOBOPTS --job-total-below 1 >/dev/null; i=$((i + 1)); done
"$GPUX" alert add $JOBOPTS --job-total-below 1 >/dev/null 2>"$TMPD/e"; rc=$?
expect_match "the 11th job alert: exit 1, saying the limit" "$rc $(cat "$TMPD/e")" \
  '^1 gpux: alert add: your account has as many live job alerts as it may \(10\)'
finish
