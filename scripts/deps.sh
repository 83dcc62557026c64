#!/bin/sh
# Installs the Debian packages gpux needs to build, run and test, and only
# those that are missing. As root it runs apt-get; otherwise sudo; otherwise it
# prints the exact apt-get line and fails, so nothing is half-installed.
#
#   scripts/deps.sh build   compilers and libraries for gpux and gpuxd
#   scripts/deps.sh deb     build + what `make deb` needs (debhelper, lintian)
#   scripts/deps.sh check   deb + what the test suite needs (the shells whose
#                           completions it loads among them)
#   scripts/deps.sh bench   check + what the benchmarks compare against
set -eu
what=${1:-build}

build="gcc make pkg-config libncurses-dev libcurl4-openssl-dev libcjson-dev \
libreadline-dev libmicrohttpd-dev libsqlite3-dev libpq-dev nettle-dev gettext xxd"
deb="$build debhelper dpkg-dev fakeroot lintian"
check="$deb libcmocka-dev tmux curl jq sqlite3 postgresql clang libclang-rt-14-dev procps \
bash-completion zsh fish man-db mandoc"
bench="$check htop nginx-light apache2-utils"

case "$what" in
  build) want=$build ;;
  deb) want=$deb ;;
  check) want=$check ;;
  bench) want=$bench ;;
  *) echo "usage: $0 build|deb|check|bench" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
  # dpkg-query prints "install ok installed" only for a fully installed package
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "gpux: these Debian packages are missing:$missing" >&2
  echo "gpux: installing them needs root (or sudo, which is not installed). As root, run:" >&2
  echo "  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "gpux: installing missing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
