#!/bin/bash
# The Debian packages: `make deb` (dpkg-buildpackage -us -uc -b on a copy of
# the tree) builds gpux and gpuxd, lintian finds no error in them, and the
# programs unpacked into a scratch root (dpkg -x: nothing is installed on
# this system) run: gpux --version, gpux table training with the packaged
# gpuxd as its local demo exchange. The service: its unit passes
# systemd-analyze verify, runs with UMask=0077 after postgresql.service with
# the bootstrap admin key, and its hardening brings systemd-analyze security's
# exposure down (printed beside the same unit without its hardening lines);
# /etc/default/gpuxd has commented SQLite and PostgreSQL examples and no
# settings flags; the maintainer scripts' key creation (the packaged
# gpuxd-admin-key, run on a scratch directory) makes a 0600 key of the
# service user that gpuxd takes, and never replaces it.
. "$(dirname "$0")/../lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
D="$GPUX_BUILD/deb"
version=$("$GPUX" --version | awk '{ print $2 }')

make --no-print-directory -C "$ROOT" BUILD="$GPUX_BUILD" deb >"$TMPD/deb.log" 2>&1
rc=$?
expect_eq "make deb exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$TMPD/deb.log" | tail -30
for p in gpux gpuxd; do
  check "make deb: ${p}_${version}_*.deb built" test -s "$(ls "$D/${p}_${version}_"*.deb 2>/dev/null | head -1)"
done
gpux_deb=$(ls "$D/gpux_${version}_"*.deb 2>/dev/null | head -1)
gpuxd_deb=$(ls "$D/gpuxd_${version}_"*.deb 2>/dev/null | head -1)

if command -v lintian >/dev/null 2>&1; then
  lintian --tag-display-limit 0 "$gpux_deb" "$gpuxd_deb" >"$TMPD/lintian.log" 2>&1
  expect_eq "lintian: no error in gpux and gpuxd" "$(grep '^E:' "$TMPD/lintian.log")" ""
else
  fail "lintian is installed (scripts/deps.sh check installs it)"
fi

# what each package holds
gl=$(dpkg-deb -c "$gpux_deb" | awk '{ print $6 }')
for f in ./usr/bin/gpux ./usr/share/man/man1/gpux.1.gz ./usr/share/bash-completion/completions/gpux \
  ./usr/share/zsh/vendor-completions/_gpux ./usr/share/fish/vendor_completions.d/gpux.fish; do
  expect_match "package gpux holds $f" "$gl" "^$f\$"
done
dl=$(dpkg-deb -c "$gpuxd_deb" | awk '{ print $6 }')
for f in ./usr/bin/gpuxd ./usr/share/man/man8/gpuxd.8.gz ./lib/systemd/system/gpuxd.service ./etc/default/gpuxd; do
  expect_match "package gpuxd holds $f" "$dl" "^$f\$"
done
expect_match "gpux recommends gpuxd" "$(dpkg-deb -f "$gpux_deb" Recommends)" "gpuxd"
mkdir -p "$TMPD/ctl"
dpkg-deb -e "$gpuxd_deb" "$TMPD/ctl"
expect_match "gpuxd's postinst makes the system user gpuxd with home /var/lib/gpuxd" \
  "$(cat "$TMPD/ctl/postinst")" "adduser .*--system .*--home /var/lib/gpuxd"
expect_eq "gpuxd's postinst does not start the service" \
  "$(grep -c 'deb-systemd-invoke' "$TMPD/ctl/postinst")" 0
expect_eq "gpuxd's postinst enables the service only where the admin had enabled it" \
  "$(grep -B2 'deb-systemd-helper enable' "$TMPD/ctl/postinst" | grep -c 'was-enabled')" 1
expect_match "gpuxd.service runs as gpuxd on /var/lib/gpuxd" \
  "$(dpkg-deb --fsys-tarfile "$gpuxd_deb" | tar -xOf - ./lib/systemd/system/gpuxd.service)" \
  "User=gpuxd"

# run from a scratch root
R="$TMPD/root"
dpkg -x "$gpux_deb" "$R" && dpkg -x "$gpuxd_deb" "$R"

# ---- the service ------------------------------------------------------------------------
U="$R/lib/systemd/system/gpuxd.service"
unit=$(cat "$U")
expect_match "gpuxd.service: UMask=0077" "$unit" "^UMask=0077$"
expect_match "gpuxd.service: after postgresql.service" "$unit" "^After=.*postgresql\.service"
expect_match "gpuxd.service: the bootstrap admin key and the database of /etc/default/gpuxd" "$unit" \
  '^ExecStart=/usr/bin/gpuxd --db \$\{GPUXD_DB\} --admin-key-file /etc/gpuxd/admin\.key \$GPUXD_OPTS$'
for d in NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
  PrivateDevices=yes CapabilityBoundingSet= RestrictAddressFamilies= SystemCallFilter=@system-service \
  MemoryDenyWriteExecute=yes; do
  expect_match "gpuxd.service: $d" "$unit" "^$d"
