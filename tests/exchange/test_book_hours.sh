# GET /v1/books/{gpu}: each level's gpu_hours is the GPU-hours its resting
# orders hold (Σ remaining GPUs × hours), on both sides, after placing,
# partly filling and cancelling.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open || finish

signup US USD seller; AK=$KEY
signup US USD seller; BK=$KEY
signup US USD buyer; C=$ACC; CK=$KEY; deposit "$C" 10000000
n=0
place() { # KEY GPU SIDE GPUS HOURS PRICE
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"h$n\",\"gpu\":\"$2\",\"side\":\"$3\",\"type\":\"limit\",\"gpus\":$4,\"hours\":$5,\"price_cents\":$6}" "$1"
}
levels() { # the book of GPU $1 as "price:gpus:orders:gpu_hours" per level, asks | bids
  req GET "/v1/books/$1?depth=10" ""
  jqb '[(.asks[] | "\(.price_cents):\(.gpus):\(.orders):\(.gpu_hours)")] | join(" ")'
  jqb '[(.bids[] | "\(.price_cents):\(.gpus):\(.orders):\(.gpu_hours)")] | join(" ")'
}

place "$AK" h200 sell 4 100 300
place "$BK" h200 sell 2 720 300; B1=$(jqb .id)
place "$AK" h200 sell 8 24 310
place "$CK" h200 buy 3 10 250
place "$CK" h200 buy 1 5 250
expect_eq "two asks at 300 hold 4×100 + 2×720 GPU-hours; one at 310 8×24; bids 3×10 + 1×5" \
  "$(levels h200 | tr '\n' '|')" "300:6:2:1840 310:8:1:192|250:4:2:35|"

place "$CK" h200 buy 3 10 300
expect_eq "a buy of 3 GPUs takes 3 of the earlier ask at 300: 1×100 + 2×720 left" \
  "$(levels h200 | head -1)" "300:3:2:1540 310:8:1:192"

req DELETE "/v1/orders/$B1" "" "$BK"
expect_eq "the cancelled order's GPU-hours leave the level" \
  "$(levels h200 | head -1)" "300:1:1:100 310:8:1:192"

expect_eq "an empty book has no levels" "$(levels rtx-4090 | tr '\n' '|')" "||"
finish
