# The front door's limits, as docs/API.md "Limits" and docs/DEPLOY.md say:
# idle connections held from many addresses do not lock newcomers out (the
# idlest are closed at the total cap); the client address comes from a
# trusted proxy's PROXY protocol header (v1 and v2) or X-Forwarded-For, and
# never from an untrusted peer's; signups are limited per address.
. tests/lib.sh
. tests/exchange/xlib.sh
HOSTILE="$GPUX_BUILD/tests/hostile"
code_of() { sed -n '1s/^HTTP\/1\.[01] \([0-9]*\).*/\1/p' "$1" | tr -d '\r'; }
raw_from() { # FROM REQUEST (printf format): the reply in $TMPD/raw
  printf "$2" | "$HOSTILE" raw --port "$GPUXD_PORT" --from "$1" --timeout-ms 3000 >"$TMPD/raw"
}

# ---- many addresses: 240 idle connections from 40 addresses (6 each, under the
# per-address cap of 8) against a total cap of 200
start_gpuxd --admin-key-file "$TMPD/admin.key" --market open --max-connections 200 \
  --max-connections-per-addr 8 --header-timeout 30 || finish
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.5.1 --addrs 40 --idle 240 --seconds 12 \
  >"$TMPD/attack" 2>"$TMPD/attack.err" &
ATT=$!
at_exit "kill $ATT 2>/dev/null"
wait_for grep -q '^ready' "$TMPD/attack.err"
served=0
for i in $(seq 1 40); do
  c=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$GPUXD_URL/v1/market")
  [ "$c" = 200 ] && served=$((served + 1))
done
expect_eq "40 requests from a well-behaved client while 240 idle connections are held: all served" "$served" 40
wait $ATT
set -- $(cat "$TMPD/attack")
echo "# attacker: $*"
check "the attacker lost at least 40 of its 240 to make room ($4 at once, $6 later)" \
  test $(($4 + $6)) -ge 40
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
check "the log counts the idle connections closed to make room" grep -q 'idle ones closed to make room' "$GPUXD_LOG"

# ---- trusted proxies: 127.0.0.1 is the balancer, 127.0.0.3 anybody else.
# --ip-rate-limit 1 (bursts of 2) shows whose address a request counts under.
xd_start --market open --trusted-proxy 127.0.0.1/32,192.0.2.0/24 --ip-rate-limit 1 || finish
GET="GET /v1/market HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
three() { # FROM PREFIX HEADERS: the codes of three requests
  out=""
  for i in 1 2 3; do raw_from "$1" "$2$GET$3\r\n"; out="$out $(code_of "$TMPD/raw")"; done
  echo $out
}
expect_eq "PROXY v1 from the balancer: the named client's bucket (2, then 429)" \
  "$(three 127.0.0.1 'PROXY TCP4 198.51.100.7 127.0.0.1 40000 8420\r\n' '')" "200 200 429"
expect_eq "... another client named by PROXY v1 has its own bucket" \
  "$(three 127.0.0.1 'PROXY TCP4 198.51.100.8 127.0.0.1 40001 8420\r\n' '' | cut -c1-3)" "200"
V2='\r\n\r\n\0\r\nQUIT\n\041\021\0\014\313\161\0\011\177\0\0\001\234\100\040\344'
expect_eq "PROXY v2 naming 203.113.0.9: its own bucket (2, then 429)" \
  "$(three 127.0.0.1 "$V2" '')" "200 200 429"
V2L='\r\n\r\n\0\r\nQUIT\n\040\0\0\0'
raw_from 127.0.0.1 "$V2L$GET\r\n"
expect_eq "PROXY v2 LOCAL (the balancer's own check): answered" "$(code_of "$TMPD/raw")" 200
raw_from 127.0.0.3 "PROXY TCP4 198.51.100.20 127.0.0.1 40002 8420\r\n$GET\r\n"
check "a PROXY header from an untrusted peer is not read: no 200" test "$(code_of "$TMPD/raw")" != 200
expect_eq "X-Forwarded-For from the balancer: the client's bucket (2, then 429)" \
  "$(three 127.0.0.1 '' 'X-Forwarded-For: 198.51.100.30\r\n')" "200 200 429"
expect_eq "... behind a second trusted proxy (192.0.2.5): the rightmost untrusted hop's bucket" \
  "$(three 127.0.0.1 '' 'X-Forwarded-For: 198.51.100.31, 192.0.2.5\r\n')" "200 200 429"