done
if command -v systemd-analyze >/dev/null 2>&1; then
  out=$(cd "$R" && systemd-analyze verify --man=no --recursive-errors=no --root="$R" gpuxd.service 2>&1)
  expect_eq "systemd-analyze verify gpuxd.service: no complaint" "$?:$out" "0:"
  exposure() { # ROOT — the overall exposure figure of its gpuxd.service
    systemd-analyze security --offline=yes --root="$1" gpuxd.service 2>/dev/null |
      sed -n 's/.*Overall exposure level for gpuxd\.service: \([0-9.]*\).*/\1/p'
  }
  # the same unit without its hardening lines (and without UMask), for the figure beside it
  B="$TMPD/bare"
  mkdir -p "$B/lib/systemd/system" "$B/usr/bin"
  cp "$R/usr/bin/gpuxd" "$B/usr/bin/"
  sed -e '/^# Hardening/,/^\[Install\]/{/^\[Install\]/!d}' -e '/^UMask=/d' "$U" \
    >"$B/lib/systemd/system/gpuxd.service"
  after=$(exposure "$R")
  before=$(exposure "$B")
  echo "# systemd-analyze security --offline gpuxd.service: exposure $after (the unit without its hardening: $before)"
  expect_match "systemd-analyze security: an exposure figure for the unit" "$after" '^[0-9]+\.[0-9]$'
  check "... lower than without its hardening ($after < $before)" \
    awk -v a="$after" -v b="$before" 'BEGIN { exit !(a + 0 < b + 0) }'
  check "... and at most 2.0, \"OK\" in systemd's words ($after)" \
    awk -v a="$after" 'BEGIN { exit !(a + 0 <= 2.0) }'
else
  fail "systemd-analyze is installed (the systemd package) to check the unit"
fi
def=$(cat "$R/etc/default/gpuxd")
expect_match "/etc/default/gpuxd: the SQLite database by default" "$def" "^GPUXD_DB=/var/lib/gpuxd/gpuxd\.db$"
expect_match "... a commented PostgreSQL example" "$def" '^#GPUXD_DB="postgresql://gpuxd@'
expect_match "... with the password in a PGPASSFILE, not in the URI" "$def" "^#PGPASSFILE=/etc/gpuxd/pgpass$"
expect_eq "... no settings flag in the options (they live in the database)" \
  "$(grep -E '^GPUXD_OPTS=' "$R/etc/default/gpuxd" | grep -cE -- '--market|--opens-at|--topup')" 0

# ---- the maintainer scripts' key creation ------------------------------------------------
mk="$R/usr/lib/gpuxd/gpuxd-admin-key"
check "package gpuxd holds /usr/lib/gpuxd/gpuxd-admin-key" test -x "$mk"
expect_match "gpuxd's postinst makes /etc/gpuxd/admin.key for the user gpuxd with it" \
  "$(cat "$TMPD/ctl/postinst")" "/usr/lib/gpuxd/gpuxd-admin-key /etc/gpuxd/admin.key gpuxd"
me=$(id -un)
"$mk" "$TMPD/etc/gpuxd/admin.key" "$me"
expect_eq "gpuxd-admin-key: exit 0" "$?" 0
AK="$TMPD/etc/gpuxd/admin.key"
expect_eq "... the key is mode 0600, the service user's" "$(stat -c '%a %U' "$AK")" "600 $me"
expect_eq "... in a directory of mode 0750" "$(stat -c %a "$TMPD/etc/gpuxd")" 750
expect_match "... a random key, gpuxa_ and 64 hex digits" "$(cat "$AK")" '^gpuxa_[0-9a-f]{64}$'
k1=$(cat "$AK")
"$mk" "$AK" "$me"
expect_eq "... run again (an upgrade): the key is kept" "$(cat "$AK")" "$k1"
"$mk" "$TMPD/etc/gpuxd/second.key" "$me"
check "... another one is another key" test "$(cat "$TMPD/etc/gpuxd/second.key")" != "$k1"
"$R/usr/bin/gpuxd" --listen 127.0.0.1:0 --port-file "$TMPD/svc.port" --db "$TMPD/svc.db" \
  --admin-key-file "$AK" --quiet >"$TMPD/svc.log" 2>&1 &
svc=$!
at_exit "kill $svc 2>/dev/null"
if wait_for test -s "$TMPD/svc.port"; then
  st=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $k1" \
    --data-binary '{"state":"halted"}' "http://127.0.0.1:$(cat "$TMPD/svc.port")/v1/admin/market")
  expect_eq "the packaged gpuxd takes that key as the admin key" "$st" 200
else
  fail "the packaged gpuxd starts with that key" "$(tail -3 "$TMPD/svc.log")"
fi
kill "$svc" 2>/dev/null
expect_eq "packaged gpux --version" "$("$R/usr/bin/gpux" --version)" "gpux $version"
out=$(cd "$TMPD" && env PATH="/usr/bin:/bin" "$R/usr/bin/gpux" table training --format csv 2>"$TMPD/t.err")
expect_eq "packaged gpux table training exits 0" "$?" 0
expect_match "packaged gpux table training: the H200 row with a price from the packaged gpuxd" \
  "$out" "^h200,H200,Hopper,141,.*,[0-9]+$"
pid=$(cat "$XDG_DATA_HOME"/gpux/gpuxd.pid 2>/dev/null)   # beside the demo database
expect_eq "the local demo exchange is the packaged gpuxd" \
  "$(readlink "/proc/${pid:-0}/exe" 2>/dev/null)" "$R/usr/bin/gpuxd"
finish
