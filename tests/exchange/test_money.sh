#!/bin/bash
# Money in and out through the operator's routes (docs/API.md "Deposits",
# "Withdrawals", "Operator"): a deposit needs its payment's reference on a
# real exchange; the same reference credits once, replayed one after the
# other and twenty at once, and a different deposit under it is refused; a
# reversal takes the deposit back, refuses to go below zero unless a debt is
# stated, and the next deposit pays the debt first; a customer's withdrawal
# is held, is refused beyond the available balance, is idempotent by its
# reference, and is sent (with the operator's reference) or released; every
# acting row names the admin key; fees are settings, the trade fee is taken
# from the seller's payout of each billed hour to the fees account; and the
# ledger's invariants hold after each step (tests/exchange/xlib.sh).
# Runs on SQLite here and on PostgreSQL in test_pg_suite.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/xlib.sh"

xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
conserved() { _w=$(ledger_check); if [ -z "$_w" ]; then ok "$1: the ledger's invariants hold"; else fail "$1: the ledger's invariants hold" "$_w"; fi; }

signup PT EUR buyer; B=$ACC; BK=$KEY
signup DE EUR seller; S=$ACC; SK=$KEY

# ---- deposits by reference -------------------------------------------------------------
req POST /v1/deposits "{\"account_id\":$B,\"amount_minor\":50000}" "$ADMIN_KEY"
expect_eq "a deposit without a reference on a real exchange: 400 MISSING_FIELD reference" \
  "$ST $(jqb .error.code) $(jqb .error.field)" "400 MISSING_FIELD reference"
req POST /v1/deposits "{\"account_id\":$B,\"amount_minor\":50000,\"reference\":\"bad\\u0007ref\"}" "$ADMIN_KEY"
expect_eq "a reference with a control character: 400 BAD_VALUE" "$ST $(jqb .error.code)" "400 BAD_VALUE"
deposit "$B" 50000 "SEPA-2026-0001"
expect_eq "a deposit with its reference: 201, credited" \
  "$ST $(jqb .replayed) $(jqb .reference) $(jqb .balance.available_minor)" "201 false SEPA-2026-0001 50000"
DID=$(jqb .deposit_id)
deposit "$B" 50000 "SEPA-2026-0001"
expect_eq "the same reference again: 200, a replay of the same deposit" \
  "$ST $(jqb .replayed) $(jqb .deposit_id) $(jqb .balance.available_minor)" "200 true $DID 50000"
expect_match "... which says nothing was credited now" "$(jqb .note)" "nothing was credited now"
deposit "$B" 60000 "SEPA-2026-0001"
expect_eq "the same reference for another amount: 409 IDEMPOTENCY_CONFLICT" \
  "$ST $(jqb .error.code) $(jqb .error.deposit_id)" "409 IDEMPOTENCY_CONFLICT $DID"
deposit "$S" 50000 "SEPA-2026-0001"
expect_eq "... or another account: 409" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
# twenty requests with one reference at once: one credit
pids=""
for i in $(seq 1 20); do
  curl -s -o "$TMPD/c$i" -w '%{http_code}\n' -X POST -H "Authorization: Bearer $ADMIN_KEY" \
    --data-binary "{\"account_id\":$B,\"amount_minor\":7000,\"reference\":\"SEPA-2026-0002\"}" \
    "$GPUXD_URL/v1/deposits" >"$TMPD/s$i" &
  pids="$pids $!"
done
wait $pids
expect_eq "twenty concurrent deposits of one reference: one 201, nineteen 200" \
  "$(cat "$TMPD"/s* | sort | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')" "19x200 1x201 "
expect_eq "... all of them the same deposit" "$(cat "$TMPD"/c* | jq -r .deposit_id | sort -u | wc -l)" 1
expect_eq "... credited once" "$(balance "$BK")" "57000 0"
expect_eq "... one row in deposits" "$(sql "SELECT count(*) FROM deposits WHERE reference = 'SEPA-2026-0002'")" 1
expect_eq "the deposits name the admin key that made them" \
  "$(sql "SELECT count(*) FROM deposits d JOIN admin_keys k ON k.id = d.admin_key WHERE k.name = 'bootstrap'")" 2
conserved "after the deposits"

# ---- reversals and debts -----------------------------------------------------------------
req POST /v1/admin/deposits/reverse '{"reference":"NOPE"}' "$ADMIN_KEY"
expect_eq "reversing a reference that was never credited: 404" "$ST $(jqb .error.code)" "404 NOT_FOUND"
req POST /v1/admin/deposits/reverse '{"reference":"SEPA-2026-0002","reason":"chargeback 77"}' "$ADMIN_KEY"
expect_eq "a reversal (a chargeback): 200, the deposit taken back" \
  "$ST $(jqb .replayed) $(jqb .balance.available_minor) $(jqb .reversal_reason)" "200 false 50000 chargeback 77"
