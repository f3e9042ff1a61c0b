#!/usr/bin/env bash
# The demo proper, run by scripts/demo.sh inside a throwaway cluster (pg_virtualenv sets PGHOST, PGPORT, PGUSER
# and PGDATABASE). Loads data/diamonds.csv.gz on the client side (the server may run as another user and need
# not see this directory), then runs scripts/demo.sql, which draws docs/demo-cdf.png. Meant for an empty database:
# it creates the extension.
set -euo pipefail
cd "$(dirname "$0")/.."

psql_run=(psql -X -q -v ON_ERROR_STOP=1)

echo "== loading data/diamonds.csv.gz"
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
DROP TABLE IF EXISTS diamonds, diamonds_public, diamonds_private;
-- id numbers the rows in file order; it only serves the reproducible public/private split.
CREATE TABLE diamonds (
  id      int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  carat   float8,
  cut     text,
  color   text,
  clarity text,
  depth   float8,
  "table" float8,
  price   int4,
  x       float8,
  y       float8,
  z       float8
);
SQL
zcat data/diamonds.csv.gz |
  "${psql_run[@]}" -c '\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)'

# scripts/demo.sql writes every threshold's answers here for its picture (scripts/demo-plot.sh).
PAP_DEMO_CURVES=$(mktemp)
export PAP_DEMO_CURVES
trap 'rm -f "$PAP_DEMO_CURVES"' EXIT
"${psql_run[@]}" -f scripts/demo.sql
# psql's \! does not stop on a failed command: a picture that was not drawn fails the demo here.
if command -v gnuplot >/dev/null 2>&1 && ! [ docs/demo-cdf.png -nt "$PAP_DEMO_CURVES" ]; then
  echo "demo: docs/demo-cdf.png was not drawn (scripts/demo-plot.sh)" >&2
  exit 1
fi
