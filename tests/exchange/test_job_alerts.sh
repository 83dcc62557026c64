# Job alerts (docs/API.md "Alerts", job_total_lte): "tell me when the
# cheapest total of this job is at or below Y" — the job body of a job order,
# its hours and regions, and a budget in the account's currency. Held against
# what a job order would pay (its preview's total_minor, the same dry run)
# and against the test's own arithmetic on its own asks: the alert fires at
# the exact crossing, from the book change that brings the cheapest GPU's
# total to Y (equal counts) and not a minor unit before, once — or, with
# rearm_minor, again only after the total has gone back up by that much (or
# no GPU could run the job); the cheapest of every GPU counts, in the units
# the job needs; regions are honoured; an alert that holds when made fires
# at once; a deleted one is silent; a job alert made before a kill -9 fires
# after it. Bad job bodies are refused with the same codes and fields as a
# job order's; a job no GPU can run is 422 JOB_NOT_RUNNABLE; at most 10 live
# job alerts per account. US accounts in USD (no VAT, FX 1): a total is
# Σ gpus × hours × price, except where the EUR account says otherwise.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
GPUX=$GPUX_BUILD/gpux

signup US USD seller; SK=$KEY
signup US USD buyer; B=$ACC BK=$KEY; deposit "$B" 100000000
n=0
sell() { # GPU PRICE [REGION] — a node of 8 on NVLink, 720 h; sets OID
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"s$n\",\"gpu\":\"$1\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":8,\"hours\":720,\"price_cents\":$2,\"node_gpus\":8,\"interconnect\":\"nvlink\",\"region\":\"${3:-eu-west}\"}" "$SK"
  [ "$ST" = 201 ] || fail "an ask of a node of 8 $1 at $2" "$ST $BODY"
  OID=$(jqb .id)
}
cancel() { req DELETE "/v1/orders/$1" "" "$SK"; }
alert() { # BODY [KEY] — sets AID
  req POST /v1/alerts "$1" "${2:-$BK}"
  AID=$(jqb .id)
}
state() { req GET "/v1/alerts/$1" "" "${2:-$BK}"; jqb .state; }
# the firings of alert $1: "gpu:total_minor" in order
firings() {
  req GET "/v1/events?limit=200" "" "${2:-$BK}"
  jqb "[.events[] | select(.kind == \"alert\" and .alert_id == $1) | \"\(.gpu):\(.total_minor)\"] | join(\" \")"
}

# Llama 3.1 405B at FP8, 8k context (as tests/exchange/test_jobs.sh), 24
# hours: G GPUs of one machine of H200 or B200 on NVLink run it (gpux's own
# fit says how many; the test's asks are machines of 8, each serving units of
# G); its total from a node at price P is G × 24 × P
JOB='{"model":"llama-3.1-405b","method":"infer-fp8","params_millions":405900,"layers":126,"hidden":16384,"heads":128,"kv_heads":8,"head_dim":128,"vocab":128256,"ffn":53248,"seq_len":8192}'
H=24
"$GPUX" fit llama-3.1-405b --method infer-fp8 --seq 8192 --format json >"$TMPD/fit.json" 2>"$TMPD/fit.err" ||
  fail "gpux fit gives the job's needs" "$(cat "$TMPD/fit.err")"
G=$(jq -r '.[] | select(.gpu == "h200") | .gpus_run' "$TMPD/fit.json")
expect_eq "the job needs one machine of G GPUs, the same on H200 and B200 (gpux's fit: G=$G)" \
  "$(jq -r '[.[] | select(.gpu == "h200" or .gpu == "b200") | "\(.gpu):\(.gpus_run)/\(.node_gpus)/\(.nodes)"] | join(" ")' "$TMPD/fit.json")" \
  "b200:$G/$G/1 h200:$G/$G/1"
total() { echo $((G * H * $1)); }   # PRICE: G GPUs of one node for H hours
jalert() { # BUDGET [EXTRA-FIELDS] — a job alert on the job for H hours
  alert "{\"when\":\"job_total_lte\",\"job\":$JOB,\"hours\":$H,\"max_total_minor\":$1${2:+,$2}}" "${3:-$BK}"
}