req POST /v1/admin/deposits/reverse '{"reference":"SEPA-2026-0002"}' "$ADMIN_KEY"
expect_eq "the same reversal again: 200, a replay, nothing taken" \
  "$ST $(jqb .replayed) $(jqb .balance.available_minor)" "200 true 50000"
req POST /v1/orders '{"client_order_id":"hold-1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":100,"price_cents":100}' "$BK"
# the hold: 100 GPU-hours at unit(100) = 92 net + 22 VAT (PT) = 114 EUR cents
expect_eq "an order holds part of the balance" "$ST $(balance "$BK")" "201 38600 11400"
req POST /v1/admin/deposits/reverse '{"reference":"SEPA-2026-0001"}' "$ADMIN_KEY"
expect_eq "a reversal beyond the available balance: 409, nothing taken" \
  "$ST $(jqb .error.code) $(jqb .error.available_minor) $(balance "$BK")" "409 INSUFFICIENT_FUNDS 38600 38600 11400"
expect_match "... it says how to state a debt" "$(jqb .error.message)" '"debt": true'
req POST /v1/admin/deposits/reverse '{"reference":"SEPA-2026-0001","debt":true}' "$ADMIN_KEY"
expect_eq "with the debt stated: the available balance goes to 0 and 11400 is owed" \
  "$ST $(jqb .balance.available_minor) $(jqb .balance.held_minor) $(jqb .balance.debt_minor) $(jqb .reversal_debt_minor)" \
  "200 0 11400 11400 11400"
req GET /v1/account "" "$BK"
expect_eq "GET /v1/account shows the debt" "$(jqb .balance.debt_minor)" 11400
conserved "after a reversal with a debt"
deposit "$B" 20000 "SEPA-2026-0003"
expect_eq "the next deposit pays the debt first" \
  "$ST $(jqb .debt_paid_minor) $(jqb .balance.available_minor) $(jqb .balance.debt_minor)" "201 11400 8600 0"
conserved "after the debt is paid"

# ---- withdrawals -------------------------------------------------------------------------
req POST /v1/withdrawals '{"amount_minor":9000,"reference":"w-1"}' "$BK"
expect_eq "a withdrawal beyond the available balance: 422, nothing held" \
  "$ST $(jqb .error.code) $(balance "$BK")" "422 INSUFFICIENT_FUNDS 8600 11400"
req POST /v1/withdrawals '{"amount_minor":8000}' "$BK"
expect_eq "a withdrawal needs the customer's reference (its idempotency key)" \
  "$ST $(jqb .error.field)" "400 reference"
req POST /v1/withdrawals '{"amount_minor":8000,"reference":"w-1"}' "$BK"
expect_eq "a withdrawal: 201 pending, the amount held" \
  "$ST $(jqb .status) $(jqb .balance.available_minor) $(jqb .balance.held_minor)" "201 pending 600 19400"
WID=$(jqb .id)
req POST /v1/withdrawals '{"amount_minor":8000,"reference":"w-1"}' "$BK"
expect_eq "the same reference again: 200, the same withdrawal, held once" \
  "$ST $(jqb .replayed) $(jqb .id) $(balance "$BK")" "200 true $WID 600 19400"
req POST /v1/withdrawals '{"amount_minor":100,"reference":"w-1"}' "$BK"
expect_eq "... another amount under it: 409" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req GET /v1/account "" "$BK"
expect_eq "the held part waiting to be paid out" "$(jqb .balance.withdrawals_pending_minor)" 8000
conserved "with a pending withdrawal"
req GET /v1/admin/withdrawals "" "$ADMIN_KEY"
expect_eq "the operator's list: the pending withdrawal" "$(jqb '[.withdrawals[].id] | join(",")')" "$WID"
req POST "/v1/admin/withdrawals/$WID/approve" '{}' "$ADMIN_KEY"
expect_eq "approving needs the payout's reference" "$ST $(jqb .error.field)" "400 reference"
req POST "/v1/admin/withdrawals/$WID/approve" '{"reference":"BANK-OUT-9"}' "$BK"
expect_eq "... and the admin key (403 with a customer's key)" "$ST" 403
req POST "/v1/admin/withdrawals/$WID/approve" '{"reference":"BANK-OUT-9"}' "$ADMIN_KEY"
expect_eq "approved: sent, the money gone from held" \
  "$ST $(jqb .status) $(jqb .payout_reference) $(jqb .balance.held_minor)" "200 sent BANK-OUT-9 11400"
