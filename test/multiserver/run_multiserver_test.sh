#!/usr/bin/env bash
# A private table spread over several PostgreSQL servers (docs/distributed.md): starts two extra local
# PostgreSQL 15 servers, puts two partitions of the diamonds on them as postgres_fdw foreign tables (a third
# partition stays local), and checks that
#   1. the scan of each foreign partition runs its aggregate pap.grid_counts, over the cut points and values of
#      numeric and linear axes, pap.category_index or a predicate, on its own server (EXPLAIN VERBOSE shows them
#      in the Remote SQL), so a remote server sends one row (the counts of its grid points) instead of one per
#      row (EXPLAIN ANALYZE);
#   2. every release of the partitioned table equals the release of an ordinary local table holding the same
#      rows under the same pap_release.test_seed (pap.synthetic and pap.answers, compared exactly);
#   3. a caller with SELECT on the parent only gets the same release, still read leaf by leaf: every read runs
#      as the table's owner (docs/security.md), whose user mapping the foreign partitions use.
# Run inside a throwaway cluster, with the extension installed:
#   pg_virtualenv -t -v 15 bash test/multiserver/run_multiserver_test.sh
# Prints PASS/FAIL lines and ends with "multiserver: N passed, M failed"; exits non-zero when a check failed.
# The extra servers run from temporary directories and are stopped on exit.
set -uo pipefail
cd "$(dirname "$0")/../.."

DB=pap_multiserver_test
BIN=$("${PG_CONFIG:-pg_config}" --bindir)
WORK=$(mktemp -d)  # 0700: it holds the servers and, for a moment, their superuser's password
# Random passwords (the remote servers' superuser, and pap_reader, which the coordinator's user mappings hold),
# never on a command line: other local users see those in ps.
REMOTE_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
export PAP_READER_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
SEED=4242
# PostgreSQL refuses to run as root: as root, the extra servers run as postgres (as pg_virtualenv's does), in a
# work directory postgres owns, still closed to everyone else.
AS_SERVER=()
if [ "$(id -u)" -eq 0 ]; then
	AS_SERVER=(runuser -u postgres --)
	chown postgres "$WORK"