# --- bad bodies: the job refused as a job order's is -----------------------------------------------
same_refusal() { # DESCRIPTION JOB-JSON [EXTRA-FIELDS]
  req POST /v1/orders/preview "{\"side\":\"buy\",\"max_total_minor\":100000,\"job\":$2${3:+,$3}}" "$BK"
  want="$ST $(jqb .error.code) $(jqb .error.field)"
  req POST /v1/alerts "{\"when\":\"job_total_lte\",\"max_total_minor\":100000,\"job\":$2${3:+,$3}}" "$BK"
  expect_eq "$1: the alert is refused as the job order is ($want)" "$ST $(jqb .error.code) $(jqb .error.field)" "$want"
  case $want in 400\ *) ;; *) fail "$1: the job order refuses it with a 400" "$want" ;; esac
}
same_refusal "a job that is not an object" '"llama"' '"hours":24'
same_refusal "an unknown job field" "$(printf '%s' "$JOB" | jq -c '. + {colour: "red"}')" '"hours":24'
same_refusal "a sequence length out of range" "$(printf '%s' "$JOB" | jq -c '.seq_len = 0')" '"hours":24'
same_refusal "a job field that is not a whole number" "$(printf '%s' "$JOB" | sed 's/"seq_len":8192/"seq_len":8192.5/')" '"hours":24'
same_refusal "an unknown method" "$(printf '%s' "$JOB" | jq -c '.method = "infer-fp3"')" '"hours":24'
same_refusal "a model without its layers" "$(printf '%s' "$JOB" | jq -c 'del(.layers)')" '"hours":24'
same_refusal "inference without hours" "$JOB"
same_refusal "hours out of range" "$JOB" '"hours":721'
same_refusal "an unknown region" "$JOB" '"hours":24,"regions":["mars-1"]'
req POST /v1/orders/preview "{\"side\":\"buy\",\"max_total_minor\":100000,\"hours\":24,\"job\":$JOB}" "$BK"
expect_eq "(the same job, well formed, is a job order's preview)" "$ST" "200"
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"job\":$JOB}" "$BK"
expect_eq "a job alert needs its budget" "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD max_total_minor"
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"max_total_minor\":0,\"job\":$JOB}" "$BK"
expect_eq "a budget of 0 is OUT_OF_RANGE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 OUT_OF_RANGE max_total_minor"
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"max_total_minor\":5,\"rearm_minor\":0,\"job\":$JOB}" "$BK"
expect_eq "a rearm_minor of 0 is OUT_OF_RANGE" "$ST $(jqb .error.code) $(jqb .error.field)" "400 OUT_OF_RANGE rearm_minor"
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"max_total_minor\":5,\"gpu\":\"h200\",\"job\":$JOB}" "$BK"
expect_eq "a GPU does not go with a job alert" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION gpu"
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"max_total_minor\":5,\"rearm_cents\":5,\"job\":$JOB}" "$BK"
expect_eq "rearm_cents does not go with a job alert (rearm_minor does)" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION rearm_cents"
req POST /v1/alerts "{\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":400,\"job\":$JOB}" "$BK"
expect_eq "a job does not go with a price alert" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_COMBINATION job"
HUGE=$(printf '%s' "$JOB" | jq -c '.method = "full" | .params_millions = 90000000 | .layers = 2000 | .hidden = 262144 | .heads = 2048 | .kv_heads = 2048 | .ffn = 1048576')
req POST /v1/alerts "{\"when\":\"job_total_lte\",\"hours\":24,\"max_total_minor\":5,\"job\":$HUGE}" "$BK"
expect_eq "a job no GPU of the catalogue can run is 422 JOB_NOT_RUNNABLE, GPU by GPU" \
  "$ST $(jqb .error.code) $(jqb '[.error.alternatives[] | select(.runnable | not)] | length') $(jqb '.error.alternatives | length')" \
  "422 JOB_NOT_RUNNABLE $(jq length "$TMPD/fit.json") $(jq length "$TMPD/fit.json")"
req GET /v1/alerts "" "$BK"
expect_eq "nothing was stored by the refused requests" "$ST $(jqb '.alerts | length')" "200 0"

