#!/bin/bash
# Lots and job orders from the command line, end to end against a real
# gpuxd --demo (docs/API.md, the market's rules, "Job orders"), whose demo
# market sells PCIe cards as single-GPU machines and SXM/OAM boards as nodes
# of 8 (some of 4, some whole-node only) in three regions:
#   - gpux quotes and gpux book --node-gpus say what the exchange says (its
#     own replies, read with curl, are the reference);
#   - gpux fit prices a job in the units it needs: a 405B FP8 inference is
#     "1 node of 8 (NVLink)" on H100 SXM at the quote of a node of 8, and its
#     Job/h is 8 × that price — computed here from GET /v1/quotes, not by gpux;
#   - gpux order buy … --node-gpus 8 --region … --min-ram sends those
#     requirements (the request body, logged by a proxy) and fills only whole
#     machines: the rental names one machine with 8 GPUs, and its region;
#   - gpux order sell … --node-gpus 8 --whole-nodes --region --cpu --ram
#     --disk rests as that lot; bad lot options are usage errors (exit 2);
#   - gpux job: the GPU chosen is the cheapest runnable one of what the
#     exchange compared, never one that cannot run the job; placed, it fills
#     whole; csv/json one row per GPU.
. "$(dirname "$0")/../lib.sh"

start_gpuxd --demo --quiet --clock-speed 0.001 || finish
KEY=$(curl -sS -X POST "$GPUXD_URL/v1/accounts" \
  -d '{"email":"lots@example.pt","country":"PT","currency":"EUR","role":"both"}' | jq -r .api_key)
curl -sS -X POST -H "Authorization: Bearer $KEY" "$GPUXD_URL/v1/deposits" -d '{"amount_minor":100000000}' >/dev/null
export GPUX_API="$GPUXD_URL" GPUX_API_KEY="$KEY"
g() { "$GPUX" "$@" >"$TMPD/out" 2>"$TMPD/err"; }
api() { curl -sS -H "Authorization: Bearer $KEY" "$GPUXD_URL$1"; }

if ! api /v1/market | jq -e '.regions | length > 0' >/dev/null; then
  fail "the exchange of this build sells lots (GET /v1/market has regions)" "$(api /v1/market | head -c 200)"
  finish
fi

# ---- quotes and the ladder by node size -------------------------------------------
g quotes --format json
want=$(api /v1/quotes | jq -c '[.quotes[] | [.gpu, .best_ask_n8_cents, .ask_n8_units]]')
expect_eq "quotes: the best node of 8 and its units, as the exchange quotes them" \
  "$(jq -c '[.[] | [.gpu, .best_ask_n8_cents, .ask_n8_units]]' "$TMPD/out")" "$want"
g quotes
expect_match "quotes: the table names the column" "$(head -1 "$TMPD/out")" 'Node of 8 +Nodes$'
g book h100-sxm --node-gpus 8 --depth 3 --format json
want=$(api "/v1/books/h100-sxm?node_gpus=8&depth=3" | jq -c '[.asks | reverse[] | [.price_cents, .units, .gpus]]')
expect_eq "book --node-gpus 8: the asks' units and GPUs, as the exchange's ladder" \
  "$(jq -c '[.[] | select(.side == "ask") | [.price_cents, .units, .gpus]]' "$TMPD/out")" "$want"
expect_eq "book --node-gpus 8: every level is whole machines of 8" \
  "$(jq '[.[] | select(.gpus != .units * 8)] | length' "$TMPD/out")" 0
g book h100-sxm --node-gpus 8 --region eu-west
expect_match "book --node-gpus: the note says what the ladder is" "$(cat "$TMPD/out")" \
  'what can serve units of 8 GPUs inside one machine, in eu-west'
g book h100-sxm --node-gpus 3
expect_eq "book --node-gpus 3: usage, exit 2" "$?" 2
expect_match "book --node-gpus 3: the node sizes" "$(cat "$TMPD/err")" 'accepted: 1, 2, 4, 8'
g book h100-sxm --node-gpus 8 --region mars
expect_eq "book --region mars: refused by the exchange, exit 1" "$?" 1
expect_match "book --region mars: the exchange's regions listed" "$(cat "$TMPD/err")" \
  "this exchange's regions: eu-west \\(.*\\), eu-central \\(.*\\), us-east"

