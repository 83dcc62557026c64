# Strict HTTP: every malformed request of docs/API.md "Strict HTTP" is refused
# with 400 (or 413) and its stable code, in the error contract (JSON body,
# Content-Type, X-Request-Id), the connection closed, and the database
# unchanged; the smuggled request in a body is never run; log lines escape
# control characters.
. tests/lib.sh
. tests/exchange/xlib.sh
HOSTILE="$GPUX_BUILD/tests/hostile"
start_gpuxd --admin-key-file "$TMPD/admin.key" --market open || finish
signup US USD both; K=$KEY
deposit "$ACC" 1000000
state() { sql "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM ledger), (SELECT sum(available) FROM accounts WHERE kind = 'customer')"; }
before=$(state)

raw() { printf "$1" | "$HOSTILE" raw --port "$GPUXD_PORT" --timeout-ms 3000 | tr -d '\r' >"$TMPD/raw"; }
status() { sed -n '1s/^HTTP\/1\.1 \([0-9]*\).*/\1/p' "$TMPD/raw"; }
rbody() { sed -n '/^$/,$p' "$TMPD/raw" | sed -n '2p'; }
code() { rbody | jq -r .error.code 2>/dev/null; }
contract() { # the error contract, and the connection closed after it
  grep -q '^Content-Type: application/json$' "$TMPD/raw" &&
  grep -q '^X-Request-Id: r[0-9a-f]*$' "$TMPD/raw" &&
  [ "$(rbody | jq -r .error.request_id)" = "$(sed -n 's/^X-Request-Id: //p' "$TMPD/raw")" ] &&
  grep -q '^Connection: close$' "$TMPD/raw" && [ "$(tail -1 "$TMPD/raw")" = "[closed]" ]
}
refused() { # description, request, status, code
  raw "$2"
  expect_eq "$1: $3 $4" "$(status) $(code)" "$3 $4"
  check "$1: error contract, connection closed" contract
}
A="Authorization: Bearer $K"
ORDER='{"client_order_id":"s1","gpu":"h200","side":"buy","type":"limit","gpus":1,"hours":1,"price_cents":100}'

refused "two Content-Length (a GET smuggled in the body)" \
  "POST /v1/deposits HTTP/1.1\r\nHost: x\r\n$A\r\nContent-Length: 2\r\nContent-Length: 60\r\n\r\n{}GET /v1/market HTTP/1.1\r\nHost: x\r\n\r\n" 400 DUPLICATE_HEADER
expect_eq "... and the smuggled GET was never answered" "$(grep -c '^HTTP/1.1' "$TMPD/raw")" 1
refused "Content-Length with Transfer-Encoding" \
  "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" 400 CONFLICTING_HEADERS
refused "two Transfer-Encoding" \
  "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" 400 DUPLICATE_HEADER
refused "two Authorization headers" \
  "GET /v1/account HTTP/1.1\r\nHost: x\r\n$A\r\nAuthorization: Bearer gpux_other\r\n\r\n" 400 DUPLICATE_HEADER
refused "a control character in a header value" \
  "GET /v1/market HTTP/1.1\r\nHost: x\r\nX-Note: a\001b\r\n\r\n" 400 BAD_HEADER
refused "an HTTP/1.1 request without Host" "GET /v1/market HTTP/1.1\r\n\r\n" 400 BAD_HEADER
refused "an escape character in the method" \
  "GE\033[2JT /v1/market HTTP/1.1\r\nHost: x\r\n\r\n" 400 BAD_REQUEST_LINE
refused "%%00 in the path" "GET /v1/market%%00garbage HTTP/1.1\r\nHost: x\r\n\r\n" 400 BAD_PATH
refused "%%0a in the path" "GET /v1/market%%0afake HTTP/1.1\r\nHost: x\r\n\r\n" 400 BAD_PATH
refused "a query parameter without a value" "GET /v1/orders?limit HTTP/1.1\r\nHost: x\r\n$A\r\n\r\n" 400 BAD_PARAM
refused "a NUL in a query value" "GET /v1/orders?client_order_id=a%%00b HTTP/1.1\r\nHost: x\r\n$A\r\n\r\n" 400 BAD_PARAM
refused "an over-long client_order_id filter" \
  "GET /v1/orders?client_order_id=$(head -c 65 /dev/zero | tr '\0' a) HTTP/1.1\r\nHost: x\r\n$A\r\n\r\n" 400 BAD_PARAM
refused "a declared body over 16 KiB, with Expect: 100-continue" \
  "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nContent-Length: 99999999999\r\nExpect: 100-continue\r\n\r\n" 413 BODY_TOO_LARGE
expect_eq "... answered at once, without 100 Continue" "$(grep -c '100 Continue' "$TMPD/raw")" 0
n=$(printf '%s' "$ORDER" | sed 's/"gpus":1/"gpus":01/')
refused "a number with a leading zero" \
  "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nConnection: close\r\nContent-Length: ${#n}\r\n\r\n$n" 400 BAD_JSON
