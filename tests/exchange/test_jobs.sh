# Job orders over HTTP (docs/API.md, "Job orders"): a fit job instead of a
# GPU, evaluated by gpuxd on every GPU book; the cheapest GPU whose book can
# run the job is bought as one FOK order of the units the job needs. Held
# against an independent computation: gpux's own fit (`gpux fit --format
# json`: the same library through the client) says what each GPU needs, the
# test's own asks say what the books hold and cost, and jq works out the
# cheapest runnable from those two alone. Also: never a GPU that cannot run
# the job however cheap its GPU-hour, FOK leaves nothing behind, budgets and
# funds, previews that change nothing, replays, bad jobs, training hours from
# the fit, kill -9 in the middle of job orders, and the money conserved.
# All accounts are USD in the US (no VAT, FX 1), so a total is Σ gpus × hours
# × price.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 || finish
GPUX=$GPUX_BUILD/gpux

signup US USD seller; S=$ACC; SK=$KEY
signup US USD buyer; Bu=$ACC; BK=$KEY; deposit "$Bu" 100000000
n=0
book='[]'
sell() { # GPU NODE_GPUS NODES PRICE LINK WHOLE [REGION]
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"s$n\",\"gpu\":\"$1\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":$(($2 * $3)),\"hours\":720,\"price_cents\":$4,\"node_gpus\":$2,\"interconnect\":\"$5\",\"whole_nodes\":$6,\"region\":\"${7:-eu-west}\"}" "$SK"
  [ "$ST" = 201 ] || fail "an ask of $3 nodes of $2 $1 at $4" "$ST $BODY"
  book=$(printf '%s' "$book" | jq -c ". + [{gpu:\"$1\", k:$2, free:[range($3)] | map($2), price:$4, link:\"$5\", whole:$6, region:\"${7:-eu-west}\"}]")
}
# the cheapest GPU-hours in the book are H100 SXM in nodes of 4 and L40S cards:
# neither can run the 405B job below (it needs a node of 8 H100, or 16 L40S in
# two machines of 8)
sell h100-sxm 4 2 150 nvlink false
sell h100-sxm 8 1 300 nvlink true
sell h200 8 1 420 nvlink false us-east
sell b300 8 1 900 nvlink false
sell mi300x 8 1 410 infinity-fabric false eu-central
sell l40s 1 16 40 pcie false

# Llama 3.1 405B (the preset's architecture, data/models.json) at FP8, 8k context
JOB405='{"model":"llama-3.1-405b","method":"infer-fp8","params_millions":405900,"layers":126,"hidden":16384,"heads":128,"kv_heads":8,"head_dim":128,"vocab":128256,"ffn":53248,"seq_len":8192}'
H=24
"$GPUX" fit llama-3.1-405b --method infer-fp8 --seq 8192 --format json >"$TMPD/fit405.json" 2>"$TMPD/fit.err" ||
  fail "gpux fit gives the job's needs" "$(cat "$TMPD/fit.err")"