raw_from 127.0.0.1 "${GET}X-Forwarded-For: 198.51.100.31\r\n\r\n"
expect_eq "... which is 198.51.100.31's own" "$(code_of "$TMPD/raw")" 429
expect_eq "... a client-written hop further left is ignored" \
  "$(three 127.0.0.1 '' 'X-Forwarded-For: 10.9.9.9, 198.51.100.32\r\n')" "200 200 429"
out=""
for i in 1 2 3; do
  raw_from 127.0.0.3 "${GET}X-Forwarded-For: 198.51.100.$((40 + i))\r\n\r\n"; out="$out $(code_of "$TMPD/raw")"
done
expect_eq "X-Forwarded-For from an untrusted peer is ignored: its own bucket" "$(echo $out)" "200 200 429"
expect_eq "an IPv6 /64 is one client (X-Forwarded-For: two addresses of 2001:db8:1:2::/64)" \
  "$(for a in 2001:db8:1:2::1 2001:db8:1:2::ffff 2001:db8:1:2:abcd::1; do
       raw_from 127.0.0.1 "${GET}X-Forwarded-For: $a\r\n\r\n"; code_of "$TMPD/raw"; done | tr '\n' ' ')" "200 200 429 "
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# the balancer's own connections do not count against the per-address cap
xd_start --market open --trusted-proxy 127.0.0.1 --max-connections-per-addr 4 --header-timeout 30 || finish
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.0.1 --idle 20 --seconds 4 >"$TMPD/lb" 2>"$TMPD/lb.err"
set -- $(cat "$TMPD/lb")
expect_eq "20 connections from the balancer's address, cap 4 per address: none refused" "$4" 0
"$HOSTILE" hold --port "$GPUXD_PORT" --from 127.0.0.3 --idle 20 --seconds 4 >"$TMPD/lb" 2>"$TMPD/lb.err"
set -- $(cat "$TMPD/lb")
expect_eq "20 from an untrusted address: 16 refused" "$4" 16
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null

# ---- signups: --signup-limit 5 a minute per address
xd_start --market open --signup-limit 5 || finish
codes=""
for i in $(seq 1 8); do
  c=$(curl -s -o "$TMPD/s" -D "$TMPD/h" -w '%{http_code}' --max-time 3 -X POST \
    --data-binary "{\"email\":\"burst$i@example.com\",\"country\":\"PT\",\"currency\":\"EUR\",\"role\":\"buyer\"}" \
    "$GPUXD_URL/v1/accounts")
  codes="$codes $c"
done
expect_eq "8 signups at once from one address: 5 accounts, then 429" "$(echo $codes)" "201 201 201 201 201 429 429 429"
expect_eq "... RATE_LIMITED" "$(jq -r .error.code "$TMPD/s")" RATE_LIMITED
check "... with Retry-After" grep -qi '^Retry-After: [1-9]' "$TMPD/h"
expect_eq "... and only the 5 accounts were written" "$(sql "SELECT count(*) FROM accounts WHERE email LIKE 'burst%'")" 5
c=$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.4 --max-time 3 -X POST \
  --data-binary '{"email":"other@example.com","country":"PT","currency":"EUR","role":"buyer"}' \
  "http://127.0.0.1:$GPUXD_PORT/v1/accounts")
expect_eq "another address signs up meanwhile" "$c" 201
kill -TERM "$GPUXD_PID"; wait "$GPUXD_PID" 2>/dev/null
xd_start --market open --signup-limit 0 || finish
codes=""
for i in $(seq 1 25); do
  codes="$codes $(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X POST \
    --data-binary "{\"email\":\"free$i@example.com\",\"country\":\"PT\",\"currency\":\"EUR\",\"role\":\"buyer\"}" \
    "$GPUXD_URL/v1/accounts")"
done
expect_eq "--signup-limit 0: 25 signups from one address all accepted" "$(echo $codes | tr ' ' '\n' | sort -u)" 201

"$GPUXD" --trusted-proxy 10.0.0.0/33 --listen 127.0.0.1:0 --db "$TMPD/bad.db" >/dev/null 2>"$TMPD/e"; rc=$?
expect_eq "--trusted-proxy 10.0.0.0/33 is refused, naming the flag" "$rc:$(grep -c 'trusted-proxy' "$TMPD/e")" "1:1"
"$GPUXD" --signup-limit -1 >/dev/null 2>&1; rc=$?
expect_eq "--signup-limit -1 is refused (exit 2)" "$rc" 2
xd_finish
