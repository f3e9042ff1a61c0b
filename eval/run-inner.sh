#!/usr/bin/env bash
# Run by eval/run.sh and eval/bounds.sh inside the throwaway cluster: loads the data sets of data/ client side,
# creates the harness's SQL helpers (eval/eval.sql) and runs the client. Usage: run-inner.sh [bounds] [--ci] OUT.csv
set -euo pipefail
cd "$(dirname "$0")/.."
psql_run=(psql -X -q -v ON_ERROR_STOP=1)
"${psql_run[@]}" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pap_release;
CREATE TABLE adult_raw (age int, workclass int, fnlwgt int, "education-num" int, "marital-status" int,
                        occupation int, relationship int, race int, sex int, "capital-gain" int, "capital-loss" int,
                        "hours-per-week" int, "native-country" int, "income>50K" int,
                        id int8 GENERATED ALWAYS AS IDENTITY);
CREATE TABLE diamonds_raw (carat float8, cut text, color text, clarity text, depth float8, "table" float8,
                           price int4, x float8, y float8, z float8, id int8 GENERATED ALWAYS AS IDENTITY);
CREATE TABLE cps_raw (wage numeric, education int, experience int, ethnicity text, smsa text, region text,
                      parttime text, id int8 GENERATED ALWAYS AS IDENTITY);
CREATE TABLE movielens_raw ("movieId" int, year int, genres text, "userId" int, rating numeric, ts int8,
                            id int8 GENERATED ALWAYS AS IDENTITY);
SQL
zcat data/adult.csv.gz | "${psql_run[@]}" -c '\copy adult_raw (age, workclass, fnlwgt, "education-num", "marital-status", occupation, relationship, race, sex, "capital-gain", "capital-loss", "hours-per-week", "native-country", "income>50K") FROM STDIN WITH (FORMAT csv, HEADER true)'
zcat data/diamonds.csv.gz | "${psql_run[@]}" -c '\copy diamonds_raw (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)'
zcat data/cps1988.csv.gz | "${psql_run[@]}" -c '\copy cps_raw (wage, education, experience, ethnicity, smsa, region, parttime) FROM STDIN WITH (FORMAT csv, HEADER true)'
# movielens writes an unknown year as NA
zcat data/movielens.csv.gz | "${psql_run[@]}" -c '\copy movielens_raw ("movieId", year, genres, "userId", rating, ts) FROM STDIN WITH (FORMAT csv, HEADER true, NULL '"'"'NA'"'"')'
"${psql_run[@]}" -f eval/eval.sql
mode=run
if [ "${1:-}" = bounds ]; then mode=bounds; shift; fi
exec eval/pap_eval "$mode" "$@"
