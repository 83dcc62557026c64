# The libraries gpuxd loads: the program is linked with neither libpq nor
# OpenSSL's libraries (a SQLite gpuxd, the local demo's, starts without loading
# them and the libraries they bring); a gpuxd on SQLite serving requests has
# no libpq in memory; on PostgreSQL (test_pg_suite runs this test again with
# GPUXD_BACKEND=pg) it has opened libpq and answers through it.
. tests/lib.sh
. tests/exchange/xlib.sh

needed=$(readelf -d "$GPUXD" 2>&1 | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
expect_match "readelf lists gpuxd's libraries" "$needed" "^libmicrohttpd\.so"
for lib in libpq libssl libcrypto; do
  expect_eq "gpuxd is not linked with $lib" "$(printf '%s\n' "$needed" | grep -c "^$lib\.so")" 0
done

xd_start --market open || finish
signup PT EUR buyer
req GET /v1/account "" "$KEY"
expect_eq "gpuxd answers an authenticated request" "$ST $(jqb .id)" "200 $ACC"
mapped=$(grep -c 'libpq\.so' "/proc/$GPUXD_PID/maps")
if [ "${GPUXD_BACKEND:-sqlite}" = pg ]; then
  check "on PostgreSQL gpuxd has opened libpq" test "$mapped" -gt 0
else
  expect_eq "on SQLite gpuxd has not loaded libpq" "$mapped" 0
  expect_eq "... nor libssl or libcrypto" "$(grep -c 'libssl\.so\|libcrypto\.so' "/proc/$GPUXD_PID/maps")" 0
fi
finish
