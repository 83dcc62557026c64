# Ledger conservation after a long randomized run (bounded: 600 operations):
# accounts in three currencies place, cancel and cross orders, stop rentals,
# top up, and the clock advances. After it, and at checkpoints on the way:
# every entry balances, each currency sums to zero, balances equal their
# ledger rows, no balance is negative, held = holds + unbilled hours, and the
# sum over all accounts but the outside world equals the deposits.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish
RANDOM=20250602

keys=""
roles=""
for spec in "PT EUR buyer" "GB GBP buyer" "US USD both" "DE EUR both" "US USD seller" "GB GBP seller"; do
  set -- $spec
  signup "$1" "$2" "$3"
  keys="$keys $KEY"; roles="$roles $3"
  [ "$3" != seller ] && deposit "$ACC" 2000000
done
set -- $keys; K1=$1 K2=$2 K3=$3 K4=$4 K5=$5 K6=$6
set -- $roles; R1=$1 R2=$2 R3=$3 R4=$4 R5=$5 R6=$6
gpus_list="h200 l40s rtx-4090"
bad_status=""
n=0
ops=0
while [ $ops -lt 600 ]; do
  ops=$((ops + 1))
  a=$((RANDOM % 6 + 1))
  eval "k=\$K$a; role=\$R$a"
  g=$(echo $gpus_list | cut -d' ' -f$((RANDOM % 3 + 1)))
  r=$((RANDOM % 100))
  side=buy
  case $role in seller) side=sell ;; both) [ $((RANDOM % 2)) -eq 0 ] && side=sell ;; esac
  if [ $r -lt 55 ]; then
    n=$((n + 1))
    tif=$(echo "gtc gtc gtc ioc fok" | cut -d' ' -f$((RANDOM % 5 + 1)))
    req POST /v1/orders "{\"client_order_id\":\"r$n\",\"gpu\":\"$g\",\"side\":\"$side\",\"type\":\"limit\",\"gpus\":$((RANDOM % 8 + 1)),\"hours\":$((RANDOM % 48 + 1)),\"price_cents\":$((RANDOM % 40 + 80)),\"time_in_force\":\"$tif\"}" "$k"
  elif [ $r -lt 62 ]; then
    n=$((n + 1))
    if [ $side = buy ]; then cap=max_price_cents; else cap=min_price_cents; fi
    req POST /v1/orders "{\"client_order_id\":\"r$n\",\"gpu\":\"$g\",\"side\":\"$side\",\"type\":\"market\",\"gpus\":$((RANDOM % 8 + 1)),\"hours\":$((RANDOM % 24 + 1)),\"$cap\":$((RANDOM % 40 + 80))}" "$k"
  elif [ $r -lt 77 ]; then
    req GET "/v1/orders?status=open&limit=20" "" "$k"
    id=$(jqb "[.orders[].id] | if length > 0 then .[$RANDOM % length] else empty end")
    [ -n "$id" ] && req DELETE "/v1/orders/$id" "" "$k"
  elif [ $r -lt 85 ]; then
    req GET "/v1/rentals?status=active&limit=20" "" "$k"
    id=$(jqb "[.rentals[] | select(.role == \"buyer\") | .id] | if length > 0 then .[$RANDOM % length] else empty end")
    [ -n "$id" ] && req POST "/v1/rentals/$id/stop" "" "$k"
  elif [ $r -lt 92 ]; then
    advance $((RANDOM % 7200 + 60))
  elif [ $r -lt 96 ]; then
    req GET /v1/account "" "$k"
    [ "$(jqb .role)" != seller ] && deposit "$(jqb .id)" $((RANDOM * 10 + 1))
  else
    req POST /v1/orders/preview "{\"gpu\":\"$g\",\"side\":\"$side\",\"type\":\"limit\",\"gpus\":3,\"hours\":5,\"price_cents\":100}" "$k"
  fi
  case $ST in 2??|409|422) ;; *) bad_status="$bad_status $ST" ;; esac
  if [ $((ops % 200)) -eq 0 ]; then
    why=$(ledger_check) && ok "ledger invariants hold after $ops operations" || fail "ledger invariants hold after $ops operations" "$why"
  fi
done
expect_eq "no unexpected status in the run (only 2xx, 409, 422)" "$bad_status" ""
trades=$(sql "SELECT count(*) FROM trades")
if [ "$trades" -gt 20 ]; then ok "the run traded ($trades trades)"; else fail "the run traded" "$trades trades"; fi
expect_eq "a year later every rental has ended" "$(advance 31536000; sql "SELECT count(*) FROM rentals WHERE status = 'active'")" 0
expect_eq "and no rental hold is left" "$(sql "SELECT count(*) FROM accounts a WHERE kind IN ('customer','demo') AND held <> (SELECT coalesce(sum(hold),0) FROM orders WHERE account = a.id)")" 0
why=$(ledger_check) && ok "ledger invariants hold at the end" || fail "ledger invariants hold at the end" "$why"
vat=$(sql "SELECT sum(amount) FROM ledger WHERE kind = 'vat' AND amount > 0")
rows=$(sql "SELECT coalesce(sum(gpus * hours_billed * vat_unit),0) FROM rentals")
expect_eq "the VAT accounts hold exactly the VAT of the hours billed" "$vat" "$rows"
xd_finish
