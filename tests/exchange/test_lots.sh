# Lots of nodes and what bids require, over HTTP (docs/API.md, "The market's
# rules"): the request's fields and their refusals, whole-node lots, units
# taken from one node, region and host filters, partial fills by units,
# fragmentation by plain bids and the books and quotes by node size that show
# it, previews that name the lots a bid would take, rentals that carry their
# lot and nodes (to buyer and seller), stopping a multi-node rental, replays
# with other requirements refused, the nodes as they were after a restart,
# and the money conserved. All accounts are USD in the US (no VAT, FX 1), so
# a hold is gpus × hours × price.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup US USD seller; A=$ACC; AK=$KEY
signup US USD seller; B=$ACC; BK=$KEY
signup US USD seller; C=$ACC; CK=$KEY
signup US USD buyer; D=$ACC; DK=$KEY; deposit "$D" 100000000
signup US USD buyer; E=$ACC; EK=$KEY; deposit "$E" 100000000
n=0
order() { # KEY JSON-FIELDS (without client_order_id)
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"l$n\",\"type\":\"limit\",$2}" "$1"
}

# --- regions and the request's fields -------------------------------------------------
req GET /v1/market
expect_eq "GET /v1/market publishes the regions" "$(jqb '[.regions[].id] | join(",")')" \
  "eu-west,eu-central,us-east"
refused() { # DESC KEY BODY CODE FIELD
  req POST /v1/orders "{\"client_order_id\":\"bad\",\"type\":\"limit\",$3}" "$2"
  expect_eq "$1" "$ST $(jqb .error.code) $(jqb .error.field)" "400 $4 $5"
}
refused "node_gpus must be 1, 2, 4 or 8" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":6,"hours":24,"price_cents":280,"node_gpus":3' BAD_VALUE node_gpus
refused "an ask is whole nodes" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":12,"hours":24,"price_cents":280,"node_gpus":8' BAD_COMBINATION gpus
refused "a bid is whole units" "$DK" '"gpu":"h100-sxm","side":"buy","gpus":6,"hours":24,"price_cents":280,"node_gpus":4' BAD_COMBINATION gpus
refused "SXM boards are not linked by PCIe" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"node_gpus":8,"interconnect":"pcie"' BAD_COMBINATION interconnect
refused "a PCIe card without a bridge has no NVLink" "$AK" '"gpu":"rtx-4090","side":"sell","gpus":2,"hours":24,"price_cents":33,"node_gpus":2,"interconnect":"nvlink"' BAD_COMBINATION interconnect
refused "bridged pairs only: no NVLink node of 4 H100 NVL" "$AK" '"gpu":"h100-nvl","side":"sell","gpus":4,"hours":24,"price_cents":319,"node_gpus":4,"interconnect":"nvlink"' BAD_COMBINATION interconnect
refused "an Infinity Fabric requirement on an NVIDIA board" "$DK" '"gpu":"h200","side":"buy","gpus":8,"hours":24,"price_cents":419,"node_gpus":8,"interconnect":"infinity-fabric"' BAD_COMBINATION interconnect
refused "an unknown region" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"region":"mars-1"' UNKNOWN_REGION region
refused "an unknown region in a bid's list" "$DK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":24,"price_cents":280,"regions":["eu-west","mars-1"]' UNKNOWN_REGION regions
refused "an empty list of regions" "$DK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":24,"price_cents":280,"regions":[]' BAD_VALUE regions
refused "a bid takes regions, not region" "$DK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":24,"price_cents":280,"region":"eu-west"' BAD_COMBINATION region
refused "an ask takes region, not regions" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"regions":["eu-west"]' BAD_COMBINATION regions
refused "host minimums are a bid's" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"min_ram_gb":512' BAD_COMBINATION min_ram_gb
refused "whole_nodes is a boolean" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"node_gpus":8,"whole_nodes":"yes"' WRONG_TYPE whole_nodes
refused "ram_gb is an exact integer" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"ram_gb":0.99999999999999999' NOT_INTEGER ram_gb
refused "cpu_cores in range" "$AK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":24,"price_cents":280,"cpu_cores":-1' OUT_OF_RANGE cpu_cores
req GET /v1/orders "" "$AK"
expect_eq "a refused order stored nothing" "$(jqb '.orders | length')" "0"
order "$AK" '"gpu":"h100-nvl","side":"sell","gpus":4,"hours":24,"price_cents":319,"node_gpus":2,"interconnect":"nvlink"'
expect_eq "bridged H100 NVL pairs are NVLink nodes of 2" "$ST $(jqb .node_gpus) $(jqb .interconnect)" "201 2 nvlink"

