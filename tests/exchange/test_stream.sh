# GET /v1/stream on a real gpuxd: snapshots plus increments reproduce
# /v1/quotes and /v1/books/{gpu} exactly after an order sequence; every trade
# of /v1/trades/{gpu} arrives once, in order; a disconnect and a reconnect
# with Last-Event-ID misses nothing; a slow reader is dropped with a
# `closing` event while a fast one gets everything; bad channels are 400.
. tests/lib.sh
. tests/exchange/xlib.sh
xd_start --market open --stream-backlog 4096 --rate-limit 0 --ip-rate-limit 0 || finish

signup US USD seller; SK=$KEY
signup US USD buyer; B=$ACC; BK=$KEY; deposit "$B" 100000000
n=0
place() { # KEY GPU SIDE GPUS HOURS PRICE [TIF]
  n=$((n + 1))
  req POST /v1/orders "{\"client_order_id\":\"s$n\",\"gpu\":\"$2\",\"side\":\"$3\",\"type\":\"limit\",\"gpus\":$4,\"hours\":$5,\"price_cents\":$6,\"time_in_force\":\"${7:-gtc}\"}" "$1"
}

# SSE text -> one JSON object per event: {"event","id","data"}
sse_json() {
  tr -d '\r' <"$1" | awk '
    /^id: / { id = substr($0, 5) }
    /^event: / { ev = substr($0, 8) }
    /^data: / { d = substr($0, 7) }
    /^$/ { if (ev != "") printf "{\"event\":\"%s\",\"id\":\"%s\",\"data\":%s}\n", ev, id, d; ev = ""; id = ""; d = "" }'
}

# Apply snapshots and increments: the quotes (by gpu) and one book.
APPLY='
def lv(k): map({key: (.price_cents | tostring), value: .}) | from_entries;
def upd(side; levels): reduce levels[] as $l (.; if $l.gpus == 0 then del(.[side][$l.price_cents | tostring]) else .[side][$l.price_cents | tostring] = $l end);
reduce .[] as $e ({q: {}, asks: {}, bids: {}};
  if $e.event == "snapshot" and $e.data.channel == "quotes" then .q = ($e.data.quotes | map({key: .gpu, value: .}) | from_entries)
  elif $e.event == "snapshot" and ($e.data.channel | startswith("book:")) then .asks = ($e.data.asks | lv(0)) | .bids = ($e.data.bids | lv(0))
  elif $e.event == "quote" then reduce $e.data.quotes[] as $x (.; .q[$x.gpu] = $x)
  elif $e.event == "book" then upd("asks"; $e.data.asks) | upd("bids"; $e.data.bids)
  else . end)
| {quotes: ([.q[]] | sort_by(.gpu)), asks: ([.asks[]] | sort_by(.price_cents)), bids: ([.bids[]] | sort_by(-.price_cents))}'

rest_state() {
  req GET /v1/quotes; q=$BODY
  req GET "/v1/books/h200?depth=100"
  jq -cn --argjson q "$q" --argjson b "$BODY" \
    '{quotes: ($q.quotes | sort_by(.gpu)), asks: $b.asks, bids: $b.bids}'
}
stream_state() { sse_json "$1" | jq -cs "$APPLY"; }
# sse_until FILE JQ PATH [HEADER]: the stream at PATH into FILE until JQ (over the
# array of its whole events so far) is true, 10 s at most; then the client leaves
sse_has() { [ "$(sse_json "$1" | jq -s "$2")" = true ]; }
sse_until() {
  curl -sN ${4:+-H "$4"} "$GPUXD_URL$3" >"$1" 2>/dev/null &
  _sse=$!
  wait_for sse_has "$1" "$2"
  kill $_sse 2>/dev/null; wait $_sse 2>/dev/null
}

CH="channels=quotes,book:h200,trades:h200"
curl -sN "$GPUXD_URL/v1/stream?$CH" >"$TMPD/fast.sse" 2>/dev/null &
FAST=$!
at_exit "kill $FAST 2>/dev/null"
curl -sN "$GPUXD_URL/v1/stream?$CH" >"$TMPD/cut1.sse" 2>/dev/null &
CUT=$!
at_exit "kill $CUT 2>/dev/null"
wait_for grep -q '^event: snapshot' "$TMPD/fast.sse"

