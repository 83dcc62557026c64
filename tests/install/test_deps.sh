#!/bin/bash
# scripts/deps.sh: with every package present it is silent; with one missing,
# as a user who is neither root nor has sudo, it says what is missing and the
# exact line to run as root, and never claims to be installing anything.
. "$(dirname "$0")/../lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$(sh "$ROOT/scripts/deps.sh" build 2>&1)
expect_eq "deps.sh build, all present: silent, exit 0" "$out:$?" ":0"

# a PATH where id says uid 1000, dpkg-query knows no package and sudo does not exist
B="$TMPD/bin"; mkdir -p "$B"
printf '#!/bin/sh\necho 1000\n' >"$B/id"
printf '#!/bin/sh\nexit 1\n' >"$B/dpkg-query"
chmod +x "$B/id" "$B/dpkg-query"
ln -s "$(command -v grep)" "$B/grep"
out=$(PATH="$B" /bin/sh "$ROOT/scripts/deps.sh" build 2>&1)
rc=$?
expect_eq "deps.sh, packages missing, no root, no sudo: exit 1" "$rc" 1
expect_match "it names the missing packages" "$out" "^gpux: these Debian packages are missing: gcc make"
expect_match "it says why it cannot install them" "$out" "needs root"
expect_match "it gives the apt-get line" "$out" "^  apt-get update && apt-get install -y gcc make"
expect_eq "it never says \"installing missing Debian packages\"" "$(printf '%s\n' "$out" | grep -c "installing missing")" 0
expect_eq "deps.sh nonsense: usage, exit 2" "$(sh "$ROOT/scripts/deps.sh" nonsense >/dev/null 2>&1; echo $?)" 2
finish