# --- whole-node lots and units from one node --------------------------------------------
order "$AK" '"gpu":"h100-sxm","side":"sell","gpus":16,"hours":100,"price_cents":280,"node_gpus":8,"whole_nodes":true,"region":"eu-west","cpu_cores":112,"ram_gb":2048,"disk_gb":30000'
AW=$(jqb .id)
expect_eq "a whole-node lot rests with its nodes, the GPU's interconnect and its host" \
  "$ST $(jqb .node_gpus) $(jqb .interconnect) $(jqb .region) $(jqb .whole_nodes) $(jqb .ram_gb) $(jqb '[.nodes[].free_gpus] | join(",")')" \
  "201 8 nvlink eu-west true 2048 8,8"
order "$BK" '"gpu":"h100-sxm","side":"sell","gpus":8,"hours":100,"price_cents":290,"node_gpus":4,"region":"us-east","cpu_cores":64,"ram_gb":1024,"disk_gb":15000'
B4=$(jqb .id)
req GET /v1/quotes
expect_eq "quotes: the unit-of-1 best ask leaves the whole-node lot out; units of 8 see it" \
  "$(jqb '.quotes[] | select(.gpu == "h100-sxm") | "\(.best_ask_cents) \(.ask_gpus) \(.best_ask_n8_cents) \(.ask_n8_units)"')" \
  "290 8 280 2"
req GET /v1/books/h100-sxm
expect_eq "the book without a query is every resting ask, as before" \
  "$(jqb '[.asks[] | "\(.price_cents)x\(.gpus)"] | join(" ")')" "280x16 290x8"
order "$DK" '"gpu":"h100-sxm","side":"buy","gpus":2,"hours":10,"price_cents":300,"time_in_force":"ioc"'
expect_eq "a plain bid passes over the whole-node lot to a dearer ask" \
  "$(jqb .status) $(jqb '[.fills[] | "\(.price_cents)x\(.gpus)"] | join(" ")')" "filled 290x2"
req GET "/v1/orders/$B4" "" "$BK"
expect_eq "and takes its GPUs from the first node of 4" "$(jqb '[.nodes[].free_gpus] | join(",")')" "2,4"
order "$DK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":10,"price_cents":300,"node_gpus":8,"time_in_force":"ioc"'
R8=$(jqb '.fills[0].rental_id')
expect_eq "a bid for a node of 8 takes one whole node" \
  "$(jqb .status) $(jqb '[.fills[] | "\(.price_cents)x\(.gpus)"] | join(" ")') $(jqb .node_gpus)" "filled 280x8 8"
req GET "/v1/rentals?status=active" "" "$DK"
expect_eq "the buyer's rental carries its lot and its node" \
  "$(jqb ".rentals[] | select(.id == $R8) | \"\(.gpus) \(.node_gpus) \(.interconnect) \(.region) \(.host.cpu_cores) \(.host.ram_gb) \(.host.disk_gb) \([.nodes[] | \"\(.node):\(.gpus)\"] | join(\",\"))\"")" \
  "8 8 nvlink eu-west 112 2048 30000 o$AW-1:8"
req GET "/v1/rentals?status=active" "" "$AK"
expect_eq "the seller sees the same node" \
  "$(jqb ".rentals[] | select(.id == $R8) | \"\(.role) \([.nodes[] | .node] | join(\",\"))\"")" "seller o$AW-1"
req GET "/v1/orders/$AW" "" "$AK"
expect_eq "the lot has one whole node left" "$(jqb .remaining_gpus) $(jqb '[.nodes[].free_gpus] | join(",")')" "8 0,8"

