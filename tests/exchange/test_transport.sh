# Transport and plumbing: the Unix socket (mode 0600), keep-alive, ETag and
# 304 on /v1/quotes and /v1/books/{gpu}, cursor pagination and filters, the
# catalogue routes, and gpuxd's command line.
. tests/lib.sh
. tests/exchange/xlib.sh
SOCK="$TMPD/gpuxd.sock"
xd_start --market open --socket "$SOCK" || finish
SOCK_PID=$GPUXD_PID

expect_eq "the Unix socket is mode 0600" "$(stat -c %a "$SOCK")" 600
body=$(curl -s --unix-socket "$SOCK" http://localhost/v1/market)
expect_eq "the API answers on the Unix socket" "$(printf '%s' "$body" | jq -r .state)" open
code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$SOCK" http://x/v1/account)
expect_eq "... with the same auth rules" "$code" 401
out=$(curl -s -w '%{num_connects} ' -o /dev/null "$GPUXD_URL/v1/market" -o /dev/null "$GPUXD_URL/v1/quotes" -o /dev/null "$GPUXD_URL/v1/gpus")
expect_eq "keep-alive: three requests, one connection" "$out" "1 0 0 "

req GET /v1/gpus ""
expect_eq "GET /v1/gpus: the catalogue's 15 GPUs" "$(jqb '.gpus | length') $(jqb '[.gpus[].id] | index("h200") != null')" "15 true"
req GET /v1/workloads ""
expect_eq "GET /v1/workloads: an object with workloads" "$ST $(jqb '.workloads | type')" "200 array"

hdr=$(curl -s -D - -o "$TMPD/q" "$GPUXD_URL/v1/quotes" | tr -d '\r')
etag=$(printf '%s' "$hdr" | sed -n 's/^ETag: //p')
expect_match "quotes carry an ETag" "$etag" '^"q-[0-9a-f]+-[0-9]+"$'
: >"$TMPD/q2"
code=$(curl -s -o "$TMPD/q2" -w '%{http_code}' -H "If-None-Match: $etag" "$GPUXD_URL/v1/quotes")
expect_eq "If-None-Match with the same ETag: 304, no body" "$code $(wc -c <"$TMPD/q2")" "304 0"
expect_eq "quotes: seq, server_time, quotes, in that order" \
  "$(jq -r 'keys_unsorted | join(",")' "$TMPD/q")" "seq,server_time,quotes"
B="$GPUXD_URL/v1/books/h200?depth=3"
bhdr=$(curl -s -D - -o "$TMPD/b" "$B" | tr -d '\r')
betag=$(printf '%s' "$bhdr" | sed -n 's/^ETag: //p')
expect_match "a book carries an ETag" "$betag" '^"b-[0-9a-f]+-[0-9]+"$'
expect_eq "... and its fields in the documented order, the empty book's sides empty" \
  "$(jq -c '[keys_unsorted, .gpu, .asks, .bids]' "$TMPD/b")" '[["gpu","seq","server_time","asks","bids"],"h200",[],[]]'
: >"$TMPD/b2"
code=$(curl -s -o "$TMPD/b2" -w '%{http_code}' -H "If-None-Match: $betag" "$B")
expect_eq "... If-None-Match with it: 304, no body" "$code $(wc -c <"$TMPD/b2")" "304 0"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $betag" "$GPUXD_URL/v1/books/l40s?depth=3")
expect_eq "... another GPU's book at the same seq: 304 as well (one seq for every book)" "$code" 304
signup US USD seller; SK=$KEY
req POST /v1/orders '{"client_order_id":"e1","gpu":"h200","side":"sell","type":"limit","gpus":1,"hours":1,"price_cents":400}' "$SK"
code=$(curl -s -o "$TMPD/q3" -w '%{http_code}' -H "If-None-Match: $etag" "$GPUXD_URL/v1/quotes")
expect_eq "after the book changed: 200 with the new best ask" "$code $(jq -r '.quotes[] | select(.gpu=="h200") | .best_ask_cents' "$TMPD/q3")" "200 400"
expect_eq "seq increased" "$(( $(jq .seq "$TMPD/q3") > $(jq .seq "$TMPD/q") ))" 1
code=$(curl -s -o "$TMPD/b3" -w '%{http_code}' -H "If-None-Match: $betag" "$B")
expect_eq "the book after it changed: 200 with the new ask, at the new seq" \
  "$code $(jq -c '[.asks, .seq]' "$TMPD/b3")" \
  "200 [[{\"price_cents\":400,\"gpus\":1,\"orders\":1,\"gpu_hours\":1}],$(jq .seq "$TMPD/q3")]"
signup US USD seller   # another seller: the filters below count SK's orders
req POST /v1/orders '{"client_order_id":"e2","gpu":"h200","side":"sell","type":"limit","gpus":2,"hours":1,"price_cents":410}' "$KEY"
curl -s "$GPUXD_URL/v1/books/h200?depth=1" >"$TMPD/b4"
curl -s "$B" >"$TMPD/b5"
expect_eq "each depth is its own reply: depth 1 shows one level, depth 3 both" \
  "$(jq -c '[.asks[].price_cents]' "$TMPD/b4") $(jq -c '[.asks[].price_cents]' "$TMPD/b5")" "[400] [400,410]"
hdr=$(curl -s -D - -o /dev/null "$GPUXD_URL/v1/books/h200?node_gpus=1" | tr -d '\r')
expect_eq "a ladder by node size (the writer's, per request) carries no ETag" \
  "$(printf '%s' "$hdr" | grep -ci '^ETag:')" 0

i=0
while [ $i -lt 5 ]; do
  i=$((i + 1))
  req POST /v1/orders "{\"client_order_id\":\"p$i\",\"gpu\":\"l40s\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":$((100 + i))}" "$SK"