req POST "/v1/admin/withdrawals/$WID/approve" '{"reference":"BANK-OUT-9"}' "$ADMIN_KEY"
expect_eq "approved again with the same reference: a replay" "$ST $(jqb .replayed)" "200 true"
req POST "/v1/admin/withdrawals/$WID/approve" '{"reference":"BANK-OUT-10"}' "$ADMIN_KEY"
expect_eq "... with another reference: 409" "$ST $(jqb .error.code)" "409 IDEMPOTENCY_CONFLICT"
req POST "/v1/admin/withdrawals/$WID/reject" '{}' "$ADMIN_KEY"
expect_eq "rejecting a sent withdrawal: 409 WITHDRAWAL_CLOSED" "$ST $(jqb .error.code)" "409 WITHDRAWAL_CLOSED"
req POST /v1/withdrawals '{"amount_minor":500,"reference":"w-2"}' "$BK"
W2=$(jqb .id)
req POST "/v1/admin/withdrawals/$W2/reject" '{"reason":"account closed at the bank"}' "$ADMIN_KEY"
expect_eq "a rejected withdrawal: released to available" \
  "$ST $(jqb .status) $(jqb .balance.available_minor) $(jqb .balance.held_minor)" "200 rejected 600 11400"
req GET /v1/withdrawals "" "$BK"
expect_eq "the customer's own list" "$(jqb '[.withdrawals[].status] | join(",")')" "rejected,sent"
expect_eq "the ledger kinds of money out" \
  "$(sql "SELECT kind FROM ledger WHERE account = $B AND kind LIKE 'withdrawal%' GROUP BY kind ORDER BY kind" | tr '\n' ' ')" \
  "withdrawal withdrawal_hold withdrawal_release "
expect_eq "every decision names the admin key in the audit" \
  "$(sql "SELECT count(*) FROM audit a JOIN admin_keys k ON k.id = a.admin_key WHERE a.action IN ('withdrawal_sent','withdrawal_rejected','deposit_reversal')")" 4
conserved "after the withdrawals"

# ---- fees ------------------------------------------------------------------------------------
req POST /v1/admin/fees '{"trade_bp":5001}' "$ADMIN_KEY"
expect_eq "a fee above 50 %: 400 OUT_OF_RANGE" "$ST $(jqb .error.code)" "400 OUT_OF_RANGE"
req POST /v1/admin/fees '{"trade_bp":250,"forward_cancel_bp":100,"resale_bp":300}' "$ADMIN_KEY"
expect_eq "fees set (basis points): changed" "$ST $(jqb .changed) $(jqb .fees.trade_bp)" "200 true 250"
req GET /v1/market
expect_eq "GET /v1/market shows them" "$(jqb '[.fees.trade_bp, .fees.forward_cancel_bp, .fees.resale_bp] | join(",")')" "250,100,300"
deposit "$B" 1000000
req POST /v1/orders '{"client_order_id":"s-fee","gpu":"a100-sxm","side":"sell","type":"limit","gpus":2,"hours":3,"price_cents":200}' "$SK"
req POST /v1/orders/preview '{"gpu":"a100-sxm","side":"sell","type":"limit","gpus":1,"hours":1,"price_cents":150}' "$SK"
expect_eq "a preview states the fees" "$(jqb '[.fees.trade_bp, .fees.forward_cancel_bp, .fees.resale_bp] | join(",")')" "250,100,300"
req POST /v1/orders '{"client_order_id":"b-fee","gpu":"a100-sxm","side":"buy","type":"limit","gpus":2,"hours":3,"price_cents":200}' "$BK"
expect_eq "the buy fills" "$ST $(jqb .status)" "201 filled"
# seller in EUR: payout unit floor(200 x 920000 / 10^6) = 184 per GPU-hour; fee floor(184 x 250 / 10^4) = 4
req GET /v1/rentals "" "$SK"
expect_eq "the seller's rental: 2 GPUs x 4 of fee per hour" "$(jqb '.rentals[0] | "\(.hourly_minor) \(.hourly_fee_minor) \(.fees_minor)"')" "368 8 8"
advance 7200
expect_eq "after the other two hours: the fees of three hours" \
  "$(sql "SELECT sum(amount) FROM ledger WHERE account = $S AND kind = 'fee'")" "-24"
expect_eq "... to the exchange's fees account in EUR" \
  "$(sql "SELECT a.kind, l.currency, sum(l.amount) FROM ledger l JOIN accounts a ON a.id = l.account WHERE l.kind = 'fee' AND a.kind = 'fees' GROUP BY a.kind, l.currency")" "fees|EUR|24"
expect_eq "... the seller's balance is the payouts less the fees" "$(balance "$SK")" "$((3 * 368 - 24)) 0"
conserved "after a rental with fees"
xd_finish
