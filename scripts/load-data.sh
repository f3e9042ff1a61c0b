#!/usr/bin/env bash
# Loads data sets of data/ into the current database, one table each, client side (psql's \copy: the server may run
# as another user and need not see this directory), after creating the extension if it is absent. Run inside a
# throwaway cluster (pg_virtualenv sets PGHOST, PGPORT, PGUSER and PGDATABASE) by eval/run-inner.sh and
# scripts/experiments/run-inner.sh.
#   bash scripts/load-data.sh [--suffix SUFFIX] DATA_SET...
# DATA_SET: adult (UCI Adult as preprocessed by Private-PGM, Apache-2.0), diamonds, cps (CPS1988) or movielens
# (data/README.md). Each goes into table DATA_SET SUFFIX (replaced if it exists), with the file's columns and an
# identity column id numbering the rows in file order, which the reproducible public/private splits order by.
set -euo pipefail
cd "$(dirname "$0")/.."
suffix=""
if [ "${1:-}" = "--suffix" ]; then
	suffix="$2"
	shift 2
fi
psql_run=(psql -X -q -v ON_ERROR_STOP=1)
"${psql_run[@]}" -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS pap_release'
for data_set in "$@"; do
	table="$data_set$suffix"
	null=""  # how the file writes NULL, when not as an empty field
	case "$data_set" in
	adult)
		file=data/adult.csv.gz
		columns='age int, workclass int, fnlwgt int, "education-num" int, "marital-status" int, occupation int,
		         relationship int, race int, sex int, "capital-gain" int, "capital-loss" int, "hours-per-week" int,
		         "native-country" int, "income>50K" int'
		;;
	diamonds)
		file=data/diamonds.csv.gz
		columns='carat float8, cut text, color text, clarity text, depth float8, "table" float8, price int4, x float8,
		         y float8, z float8'
		;;
	cps)
		file=data/cps1988.csv.gz
		columns='wage numeric, education int, experience int, ethnicity text, smsa text, region text, parttime text'
		;;
	movielens)
		file=data/movielens.csv.gz
		columns='"movieId" int, year int, genres text, "userId" int, rating numeric, ts int8'
		null=", NULL 'NA'"  # an unknown year
		;;
	*)
		echo "load-data.sh: unknown data set $data_set (adult, diamonds, cps, movielens)" >&2
		exit 2
		;;
	esac
	# The column list of \copy: the names of the definitions above, in order.
	names=$(sed -E 's/ (int|int4|int8|float8|text|numeric)(,|$)/\2/g' <<<"$columns" | tr -s ' \t\n' ' ')
	names="${names% }"
	"${psql_run[@]}" -c 'SET client_min_messages = warning' -c "DROP TABLE IF EXISTS $table" \
		-c "CREATE TABLE $table ($columns, id int8 GENERATED ALWAYS AS IDENTITY)"
	zcat "$file" | "${psql_run[@]}" -c "\\copy $table ($names) FROM STDIN WITH (FORMAT csv, HEADER true$null)"
done