# ---- gpux fit prices the job's units ---------------------------------------------
quotes=$(api /v1/quotes)
g fit llama-3.1-405b --method infer-fp8 --format json
row=$(jq -c '.[] | select(.gpu == "h100-sxm")' "$TMPD/out")
expect_eq "fit 405B FP8 on H100 SXM: one node of 8 on NVLink (csv/json numbers)" \
  "$(printf '%s' "$row" | jq -c '[.machines, .node_gpus, .nodes, .interconnect]')" '["1 node of 8 (NVLink)",8,1,"nvlink"]'
n8=$(printf '%s' "$quotes" | jq '.quotes[] | select(.gpu == "h100-sxm") | .best_ask_n8_cents')
units=$(printf '%s' "$quotes" | jq '.quotes[] | select(.gpu == "h100-sxm") | .ask_n8_units')
check "the demo quotes a node of 8 of H100 SXM ($n8, $units units)" test "$units" -ge 1
expect_eq "fit: the price is the node of 8's, from GET /v1/quotes" "$(printf '%s' "$row" | jq .price)" "$n8"
expect_eq "fit: the job's cost per hour is 8 × that price" "$(printf '%s' "$row" | jq .job_cost)" "$((8 * n8))"
# every GPU the job needs one node of 8 on, and the book quotes it: the same rule
bad=$(jq -c --argjson q "$quotes" '[.[] | select(.node_gpus == 8 and .nodes == 1) as $r
  | ($q.quotes[] | select(.gpu == $r.gpu)) as $k
  | select($k.best_ask_n8_cents != null and $k.ask_n8_units >= 1)
  | select($r.job_cost != 8 * $k.best_ask_n8_cents) | $r.gpu]' "$TMPD/out")
expect_eq "fit: every GPU run as one node of 8 costs 8 × its node quote" "$bad" "[]"
nonode=$(jq -c --argjson q "$quotes" '[.[] | select(.node_gpus == 8) as $r
  | ($q.quotes[] | select(.gpu == $r.gpu)) as $k | select($k.best_ask_n8_cents == null)
  | select($r.job_cost != null) | $r.gpu]' "$TMPD/out")
expect_eq "fit: a GPU without any node of 8 has no cost (not 8 loose GPUs)" "$nonode" "[]"
g fit llama-3.1-405b --method infer-fp8
expect_match "fit: the table says where the price comes from" "$(head -1 "$TMPD/out")" 'Price/h \(job\)'
expect_match "fit: H100 NVL, sold as single PCIe cards, has no node of 8" \
  "$(grep '^H100 NVL' "$TMPD/out")" 'no node of 8'
expect_match "fit: the note says what the price is" "$(cat "$TMPD/out")" 'in whole units of its Machines'

# ---- a buy in nodes of 8 -------------------------------------------------------------
# through a logging proxy: what gpux sends is the request the exchange reads
"$GPUX_BUILD/tests/faultd" --listen 127.0.0.1:0 --port-file "$TMPD/proxy.port" --mode proxy \
  --upstream "127.0.0.1:$GPUXD_PORT" --log "$TMPD/proxy.log" >"$TMPD/proxy.out" 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_for test -s "$TMPD/proxy.port"
PROXY="http://127.0.0.1:$(cat "$TMPD/proxy.port")"
GPUX_API=$PROXY g order buy h100-sxm --gpus 8 --hours 2 --market --max-price 4 --node-gpus 8 \
  --region eu-west,eu-central --min-ram 512 --dry-run --format json
expect_eq "order buy --node-gpus 8 --region … --min-ram 512 --dry-run: exit 0" "$?" 0
body=$(grep '^POST /v1/orders/preview' "$TMPD/proxy.log" | tail -1 | sed 's|^POST /v1/orders/preview ||')
expect_eq "the preview's request carries the requirements" \
  "$(printf '%s' "$body" | jq -c '[.node_gpus, .regions, .min_ram_gb]')" '[8,["eu-west","eu-central"],512]'
expect_eq "the preview echoes them" "$(jq -c '.[0] | [.node_gpus, .regions, .min_ram_gb]' "$TMPD/out")" \
  '[8,"eu-west eu-central",512]'
expect_match "the preview names the whole machine it takes" "$(jq -r '.[0].fill_nodes' "$TMPD/out")" '^o[0-9]+-[0-9]+:8$'
g order buy h100-sxm --gpus 8 --hours 2 --market --max-price 4 --node-gpus 8 --region eu-west,eu-central --min-ram 512 --yes
expect_eq "order buy --node-gpus 8 --yes: exit 0" "$?" 0
expect_match "the confirmation says the units" "$(cat "$TMPD/out")" 'In whole units of 8 GPUs inside one machine, in eu-west or eu-central, on hosts with at least 512 GB RAM\.'
expect_match "the confirmation names the machine, its region and host" "$(cat "$TMPD/out")" \
  'From these machines:.*' 