# The cheapest way to run the job on each GPU, from gpux's fit and the book
# alone: units of node_gpus inside one node (⌊free ÷ node_gpus⌋ per node; a
# whole-node lot only when its nodes are that size), on the interconnect
# (pcie: any), cheapest lots first. The book is the test's own: its asks, and
# each node's free GPUs ("free"), updated by take() as fills take them.
expected() { # FIT.json BOOK HOURS [REGIONS-json]
  jq -c --argjson book "$2" --argjson h "$3" --argjson regions "${4:-null}" '
    [ .[] | . as $f
      | ($book | map(select(.gpu == $f.gpu and .k >= ($f.node_gpus // 99)
                            and ((.whole | not) or .k == $f.node_gpus)
                            and ($f.interconnect == null or $f.interconnect == "pcie" or .link == $f.interconnect)
                            and ($regions == null or (.region as $r | $regions | index($r)) != null)))
               | sort_by(.price)) as $lots
      | (reduce $lots[] as $l ({left: ($f.nodes // 0), cost: 0};
           ([.left, ($l.free | map(. / $f.node_gpus | floor) | add)] | min) as $u
           | .cost += $u * $f.node_gpus * $h * $l.price | .left -= $u)) as $r
      | {gpu: $f.gpu, runnable: (($f.gpus_run // 0) > 0 and ($f.gpus_run // 0) <= 512 and $r.left == 0),
         cost: $r.cost, gpus: $f.gpus_run, node_gpus: $f.node_gpus, nodes: $f.nodes} ]
    | {alts: ., best: (map(select(.runnable)) | sort_by(.cost) | .[0])}' "$1"
}
# The book after GPU's cheapest lot (of nodes of at least G) gave UNITS units
# of G — one lot suffices here — from its nodes with the fewest free GPUs
# first (docs/API.md, "The market's rules").
take() { # BOOK GPU G UNITS
  printf '%s' "$1" | jq -c --arg g "$2" --argjson G "$3" --argjson u "$4" '
    ([to_entries[] | select(.value.gpu == $g and .value.k >= $G)] | min_by(.value.price) | .key) as $i
    | .[$i].free as $fr
    | ([range($fr | length)] | map({n: ., f: $fr[.]}) | map(select(.f >= $G)) | sort_by(.f, .n)) as $order
    | (reduce $order[] as $o ({free: $fr, left: $u};
        ([.left, ($o.f / $G | floor)] | min) as $q | .free[$o.n] -= $q * $G | .left -= $q)) as $r
    | .[$i].free = $r.free'
}
want=$(expected "$TMPD/fit405.json" "$book" $H)
wgpu=$(printf '%s' "$want" | jq -r .best.gpu)
wcost=$(printf '%s' "$want" | jq -r .best.cost)
body="{\"side\":\"buy\",\"hours\":$H,\"max_total_minor\":10000000,\"job\":$JOB405}"

# --- the preview ----------------------------------------------------------------------
before=$(balance "$BK")
req POST /v1/orders/preview "$body" "$BK"
expect_eq "the preview answers with the fit model's version" "$ST $(jqb .fit_model_version)" \
  "200 $(sed -n 's/^#define FIT_MODEL_VERSION \([0-9]*\).*/\1/p' fit/fit.h)"
expect_eq "it chooses the cheapest runnable GPU, as gpux's fit and the book say ($wgpu)" \
  "$(jqb .gpu) $(jqb .total_minor) $(jqb .hours)" "$wgpu $wcost $H"
expect_eq "every GPU is an alternative, in catalogue order" \
  "$(jqb '[.alternatives[].gpu] | join(",")')" "$(jq -r '[.[].gpu] | join(",")' "$TMPD/fit405.json")"
expect_eq "each alternative needs what gpux's fit says: GPUs, node size, nodes" \
  "$(jqb '[.alternatives[] | "\(.gpu):\(.gpus)/\(.node_gpus)/\(.nodes)"] | join(" ")')" \
  "$(jq -r '[.[] | "\(.gpu):\(.gpus_run)/\(.node_gpus)/\(.nodes)"] | join(" ")' "$TMPD/fit405.json")"
expect_eq "runnable and cost, GPU by GPU, as worked out from the book" \
  "$(jqb '[.alternatives[] | "\(.gpu):\(.runnable):\(.total_minor // 0)"] | join(" ")')" \
  "$(printf '%s' "$want" | jq -r '[.alts[] | "\(.gpu):\(.runnable):\(if .runnable then .cost else 0 end)"] | join(" ")')"
expect_eq "the cheap H100 nodes of 4 cannot run it, and the reason says why" \
  "$(jqb '.alternatives[] | select(.gpu == "h100-sxm") | "\(.runnable) \(.total_minor)"')" "true 57600"
expect_eq "the L40S cards, the cheapest GPU-hours, cannot" \
  "$(jqb '.alternatives[] | select(.gpu == "l40s") | "\(.runnable) \(.reason)"')" \
  "false needs 2 nodes of 8; the book has 0"
expect_eq "the preview's order is the FOK order it would place, its fills from one node" \
  "$(jqb '.order | "\(.gpu) \(.time_in_force) \(.node_gpus) \(.fill_gpus) \(.would_status)"') $(jqb '[.order.fills[].nodes[].node] | length')" \
  "$wgpu fok $(printf '%s' "$want" | jq -r .best.node_gpus) $(printf '%s' "$want" | jq -r .best.gpus) filled 1"
expect_eq "nothing would be refused" "$(jqb .would_reject)" "null"
expect_eq "a preview changes nothing" "$(balance "$BK")" "$before"

# --- the order --------------------------------------------------------------------------
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-1"}')" "$BK"
J1=$(jqb .order.id)
expect_eq "placed: one FOK order on the chosen GPU, filled" \
  "$ST $(jqb .gpu) $(jqb .order.status) $(jqb .order.time_in_force) $(jqb .total_minor)" \
  "201 $wgpu filled fok $wcost"
R1=$(jqb '.order.fills[0].rental_id')
req GET /v1/rentals "" "$BK"
expect_eq "its rental is units of the job's node size on one machine of the lot" \
  "$(jqb ".rentals[] | select(.id == $R1) | \"\(.gpu) \(.gpus) \(.nodes | length)\"")" \
  "$wgpu $(printf '%s' "$want" | jq -r .best.gpus) $(printf '%s' "$want" | jq -r .best.nodes)"
req GET /v1/account "" "$BK"
expect_eq "the buyer paid the job's first hour and holds the rest of its total" \
  "$(( $(echo "$before" | cut -d' ' -f1) - $(jqb .balance.available_minor) ))" "$wcost"

# the next cheapest, now that the chosen lot has given its units
book2=$(take "$book" "$wgpu" "$(printf '%s' "$want" | jq -r .best.node_gpus)" "$(printf '%s' "$want" | jq -r .best.nodes)")
req POST /v1/orders/preview "$body" "$BK"
want2=$(expected "$TMPD/fit405.json" "$book2" $H)
expect_eq "a second job order would take the next cheapest ($(printf '%s' "$want2" | jq -r .best.gpu))" \
  "$(jqb .gpu) $(jqb .total_minor)" "$(printf '%s' "$want2" | jq -r '"\(.best.gpu) \(.best.cost)"')"

# --- regions --------------------------------------------------------------------------------
req POST /v1/orders/preview "$(printf '%s' "$body" | jq -c '. + {regions:["us-east"]}')" "$BK"
want3=$(expected "$TMPD/fit405.json" "$book2" $H '["us-east"]')
expect_eq "in us-east only: $(printf '%s' "$want3" | jq -r .best.gpu)" \
  "$(jqb .gpu) $(jqb .total_minor)" "$(printf '%s' "$want3" | jq -r '"\(.best.gpu) \(.best.cost)"')"

# --- FOK leaves nothing behind ------------------------------------------------------------------
orders_before=$(sql "SELECT count(*) FROM orders")
before=$(balance "$BK")
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-none", job: (.job + {seq_len: 131072, batch: 64})}')" "$BK"
expect_eq "a job the books cannot run: 422 JOB_NOT_RUNNABLE with the alternatives" \
  "$ST $(jqb .error.code) $(jqb '.error.alternatives | length') $(jqb '[.error.alternatives[] | select(.runnable)] | length')" \
  "422 JOB_NOT_RUNNABLE 15 0"
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-poor", max_total_minor: 100}')" "$BK"
expect_eq "over the budget: 422 OVER_BUDGET" "$ST $(jqb .error.code)" "422 OVER_BUDGET"
expect_eq "refused job orders stored nothing and hold nothing" \
  "$(sql "SELECT count(*) FROM orders") $(balance "$BK")" "$orders_before $before"
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-poor", max_total_minor: 10000000}')" "$BK"
expect_eq "so their ids are still free" "$ST" "201"
signup US USD buyer; P=$ACC; PK=$KEY; deposit "$P" 1000
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-broke"}')" "$PK"
expect_eq "without the funds: 422 INSUFFICIENT_FUNDS, with the alternatives" \
  "$ST $(jqb .error.code) $(jqb '.error.alternatives | length') $(jqb .error.available_minor)" \
  "422 INSUFFICIENT_FUNDS 15 1000"
expect_eq "and nothing stored for that account" "$(sql "SELECT count(*) FROM orders WHERE account = $P")" "0"

# --- replays -----------------------------------------------------------------------------------
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-1"}')" "$BK"
expect_eq "a replay answers the original order and what it was chosen from" \
  "$ST $(jqb .order.id) $(jqb .gpu) $(jqb .total_minor) $(jqb '.alternatives | length')" "200 $J1 $wgpu $wcost 15"
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"job-1", job: (.job + {seq_len: 8192})}')" "$BK"
expect_eq "a field written out with the same value is the same body" "$ST $(jqb .order.id)" "200 $J1"
for other in '{job: (.job + {seq_len: 4096})}' '{max_total_minor: 9999999}' '{hours: 23}' '{regions: ["eu-west"]}' '{job: (.job + {kv_cache: "fp8"})}'; do
  req POST /v1/orders "$(printf '%s' "$body" | jq -c ". + {client_order_id:\"job-1\"} + $other")" "$BK"
  expect_eq "a replay with $other is refused" "$ST $(jqb .error.code) $(jqb .error.order_id)" "409 IDEMPOTENCY_CONFLICT $J1"
done
req POST /v1/orders '{"client_order_id":"job-1","gpu":"h200","side":"buy","type":"limit","gpus":8,"hours":24,"price_cents":420}' "$BK"
expect_eq "a plain order under a job order's id is refused" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req POST /v1/orders '{"client_order_id":"plain-1","gpu":"l40s","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":40}' "$BK"
req POST /v1/orders "$(printf '%s' "$body" | jq -c '. + {client_order_id:"plain-1"}')" "$BK"
expect_eq "and a job order under a plain order's id" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"

# --- bad job orders --------------------------------------------------------------------------------
bad() { # DESC JQ-EDIT CODE FIELD
  req POST /v1/orders "$(printf '%s' "$body" | jq -c ". + {client_order_id:\"bad\"} | $2")" "$BK"
  expect_eq "$1" "$ST $(jqb .error.code) $(jqb .error.field)" "400 $3 $4"
}
bad "a job is an object" '.job = "405b"' WRONG_TYPE job
bad "a job order is a buy" '.side = "sell"' BAD_COMBINATION side
bad "a job order is FOK" '.time_in_force = "ioc"' BAD_COMBINATION time_in_force
bad "a job order names no GPU" '.gpu = "h200"' BAD_COMBINATION gpu
bad "nor a unit" '.node_gpus = 8' BAD_COMBINATION node_gpus
bad "a budget is required" 'del(.max_total_minor)' MISSING_FIELD max_total_minor
bad "an inference job needs its hours" 'del(.hours)' MISSING_FIELD hours
bad "the job's method is required" 'del(.job.method)' MISSING_FIELD job.method
bad "an unknown field of the job is named" '.job.colour = 1' UNKNOWN_FIELD job.colour
bad "a job field out of range" '.job.seq_len = 0' OUT_OF_RANGE job.seq_len
bad "a job field that is not an integer as written" '.job.batch = 1.5' NOT_INTEGER job.batch
bad "a job field of the wrong type" '.job.layers = "126"' WRONG_TYPE job.layers
bad "an unknown method" '.job.method = "infer-fp3"' BAD_VALUE job.method
bad "a budget is not a job field" 'del(.job) | .max_total_minor = 5' BAD_COMBINATION max_total_minor
req POST /v1/orders "{\"client_order_id\":\"bad\",\"side\":\"buy\",\"hours\":1,\"max_total_minor\":1,\"job\":$(printf '%s' "$JOB405" | sed 's/"layers":126,/"layers":126,"layers":127,/')}" "$BK"
expect_eq "a job field twice" "$ST $(jqb .error.code) $(jqb .error.field)" "400 DUPLICATE_FIELD job.layers"

# --- a training job: its hours are the fit's run time ---------------------------------------------
"$GPUX" fit llama-3.1-8b --method full --tokens 0.2 --format json >"$TMPD/fit8.json" 2>"$TMPD/fit.err" ||
  fail "gpux fit gives the training job's needs" "$(cat "$TMPD/fit.err")"
JOB8='{"model":"llama-3.1-8b","method":"full","params_millions":8030,"layers":32,"hidden":4096,"heads":32,"kv_heads":8,"head_dim":128,"vocab":128256,"ffn":14336,"tokens_millions":200}'
req POST /v1/orders/preview "{\"side\":\"buy\",\"max_total_minor\":10000000,\"job\":$JOB8}" "$BK"
expect_eq "a training job without hours: each alternative's hours are gpux's run time, rounded up" \
  "$(jqb '[.alternatives[] | "\(.gpu):\(.hours // "-")"] | join(" ")')" \
  "$(jq -r '[.[] | "\(.gpu):\(if .train_hours == null then "-" else (.train_hours | ceil) end)"] | join(" ")' "$TMPD/fit8.json")"
expect_eq "and the preview buys them" "$(jqb .order.hours)" "$(jqb .hours)"

# --- kill -9 in the middle of job orders --------------------------------------------------------------
sell l40s 1 200 45 pcie false
JOB8I='{"model":"llama-3.1-8b","method":"infer-fp16","params_millions":8030,"layers":32,"hidden":4096,"heads":32,"kv_heads":8,"head_dim":128,"vocab":128256,"ffn":14336}'
jobstream() { # orders until the server is gone: "coid status order-id"
  i=0
  while [ $i -lt 400 ]; do
    i=$((i + 1))
    out=$(curl -s -m 5 -w ' %{http_code}' -X POST -H "Authorization: Bearer $BK" \
      --data-binary "{\"client_order_id\":\"k-$i\",\"side\":\"buy\",\"hours\":1,\"max_total_minor\":1000000,\"job\":$JOB8I}" \
      "$GPUXD_URL/v1/orders")
    code=${out##* }
    echo "k-$i $code $(printf '%s' "${out% *}" | jq -r .order.id 2>/dev/null)"
    [ "$code" = 000 ] && break
  done
}
jobstream >"$TMPD/jobs" &
JP=$!
t=0
while [ "$(awk '$2 ~ /^2/' "$TMPD/jobs" 2>/dev/null | wc -l)" -le 15 ] && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
kill -9 "$GPUXD_PID"
{ wait "$GPUXD_PID"; } 2>/dev/null
wait $JP
acked=$(awk '$2 ~ /^2/' "$TMPD/jobs" | wc -l)
if [ "$acked" -gt 15 ]; then ok "job orders were acknowledged before the crash ($acked)"; else fail "job orders were acknowledged before the crash" "$acked"; fi
DB=$GPUXD_DB
GPUXD_DB_KEEP=$DB xd_start --market open --rate-limit 0 || finish
missing=0
while read -r coid code id; do
  case $code in 2??)
    [ "$(sql "SELECT id FROM orders WHERE account = $Bu AND client_order_id = '$coid'")" = "$id" ] || missing=$((missing + 1)) ;;
  esac
done <"$TMPD/jobs"
expect_eq "every acknowledged job order survived the crash with its id" "$missing" 0
last=$(awk '$2 ~ /^2/' "$TMPD/jobs" | tail -1)
set -- $last
req POST /v1/orders "{\"client_order_id\":\"$1\",\"side\":\"buy\",\"hours\":1,\"max_total_minor\":1000000,\"job\":$JOB8I}" "$BK"
expect_eq "a replay of the last acknowledged one answers it" "$ST $(jqb .order.id)" "200 $3"
# the one in flight at the crash, sent again: placed once
inflight=$(tail -1 "$TMPD/jobs" | cut -d' ' -f1)
req POST /v1/orders "{\"client_order_id\":\"$inflight\",\"side\":\"buy\",\"hours\":1,\"max_total_minor\":1000000,\"job\":$JOB8I}" "$BK"
req POST /v1/orders "{\"client_order_id\":\"$inflight\",\"side\":\"buy\",\"hours\":1,\"max_total_minor\":1000000,\"job\":$JOB8I}" "$BK"
expect_eq "the one in flight, sent again twice, is one order" \
  "$ST $(sql "SELECT count(*) FROM orders WHERE account = $Bu AND client_order_id = '$inflight'")" "200 1"
expect_eq "no job order rests (FOK): each is filled or left nothing" \
  "$(sql "SELECT count(*) FROM orders WHERE job IS NOT NULL AND (remaining > 0 OR status NOT IN ('filled'))")" "0"
why=$(ledger_check) && ok "the money adds up after the crash" || fail "the money adds up after the crash" "$why"
xd_finish
