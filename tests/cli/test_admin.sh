#!/bin/bash
# The operator's command end to end, on SQLite and then on PostgreSQL (a
# throwaway cluster, tests/pglib.sh): gpux admin with the bootstrap key opens
# the market, lists currencies with their ISO 4217 decimals and sets rates
# (JPY has none, KWD three: a price converts exactly, and gpux prints it with
# the currency's decimals), sets the fees, credits a deposit by its
# reference (again: nothing credited, and it says so), reverses one, makes
# and revokes admin keys; a customer asks for a withdrawal with gpux
# withdraw (refused beyond the balance), the operator approves it with the
# payout's reference; accounts and ledger as the operator sees them; the
# ledger's invariants hold (tests/exchange/xlib.sh); a rate older than the
# operator's limit is shown with its age, and with --halt refuses orders in
# its currency until a new rate is set; nothing was done with curl.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../exchange/xlib.sh"
. "$(dirname "$0")/../pglib.sh"

g() { "$GPUX" "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null; rc=$?; return $rc; }
A() { g --api "$GPUXD_URL" --key-file "$TMPD/admin.key" admin "$@"; }
one_backend() { # NAME: the whole story on one freshly started gpuxd
  b=$1
  export XDG_CONFIG_HOME="$TMPD/$b-config"
  A open
  expect_eq "$b: gpux admin open" "$rc:$(cat "$TMPD/out")" "0:The market is open."
  A open
  expect_eq "$b: ... again: nothing to change" "$(cat "$TMPD/out")" "The market was open already."
  A fx set JPY 150.25
  expect_match "$b: fx set JPY 150.25: listed with no decimals" "$(cat "$TMPD/out")" \
    "^JPY: 150\.250000 per US\\$ \(0 decimals\), set "
  A fx set KWD 0.307 --exponent 2
  expect_eq "$b: a KWD with the wrong decimals is refused" "$rc" 1
  expect_match "$b: ... naming the standard's" "$(cat "$TMPD/err")" "KWD has 3 digits"
  A fx set KWD 0.307
  expect_match "$b: KWD listed with three decimals" "$(cat "$TMPD/out")" "^KWD: 0\.307000 per US\\$ \(3 decimals\)"
  A fx show --format json
  expect_eq "$b: fx show: the demo rates say so, the new ones do not" \
    "$(jq -c '[.[] | select(.currency == "EUR" or .currency == "JPY") | [.currency, .demo_rate]]' "$TMPD/out")" \
    '[["EUR",true],["JPY",false]]'
  A fees set --trade 250 --forward-cancel 100
  expect_match "$b: fees set" "$(cat "$TMPD/out")" "trade 250 bp .* forward cancellation 100 bp; resale 0 bp"
  A fees set --trade 6000
  expect_eq "$b: a fee over 50 % is refused (exit 2)" "$rc" 2

  g --api "$GPUXD_URL" signup --email "jp-$b@example.com" --country JP --currency JPY --role both --yes
  expect_eq "$b: a customer signs up in JPY" "$rc" 0
  JP=$(jq -r '.[0].id' <("$GPUX" --api "$GPUXD_URL" account --format json 2>/dev/null))
  g --api "$GPUXD_URL" deposit 100
  expect_match "$b: gpux deposit on a real exchange gives the account id as the reference" \
    "$(cat "$TMPD/out")" "Give your account id, $JP, as the payment's reference"
  A deposit "$JP" 150000.5 --reference "JP-1"
  expect_eq "$b: an amount with decimals JPY does not have: exit 2" "$rc" 2
  A deposit "$JP" 150000
  expect_eq "$b: a deposit without --reference: exit 2" "$rc" 2
  A deposit "$JP" 150000 --reference "JP-1"
  expect_eq "$b: gpux admin deposit: credited" "$rc:$(cat "$TMPD/out" | head -1)" \
    "0:Credited JPY 150,000 to account $JP (reference JP-1)."
  A deposit "$JP" 150000 --reference "JP-1"
  expect_eq "$b: the same reference again: nothing credited, and it says so" "$rc:$(head -1 "$TMPD/out")" \
    "0:Reference JP-1 was credited already (JPY 150,000 to account $JP): nothing was credited now."
  g --api "$GPUXD_URL" account --format json
  expect_eq "$b: ... credited once" "$(jq -r '.[0].available_minor' "$TMPD/out")" 150000
  # a JPY buy: 419 cents at 150.25 JPY/USD = ceil(629.5475) = 630 yen net, JP VAT 10 % ceil(63) = 63
  g --api "$GPUXD_URL" order buy h200 --gpus 2 --hours 3 --limit 4.19 --dry-run --format json
  expect_eq "$b: the JPY hold of 6 GPU-hours at 4.19 US\$: 6 x (630 + 63 VAT), exact" \
    "$(jq -r '.[0].hold_minor' "$TMPD/out")" 4158

  # a rate older than the operator's limit: shown with its age, and with --halt no order converts at it
  A fx set JPY 150.25 --as-of "$(date -u -d '-3 hours' +%Y-%m-%dT%H:%M:%SZ)"
  A fx limit --max-age 1
  expect_match "$b: gpux admin fx limit --max-age 1: the old rate is marked" "$(cat "$TMPD/out")" \
    "^JPY: 150\.250000 per US\\$ \(0 decimals\), set .*, 3 h( 0 min)? ago — older than the limit"
  g --api "$GPUXD_URL" account
  expect_match "$b: gpux account: the rate's age, older than the exchange's limit" "$(cat "$TMPD/out")" \
    "FX rate +set .*, 3 h( 0 min)? ago: older than the exchange's limit"
  g --api "$GPUXD_URL" account --format json
  expect_eq "$b: ... fx_rate_stale in json" "$(jq -r '.[0].fx_rate_stale' "$TMPD/out")" true
  g --api "$GPUXD_URL" order buy h200 --gpus 2 --hours 3 --limit 4.19 --dry-run
  expect_eq "$b: without --halt an old rate still converts" "$rc" 0
  A fx limit --halt
  expect_match "$b: gpux admin fx limit --halt" "$(cat "$TMPD/out")" "older than 1 h halt trading in their currency"
  g --api "$GPUXD_URL" order buy h200 --gpus 2 --hours 3 --limit 4.19 --dry-run
  expect_eq "$b: with --halt an order in JPY is refused (exit 1)" "$rc" 1
  expect_match "$b: ... the exchange says why" "$(cat "$TMPD/err")" "trading in JPY waits for a new rate"
  A fx set JPY 150.25
  g --api "$GPUXD_URL" order buy h200 --gpus 2 --hours 3 --limit 4.19 --dry-run --format json
  expect_eq "$b: a new rate: the order converts again, at it" "$rc:$(jq -r '.[0].hold_minor' "$TMPD/out")" 0:4158
  A fx limit --max-age 0 --no-halt

  g --api "$GPUXD_URL" withdraw 200000
  expect_eq "$b: gpux withdraw beyond the balance: refused (exit 1)" "$rc" 1
  expect_match "$b: ... by the exchange" "$(cat "$TMPD/err")" "INSUFFICIENT_FUNDS|more than"
  g --api "$GPUXD_URL" withdraw 50000
  expect_match "$b: gpux withdraw 50000: held until the operator sends it" "$(head -1 "$TMPD/out")" \
    "^Withdrawal [0-9]+ of JPY 50,000 requested: the amount is held"
  A withdrawals --format json
  WID=$(jq -r '.[0].id' "$TMPD/out")
  expect_eq "$b: gpux admin withdrawals: the pending one" "$(jq -r '.[0].status' "$TMPD/out")" pending
  A withdrawal approve "$WID"
  expect_eq "$b: approving without --reference: exit 2" "$rc" 2
  A withdrawal approve "$WID" --reference "BANK-OUT-1"
  expect_match "$b: gpux admin withdrawal approve: sent" "$(head -1 "$TMPD/out")" \
    "^Withdrawal $WID of JPY 50,000 marked sent \(payout BANK-OUT-1\)\.$"
  A withdrawal approve "$WID" --reference "BANK-OUT-1"
  expect_match "$b: ... again: sent already" "$(head -1 "$TMPD/out")" "was sent already"
  A reverse-deposit JP-1
  expect_eq "$b: a reversal beyond the balance: refused (exit 1)" "$rc" 1
  expect_match "$b: ... saying how to state a debt" "$(cat "$TMPD/err")" "add --debt"
  A reverse-deposit JP-1 --debt --reason "chargeback"
  expect_match "$b: with --debt: reversed" "$(head -1 "$TMPD/out")" "^Deposit JP-1 \(JPY 150,000\) to account $JP reversed\.$"
  expect_eq "$b: ... the rest owed" "$(sed -n 2p "$TMPD/out")" "Balance: JPY 0 available, JPY 0 held, JPY 50,000 owed."
  A accounts "jp-$b@" --format json
  expect_eq "$b: gpux admin accounts: found by e-mail, with its debt" \
    "$(jq -c '[.[0].id, .[0].debt_minor]' "$TMPD/out")" "[$JP,50000]"
  A ledger "$JP" --format json
  expect_eq "$b: gpux admin ledger: the money in and out, newest first" \
    "$(jq -r '[.[].kind] | unique | join(",")' "$TMPD/out")" \
    "deposit,deposit_reversal,withdrawal,withdrawal_hold"

  A keys create ops-bea
  BEA=$(cat "$TMPD/out")
  expect_match "$b: gpux admin keys create: the new key, alone on stdout" "$BEA" '^gpuxa_[0-9a-f]{64}$'
  printf '%s\n' "$BEA" >"$TMPD/bea.key"; chmod 600 "$TMPD/bea.key"
  g --api "$GPUXD_URL" --key-file "$TMPD/bea.key" admin keys --format json
  expect_eq "$b: the new key works: two keys, it is the current one" \
    "$(jq -c '[.[] | [.name, .current]]' "$TMPD/out")" '[["bootstrap",false],["ops-bea",true]]'
  BID=$(jq -r '.[1].id' "$TMPD/out")
  A keys revoke "$BID"
  expect_match "$b: gpux admin keys revoke" "$(cat "$TMPD/out")" "revoked: refused from now on"
  g --api "$GPUXD_URL" --key-file "$TMPD/bea.key" admin fees show
  expect_eq "$b: ... the revoked key is refused" "$rc" 1
  g --api "$GPUXD_URL" admin open
  expect_eq "$b: gpux admin without an admin key on a real exchange: exit 2" "$rc" 2
  expect_match "$b: ... saying which key" "$(cat "$TMPD/err")" "admin/.*--key-file|which admin key"
  A halt
  expect_eq "$b: gpux admin halt" "$(cat "$TMPD/out")" "Trading is halted."
  A schedule 2001-01-01T00:00:00Z
  expect_eq "$b: an opening in the past is refused" "$rc" 1
  A schedule 2099-01-01T09:00:00Z
  expect_match "$b: gpux admin schedule: it opens by itself then" "$(cat "$TMPD/out")" \
    "^The market opens by itself on 1 January 2099"
  g --api "$GPUXD_URL" account
  expect_match "$b: gpux account: the reopening with its countdown" "$(cat "$TMPD/out")" \
    "Trading is halted; it reopens on 1 January 2099 at .* \(in [0-9]+ d [0-9]+ h\)"
  w=$(ledger_check)
  if [ -z "$w" ]; then ok "$b: the ledger's invariants hold"; else fail "$b: the ledger's invariants hold" "$w"; fi
}

export TZ=UTC
xd_start || finish
one_backend sqlite
pg_start adm
GPUXD_DB_KEEP=$PG_URI xd_start || finish
one_backend postgresql
xd_finish
