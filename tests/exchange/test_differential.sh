# The two store backends side by side: one seeded stream of thousands of
# orders (asks as lots of nodes, bids with units, regions and host minimums),
# cancels, deposits, stops and previews (tests/tools/xdfeed) fed to
# one gpuxd on SQLite and, request by request alternately, to two gpuxd nodes
# on one PostgreSQL database. Every reply and what each store holds at the
# end — trades, rentals, orders, balances, the ledger — are the same.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh
FEED="$GPUX_BUILD/tests/xdfeed"
OPS=${DIFF_OPS:-3000}
pg_start diff
xd_start --market open --rate-limit 0 || finish
SQ_DB=$GPUXD_DB
"$FEED" --seed 20261201 --ops "$OPS" --admin-key "$ADMIN_KEY" "$GPUXD_URL" >"$TMPD/sqlite.replies" ||
  fail "the stream is fed to SQLite"
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 || finish
A=$GPUXD_URL
GPUXD_DB_KEEP=$PG_URI xd_start --market open --rate-limit 0 || finish
B=$GPUXD_URL
"$FEED" --seed 20261201 --ops "$OPS" --admin-key "$ADMIN_KEY" "$A" "$B" >"$TMPD/pg.replies" ||
  fail "the stream is fed to two PostgreSQL nodes"
n=$(wc -l <"$TMPD/sqlite.replies")
expect_eq "every request was answered ($OPS)" "$n $(wc -l <"$TMPD/pg.replies")" "$OPS $OPS"
if cmp -s "$TMPD/sqlite.replies" "$TMPD/pg.replies"; then
  ok "the same replies, request by request"
else
  fail "the same replies, request by request" "$(diff "$TMPD/sqlite.replies" "$TMPD/pg.replies" | head -5)"
fi
fills=$(grep -c ' filled\| partially_filled' "$TMPD/sqlite.replies")
if [ "$fills" -gt 100 ]; then ok "the stream trades ($fills orders filled)"; else fail "the stream trades" "$fills"; fi

# what the stores hold, without ids or times (identical SQL on both); the lots'
# nodes (orders.nodes_free, rentals.nodes) are compared as they are
dump() {
  sql "SELECT 'trade', b.client_order_id, s.client_order_id, t.price, t.gpus, t.hours, t.taker_side
       FROM trades t JOIN orders b ON b.id = t.buy_order JOIN orders s ON s.id = t.sell_order
       ORDER BY b.client_order_id, s.client_order_id"
  sql "SELECT 'rental', b.client_order_id, s.client_order_id, r.status, r.hours_billed, r.billed,
       r.refunded, r.paid_out, r.net_unit, r.vat_unit, r.payout_unit, r.node_gpus, r.interconnect,
       r.region, r.cpu_cores, r.ram_gb, r.nodes
       FROM rentals r JOIN orders b ON b.id = r.buy_order JOIN orders s ON s.id = r.sell_order
       ORDER BY b.client_order_id, s.client_order_id"
  sql "SELECT 'order', client_order_id, status, filled, remaining, filled_value, hold, unit,
       node_gpus, interconnect, region, regions, whole_nodes, nodes_free
       FROM orders ORDER BY client_order_id"
  sql "SELECT 'balance', coalesce(email, kind || currency), available, held FROM accounts
       ORDER BY coalesce(email, kind || currency)"
  sql "SELECT 'ledger', coalesce(a.email, a.kind || a.currency), l.kind, l.bucket, count(*), sum(l.amount)
       FROM ledger l JOIN accounts a ON a.id = l.account
       GROUP BY coalesce(a.email, a.kind || a.currency), l.kind, l.bucket
       ORDER BY coalesce(a.email, a.kind || a.currency), l.kind, l.bucket"
}
dump | LC_ALL=C sort >"$TMPD/pg.dump"
why=$(ledger_check) && ok "the ledger adds up on PostgreSQL" || fail "the ledger adds up on PostgreSQL" "$why"
GPUXD_DB=$SQ_DB
dump | LC_ALL=C sort >"$TMPD/sqlite.dump"
why=$(ledger_check) && ok "the ledger adds up on SQLite" || fail "the ledger adds up on SQLite" "$why"
for what in trade rental order balance ledger; do
  a=$(grep -c "^$what|" "$TMPD/sqlite.dump")
  if [ "$a" -gt 0 ] && diff <(grep "^$what|" "$TMPD/sqlite.dump") <(grep "^$what|" "$TMPD/pg.dump") >"$TMPD/d" 2>&1; then
    ok "the same ${what}s on both backends ($a rows)"
  else
    fail "the same ${what}s on both backends" "$a rows; $(head -4 "$TMPD/d")"
  fi
done
xd_finish