refused "a byte order mark before the JSON" \
  "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nConnection: close\r\nContent-Length: $((${#ORDER} + 3))\r\n\r\n\357\273\277$ORDER" 400 BAD_JSON
# framing a front end could read another way (RFC 9112 §5.1, §5.2): each
# smuggles an order in what gpuxd would otherwise take as a second request
SMUG="POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nContent-Length: ${#ORDER}\r\n\r\n$ORDER"
framing() { # description, header line(s) that frame a body holding $SMUG
  refused "$1" "POST /v1/deposits HTTP/1.1\r\nHost: x\r\n$A\r\n$2\r\n\r\n$SMUG" 400 BAD_HEADER
  expect_eq "... and the smuggled order was never answered" "$(grep -c '^HTTP/1.1' "$TMPD/raw")" 1
}
L=$(printf "$SMUG" | wc -c)
framing "a space before the colon (Content-Length : N)" "Content-Length : $L"
framing "a tab before the colon" "Content-Length\t: $L"
framing "a space inside a header name" "Content Length: $L"
framing "Transfer-Encoding with a space before the colon" "Transfer-Encoding : chunked"
framing "a header name with a separator character" "X(y): z\r\nContent-Length : $L"
framing "obs-fold: a value continued on a line starting with a space" "Content-Length: $L\r\n 0"
framing "obs-fold: continued with a tab" "X-Note: a\r\n\tb\r\nContent-Length : $L"
framing "obs-fold: a long continuation" "X-Note:a\r\n continued-for-long\r\nContent-Length: $L"
framing "obs-fold: an empty value continued" "X-Note:\r\n \r\nContent-Length: $L"
framing "a line starting with a space after Host" " Content-Length: $L"
framing "a bare CR inside a header line" "X-Note: a\rContent-Length: $L"
raw "GET /v1/market HTTP/1.1\r\nHost: x\r\nX-Spaced:   several   spaces\r\nConnection: close\r\n\r\n"
expect_eq "spaces inside and around a value are fine: 200" "$(status)" 200
raw "GET /v1/market HTTP/1.1\nHost: x\nConnection: close\n\n"
expect_eq "bare LF line ends (RFC 9112 §2.2 lets a server take them): 200" "$(status)" 200
expect_eq "the database is unchanged by all of them" "$(state)" "$before"
ledger_check >/dev/null && ok "the ledger still balances" || fail "the ledger still balances"

# the same order, well-formed, is placed (the checks refuse only what is wrong)
raw "POST /v1/orders HTTP/1.1\r\nHost: x\r\n$A\r\nConnection: close\r\nContent-Length: ${#ORDER}\r\n\r\n$ORDER"
expect_eq "a well-formed order on the same path: 201" "$(status)" 201
raw "GET /v1/orders?limit=5 HTTP/1.1\r\nHost: x\r\n$A\r\nConnection: close\r\n\r\n"
expect_eq "?limit=5: 200" "$(status)" 200

# replies libmicrohttpd makes itself: the status is right, the connection
# closed; their body is its own (docs/API.md, Strict HTTP)
raw "garbage\r\n\r\n"
expect_eq "a garbage request line: closed without a reply" "$(cat "$TMPD/raw")" "[closed]"
raw "GET /v1/market HTTP/2.0\r\nHost: x\r\n\r\n"
expect_eq "an HTTP/2.0 request line: 505 from libmicrohttpd" "$(status)" 505
raw "GET /v1/market?$(head -c 40000 /dev/zero | tr '\0' a) HTTP/1.1\r\nHost: x\r\n\r\n"
expect_eq "a 40 KB URL: 414" "$(status)" 414
raw "GET /v1/market HTTP/1.1\r\nHost: x\r\nX-Big: $(head -c 40000 /dev/zero | tr '\0' a)\r\n\r\n"
expect_eq "a 40 KB header: 431" "$(status)" 431

# the log: control characters escaped, a %0a stays as sent
check "the log shows the method's escape character as \\x1b" grep -qF 'GE\x1b[2JT /v1/market' "$GPUXD_LOG"
check "the log shows the path as sent (%0a, no line break)" grep -q ' /v1/market%0afake 400 ' "$GPUXD_LOG"
check "no raw escape character in the log" test "$(tr -dc '\033' <"$GPUXD_LOG" | wc -c)" -eq 0

# an admin key file that group or others can read is refused, as gpux does for its config
printf 'an-admin-key-of-enough-length\n' >"$TMPD/open.key"
chmod 644 "$TMPD/open.key"
"$GPUXD" --listen 127.0.0.1:0 --db "$TMPD/k.db" --admin-key-file "$TMPD/open.key" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "--admin-key-file readable by others: exit 1, says chmod 600" "$rc:$(grep -c 'chmod 600' "$TMPD/e")" "1:1"
xd_finish