expect_match "... a line of it" "$(cat "$TMPD/out")" '8 GPUs at \$[0-9.]+: o[0-9]+-[0-9]+ · eu-(west|central) · NVLink · [0-9]+ cores · [0-9,]+ GB RAM'
rental=$(grep -oE 'rental [0-9]+' "$TMPD/out" | awk '{ print $2 }' | tail -1)
g rentals --format json
r=$(jq -c --argjson id "${rental:-0}" '.[] | select(.id == $id)' "$TMPD/out")
expect_match "the rental is one machine with all 8 GPUs" "$(printf '%s' "$r" | jq -r .nodes)" '^o[0-9]+-[0-9]+:8$'
expect_match "the rental says its region" "$(printf '%s' "$r" | jq -r .region)" '^eu-(west|central)$'
expect_eq "the rental: its lot's machine size and link" "$(printf '%s' "$r" | jq -c '[.node_gpus, .interconnect]')" '[8,"nvlink"]'
g rentals
expect_match "gpux rentals: the table shows the machine and region" "$(grep -E "^ +$rental " "$TMPD/out")" \
  'o[0-9]+-[0-9]+ +eu-(west|central) +[0-9]+ cores'
g orders --format json
expect_eq "gpux orders: the buy's requirements" \
  "$(jq -c '[.[] | select(.side == "buy")][0] | [.node_gpus, .regions, .min_ram_gb, .region]' "$TMPD/out")" \
  '[8,"eu-west eu-central",512,null]'

# ---- a sell of whole machines -------------------------------------------------------
g order sell h100-sxm --gpus 16 --hours 100 --limit 9 --node-gpus 8 --whole-nodes --region us-east \
  --cpu 64 --ram 1024 --disk 8000 --yes --format json
expect_eq "order sell --node-gpus 8 --whole-nodes …: exit 0" "$?" 0
expect_eq "the sell rests as that lot" \
  "$(jq -c '.[0] | [.node_gpus, .interconnect, .region, .cpu_cores, .ram_gb, .disk_gb, .whole_nodes]' "$TMPD/out")" \
  '[8,"nvlink","us-east",64,1024,8000,true]'
expect_match "its two machines, 8 free each" "$(jq -r '.[0].nodes' "$TMPD/out")" '^o[0-9]+-1:8 o[0-9]+-2:8$'
g orders
expect_match "gpux orders: the lot in the table" "$(grep ' sell ' "$TMPD/out" | head -1)" '2 × 8 \(NVLink\) +us-east +64 cores · 1,024 GB RAM · 8,000 GB disk'

# ---- bad lot options --------------------------------------------------------------------
g order buy h100-sxm --gpus 12 --hours 2 --market --max-price 4 --node-gpus 8 --dry-run
expect_eq "--gpus 12 --node-gpus 8: usage, exit 2" "$?" 2
expect_match "... says whole units" "$(cat "$TMPD/err")" 'not whole units of --node-gpus 8; accepted: a multiple of 8'
g order buy h100-sxm --gpus 8 --hours 2 --market --max-price 4 --cpu 8 --dry-run
expect_eq "--cpu on a buy: usage, exit 2" "$?" 2
expect_match "... says what a buy takes" "$(cat "$TMPD/err")" '--cpu describes a sell.s machines; a buy asks for minimums with --min-cpu'
g order sell h100-sxm --gpus 8 --hours 2 --limit 9 --min-ram 8 --dry-run
expect_eq "--min-ram on a sell: usage, exit 2" "$?" 2
g order buy h100-sxm --gpus 8 --hours 2 --market --max-price 4 --interconnect ethernet --dry-run
expect_eq "--interconnect ethernet: usage, exit 2" "$?" 2
expect_match "... names the links" "$(cat "$TMPD/err")" 'accepted: nvlink, infinity-fabric, pcie'
g order sell h100-sxm --gpus 8 --hours 2 --limit 9 --region eu-west,us-east --dry-run
expect_eq "a sell in two regions: usage, exit 2" "$?" 2
g order buy h100-sxm --gpus 8 --hours 2 --market --max-price 4 --region 'eu west' --dry-run
expect_eq "--region 'eu west': usage, exit 2" "$?" 2
g order sell h100-sxm --gpus 8 --hours 2 --limit 9 --interconnect pcie --dry-run
expect_eq "an SXM lot on PCIe: refused by the exchange, exit 1" "$?" 1
expect_match "... its words" "$(cat "$TMPD/err")" 'BAD_COMBINATION'

