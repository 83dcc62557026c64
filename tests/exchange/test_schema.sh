# One schema, two dialects: a fresh SQLite database, a fresh PostgreSQL
# database and an SQLite database migrated from the layout of schema version
# 2 (the resting orders' index on (id) alone) end with the same tables,
# columns (name, type class, not null), indexes (name, table, columns in
# order, unique, partial) and schema version — read back from each engine's
# own catalogue, not from exchange/schema.c.
. tests/lib.sh
. tests/pglib.sh
. tests/exchange/xlib.sh

# every description is one sorted text, one line per fact
sqlite_desc() { # FILE
  sqlite3 "$1" "
    SELECT 'table ' || name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%';
    SELECT 'column ' || m.name || '.' || p.name || ' ' ||
           CASE upper(p.type) WHEN 'INTEGER' THEN 'int' WHEN 'TEXT' THEN 'text' WHEN 'BLOB' THEN 'blob' ELSE p.type END ||
           CASE WHEN p.\"notnull\" OR p.pk THEN ' not null' ELSE '' END ||
           CASE WHEN p.pk THEN ' pk' ELSE '' END
      FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%';
    SELECT 'index ' || m.name || ' on ' || m.tbl_name || '(' ||
           (SELECT group_concat(c, ',') FROM (SELECT coalesce(ii.name, 'expr') AS c FROM pragma_index_info(m.name) ii ORDER BY ii.seqno)) ||
           ')' || CASE WHEN il.\"unique\" THEN ' unique' ELSE '' END || CASE WHEN il.partial THEN ' partial' ELSE '' END
      FROM sqlite_master m JOIN pragma_index_list(m.tbl_name) il ON il.name = m.name
     WHERE m.type = 'index' AND m.sql IS NOT NULL;
    SELECT 'version ' || user_version FROM pragma_user_version;" | LC_ALL=C sort
}

pg_desc() { # CLUSTER
  pg_psql "$1" "
    SELECT 'table ' || table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
    UNION ALL
    SELECT 'column ' || c.table_name || '.' || c.column_name || ' ' ||
           CASE c.data_type WHEN 'bigint' THEN 'int' WHEN 'text' THEN 'text' WHEN 'bytea' THEN 'blob' ELSE c.data_type END ||
           CASE WHEN c.is_nullable = 'NO' THEN ' not null' ELSE '' END ||
           CASE WHEN EXISTS (SELECT 1 FROM information_schema.table_constraints tc
                               JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
                              WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = c.table_name
                                AND k.column_name = c.column_name) THEN ' pk' ELSE '' END
      FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
    UNION ALL
    SELECT 'index ' || i.relname || ' on ' || t.relname || '(' ||
           array_to_string(ARRAY(SELECT coalesce(a.attname, 'expr')
                                   FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(num, ord)
                                   LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.num
                                  ORDER BY k.ord), ',') || ')' ||
           CASE WHEN ix.indisunique THEN ' unique' ELSE '' END ||
           CASE WHEN ix.indpred IS NOT NULL THEN ' partial' ELSE '' END
      FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid)
    UNION ALL
    SELECT 'version ' || value FROM meta WHERE key = 'schema_version'" | LC_ALL=C sort
}

stop_gpuxd() { kill "$GPUXD_PID" 2>/dev/null; wait "$GPUXD_PID" 2>/dev/null; }

# a fresh SQLite database
start_gpuxd --quiet || finish
stop_gpuxd
sqlite_desc "$GPUXD_DB" >"$TMPD/sqlite.txt"
fresh_db=$GPUXD_DB

# a fresh PostgreSQL database
pg_start schema
GPUXD_DB_KEEP=$PG_URI start_gpuxd --quiet || finish
stop_gpuxd
pg_desc schema >"$TMPD/pg.txt"

check "the SQLite description is not empty (tables, columns, indexes, version)" \
  sh -c "grep -q '^table orders' '$TMPD/sqlite.txt' && grep -q '^column orders.gpu text not null' '$TMPD/sqlite.txt' && grep -q '^index orders_resting' '$TMPD/sqlite.txt' && grep -q '^version ' '$TMPD/sqlite.txt'"
if diff -u "$TMPD/sqlite.txt" "$TMPD/pg.txt" >"$TMPD/diff.txt"; then
  ok "SQLite and PostgreSQL have the same tables, columns, indexes and schema version ($(grep -c '' "$TMPD/sqlite.txt") facts)"
else
  fail "SQLite and PostgreSQL have the same tables, columns, indexes and schema version" "$(head -30 "$TMPD/diff.txt")"
fi
expect_eq "the resting orders are indexed by (gpu, id) on both" \
  "$(grep '^index orders_resting' "$TMPD/sqlite.txt") | $(grep '^index orders_resting' "$TMPD/pg.txt")" \
  "index orders_resting on orders(gpu,id) partial | index orders_resting on orders(gpu,id) partial"

# an SQLite database in the layout of version 2, migrated by this gpuxd
old=$TMPD/old.db
cp "$fresh_db" "$old"
sqlite3 "$old" "DROP TABLE settings; DROP TABLE currencies; DROP TABLE audit;
                DROP TABLE admin_keys; DROP TABLE deposits; DROP TABLE withdrawals;
                ALTER TABLE accounts DROP COLUMN debt; ALTER TABLE rentals DROP COLUMN fee_unit;
                ALTER TABLE rentals DROP COLUMN fees; DELETE FROM meta WHERE key = 'settings_version';
                DROP INDEX orders_resting; CREATE INDEX orders_resting ON orders(id) WHERE remaining > 0;
                DROP TABLE book_versions; PRAGMA user_version = 2;"
sqlite_before_money "$old"  # ... without what later migrations add
sqlite_before_lots "$old"
expect_eq "(the old layout: version 2, resting orders indexed by id)" \
  "$(sqlite3 "$old" 'PRAGMA user_version') $(sqlite_desc "$old" | grep '^index orders_resting')" \
  "2 index orders_resting on orders(id) partial"
GPUXD_DB_KEEP=$old start_gpuxd --quiet || finish
stop_gpuxd
if sqlite_desc "$old" | diff -u "$TMPD/sqlite.txt" - >"$TMPD/diff2.txt"; then
  ok "a version-2 SQLite database migrates to the same schema as a fresh one"
else
  fail "a version-2 SQLite database migrates to the same schema as a fresh one" "$(head -20 "$TMPD/diff2.txt")"
fi
finish