# --- at or below: from above, exactly at the budget ------------------------------------------------
sell h200 500; A500=$OID
jalert "$(total 450)" '"label":"405B cheap"'
ONCE=$AID
expect_eq "with the cheapest total at $(total 500) a budget of $(total 450) is armed" \
  "$ST $(jqb .state) $(jqb .when) $(jqb .max_total_minor) $(jqb .hours) $(jqb .currency) $(jqb .regions)" \
  "201 armed job_total_lte $(total 450) $H USD null"
expect_eq "the alert keeps the job in its wire form (every field, as a job order's)" \
  "$(jqb '.job | "\(.model) \(.method) \(.seq_len) \(.layers)"') $(jqb '.price_cents') $(jqb '.gpu')" \
  "llama-3.1-405b infer-fp8 8192 126 null null"
sell h200 451
expect_eq "a node at 451 (a total $(( $(total 451) - $(total 450) )) above): armed, nothing fired" \
  "$(state "$ONCE") [$(firings "$ONCE")]" "armed []"
req POST /v1/orders/preview "{\"side\":\"buy\",\"max_total_minor\":100000000,\"hours\":$H,\"job\":$JOB}" "$BK"
expect_eq "(a job order would pay $(total 451) now)" "$(jqb .gpu) $(jqb .total_minor)" "h200 $(total 451)"
sell h200 450; A450=$OID
expect_eq "the node at exactly 450 (a total of exactly the budget) fires it once" \
  "$(state "$ONCE") [$(firings "$ONCE")]" "fired [h200:$(total 450)]"
req GET "/v1/events?limit=200" "" "$BK"
expect_eq "the firing says the GPU, the units, hours, total, currency, budget and the market's seq" \
  "$(jqb "[.events[] | select(.alert_id == $ONCE)][0] | \"\(.when) \(.gpu) \(.gpus) \(.node_gpus) \(.nodes) \(.interconnect) \(.hours) \(.total_minor) \(.currency) \(.max_total_minor) \(.label) \(.state) \(.seq > 0)\"")" \
  "job_total_lte h200 $G $G 1 nvlink $H $(total 450) USD $(total 450) 405B cheap fired true"
sell h200 440
expect_eq "a once-alert does not fire again when the total falls further" "[$(firings "$ONCE")]" "[h200:$(total 450)]"

# --- the cheapest of every GPU ---------------------------------------------------------------------
jalert "$(total 300)"
CROSS=$AID
expect_eq "a budget of $(total 300) with H200 at $(total 440): armed" "$(state "$CROSS")" "armed"
sell b200 301
expect_eq "a B200 node at 301: still above" "[$(firings "$CROSS")]" "[]"
sell b200 300
expect_eq "a B200 node at 300 fires it, for B200 (another GPU's book, the same job)" \
  "[$(firings "$CROSS")]" "[b200:$(total 300)]"

# --- an alert that holds when made ----------------------------------------------------------------
jalert "$(total 300)"
expect_eq "a job alert whose budget the books meet already fires at once" \
  "$ST $(jqb .state) [$(firings "$AID")]" "201 fired [b200:$(total 300)]"

# --- regions ----------------------------------------------------------------------------------------
jalert "$(total 200)" '"regions":["us-east"]'
RG=$AID
expect_eq "an alert for us-east keeps its regions" "$(jqb '.regions | join(",")')" "us-east"
sell h200 150 eu-west; EU=$OID
expect_eq "a node at 150 in eu-west does not fire an alert for us-east" "[$(firings "$RG")]" "[]"
sell h200 199 us-east
expect_eq "a node at 199 in us-east does" "[$(firings "$RG")]" "[h200:$(total 199)]"

# --- deleted: silent --------------------------------------------------------------------------------
jalert "$(total 100)"
DEL=$AID
req DELETE "/v1/alerts/$DEL" "" "$BK"
expect_eq "a job alert is deleted" "$ST $(jqb .deleted)" "200 true"
sell h200 90
expect_eq "a total under its budget after that fires nothing" "[$(firings "$DEL")]" "[]"

