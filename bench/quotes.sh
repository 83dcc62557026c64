#!/bin/bash
# GET /v1/quotes and GET /v1/books/h200 (the plain book, default depth)
# beside nginx serving the same bytes as files, in one run: ApacheBench with
# keep-alive and 64 connections (ab -k -c 64) against gpuxd (--quiet: no log
# line per request) and against nginx (access_log off), one and two HTTP
# threads / nginx workers. Both replies are rendered once per change of the
# market's seq and served from that text (the demo's clock runs at 0.001x
# here, so the books hardly change). Target: gpuxd >= 0.8x nginx with one
# worker. Figures are printed, never asserted.
#
#   bench/quotes.sh BUILD_DIR [REQUESTS]     (default 200000 per figure)
set -u
build=$(cd "${1:-build}" && pwd)
n=${2:-200000}
command -v nginx >/dev/null && command -v ab >/dev/null ||
  { echo "bench/quotes.sh: needs nginx and ab (scripts/deps.sh bench)" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpuxquotes.XXXXXX")
chmod 755 "$dir"
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  for p in $pids; do wait "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
rps() { ab -q -k -c 64 -n "$n" "$1" 2>/dev/null | sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p'; }

start_gpuxd() { # THREADS: sets GURL
  rm -f "$dir/port"
  "$build/gpuxd" --listen 127.0.0.1:0 --port-file "$dir/port" --db "$dir/q$1.db" --demo \
    --clock-speed 0.001 --ip-rate-limit 0 --threads "$1" --quiet >"$dir/gpuxd$1.log" 2>&1 &
  gpid=$!
  pids="$pids $gpid"
  for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
  GURL="http://127.0.0.1:$(cat "$dir/port")"
  for _ in $(seq 100); do curl -fs "$GURL/v1/quotes" >/dev/null && break; sleep 0.1; done
}
paths="/v1/quotes /v1/books/h200"
file() { echo "$dir/$(echo "$1" | tr / _).json"; }   # PATH: the file nginx serves for it
start_nginx() { # WORKERS: sets NURL (port from the kernel: try a few)
  for try in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    cat >"$dir/nginx.conf" <<CONF
worker_processes $1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx.err;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp; fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  server {
    listen 127.0.0.1:$port;
    location = /v1/quotes { default_type application/json; alias $(file /v1/quotes); }
    location = /v1/books/h200 { default_type application/json; alias $(file /v1/books/h200); }
  }
}
CONF
    mkdir -p "$dir/tmp"
    nginx -c "$dir/nginx.conf" -p "$dir" &
    npid=$!
    NURL="http://127.0.0.1:$port"
    for _ in $(seq 50); do curl -fs "$NURL/v1/quotes" >/dev/null && { pids="$pids $npid"; return 0; }; sleep 0.1; done
    kill "$npid" 2>/dev/null; wait "$npid" 2>/dev/null
  done
  echo "bench/quotes.sh: nginx did not start: $(tail -2 "$dir/nginx.err")" >&2
  exit 1
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

echo "GET /v1/quotes and /v1/books/h200: gpuxd beside nginx serving the same bytes, ab -k -c 64 -n $n, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
for t in 1 2; do
  start_gpuxd "$t"
  for p in $paths; do curl -fs "$GURL$p" >"$(file "$p")"; done
  g=""
  for p in $paths; do g="$g $(rps "$GURL$p")"; done
  stop "$gpid"
  start_nginx "$t"
  x=""
  for p in $paths; do x="$x $(rps "$NURL$p")"; done
  stop "$npid"
  set -- $g
  for p in $paths; do
    gr=$1; shift
    xr=$(echo $x | cut -d' ' -f1); x=$(echo $x | cut -d' ' -f2-)
    printf "  %-15s %s thread(s)/worker(s): gpuxd %s req/s, nginx %s req/s (%s bytes): %sx\n" "$p" "$t" \
      "$gr" "$xr" "$(wc -c <"$(file "$p")")" "$(awk "BEGIN{printf \"%.2f\", $gr/$xr}")"
  done
done
echo "  target: gpuxd with one thread >= 0.8x nginx with one worker"