fi
DATA_DIRS=("$WORK/remote1/data" "$WORK/remote2/data")
cleanup() {
	for d in "${DATA_DIRS[@]}"; do
		[ -f "$d/postmaster.pid" ] && "${AS_SERVER[@]}" "$BIN/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap "exit 130" INT TERM HUP

source test/lib.sh  # check, $passed, $failed
T0=$(date +%s)
section() { echo "== $* ($(($(date +%s) - T0))s)"; }
# q SQL...: one session on the coordinator's test database, one statement per argument.
q() {
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "${args[@]}"
}
# rq PORT SQL...: the same on a remote server, as its superuser.
rq() {
	local port=$1; shift
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	PGPASSWORD=$REMOTE_PASSWORD psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres \
		"${args[@]}"
}

# start_server NAME: initdb and start a server on a free port, password authentication only; prints the port.
start_server() {
	local dir=$WORK/$1
	mkdir -p "$dir"
	(umask 077 && echo "$REMOTE_PASSWORD" >"$WORK/pwfile")
	[ "$(id -u)" -eq 0 ] && chown -R postgres "$dir" "$WORK/pwfile"
	"${AS_SERVER[@]}" "$BIN/initdb" -D "$dir/data" -U postgres -A scram-sha-256 --pwfile="$WORK/pwfile" \
		>"$dir/initdb.log" 2>&1 || { rm -f "$WORK/pwfile"; cat "$dir/initdb.log" >&2; return 1; }
	rm -f "$WORK/pwfile"
	local port
	for _ in $(seq 1 20); do
		port=$((20000 + RANDOM % 30000))
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue  # in use
		if "${AS_SERVER[@]}" "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
			-o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off" start >/dev/null 2>&1; then
			echo "$port"
			return 0
		fi
	done
	cat "$dir/server.log" >&2
	return 1
}

section "two extra servers"
PORT1=$(start_server remote1) || { echo "FAIL: could not start the first extra server"; exit 1; }
PORT2=$(start_server remote2) || { echo "FAIL: could not start the second extra server"; exit 1; }
echo "remote servers on ports $PORT1 and $PORT2"
for port in "$PORT1" "$PORT2"; do
	rq "$port" "SET client_min_messages = warning" "CREATE EXTENSION pap_release" \
		"CREATE TABLE diamonds_part (id int8, carat float8, cut text, color text, clarity text, price int4)" \
		"CREATE ROLE pap_reader LOGIN" "GRANT SELECT ON diamonds_part TO pap_reader" \
		"ALTER ROLE pap_reader SET track_counts = off" "ALTER ROLE pap_reader SET track_functions = 'none'" \
		"ALTER ROLE pap_reader SET track_io_timing = off" "ALTER ROLE pap_reader SET statement_timeout = 0" \
		"ALTER ROLE pap_reader SET idle_in_transaction_session_timeout = 0" \
		"ALTER ROLE pap_reader SET lock_timeout = 0" || { echo "FAIL: remote setup"; exit 1; }
	# The password through stdin, read from the environment by psql (\getenv), not on a command line.
	printf '%s\n' '\getenv password PAP_READER_PASSWORD' "ALTER ROLE pap_reader PASSWORD :'password';" |
		PGPASSWORD=$REMOTE_PASSWORD psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres -f - ||
		{ echo "FAIL: remote setup"; exit 1; }
done

section "data: diamonds on the coordinator, two ranges of ids copied to the remote servers"
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" \
	-c "CREATE DATABASE $DB" >/dev/null || exit 1
q "CREATE TABLE diamonds (id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY, carat float8, cut text, color text,
                          clarity text, depth float8, \"table\" float8, price int4, x float8, y float8, z float8)" ||
	exit 1
zcat data/diamonds.csv.gz |
	q '\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM STDIN WITH (FORMAT csv, HEADER true)' ||
	exit 1
copy_range() {  # copy_range PORT LOW HIGH: the private rows with LOW <= id < HIGH, straight to a remote server
	q "\\copy (SELECT id, carat, cut, color, clarity, price FROM diamonds WHERE id % 10 <> 0 AND id >= $2 AND id < $3) TO STDOUT" |
		rq "$1" '\copy diamonds_part FROM STDIN'
}
copy_range "$PORT1" 0 25000 && copy_range "$PORT2" 25000 50000 || { echo "FAIL: copying rows"; exit 1; }
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -v port1="$PORT1" -v port2="$PORT2" \
	-f test/multiserver/setup.sql >/dev/null || { echo "FAIL: setup.sql"; exit 1; }
check "the partitioned table holds the private rows" "$(q 'SELECT count(*) FROM diamonds_local')" \
	"$(q 'SELECT count(*) FROM diamonds_dist')"
check "each remote server holds its range" "1" \
	"$(( $(rq "$PORT1" 'SELECT count(*) FROM diamonds_part') > 20000 && $(rq "$PORT2" 'SELECT count(*) FROM diamonds_part') > 20000 ))"

# run ROLE RELEASE: runs a release under the test seed as ROLE with DEBUG1 messages; stderr to $WORK/RELEASE.log.
run() {
	q "SET pap_release.test_seed = $SEED" "SET ROLE $1" "SET client_min_messages = debug1" \
		"CALL pap.run_release('$2', 1.0)" 2>"$WORK/$2.log"
	grep -q ERROR "$WORK/$2.log" && cat "$WORK/$2.log" >&2
}
# same_release A B: pap.synthetic and pap.answers of two releases, printed in full, are equal byte for byte.
same_release() {
	local a b
	for f in synthetic answers; do
		a=$(q "SELECT * FROM pap.$f('$1')")
		b=$(q "SELECT * FROM pap.$f('$2')")
		[ -n "$a" ] && [ "$a" == "$b" ] || { echo "differs:$f"; return; }
	done
	echo same
}
leaf_scans() { grep -c 'pap_release: leaf scan: ' "$WORK/$1.log"; }
path() {  # path RELEASE: which path the scan took, from the DEBUG1 lines
	if grep -q 'scanning .* leaf by leaf' "$WORK/$1.log"; then echo "leaf by leaf"
	elif grep -q 'scanning .* through its parent' "$WORK/$1.log"; then echo "parent"
	else echo "none"; fi
}

section "2. releases of the partitioned table equal those of the local table (test seed $SEED)"
for c in orth half marg pred; do
	run postgres "diamonds_local_$c"
	run postgres "diamonds_dist_$c"
	check "$c: the local table is scanned as one table" "0" "$(leaf_scans "diamonds_local_$c")"
	check "$c: the partitioned table is scanned leaf by leaf (3 leaves)" "leaf by leaf 3" \
		"$(path "diamonds_dist_$c") $(leaf_scans "diamonds_dist_$c")"
	check "$c: same private row count" "$(q "SELECT private_rows FROM pap.releases WHERE name = 'diamonds_local_$c'")" \
		"$(q "SELECT private_rows FROM pap.releases WHERE name = 'diamonds_dist_$c'")"
	check "$c: same release (pap.synthetic, pap.answers)" same "$(same_release "diamonds_local_$c" "diamonds_dist_$c")"
done

section "1. each foreign leaf's aggregate runs on its own server"
# cuts_of RELEASE AXIS: the cut points of a numeric or linear axis (1-based) as stored, an array literal: the
# parameter the scan passes (pap.grid_counts checks them against the radices when it runs).
cuts_of() {
	q "SELECT cuts[s + 1 : s + cut_counts[$2]]::text
	     FROM (SELECT cuts, cut_counts, (SELECT coalesce(sum(c), 0) FROM unnest(cut_counts[1 : $2 - 1]) c) AS s
	             FROM pap.release_data WHERE name = '$1') r"
}
orth_cuts="'$(cuts_of diamonds_dist_orth 1)', '$(cuts_of diamonds_dist_orth 2)'"
half_cuts="'$(cuts_of diamonds_dist_half 1)', '$(cuts_of diamonds_dist_half 2)'"
# The Remote SQL's pieces: the radices, and the cut points of an axis as postgres_fdw prints constants.
radices="pap.grid_counts('{[0-9,]*}'::bigint\\[\\]"
cuts="'{[^}]*}'::double precision\\[\\]"
# explain_leaf RELEASE LEAF TYPES ARGS: EXPLAIN VERBOSE of the scan the release ran on LEAF (its text from the
# DEBUG1 line), with parameters of the given types; prints the Remote SQL lines.
explain_leaf() {
	local sql
	sql=$(sed -n "s/.*pap_release: leaf scan: \(.*FROM ONLY public\.$2\)$/\1/p" "$WORK/$1.log")
	[ -n "$sql" ] || { echo "no scan of $2"; return; }
	q "PREPARE leaf_scan($3) AS $sql" "EXPLAIN (VERBOSE, COSTS OFF) EXECUTE leaf_scan($4)" | grep 'Remote SQL'
}
for leaf in diamonds_dist_1 diamonds_dist_2; do
	remote=$(explain_leaf diamonds_dist_orth "$leaf" "float8[], float8[]" "$orth_cuts")
	echo "  orthants, $leaf: $remote"
	check "orthants: $leaf's Remote SQL aggregates the columns over their cut points" "yes" \
		"$(echo "$remote" | grep -q "SELECT $radices, $cuts, carat, $cuts, price), '{[0-9,]*}'::bigint\\[\\] FROM public.diamonds_part\$" && echo yes)"
	remote=$(explain_leaf diamonds_dist_half "$leaf" "float8[], float8[]" "$half_cuts")
	echo "  halfspaces, $leaf: $remote"
	check "halfspaces: $leaf's Remote SQL aggregates the weighted sums over their cut points" "yes" \
		"$(echo "$remote" | grep -q "SELECT $radices, $cuts, pap.linear_value('{4000,-1}'::double precision\\[\\], carat, price), $cuts, pap.linear_value('{1,0.001}'::double precision\\[\\], carat, price)), .*::bigint\\[\\] FROM public.diamonds_part\$" && echo yes)"
	remote=$(explain_leaf diamonds_dist_marg "$leaf" "text[], text[], text[]" "'{Good,Ideal}', '{D,E}', '{SI1}'")
	echo "  marginals, $leaf: $remote"
	check "marginals: $leaf's Remote SQL aggregates pap.category_index" "yes" \
		"$(echo "$remote" | grep -q "SELECT $radices, pap.category_index('{Good,Ideal}'::text\\[\\], cut), .*::bigint\\[\\] FROM public.diamonds_part\$" && echo yes)"
	remote=$(explain_leaf diamonds_dist_pred "$leaf" "int4, int4, int4" "NULL, NULL, NULL")
	echo "  predicates, $leaf: $remote"
	check "predicates: $leaf's Remote SQL aggregates the predicates" "yes" \
		"$(echo "$remote" | grep -q "SELECT $radices, (CASE WHEN (price > 1000) THEN 1 ELSE 0 END), .*::bigint\\[\\] FROM public.diamonds_part\$" && echo yes)"
