# An exchange from before lots (schema version 3) migrated to lots (version 4,
# docs/API.md "The market's rules"): its resting asks become lots of
# single-GPU nodes on their GPU's own interconnect in the first region, its
# resting bids require nothing, its rentals keep working (their nodes were not
# recorded: null), and trading goes on with the money conserved. The old
# layout is made from a new database by dropping migration 4's columns
# (SQLite only: the PostgreSQL suite leaves this test out).
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish
DB=$GPUXD_DB
signup US USD seller; S=$ACC; SK=$KEY
signup US USD buyer; Bu=$ACC; BK=$KEY; deposit "$Bu" 10000000
req POST /v1/orders '{"client_order_id":"s1","gpu":"h100-sxm","side":"sell","type":"limit","gpus":5,"hours":100,"price_cents":288}' "$SK"
ASK=$(jqb .id)
req POST /v1/orders '{"client_order_id":"b1","gpu":"h100-sxm","side":"buy","type":"limit","gpus":2,"hours":10,"price_cents":300}' "$BK"
RENT=$(jqb '.fills[0].rental_id')
req POST /v1/orders '{"client_order_id":"b2","gpu":"l40s","side":"buy","type":"limit","gpus":3,"hours":10,"price_cents":70}' "$BK"
BID=$(jqb .id)
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# back to the layout of version 3
sqlite_before_money "$DB"
sqlite_before_lots "$DB"
sqlite3 "$DB" "PRAGMA user_version = 3"
expect_eq "the database is back at version 3, without the lot columns" \
  "$(sqlite3 "$DB" "PRAGMA user_version") $(sqlite3 "$DB" "SELECT count(*) FROM pragma_table_info('orders') WHERE name = 'node_gpus'")" "3 0"

GPUXD_DB_KEEP=$DB xd_start --market open || finish
expect_eq "gpuxd migrates it to the newest version (5)" "$(sql "PRAGMA user_version")" "5"
req GET "/v1/orders/$ASK" "" "$SK"
expect_eq "a resting ask from before is a lot of single-GPU nodes, on NVLink (SXM), in the first region" \
  "$(jqb .remaining_gpus) $(jqb .node_gpus) $(jqb .interconnect) $(jqb .region) $(jqb .whole_nodes) $(jqb '.nodes | length')" \
  "3 1 nvlink eu-west false 3"
req GET "/v1/orders/$BID" "" "$BK"
expect_eq "a resting bid from before requires nothing" \
  "$(jqb .node_gpus) $(jqb .interconnect) $(jqb .regions) $(jqb .min_ram_gb)" "1 null null 0"
req GET "/v1/rentals" "" "$BK"
expect_eq "a rental from before has its GPU's lot and no recorded nodes" \
  "$(jqb ".rentals[] | select(.id == $RENT) | \"\(.node_gpus) \(.interconnect) \(.region) \(.nodes)\"")" \
  "1 nvlink eu-west null"
req POST /v1/orders '{"client_order_id":"s1","gpu":"h100-sxm","side":"sell","type":"limit","gpus":5,"hours":100,"price_cents":288}' "$SK"
expect_eq "a replay of an order from before, as it was sent then, is still the same body" "$ST $(jqb .id)" "200 $ASK"
req POST /v1/orders '{"client_order_id":"b3","gpu":"h100-sxm","side":"buy","type":"limit","gpus":3,"hours":10,"price_cents":300,"node_gpus":1}' "$BK"
expect_eq "it trades: a plain bid takes its last 3 GPUs" \
  "$(jqb .status) $(jqb '[.fills[] | .price_cents] | join(",")')" "filled 288"
req GET /v1/rentals "" "$BK"
expect_eq "and the new rental names the nodes it took" \
  "$(jqb ".rentals[0] | [.nodes[] | .node] | join(\",\")")" "o$ASK-1,o$ASK-2,o$ASK-3"
req POST /v1/orders '{"client_order_id":"s2","gpu":"l40s","side":"sell","type":"limit","gpus":4,"hours":100,"price_cents":70,"node_gpus":4}' "$SK"
expect_eq "a new lot of 4 fills the resting bid from before (plain: any node)" \
  "$(jqb .filled_gpus) $(jqb '[.nodes[].free_gpus] | join(",")')" "3 1"
why=$(ledger_check) && ok "the ledger adds up after the migration" || fail "the ledger adds up after the migration" "$why"
xd_finish