done
all=""; cursor=""; pages=0
while :; do
  req GET "/v1/orders?gpu=l40s&limit=2${cursor:+&cursor=$cursor}" "" "$SK"
  all="$all $(jqb '[.orders[].client_order_id] | join(" ")')"
  pages=$((pages + 1))
  cursor=$(jqb .next_cursor)
  [ "$cursor" = null ] && break
done
expect_eq "pagination: newest first, three pages of 2, 2, 1" "$pages:$all" "3: p5 p4 p3 p2 p1"
req GET "/v1/orders?client_order_id=p3" "" "$SK"
expect_eq "filter by client_order_id" "$(jqb '[.orders[].client_order_id] | join(",")')" "p3"
req GET "/v1/orders?status=filled" "" "$SK"
expect_eq "filter by status" "$(jqb '.orders | length')" 0
req GET "/v1/orders?status=open&side=sell&gpu=h200" "" "$SK"
expect_eq "filters combine" "$(jqb '[.orders[].client_order_id] | join(",")')" "e1"

# the command line
"$GPUXD" --help >"$TMPD/help" 2>&1
expect_eq "--help exits 0 and lists --listen" "$?:$(grep -c -- '--listen HOST' "$TMPD/help")" "0:1"
"$GPUXD" --version >"$TMPD/v" 2>&1
expect_match "--version" "$(cat "$TMPD/v")" "^gpuxd [0-9]+\.[0-9]+"
"$GPUXD" --bogus >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "an unknown flag: exit 2 with a message" "$rc:$(grep -c 'bogus' "$TMPD/e")" "2:1"
"$GPUXD" --market sideways >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "a bad --market: exit 2" "$rc" 2
"$GPUXD" --clock-speed abc >/dev/null 2>&1; rc=$?
expect_eq "a bad --clock-speed: exit 2" "$rc" 2
"$GPUXD" --listen 127.0.0.1:0 --db "$TMPD/nodir/x.db" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "a database that cannot be opened: exit 1 naming it" "$rc:$(grep -c 'nodir/x.db' "$TMPD/e")" "1:1"
"$GPUXD" --listen 127.0.0.1:99999 --db "$TMPD/y.db" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "a bad port: exit 1" "$rc" 1
printf 'short\n' >"$TMPD/weak.key"
"$GPUXD" --listen 127.0.0.1:0 --db "$TMPD/z.db" --admin-key-file "$TMPD/weak.key" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "an admin key under 16 characters is refused" "$rc" 1

# --data DIR: the catalogue and the tables from a directory
mkdir -p "$TMPD/cat" "$TMPD/badcat"
cp data/*.json "$TMPD/cat/"
jq '.rate_micro.EUR = 900000' data/fx.json >"$TMPD/cat/fx.json"
cp data/*.json "$TMPD/badcat/"
jq 'del(.gpus[0].id)' data/gpus.json >"$TMPD/badcat/gpus.json"
"$GPUXD" --listen 127.0.0.1:0 --db "$TMPD/bad.db" --data "$TMPD/badcat" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "a damaged catalogue: exit 1 naming the file" "$rc:$(grep -c 'gpus.json' "$TMPD/e")" "1:1"
start_gpuxd --data "$TMPD/cat" --quiet || finish
req GET /v1/market ""
expect_eq "--data DIR: its fx.json is used" "$(jqb .fx.rate_micro.EUR)" 900000
req GET /v1/gpus ""
expect_eq "--data DIR: its GPUs are served" "$(jqb '.gpus | length')" 15

# a clean shutdown on SIGTERM removes the socket
kill "$SOCK_PID"; { wait "$SOCK_PID"; } 2>/dev/null
expect_eq "SIGTERM: the socket file is removed" "$(test -e "$SOCK" && echo there || echo gone)" gone
xd_finish