done
# Rows that leave remote1 for one scan: leaf by leaf, the one row of the aggregate; through the parent, its rows.
sql=$(sed -n "s/.*pap_release: leaf scan: \(.*FROM ONLY public\.diamonds_dist_1\)$/\1/p" "$WORK/diamonds_dist_orth.log")
analyze="EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE s($orth_cuts)"
leaf_rows=$(q "PREPARE s(float8[], float8[]) AS $sql" "$analyze" | sed -n 's/.*Foreign Scan .*actual rows=\([0-9]*\).*/\1/p' | head -1)
parent_rows=$(q "PREPARE s(float8[], float8[]) AS ${sql/ONLY public.diamonds_dist_1/public.diamonds_dist}" "$analyze" |
	sed -n 's/.*Foreign Scan on public.diamonds_dist_1 .*actual rows=\([0-9]*\).*/\1/p')
echo "  rows sent by remote1 for one scan: leaf by leaf $leaf_rows, through the parent $parent_rows"
check "leaf by leaf, remote1 sends one row (its grid counts), not its rows" "yes" \
	"$([ -n "$leaf_rows" ] && [ "$leaf_rows" -eq 1 ] && [ "${parent_rows:-0}" -gt 20000 ] && echo yes)"
# Without the extension in the server's extensions option nothing is shipped: the aggregate runs here.
q "ALTER SERVER remote1 OPTIONS (DROP extensions)"
remote=$(explain_leaf diamonds_dist_orth diamonds_dist_1 "float8[], float8[]" "$orth_cuts")
check "without extensions 'pap_release' the aggregate stays local" "no" \
	"$(echo "$remote" | grep -q 'grid_counts' && echo yes || echo no)"