# --- the preview names the lots a bid would take -------------------------------------------
req POST /v1/orders/preview '{"gpu":"h100-sxm","side":"buy","type":"limit","gpus":12,"hours":10,"price_cents":300,"node_gpus":4,"time_in_force":"ioc"}' "$EK"
expect_eq "a preview for units of 4: node 2 of the lot of 4s, not the whole-node lot of 8s" \
  "$(jqb '[.fills[] | "\(.price_cents)x\(.gpus)@\(.region)/\(.node_gpus):\([.nodes[] | "\(.node)=\(.gpus)"] | join("+"))"] | join(" ")')" \
  "290x4@us-east/4:o$B4-2=4"
expect_eq "the preview echoes the requirements; the IOC would expire the rest" \
  "$(jqb .node_gpus) $(jqb .regions) $(jqb .fill_gpus) $(jqb .expire_gpus) $(jqb .would_status)" "4 null 4 8 expired"
req POST /v1/orders/preview '{"gpu":"h100-sxm","side":"buy","type":"limit","gpus":16,"hours":10,"price_cents":300,"node_gpus":8,"time_in_force":"ioc"}' "$EK"
expect_eq "a preview for nodes of 8 takes the whole node left" \
  "$(jqb '[.fills[] | "\(.price_cents)x\(.gpus):\(.whole_nodes):\([.nodes[] | .node] | join("+"))"] | join(" ")')" "280x8:true:o$AW-2"
req POST /v1/orders/preview '{"gpu":"h100-sxm","side":"buy","type":"limit","gpus":16,"hours":10,"price_cents":300,"node_gpus":8,"time_in_force":"ioc"}' "$EK"
expect_eq "a preview changes nothing (the same preview again)" "$(jqb .fill_gpus)" "8"
req GET "/v1/books/h100-sxm?node_gpus=4"
expect_eq "the book for units of 4: the lot of 4s (2 and 4 free) serves 1" \
  "$(jqb '[.asks[] | "\(.price_cents):\(.units)u/\(.gpus)/\(.orders)/\(.gpu_hours)"] | join(" ")') $(jqb .node_gpus)" \
  "290:1u/4/1/400 4"
req GET "/v1/books/h100-sxm?node_gpus=8"
expect_eq "the book for units of 8: the whole node" \
  "$(jqb '[.asks[] | "\(.price_cents):\(.units)u/\(.gpus)"] | join(" ")')" "280:1u/8"
req GET "/v1/books/h100-sxm?node_gpus=8&region=us-east"
expect_eq "nothing in us-east holds a node of 8" "$(jqb '.asks | length') $(jqb '.regions | join(",")')" "0 us-east"
req GET "/v1/books/h100-sxm?node_gpus=4&region=us-east,eu-central&interconnect=nvlink"
expect_eq "a region list and a link filter the ladder" "$(jqb '[.asks[] | .price_cents] | join(",")')" "290"
req GET "/v1/books/h100-sxm?node_gpus=3"
expect_eq "a book for nodes of 3 is refused" "$ST $(jqb .error.field)" "400 node_gpus"
req GET "/v1/books/h100-sxm?region=mars-1"
expect_eq "a book for an unknown region is refused" "$ST $(jqb .error.code)" "400 UNKNOWN_REGION"

# --- region and host filters; FOK leaves nothing behind ----------------------------------
before=$(balance "$EK")
order "$EK" '"gpu":"h100-sxm","side":"buy","gpus":4,"hours":10,"price_cents":300,"node_gpus":4,"regions":["eu-central"],"time_in_force":"fok"'
expect_eq "no lot in eu-central: the FOK expires" "$(jqb .status) $(jqb .filled_gpus) $(jqb .hold_minor)" "expired 0 0"
expect_eq "and leaves the balance as it was" "$(balance "$EK")" "$before"
order "$EK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":10,"price_cents":300,"node_gpus":8,"min_ram_gb":4096,"time_in_force":"ioc"'
expect_eq "no node has 4 TB of RAM" "$(jqb .status) $(jqb .filled_gpus)" "expired 0"
order "$EK" '"gpu":"h100-sxm","side":"buy","gpus":2,"hours":10,"price_cents":300,"min_ram_gb":1536,"time_in_force":"ioc"'
expect_eq "a plain bid with a RAM minimum passes over the 1 TB nodes (and the whole node)" \
  "$(jqb .status) $(jqb .filled_gpus)" "expired 0"
