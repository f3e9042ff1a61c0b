#!/usr/bin/env bash
# Run by error_model.sh inside the throwaway cluster: loads the two data sets client side, then error_model.sql.
set -euo pipefail
cd "$(dirname "$0")/../.."
psql_run=(psql -X -q -v ON_ERROR_STOP=1)
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pap_release;
DROP TABLE IF EXISTS adult, diamonds;
CREATE TABLE adult (age int, workclass int, fnlwgt int, "education-num" int, "marital-status" int,
                    occupation int, relationship int, race int, sex int, "capital-gain" int, "capital-loss" int,
                    "hours-per-week" int, "native-country" int, "income>50K" int,
                    id int8 GENERATED ALWAYS AS IDENTITY);
CREATE TABLE diamonds (carat float8, cut text, color text, clarity text, depth float8, "table" float8,
                       price int4, x float8, y float8, z float8, id int8 GENERATED ALWAYS AS IDENTITY);
SQL
zcat data/adult.csv.gz | "${psql_run[@]}" -c '\copy adult (age, workclass, fnlwgt, "education-num", "marital-status", occupation, relationship, race, sex, "capital-gain", "capital-loss", "hours-per-week", "native-country", "income>50K") FROM STDIN WITH (FORMAT csv, HEADER true)'
zcat data/diamonds.csv.gz | "${psql_run[@]}" -c '\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)'
"${psql_run[@]}" -v runs="$1" -f scripts/experiments/error_model.sql
