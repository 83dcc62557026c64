#!/bin/bash
# The Debian packages: `make deb` (dpkg-buildpackage -us -uc -b on a copy of
# the tree) builds gpux and gpuxd, lintian finds no error in them, and the
# programs unpacked into a scratch root (dpkg -x: nothing is installed on
# this system) run: gpux --version, gpux table training with the packaged
# gpuxd as its local demo exchange.
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
expect_eq "packaged gpux --version" "$("$R/usr/bin/gpux" --version)" "gpux $version"
out=$(cd "$TMPD" && env PATH="/usr/bin:/bin" "$R/usr/bin/gpux" table training --format csv 2>"$TMPD/t.err")
expect_eq "packaged gpux table training exits 0" "$?" 0
expect_match "packaged gpux table training: the H200 row with a price from the packaged gpuxd" \
  "$out" "^h200,H200,Hopper,141,.*,[0-9]+$"
pid=$(cat "$XDG_DATA_HOME"/gpux/gpuxd.pid 2>/dev/null)   # beside the demo database
expect_eq "the local demo exchange is the packaged gpuxd" \
  "$(readlink "/proc/${pid:-0}/exe" 2>/dev/null)" "$R/usr/bin/gpuxd"
finish