# --- an order sequence: a ladder, crossing buys, cancels, another GPU ------------------
# asks of different hours, so that each level's GPU-hours are its own
for p in 400 410 420 430 440; do place "$SK" h200 sell 4 $((p / 10)) $p; done
place "$SK" h200 sell 2 720 410
C1=$(jqb .id)
for p in 380 370 360; do place "$BK" h200 buy 3 10 $p; done
place "$BK" h200 buy 5 10 415          # takes 4+2 at 400/410? no: 4 at 400, 1 at 410
place "$SK" b200 sell 8 10 700
place "$BK" b200 buy 2 10 700
wait_for grep -q '^event: trade' "$TMPD/cut1.sse"
kill $CUT 2>/dev/null; wait $CUT 2>/dev/null
LAST=$(sse_json "$TMPD/cut1.sse" | jq -rs '[.[] | select(.id != "")] | last | .id')
req DELETE "/v1/orders/$C1" "" "$SK"
place "$BK" h200 buy 6 10 430 ioc
place "$SK" h200 sell 3 10 360 ioc     # hits the 380 and 370 bids
for p in 445 450 455; do place "$SK" h200 sell 1 10 $p; done
place "$BK" h200 buy 2 10 999 fok
place "$BK" h200 buy 1 10 100
req DELETE "/v1/orders/$(jqb .id)" "" "$BK"

# reconnect the cut client with Last-Event-ID
curl -sN -H "Last-Event-ID: $LAST" "$GPUXD_URL/v1/stream?$CH" >"$TMPD/cut2.sse" 2>/dev/null &
CUT2=$!
at_exit "kill $CUT2 2>/dev/null"

want=$(rest_state)
i=0
while [ $i -lt 50 ] && [ "$(stream_state "$TMPD/fast.sse")" != "$want" ]; do sleep 0.2; i=$((i + 1)); done
expect_eq "snapshot + increments reproduce /v1/quotes and /v1/books/h200 exactly" \
  "$(stream_state "$TMPD/fast.sse")" "$want"
expect_match "the book has levels on both sides (the sequence was not empty)" "$want" '"asks":\[\{.*"bids":\[\{'
expect_match "the streamed levels carry GPU-hours: 3 GPUs × 43 h left at 430, 4 × 44 h at 440" \
  "$(stream_state "$TMPD/fast.sse")" \
  '"asks":\[\{"price_cents":430,"gpus":3,"orders":1,"gpu_hours":129},\{"price_cents":440,"gpus":4,"orders":1,"gpu_hours":176}'

# --- trades ------------------------------------------------------------------------------
req GET "/v1/trades/h200?limit=200"
rest_trades=$(jqb '[.trades | reverse | .[].id] | join(" ")')
stream_trades=$(sse_json "$TMPD/fast.sse" | jq -rs '[.[] | select(.event == "trade") | .data.trades[].id] | join(" ")')
expect_eq "every trade of /v1/trades/h200 is in the stream once, in order" "$stream_trades" "$rest_trades"
expect_match "there were several trades" "$rest_trades" '^[0-9]+( [0-9]+){3,}$'
expect_eq "trade events carry the trade fields of /v1/trades" \
  "$(sse_json "$TMPD/fast.sse" | jq -cs '[.[] | select(.event == "trade") | .data.trades[]] | last | keys')" \
  '["at","gpus","hours","id","price_cents","taker_side"]'

