#!/usr/bin/env bash
# Run by bench/run.sh inside the throwaway cluster (pg_virtualenv sets PGHOST, PGPORT, PGUSER, PGDATABASE): loads
# data/diamonds.csv.gz and data/adult.csv.gz client side, splits them, then runs the libpq client ($1) with the
# remaining arguments. The client generates the resampled tables itself.
set -euo pipefail
cd "$(dirname "$0")/.."
client="$1"; shift
psql_run=(psql -X -q -v ON_ERROR_STOP=1)
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pap_release;
DROP TABLE IF EXISTS diamonds, diamonds_public, adult, adult_public, adult_private;
CREATE TABLE diamonds (id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY, carat float8, cut text, color text,
                       clarity text, depth float8, "table" float8, price int4, x float8, y float8, z float8);
CREATE TABLE adult (age int, workclass int, fnlwgt int, "education-num" int, "marital-status" int,
                    occupation int, relationship int, race int, sex int, "capital-gain" int, "capital-loss" int,
                    "hours-per-week" int, "native-country" int, "income>50K" int,
                    id int8 GENERATED ALWAYS AS IDENTITY);
SQL
zcat data/diamonds.csv.gz | "${psql_run[@]}" -c '\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)'
zcat data/adult.csv.gz | "${psql_run[@]}" -c '\copy adult (age, workclass, fnlwgt, "education-num", "marital-status", occupation, relationship, race, sex, "capital-gain", "capital-loss", "hours-per-week", "native-country", "income>50K") FROM STDIN WITH (FORMAT csv, HEADER true)'
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
-- Public samples: every 10th diamond; ADULT split as scripts/experiments/classes.sql does (10% public by md5).
CREATE TABLE diamonds_public AS SELECT carat, price::float8 AS price FROM diamonds WHERE id % 10 = 0;
CREATE TABLE adult_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap adult ' || id), id) <= (SELECT count(*) / 10 FROM adult) AS pub
  FROM adult;
CREATE TABLE adult_public AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE s.pub;
CREATE TABLE adult_private AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE NOT s.pub;
ALTER TABLE adult_public DROP COLUMN id;
ALTER TABLE adult_private DROP COLUMN id;
ANALYZE;
DO $$ BEGIN PERFORM pap.set_budget('adult_private', 1e9); END $$;
SQL
"$client" "$@"