order "$EK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":10,"price_cents":300,"node_gpus":8,"min_ram_gb":1536,"time_in_force":"ioc"'
expect_eq "a node of 8 with 2 TB serves it" "$(jqb '[.fills[] | .price_cents] | join(",")')" "280"
order "$EK" '"gpu":"h100-sxm","side":"buy","gpus":8,"hours":10,"price_cents":300,"node_gpus":4,"regions":["us-east","eu-central"],"time_in_force":"ioc"'
expect_eq "a region list takes only its regions' units (one of 4 left in us-east)" \
  "$(jqb .status) $(jqb .filled_gpus) $(jqb '[.fills[] | .price_cents] | join(",")')" "expired 4 290"

# --- partial fills by units -------------------------------------------------------------------
order "$CK" '"gpu":"a100-sxm","side":"sell","gpus":16,"hours":100,"price_cents":179,"node_gpus":8,"region":"eu-central"'
CL=$(jqb .id)
order "$DK" '"gpu":"a100-sxm","side":"buy","gpus":24,"hours":5,"price_cents":185,"node_gpus":8'
DP=$(jqb .id)
expect_eq "a GTC bid for 3 nodes of 8 takes the 2 there are and rests the third" \
  "$(jqb .status) $(jqb .filled_gpus) $(jqb .remaining_gpus) $(jqb .hold_minor)" "partially_filled 16 8 7400"
req DELETE "/v1/orders/$DP" "" "$DK"
expect_eq "the rest is cancelled" "$(jqb .status) $(jqb .hold_minor)" "cancelled 0"

# --- fragmentation by plain bids, shown by the books and quotes by node size ----------------
order "$CK" '"gpu":"a100-sxm","side":"sell","gpus":16,"hours":100,"price_cents":180,"node_gpus":8'
CF=$(jqb .id)
req GET /v1/quotes
expect_eq "two whole nodes of 8 on offer" \
  "$(jqb '.quotes[] | select(.gpu == "a100-sxm") | "\(.best_ask_n8_cents) \(.ask_n8_units)"')" "180 2"
order "$EK" '"gpu":"a100-sxm","side":"buy","gpus":3,"hours":5,"price_cents":185,"time_in_force":"ioc"'
order "$EK" '"gpu":"a100-sxm","side":"buy","gpus":6,"hours":5,"price_cents":185,"time_in_force":"ioc"'
expect_eq "a plain bid takes the fragmented node first, then one GPU of the other" \
  "$(jqb '[.fills[] | .gpus] | join(",")')" "6"
req GET "/v1/orders/$CF" "" "$CK"
expect_eq "what is left of the lot" "$(jqb '[.nodes[].free_gpus] | join(",")')" "0,7"
req GET /v1/quotes
expect_eq "no whole node of 8 is left: the quote for units of 8 is null" \
  "$(jqb '.quotes[] | select(.gpu == "a100-sxm") | "\(.best_ask_n8_cents) \(.ask_n8_units) \(.best_ask_cents) \(.ask_gpus)"')" \
  "null 0 180 7"
req GET "/v1/books/a100-sxm?node_gpus=4"
expect_eq "one unit of 4 is left on it" "$(jqb '[.asks[] | "\(.price_cents):\(.units)"] | join(" ")')" "180:1"

# --- a multi-node rental, stopped whole ---------------------------------------------------------
order "$BK" '"gpu":"l40s","side":"sell","gpus":8,"hours":24,"price_cents":79,"node_gpus":4,"region":"eu-central"'
BL=$(jqb .id)
order "$EK" '"gpu":"l40s","side":"buy","gpus":8,"hours":10,"price_cents":79,"node_gpus":4,"time_in_force":"ioc"'
RM=$(jqb '.fills[0].rental_id')
expect_eq "one fill, one rental of two nodes" "$(jqb '.fills | length')" "1"
req GET "/v1/rentals" "" "$EK"
expect_eq "the rental names both nodes of the lot" \
  "$(jqb ".rentals[] | select(.id == $RM) | \"\(.node_gpus) \(.interconnect) \([.nodes[] | \"\(.node):\(.gpus)\"] | join(\",\"))\"")" \
  "4 pcie o$BL-1:4,o$BL-2:4"
