#!/usr/bin/env bash
# Run by private_only.sh inside the throwaway cluster: loads diamonds client side, then private_only.sql.
set -euo pipefail
cd "$(dirname "$0")/../.."
psql_run=(psql -X -q -v ON_ERROR_STOP=1)
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pap_release;
DROP TABLE IF EXISTS diamonds;
CREATE TABLE diamonds (carat float8, cut text, color text, clarity text, depth float8, "table" float8,
                       price int4, x float8, y float8, z float8, id int8 GENERATED ALWAYS AS IDENTITY);
SQL
zcat data/diamonds.csv.gz | "${psql_run[@]}" -c '\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)'
"${psql_run[@]}" -v runs="$1" -f scripts/experiments/private_only.sql