# --- sequence numbers ----------------------------------------------------------------------
gaps=$(sse_json "$TMPD/fast.sse" | jq -rs '
  reduce .[] as $e ({last: {}, snap: {}, bad: 0};
    if $e.event == "snapshot" then .last[$e.data.channel] = $e.data.seq | .snap[$e.data.channel] = true
    elif $e.event == "quote" or $e.event == "book" or $e.event == "trade" then
      ($e.data | if $e.event == "quote" then "quotes" elif $e.event == "book" then "book:\(.gpu)" else "trades:\(.gpu)" end) as $ch
      | (if (.snap[$ch] and $e.data.prev <= .last[$ch]) or $e.data.prev == .last[$ch] then . else .bad += 1 end)
      | .last[$ch] = $e.data.seq | .snap[$ch] = false
    else . end) | .bad')
expect_eq "each increment's prev is its channel's previous seq (at most the snapshot's after one)" "$gaps" "0"

# --- Last-Event-ID -------------------------------------------------------------------------
i=0
while [ $i -lt 50 ] && [ "$(cat "$TMPD/cut1.sse" "$TMPD/cut2.sse" > "$TMPD/cut.sse"; stream_state "$TMPD/cut.sse")" != "$want" ]; do
  sleep 0.2; i=$((i + 1))
done
expect_eq "no snapshot after a reconnect with a Last-Event-ID still held" \
  "$(sse_json "$TMPD/cut2.sse" | jq -s '[.[] | select(.event == "snapshot")] | length')" "0"
ids_fast=$(sse_json "$TMPD/fast.sse" | jq -rs --arg l "$LAST" '[.[] | select(.id != "" and .event != "snapshot") | .id] | (index($l)) as $i | .[$i + 1:] | join(" ")')
ids_cut=$(sse_json "$TMPD/cut2.sse" | jq -rs '[.[] | select(.id != "") | .id] | join(" ")')
expect_eq "the reconnected stream replays exactly the events after Last-Event-ID" "$ids_cut" "$ids_fast"
expect_eq "cut + replay reproduce the same state" "$(stream_state "$TMPD/cut.sse")" "$want"
sse_until "$TMPD/old.sse" 'length > 0' "/v1/stream?channels=quotes" "Last-Event-ID: 0000-1"
expect_eq "an unknown Last-Event-ID gets a fresh snapshot" \
  "$(sse_json "$TMPD/old.sse" | jq -rs '.[0].event + " " + .[0].data.channel')" "snapshot quotes"
sse_until "$TMPD/tr.sse" 'length > 0' "/v1/stream?channels=trades:h200"
expect_eq "a trades snapshot holds the latest trades, newest first" \
  "$(sse_json "$TMPD/tr.sse" | jq -rs '[.[0].data.trades[].id] | join(" ")')" \
  "$(printf '%s\n' $rest_trades | sort -rn | tr '\n' ' ' | sed 's/ $//')"

sse_until "$TMPD/idle.sse" 'map(select(.event == "heartbeat")) | length > 0' "/v1/stream?channels=book:b300"
expect_match "an idle stream gets a heartbeat within 10 s, with the market's seq" \
  "$(sse_json "$TMPD/idle.sse" | jq -c 'select(.event == "heartbeat") | .data' | head -1)" '^\{"seq":[0-9]+\}$'

# --- headers and errors ------------------------------------------------------------------
curl -sN -D "$TMPD/hdr" -o /dev/null "$GPUXD_URL/v1/stream" 2>/dev/null &
_h=$!
wait_for grep -q "$(printf '^\r$')" "$TMPD/hdr"   # the blank line that ends the header
kill $_h 2>/dev/null; wait $_h 2>/dev/null
hdr=$(tr -d '\r' <"$TMPD/hdr")
expect_match "the stream is text/event-stream" "$hdr" 'Content-Type: text/event-stream'
req GET "/v1/stream?channels=quotes,bogus"
expect_eq "an unknown channel is 400 BAD_PARAM" "$ST $(jqb .error.code) $(jqb .error.field)" "400 BAD_PARAM channels"
req GET "/v1/stream?channels=book:nope"
expect_eq "an unknown GPU in a channel is 400 UNKNOWN_GPU" "$ST $(jqb .error.code)" "400 UNKNOWN_GPU"
req GET "/v1/stream?channel=quotes"
expect_eq "an unknown query parameter is 400" "$ST $(jqb .error.code)" "400 BAD_PARAM"
kill $FAST 2>/dev/null

# --- a slow reader is dropped; a fast one is not held back -------------------------------
xd_start --market open --stream-backlog 32 --rate-limit 0 --ip-rate-limit 0 || finish
signup US USD seller; SK=$KEY
"$GPUX_BUILD/tests/sse_slow" "$GPUXD_PORT" "/v1/stream?channels=book:*,quotes" "$TMPD/go" "$TMPD/slow.out" &
SLOW=$!
at_exit "kill $SLOW 2>/dev/null"
curl -sN "$GPUXD_URL/v1/stream?channels=book:*,quotes" >"$TMPD/fast2.sse" 2>/dev/null &
FAST=$!
at_exit "kill $FAST 2>/dev/null"
wait_for grep -q '^event: snapshot' "$TMPD/fast2.sse"
t0=$(date +%s)
for i in $(seq 1 400); do
  place "$SK" h200 sell 1 1 $((100000 - i)) >/dev/null
done
t1=$(date +%s)
want=$(rest_state)
i=0
while [ $i -lt 50 ] && [ "$(stream_state "$TMPD/fast2.sse")" != "$want" ]; do sleep 0.2; i=$((i + 1)); done
expect_eq "the fast reader has every change while a slow one stalls" "$(stream_state "$TMPD/fast2.sse")" "$want"
expect_eq "the fast reader saw one book event per order" \
  "$(sse_json "$TMPD/fast2.sse" | jq -s '[.[] | select(.event == "book")] | length')" "400"
touch "$TMPD/go"
wait $SLOW; rc=$?
expect_eq "the server closed the slow reader's stream" "$rc" "0"
expect_match "the slow reader's last event is closing with TOO_SLOW" \
  "$(tr -d '\r' <"$TMPD/slow.out" | grep -A1 '^event: ' | tail -2 | tr '\n' ' ')" \
  '^event: closing data: \{"code":"TOO_SLOW"'
echo "# 400 orders placed in $((t1 - t0)) s with a stalled stream client"
kill $FAST 2>/dev/null
finish