# --- re-arming: hysteresis --------------------------------------------------------------------------
# the books cleared of every node but one at 500
for id in $(sql "SELECT id FROM orders WHERE side = 'sell' AND remaining > 0"); do cancel "$id"; done
sell h200 500; KEEP=$OID
jalert "$(total 450)" "\"rearm_minor\":$(( $(total 475) - $(total 450) ))"
R=$AID
sell h200 450; R450=$OID
expect_eq "a re-arming job alert fires at its budget and waits to re-arm" "$(state "$R") [$(firings "$R")]" "rearming [h200:$(total 450)]"
sell h200 474; R474=$OID
cancel "$R450"
expect_eq "the total back at $(total 474) (under budget + rearm_minor) does not re-arm it" "$(state "$R")" "rearming"
sell h200 450; R450=$OID
expect_eq "so the total at the budget again does not fire it" "[$(firings "$R")]" "[h200:$(total 450)]"
sell h200 475; R475=$OID
cancel "$R450"; cancel "$R474"
expect_eq "the total back at $(total 475) (budget + rearm_minor) re-arms it, silently" \
  "$(state "$R") [$(firings "$R")]" "armed [h200:$(total 450)]"
sell h200 449; R449=$OID
expect_eq "and the next crossing fires it again" "$(state "$R") [$(firings "$R")]" \
  "rearming [h200:$(total 450) h200:$(total 449)]"
cancel "$R449"; cancel "$R475"; cancel "$KEEP"
expect_eq "no GPU able to run the job (every node gone) re-arms it too" "$(state "$R")" "armed"
sell h200 440
expect_eq "and a node at 440 fires it a third time" "$(state "$R") [$(firings "$R")]" \
  "rearming [h200:$(total 450) h200:$(total 449) h200:$(total 440)]"
req GET "/v1/alerts/$R" "" "$BK"
expect_eq "it counts its firings" "$(jqb .fired_count) $(jqb .rearm_minor)" "3 $(( $(total 475) - $(total 450) ))"

# --- what a job order would pay: a EUR account with VAT ---------------------------------------------
signup PT EUR buyer; EK=$KEY
req POST /v1/orders/preview "{\"side\":\"buy\",\"max_total_minor\":100000000,\"hours\":$H,\"job\":$JOB}" "$EK"
T=$(jqb .total_minor)
expect_eq "(a job order from the PT/EUR account would pay a total of its own, VAT included)" \
  "$(jqb .currency) $([ "$T" != "$(total 440)" ] && echo differs)" "EUR differs"
jalert "$((T - 1))" "" "$EK"
expect_eq "a EUR budget one minor unit under what the job order pays: armed" "$(state "$AID" "$EK") $(jqb .currency)" "armed EUR"
jalert "$T" "" "$EK"
expect_eq "a EUR budget of exactly that total fires at once, with that total" \
  "$(jqb .state) [$(firings "$AID" "$EK")]" "fired [h200:$T]"

# --- at most 10 live job alerts ---------------------------------------------------------------------
signup US USD buyer; CK=$KEY
i=0
codes=""
while [ $i -lt 10 ]; do
  jalert 1 "" "$CK"
  codes="$codes$ST "
  i=$((i + 1))
done
expect_eq "10 job alerts are accepted" "$codes" "201 201 201 201 201 201 201 201 201 201 "
jalert 1 "" "$CK"
expect_eq "the 11th is 409 TOO_MANY_JOB_ALERTS" "$ST $(jqb .error.code) $(jqb .error.max)" "409 TOO_MANY_JOB_ALERTS 10"
alert '{"when":"order_filled"}' "$CK"
expect_eq "other alerts still fit beside them" "$ST" "201"

# --- a kill -9: the alert is the store's ------------------------------------------------------------
jalert "$(total 400)"
K=$AID
expect_eq "made before the kill, armed (the cheapest is $(total 440))" "$(state "$K")" "armed"
DB=$GPUXD_DB
kill -9 "$GPUXD_PID"; { wait "$GPUXD_PID"; } 2>/dev/null
GPUXD_DB_KEEP=$DB xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
sell h200 401
expect_eq "after the restart a node at 401 does not fire it" "$(state "$K") [$(firings "$K")]" "armed []"
sell h200 400
expect_eq "a node at 400 does: the job alerts are read again from the store" \
  "$(state "$K") [$(firings "$K")]" "fired [h200:$(total 400)]"

why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
xd_finish
