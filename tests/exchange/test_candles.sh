# GET /v1/candles/{gpu} equals an independent computation (jq, below) from
# the trades of /v1/trades/{gpu}: for each interval, the first and last
# price, the extremes, the GPUs, GPU-hours and the count; intervals without
# trades are omitted; limit keeps the newest; from/to bound the range.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --rate-limit 0 --ip-rate-limit 0 || finish

signup US USD seller; SK=$KEY
signup US USD buyer; B=$ACC; BK=$KEY; deposit "$B" 1000000000
n=0
jqc() { printf "%s" "$BODY" | jq -c "$1"; }
place() { # KEY GPU SIDE GPUS HOURS PRICE [TIF]
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"c$n\",\"gpu\":\"$2\",\"side\":\"$3\",\"type\":\"limit\",\"gpus\":$4,\"hours\":$5,\"price_cents\":$6,\"time_in_force\":\"${7:-gtc}\"}" "$1"
}
trade() { # PRICE GPUS HOURS: one trade at PRICE
  place "$SK" h200 sell "$2" "$3" "$1"
  place "$BK" h200 buy "$2" "$3" "$1" ioc
}

# trades spread over minutes, hours and two days (the admin clock moves on)
for step in 1 2 3 4 5 6 7 8 9 10 11 12; do
  trade $((300 + step * 7 % 23)) $((step % 3 + 1)) $((step % 4 + 1))
  trade $((310 - step % 5)) 1 2
  case $((step % 4)) in
    0) advance 45 ;;
    1) advance 400 ;;
    2) advance 3700 ;;
    3) advance 30000 ;;
  esac
done
req GET "/v1/trades/h200?limit=200"
TRADES=$BODY
expect_match "the history has trades" "$(jqb '.trades | length')" '^2[0-9]$'

# the candles, computed here from the trades
IND='
def iso: strftime("%Y-%m-%dT%H:%M:%SZ");
[.trades | reverse | .[] | .t = (.at | fromdateiso8601)]
| group_by(.t - (.t % $iv))
| map({start: ((.[0].t - (.[0].t % $iv)) | iso), open_cents: .[0].price_cents,
       high_cents: (map(.price_cents) | max), low_cents: (map(.price_cents) | min),
       close_cents: .[-1].price_cents, gpus: (map(.gpus) | add),
       gpu_hours: (map(.gpus * .hours) | add), trades: length})'
for spec in 1m:60 5m:300 1h:3600 1d:86400; do
  name=${spec%%:*} iv=${spec#*:}
  req GET "/v1/candles/h200?interval=$name&limit=1000"
  got=$(jqc .candles)
  want=$(printf '%s' "$TRADES" | jq -c --argjson iv "$iv" "$IND")
  expect_eq "candles of $name equal the computation from the trades" "$got" "$want"
done
req GET "/v1/candles/h200"
expect_eq "the default interval is 1h" "$(jqb .interval) $(jqb .interval_ms)" "1h 3600000"
all=$(jqc .candles)
req GET "/v1/candles/h200?interval=1h&limit=3"
expect_eq "limit keeps the newest intervals, oldest first" "$(jqc .candles)" \
  "$(printf '%s' "$all" | jq -c '.[-3:]')"
from=$(printf '%s' "$all" | jq -r '.[2].start')
to=$(printf '%s' "$all" | jq -r '.[5].start')
req GET "/v1/candles/h200?interval=1h&from=$from&to=$to"
expect_eq "from is inclusive and to exclusive" "$(jqc .candles)" \
  "$(printf '%s' "$all" | jq -c '.[2:5]')"
gaps=$(printf '%s' "$all" | jq '[.[].start | fromdateiso8601] | [range(1; length) as $i | .[$i] - .[$i - 1]] | map(select(. > 3600)) | length')
expect_match "hours without trades are omitted (gaps between starts)" "$gaps" '^[1-9]'
req GET "/v1/candles/b200?interval=1d"
expect_eq "a GPU without trades has no candles" "$ST $(jqc .candles)" "200 []"

req GET "/v1/candles/h200?interval=2h"
expect_eq "an unknown interval is 400" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_PARAM interval"
req GET "/v1/candles/h200?from=yesterday"
expect_eq "a bad time is 400" "$ST $(jqb .error.field)" "400 from"
req GET "/v1/candles/h200?limit=0"
expect_eq "limit 0 is 400" "$ST $(jqb .error.field)" "400 limit"
req GET "/v1/candles/h200?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z"
expect_eq "to before from is 400" "$ST $(jqb .error.field)" "400 to"
req GET "/v1/candles/nope"
expect_eq "an unknown GPU is 404" "$ST $(jqb .error.code)" "404 UNKNOWN_GPU"
finish
