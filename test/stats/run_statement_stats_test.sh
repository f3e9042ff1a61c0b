#!/usr/bin/env bash
# What pg_stat_statements shows every role of a run (docs/security.md, "What a scan may run and leave behind"): the
# buffers a run's read of the private rows touches are taken out of the calling statement's counters. They can
# depend on the private values: a predicate 'x > 0.5 AND t < ...' reads the TOAST pages of t only in rows where
# x > 0.5, so shared_blks_hit + shared_blks_read of the CALL would count those rows for any role that can read
# pg_stat_statements. Two private tables of the same size and layout, differing only in x, must show the same
# counters; a control shows that the same query, run plainly, does differ by the TOAST pages.
# Needs pg_stat_statements preloaded; run inside a throwaway cluster, with the extension installed:
#   pg_virtualenv -t -v 15 -o shared_preload_libraries=pg_stat_statements bash test/stats/run_statement_stats_test.sh
# Prints PASS/FAIL lines and ends with "stats: N passed, M failed"; exits non-zero when a check failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib.sh  # check, $passed, $failed

DB=pap_stats_test
dropdb --if-exists "$DB" >/dev/null 2>&1
createdb "$DB" || exit 1
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "$1"; }

q "CREATE EXTENSION pg_stat_statements" || {
	echo "stats: 0 passed, 1 failed (pg_stat_statements is not preloaded)"
	exit 1
}
q "CREATE EXTENSION pap_release"
# 2,000 rows each, t an incompressible 4 kB text stored out of line (TOAST); x is 1 in st_a and 0 in st_b.
for table in st_a st_b st_warm; do
	x=1; [ "$table" = st_b ] && x=0
	q "CREATE TABLE $table (x float8, t text)"
	q "ALTER TABLE $table ALTER COLUMN t SET STORAGE EXTERNAL"
	q "INSERT INTO $table SELECT $x, (SELECT string_agg(md5(i::text || '-' || j), '') FROM generate_series(1, 128) j)
	   FROM generate_series(1, 2000) i"
	q "SELECT pap.set_budget('$table', 10)" >/dev/null
done
q "CREATE TABLE st_pub AS SELECT (i % 2)::float8 AS x, md5(i::text) AS t FROM generate_series(1, 100) i"
for table in st_a st_b st_warm; do
	q "SELECT pap.define_release('r_$table', '$table', 'st_pub', \$\$predicates('x > 0.5 AND t < ''zzz''')\$\$)" \
		>/dev/null
done
q "CHECKPOINT"
q "SELECT pg_stat_statements_reset()" >/dev/null
# One session, warmed up by a first run (its caches of the catalogs), then the two runs and the two plain reads.
PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -d "$DB" \
	-c "CALL pap.run_release('r_st_warm', 1)" \
	-c "CALL pap.run_release('r_st_a', 1)" -c "CALL pap.run_release('r_st_b', 1)" \
	-c "SELECT count(*) FROM st_a WHERE x > 0.5 AND t < 'zzz'" \
	-c "SELECT count(*) FROM st_b WHERE x > 0.5 AND t < 'zzz'" >/dev/null || exit 1

blocks() {  # the shared blocks hit and read by the one statement whose text contains $1
	q "SELECT shared_blks_hit + shared_blks_read FROM pg_stat_statements WHERE strpos(query, \$\$$1\$\$) > 0"
}
run_a=$(blocks "run_release('r_st_a'")
run_b=$(blocks "run_release('r_st_b'")
plain_a=$(blocks "FROM st_a WHERE")
plain_b=$(blocks "FROM st_b WHERE")
toast=$(q "SELECT pg_relation_size(reltoastrelid) / current_setting('block_size')::int FROM pg_class WHERE oid = 'st_a'::regclass")
echo "blocks: runs $run_a (x = 1) and $run_b (x = 0); plain reads $plain_a and $plain_b; st_a's TOAST has $toast pages"
check "the control: a plain read touches the TOAST pages only where x > 0.5" t \
	"$(q "SELECT $plain_a - $plain_b >= $toast / 2")"
check "a run's counters do not depend on the private values" t "$(q "SELECT abs($run_a - $run_b) < $toast / 20")"
check "both runs ran" "released released" \
	"$(q "SELECT string_agg(state, ' ') FROM pap.releases WHERE name IN ('r_st_a', 'r_st_b')")"

dropdb "$DB"
echo "stats: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