# ---- job orders ---------------------------------------------------------------------------
GPUX_API=$PROXY g job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 2000 --dry-run --format json
expect_eq "job --dry-run: exit 0" "$?" 0
jb=$(grep '^POST /v1/orders/preview' "$TMPD/proxy.log" | tail -1 | sed 's|^POST /v1/orders/preview ||')
expect_eq "the job order's body: a buy, the budget in minor units, the hours, FOK" \
  "$(printf '%s' "$jb" | jq -c '[.side, .max_total_minor, .hours, .time_in_force, .gpu]')" '["buy",200000,24,"fok",null]'
preset=$(jq -c '.models[] | select(.id == "llama-3.1-405b") | [(.params_b * 1000 | round), .layers, .kv_heads, .vocab]' \
  "$(dirname "$0")/../../data/models.json")
expect_eq "the job goes whole, in the fit library's wire form: the preset's architecture itself" \
  "$(printf '%s' "$jb" | jq -c '.job | [.params_millions, .layers, .kv_heads, .vocab]')" "$preset"
expect_eq "... its label and method" "$(printf '%s' "$jb" | jq -c '.job | [.model, .method]')" \
  '["llama-3.1-405b","infer-fp8"]'
expect_eq "... every field of the wire form (the API's Job body table)" \
  "$(printf '%s' "$jb" | jq '.job | length')" \
  "$(awk '/^## Job body/ { on = 1; next } /^## / { on = 0 } on && /^\| `[a-z0-9_]+` \|/' \
     "$(dirname "$0")/../../docs/API.md" | wc -l)"
expect_eq "every GPU of the catalogue compared" "$(jq length "$TMPD/out")" 15
chosen=$(jq -r '.[] | select(.chosen) | .gpu' "$TMPD/out")
cheapest=$(jq -r '[.[] | select(.runnable)] | min_by(.total_minor) | .gpu' "$TMPD/out")
expect_eq "the chosen GPU is the cheapest that can run the job ($chosen)" "$chosen" "$cheapest"
expect_eq "... and it can run it" "$(jq '.[] | select(.chosen) | .runnable' "$TMPD/out")" true
expect_eq "a GPU that cannot run it has no total and says why" \
  "$(jq '[.[] | select(.runnable | not) | select(.total_minor != null or .reason == null)] | length' "$TMPD/out")" 0
g job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 2000 --dry-run
expect_match "job (table): the choice in words" "$(cat "$TMPD/out")" 'Cheapest that runs it: [^,]+, 1 node of [248] \([A-Za-z ]+\) for 24 h, €[0-9.,]+ with VAT'
expect_match "job (table): the machines it would take" "$(cat "$TMPD/out")" 'From these machines:'
g job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 2000 --yes --format json
expect_eq "job --yes: exit 0" "$?" 0
oid=$(jq '.[] | select(.chosen) | .order_id' "$TMPD/out")
expect_eq "job --yes: the chosen row has the order, filled" "$(jq -r '.[] | select(.chosen) | .status' "$TMPD/out")" filled
o=$(api "/v1/orders/$oid")
expect_eq "the job's order: a FOK buy in units of its machines, all filled" \
  "$(printf '%s' "$o" | jq -c '[.time_in_force, .status, (.gpus == .filled_gpus), (.gpus % .node_gpus)]')" '["fok","filled",true,0]'
g job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 1 --yes
expect_eq "job over its budget: exit 1" "$?" 1
expect_match "... in words, with the code" "$(cat "$TMPD/err")" 'costs more than your budget.*\[OVER_BUDGET\]'
g job llama-3.1-405b --method infer-fp8 --max-total 900 --yes
expect_eq "job: inference without --hours is a usage error" "$?" 2
g job llama-3.1-405b --method infer-fp8 --hours 24 --yes
expect_eq "job: no --max-total is a usage error" "$?" 2
expect_match "... says the budget is required" "$(cat "$TMPD/err")" '--max-total AMOUNT is required'
g job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 900 </dev/null
expect_eq "job: not on a terminal without --yes: usage, exit 2" "$?" 2

finish