q "ALTER SERVER remote1 OPTIONS (ADD extensions 'pap_release')"

section "3. privileges: the scan runs as the table's owner, leaf by leaf, for a caller with SELECT on the parent"
run analyst diamonds_dist_orth_parent
check "SELECT on the parent only: leaf by leaf, as the owner" "leaf by leaf 3" \
	"$(path diamonds_dist_orth_parent) $(leaf_scans diamonds_dist_orth_parent)"
check "SELECT on the parent only: the release equals the local one" same \
	"$(same_release diamonds_local_orth diamonds_dist_orth_parent)"

# Queried directly, a partition applies its own row-level security policies to roles they restrict; the owner
# reads every row, as a scan through the parent does: the release is the same.
q "ALTER TABLE diamonds_dist_3 ENABLE ROW LEVEL SECURITY" "CREATE POLICY nothing ON diamonds_dist_3 USING (false)"
run analyst diamonds_dist_orth_rls
check "row-level security on a leaf: same release" same "$(same_release diamonds_local_orth diamonds_dist_orth_rls)"

section "controls"
# The comparison sees one row: delete one on a remote server and the release differs.
rq "$PORT1" "DELETE FROM diamonds_part WHERE id = (SELECT min(id) FROM diamonds_part)"
# What a remote server's statistics views show every role of that server: the scan's role counts nothing there
# (docs/distributed.md, step by step), or its reads of diamonds_part would show in them. Sessions report their
# counts when they end: a second for the DELETE's and the scan's to arrive.
remote_reads() {
	sleep 1
	rq "$PORT1" "SELECT seq_scan + coalesce(idx_scan, 0) || ' scans, ' || seq_tup_read || ' rows'
	             FROM pg_stat_user_tables WHERE relname = 'diamonds_part'"
}
reads_before=$(remote_reads)
run postgres diamonds_dist_orth_control
check "a remote server's statistics views count nothing of the scan" "$reads_before" "$(remote_reads)"
check "one row fewer on a remote server: n - 1" "$(($(q "SELECT private_rows FROM pap.releases WHERE name = 'diamonds_local_orth'") - 1))" \
	"$(q "SELECT private_rows FROM pap.releases WHERE name = 'diamonds_dist_orth_control'")"
check "one row fewer on a remote server: the release differs" "differs:synthetic" \
	"$(same_release diamonds_local_orth diamonds_dist_orth_control)"
# A remote server that is down: the connection error (it quotes no row) is reported as is, not withheld.
"${AS_SERVER[@]}" "$BIN/pg_ctl" -D "$WORK/remote2/data" -m fast -w stop >/dev/null 2>&1
run postgres diamonds_dist_orth_down 2>/dev/null
check "a remote server down: its connection error is reported" "yes" \
	"$(grep -q 'ERROR:  could not connect to server "remote2"' "$WORK/diamonds_dist_orth_down.log" && echo yes)"

section "done"
echo "multiserver: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
