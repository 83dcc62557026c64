# gpuxd --demo: best asks at start are exactly the seed pages' "from" prices,
# there is depth above and bids below, a market buy of 8 GPUs x 24 h fills,
# and the drift moves prices deterministically on the exchange clock.
# The clock runs at 1/1000 of real time here, so nothing drifts unless the
# test advances it.
. tests/lib.sh
. tests/exchange/xlib.sh
start_gpuxd --demo --seed 7 --clock-speed 0.001 --quiet || finish
U1=$GPUXD_URL

# the seed pages, "a partir de US$ …" (shared/seeds/000_*.txt training table
# and 002_*.txt fine-tuning table)
seeds="b300:899 b200:799 mi325x:482 mi300x:416 h200:419 h100-nvl:319 h100-sxm:288 a100-sxm:179 a100-pcie:179 rtx-4090:33 rtx-5090:69 rtx-a6000:33 l40s:79 rtx-6000-ada:74 rtx-pro-6000:169"
req GET /v1/quotes ""
for s in $seeds; do
  g=${s%%:*}; p=${s#*:}
  expect_eq "demo: best ask of $g is the seeds' $p cents" \
    "$(jqb ".quotes[] | select(.gpu==\"$g\") | .best_ask_cents")" "$p"
done
expect_eq "every GPU has a bid below its ask" \
  "$(jqb '[.quotes[] | select(.best_bid_cents != null and .best_bid_cents < .best_ask_cents)] | length')" 15
req GET "/v1/books/h200?depth=10" ""
expect_eq "depth: several ask levels above the best" "$(jqb '.asks | length >= 4') $(jqb '.asks[0].orders >= 2')" "true true"
expect_eq "asks ascend, bids descend" \
  "$(jqb '[.asks[].price_cents] == ([.asks[].price_cents] | sort)') $(jqb '[.bids[].price_cents] == ([.bids[].price_cents] | sort | reverse)')" "true true"

req POST /v1/accounts '{"email":"demo@example.pt","country":"PT","currency":"EUR","role":"buyer"}'
K=$(jqb .api_key)
req POST /v1/deposits '{"amount_minor":1000000}' "$K"
expect_eq "--demo: an account pays itself in (simulated payment)" "$ST $(jqb .balance.available_minor)" "201 1000000"
req POST /v1/orders '{"client_order_id":"mkt","gpu":"h200","side":"buy","type":"market","gpus":8,"hours":24,"max_price_cents":500}' "$K"
expect_eq "buy h200 --gpus 8 --hours 24 --market --max-price 5 fills at 419" \
  "$ST $(jqb .status) $(jqb .filled_gpus) $(jqb '[.fills[].price_cents] | unique | join(",")')" "201 filled 8 419"

req GET /v1/quotes ""
q0=$(jqb '[.quotes[] | "\(.gpu):\(.best_ask_cents)"] | join(" ")')
req POST /v1/admin/clock '{"advance_seconds":60}'
expect_eq "--demo: the clock route needs no key" "$ST" 200
req GET /v1/quotes ""
q1=$(jqb '[.quotes[] | "\(.gpu):\(.best_ask_cents)"] | join(" ")')
if [ "$q0" != "$q1" ]; then ok "prices drift within a minute of exchange time"; else fail "prices drift" "$q1"; fi
within=$(jqb '[.quotes[] | .best_ask_cents] | length')
expect_eq "every GPU still has an ask" "$within" 15
for s in h200:419 b300:899 rtx-4090:33; do
  g=${s%%:*}; p=${s#*:}
  a=$(jqb ".quotes[] | select(.gpu==\"$g\") | .best_ask_cents")
  if [ $((a * 100)) -ge $((p * 94)) ] && [ $((a * 100)) -le $((p * 106 + 100)) ]; then
    ok "the drift of $g stays near its seed price ($a vs $p)"
  else
    fail "the drift of $g stays near its seed price" "$a vs $p"
  fi
done

start_gpuxd --demo --seed 7 --clock-speed 0.001 --quiet || finish
req POST /v1/admin/clock '{"advance_seconds":60}'
req GET /v1/quotes ""
q2=$(jqb '[.quotes[] | "\(.gpu):\(.best_ask_cents)"] | join(" ")')
# the first server's h200 book was bought into; compare the others
strip() { printf '%s' "$1" | tr ' ' '\n' | grep -v '^h200:' | tr '\n' ' '; }
expect_eq "same seed, same clock: same prices" "$(strip "$q2")" "$(strip "$q1")"
start_gpuxd --demo --seed 8 --clock-speed 0.001 --quiet || finish
req POST /v1/admin/clock '{"advance_seconds":60}'
req GET /v1/quotes ""
q3=$(jqb '[.quotes[] | "\(.gpu):\(.best_ask_cents)"] | join(" ")')
if [ "$(strip "$q3")" != "$(strip "$q1")" ]; then ok "another seed, another walk"; else fail "another seed, another walk"; fi

# a restart on the same database does not seed a second market
DB=$GPUXD_DB
accounts=$(sql "SELECT count(*) FROM accounts")
kill "$GPUXD_PID"; { wait "$GPUXD_PID"; } 2>/dev/null
GPUXD_DB_KEEP=$DB start_gpuxd --demo --seed 8 --clock-speed 0.001 --quiet || finish
expect_eq "a restarted demo keeps its accounts" "$(sql "SELECT count(*) FROM accounts")" "$accounts"
req GET /v1/quotes ""
expect_eq "and its prices" "$(jqb '[.quotes[] | "\(.gpu):\(.best_ask_cents)"] | join(" ")')" "$q3"
why=$(ledger_check) && ok "ledger invariants hold in the demo" || fail "ledger invariants hold in the demo" "$why"
xd_finish