req POST "/v1/rentals/$RM/stop" "" "$EK"
# 8 GPUs × 9 unbilled hours × 79 refunded
expect_eq "stopping it stops all its nodes" "$(jqb .status) $(jqb .refunded_minor) $(jqb '.nodes | length')" "stopped 5688 2"

# --- replays compare the requirements -------------------------------------------------------------
body='{"client_order_id":"rp1","gpu":"h200","side":"buy","type":"limit","gpus":8,"hours":4,"price_cents":100,"node_gpus":8,"regions":["us-east","eu-west"],"min_ram_gb":512}'
req POST /v1/orders "$body" "$DK"
RP=$(jqb .id)
expect_eq "a bid with requirements rests with them (regions in the exchange's order)" \
  "$ST $(jqb .node_gpus) $(jqb '.regions | join(",")') $(jqb .min_ram_gb) $(jqb .interconnect)" \
  "201 8 eu-west,us-east 512 null"
req POST /v1/orders "$body" "$DK"
expect_eq "the same body again is a replay" "$ST $(jqb .id)" "200 $RP"
req POST /v1/orders '{"client_order_id":"rp1","gpu":"h200","side":"buy","type":"limit","gpus":8,"hours":4,"price_cents":100,"node_gpus":8,"regions":["eu-west","us-east","eu-west"],"min_ram_gb":512}' "$DK"
expect_eq "the same regions in another order are the same body" "$ST" "200"
for other in '"node_gpus":4' '"regions":["eu-west"]' '"min_ram_gb":256' '"interconnect":"nvlink"' '"min_disk_gb":1'; do
  b=$(printf '%s' "$body" | jq -c "del(.node_gpus, .regions, .min_ram_gb) + {node_gpus:8, regions:[\"us-east\",\"eu-west\"], min_ram_gb:512} + {$other}")
  req POST /v1/orders "$b" "$DK"
  expect_eq "a replay with $other is refused" "$ST $(jqb .error.code) $(jqb .error.order_id)" "409 IDEMPOTENCY_CONFLICT $RP"
done
sbody='{"client_order_id":"rs1","gpu":"h200","side":"sell","type":"limit","gpus":16,"hours":48,"price_cents":900,"node_gpus":8,"region":"us-east","ram_gb":2048}'
req POST /v1/orders "$sbody" "$AK"
RS=$(jqb .id)
for other in '"whole_nodes":true' '"region":"eu-west"' '"ram_gb":1024' '"cpu_cores":64' '"node_gpus":4'; do
  b=$(printf '%s' "$sbody" | jq -c ". + {$other}")
  req POST /v1/orders "$b" "$AK"
  expect_eq "an ask's replay with $other is refused" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
done
req POST /v1/orders "$(printf '%s' "$sbody" | jq -c '. + {interconnect:"nvlink", cpu_cores:0}')" "$AK"
expect_eq "an ask's replay with its defaults written out is the same body" "$ST $(jqb .id)" "200 $RS"

# --- the nodes are kept across a restart ------------------------------------------------------------
why=$(ledger_check) && ok "the ledger adds up" || fail "the ledger adds up" "$why"
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
GPUXD_DB_KEEP=$GPUXD_DB xd_start --market open || finish
req GET "/v1/orders/$CF" "" "$CK"
expect_eq "after a restart the lot's nodes are as they were" "$(jqb '[.nodes[].free_gpus] | join(",")')" "0,7"
order "$EK" '"gpu":"a100-sxm","side":"buy","gpus":4,"hours":5,"price_cents":185,"node_gpus":4,"time_in_force":"ioc"'
expect_eq "and a unit of 4 comes from the node that has them" \
  "$(jqb .filled_gpus)" "4"
req GET "/v1/orders/$CF" "" "$CK"
expect_eq "leaving 3 on it" "$(jqb '[.nodes[].free_gpus] | join(",")')" "0,3"
req GET /v1/quotes
expect_eq "quotes by node size after the restart" \
  "$(jqb '.quotes[] | select(.gpu == "h100-sxm") | "\(.best_ask_cents) \(.best_ask_n8_cents) \(.ask_n8_units)"')" "290 null 0"
why=$(ledger_check) && ok "the ledger still adds up" || fail "the ledger still adds up" "$why"
xd_finish
