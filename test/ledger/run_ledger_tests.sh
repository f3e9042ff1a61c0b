#!/usr/bin/env bash
# Failure-mode tests of the privacy budget ledger (docs/ledger.md): an error, a cancel and a SIGKILL after
# the charge, rollback attempts, pg_dump/restore, and exhaustion. Run inside a throwaway cluster, as a user
# that can signal the server's backends (root, or the cluster owner), with the extension installed:
#   pg_virtualenv -t -v 15 bash test/ledger/run_ledger_tests.sh
# Prints PASS/FAIL lines (and NOTE lines: observed behaviour worth knowing, not counted), and ends with
# "ledger: N passed, M failed"; exits non-zero when a check failed.
set -uo pipefail

DB=pap_ledger_test
DB2=pap_ledger_restored
WORK=$(mktemp -d)
BG_PIDS=()
cleanup() {
	for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT

source "$(dirname "$0")/../lib.sh"  # check, $passed, $failed
T0=$(date +%s.%N)
note() { echo "NOTE: $*"; }
section() { echo "== $* ($(elapsed)s)"; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
elapsed() { since "$T0"; }

# q DB SQL...: one session, one statement per argument (never a multi-statement string: that is an implicit
# transaction block), unaligned output, stops at the first error.
q() {
	local db=$1; shift
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "${args[@]}"
}
# st DB SQL...: runs the statements in one session and prints the SQLSTATE of the last one (00000 = success).
st() {
	local db=$1; shift
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	psql -X -q -At -d "$db" "${args[@]}" -c '\echo :SQLSTATE' 2>/dev/null | tail -1
}
spent() { q "$1" "SELECT epsilon_spent FROM pap.budgets WHERE private_table = '$2'::regclass"; }
ledger_count() { q "$1" "SELECT count(*) FROM pap.ledger WHERE release_name = '$2'"; }
state() { q "$1" "SELECT state FROM pap.releases WHERE name = '$2'"; }
# wait_state DB RELEASE STATE: the view shows "failed" only once the running session has left
# pg_stat_activity, which may lag a moment behind the client's exit.
wait_state() {
	local s
	for _ in $(seq 1 100); do
		s=$(state "$1" "$2")
		[ "$s" == "$3" ] && break
		sleep 0.1
	done
	echo "$s"
}
# wait_running DB RELEASE: waits until a background run has committed its charge and is scanning; prints
# the pid of its backend. (After its charge the session's activity names the run's phase instead of the CALL:
# docs/reference.md, "Progress".)
wait_running() {
	local pid=""
	for _ in $(seq 1 200); do
		pid=$(q "$1" "SELECT a.pid FROM pap.release_data r JOIN pg_stat_activity a ON a.pid = r.run_pid
		                WHERE r.name = '$2' AND r.state = 'running' AND a.state = 'active'
		                  AND a.query LIKE 'pap.run_release(%): %'")
		[ -n "$pid" ] && break
		sleep 0.05
	done
	echo "$pid"
}
# run_scans DB TABLE SQL...: runs the statements in one session, then prints "SQLSTATE reads": the SQLSTATE of the
# last statement, and how many reads of the table's rows the session made, from the DEBUG1 lines of the count of n
# ("pap_release: counting the rows of public.TABLE") and of the scan ("pap_release: scan: ... FROM public.TABLE").
# The statistics views do not show pap's reads (docs/security.md): they are guarded.
run_scans() {
	local db=$1 table=$2; shift 2
	local args=() sqlstate
	for s in "$@"; do args+=(-c "$s"); done
	sqlstate=$(psql -X -q -At -d "$db" -c "SET client_min_messages = debug1" "${args[@]}" -c '\echo :SQLSTATE' \
		2>"$WORK/run_scans.log" | grep -v '^$' | tail -1)
	echo "$sqlstate $(grep -cE "pap_release: (counting the rows of public\.$table\$|scan: .* FROM public\.$table\$)" \
		"$WORK/run_scans.log")"
}

section "setup"
# Private tables are tables and predicates total conditions (docs/security.md): no private row can make a scan fail
# or slow it down. An error after the debit comes from the superuser's test hook pap_release.debug_fail_after_charge;
# a run that stays in progress after its charge waits for pap_release.publish_delay (cancellable).
FAIL_AFTER_CHARGE="SET pap_release.debug_fail_after_charge = on"
SLOW="SET pap_release.publish_delay = '60s'"
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "DROP DATABASE IF EXISTS $DB2" -c "CREATE DATABASE $DB" >/dev/null
q "$DB" "CREATE EXTENSION pap_release" \
	"CREATE TABLE pub AS SELECT i AS id, (i % 100)::float8 AS x FROM generate_series(1, 500) AS i" \
	"CREATE TABLE base AS SELECT i AS id, ((i * 7) % 100)::float8 AS x FROM generate_series(1, 1000) AS i" \
	"CREATE TABLE priv_err AS SELECT * FROM base" \
	"CREATE TABLE priv_slow AS SELECT * FROM base" \
	"CREATE TABLE priv AS SELECT * FROM base" \
	"CREATE TABLE priv_f AS SELECT * FROM base" \
	"CREATE TABLE gone AS SELECT * FROM base"
q "$DB" "SELECT pap.set_budget('priv_err', 1.0)" "SELECT pap.set_budget('priv_slow', 1.0)" \
	"SELECT pap.set_budget('priv', 1.0)" "SELECT pap.set_budget('priv_f', 0.5)" "SELECT pap.set_budget('gone', 1.0)" \
	"SELECT pap.define_release('r_err', 'priv_err', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_cancel', 'priv_slow', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_kill', 'priv_slow', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_tx', 'priv', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_batch', 'priv', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_do', 'priv', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_f1', 'priv_f', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_f2', 'priv_f', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_gone', 'gone', 'pub', 'thresholds(x)')" >/dev/null
SEED="SET pap_release.test_seed = 7"

# ---------------------------------------------------------------------------------------------------------
section "a. an error after the debit (the test hook pap_release.debug_fail_after_charge)"
check "a: define_release read only the public table" "defined" "$(state "$DB" r_err)"
check "a: the run fails after its charge (XX000)" "XX000" "$(st "$DB" "$SEED" "$FAIL_AFTER_CHARGE" "CALL pap.run_release('r_err', 0.3)")"
check "a: the budget stays charged" "0.3" "$(spent "$DB" priv_err)"
check "a: the ledger has the entry" "1" "$(ledger_count "$DB" r_err)"
check "a: pap.releases shows 'failed' once the session is gone" "failed" "$(wait_state "$DB" r_err failed)"
check "a: answers are refused (55000)" "55000" "$(st "$DB" "SELECT pap.answer('r_err', 'x <= 5')")"
check "a: pap.answers refused too (55000)" "55000" "$(st "$DB" "SELECT * FROM pap.answers('r_err')")"
# The failed run's own session, still connected, sees its release as 'failed' at once: the run's advisory
# lock is released when the run errors.
same_session=$(psql -X -q -At -d "$DB" -c "$SEED" -c "$FAIL_AFTER_CHARGE" -c "CALL pap.run_release('r_err', 0.3)" \
	-c "SELECT state FROM pap.releases WHERE name = 'r_err'" 2>/dev/null | tail -1)
check "a: the failed run's own, still connected session sees 'failed'" "failed" "$same_session"
check "a: a second attempt is charged again (0.3 + 0.3)" "0.6" "$(spent "$DB" priv_err)"
check "a: ... and has its own ledger entry" "2" "$(ledger_count "$DB" r_err)"

# ---------------------------------------------------------------------------------------------------------
section "b. pg_cancel_backend during a run, after its charge"
psql -X -q -d "$DB" -c "$SEED" -c "$SLOW" -c "CALL pap.run_release('r_cancel', 0.2)" >"$WORK/b.out" 2>"$WORK/b.err" &
bg=$!; BG_PIDS+=("$bg")
pid=$(wait_running "$DB" r_cancel)
check "b: the run is in progress, its charge committed" "yes" "$([ -n "$pid" ] && echo yes || echo no)"
check "b: the budget is already charged while the run is in progress" "0.2" "$(spent "$DB" priv_slow)"
check "b: answers are refused while it runs (55000)" "55000" "$(st "$DB" "SELECT pap.answer('r_cancel', 'x <= 5')")"
check "b: a concurrent run of the same release is refused (55006)" "55006" \
	"$(st "$DB" "CALL pap.run_release('r_cancel', 0.2)")"
check "b: pg_cancel_backend" "t" "$(q "$DB" "SELECT pg_cancel_backend(${pid:-0})")"
wait "$bg"; rc=$?
check "b: the CALL ended with an error" "1" "$([ "$rc" -ne 0 ] && echo 1 || echo 0)"
check "b: ... 'canceling statement due to user request'" "1" "$(grep -c 'canceling statement due to user request' "$WORK/b.err")"
check "b: the charge is in place" "0.2" "$(spent "$DB" priv_slow)"
check "b: the ledger has the entry" "1" "$(ledger_count "$DB" r_cancel)"
check "b: the release is 'failed', not released" "failed" "$(wait_state "$DB" r_cancel failed)"
check "b: no answers stored (synthetic NULL, no private_rows)" "t" \
	"$(q "$DB" "SELECT synthetic IS NULL AND private_rows IS NULL AND released_at IS NULL FROM pap.release_data WHERE name = 'r_cancel'")"
check "b: answers refused (55000)" "55000" "$(st "$DB" "SELECT * FROM pap.synthetic('r_cancel')")"

# ---------------------------------------------------------------------------------------------------------
section "c. SIGKILL of the backend during a release (crash and restart of the server)"
psql -X -q -d "$DB" -c "$SEED" -c "$SLOW" -c "CALL pap.run_release('r_kill', 0.3)" >"$WORK/c.out" 2>"$WORK/c.err" &
bg=$!; BG_PIDS+=("$bg")
pid=$(wait_running "$DB" r_kill)
check "c: the run is in progress, its charge committed" "yes" "$([ -n "$pid" ] && echo yes || echo no)"
kill -9 "$pid"
wait "$bg"
t_kill=$(date +%s.%N)
sleep 0.5
ready=no
for _ in $(seq 1 300); do
	if pg_isready -q -d "$DB" && psql -X -q -At -d "$DB" -c "SELECT 1" >/dev/null 2>&1; then ready=yes; break; fi
	sleep 0.1
done
check "c: the server accepts connections again after the crash restart" "yes" "$ready"
echo "   (restart took $(since "$t_kill")s)"
check "c: the killed backend is gone" "0" "$(q "$DB" "SELECT count(*) FROM pg_stat_activity WHERE pid = $pid")"
check "c: the charge survived crash recovery (0.2 + 0.3)" "0.5" "$(spent "$DB" priv_slow)"
check "c: the ledger has the entry" "1" "$(ledger_count "$DB" r_kill)"
check "c: the release is 'failed' (running, pid gone)" "failed" "$(state "$DB" r_kill)"
check "c: the catalog row still says running, with the dead pid" "running|$pid" \
	"$(q "$DB" "SELECT state || '|' || run_pid FROM pap.release_data WHERE name = 'r_kill'")"
check "c: answers refused (55000)" "55000" "$(st "$DB" "SELECT pap.answer('r_kill', 'x <= 5')")"
check "c: overspending is still refused (0.5 left, 0.6 asked: 53000)" "53000" \
	"$(st "$DB" "$SEED" "CALL pap.run_release('r_kill', 0.6)")"
check "c: ... and charged nothing" "0.5" "$(spent "$DB" priv_slow)"

# ---------------------------------------------------------------------------------------------------------
section "d. rollback cannot refund"
before=$(spent "$DB" priv)
check "d: BEGIN; CALL pap.run_release is refused (25001)" "25001" \
	"$(st "$DB" "BEGIN" "CALL pap.run_release('r_tx', 0.1)")"
check "d: BEGIN; SAVEPOINT; CALL is refused (25001)" "25001" \
	"$(st "$DB" "BEGIN" "SAVEPOINT s" "CALL pap.run_release('r_tx', 0.1)")"
check "d: a multi-statement query string (implicit transaction block) is refused (25001)" "25001" \
	"$(st "$DB" "$SEED; CALL pap.run_release('r_tx', 0.1); SELECT 1")"
q "$DB" "CREATE FUNCTION run_in_function() RETURNS void LANGUAGE plpgsql AS \$\$ BEGIN CALL pap.run_release('r_tx', 0.1); END \$\$"
check "d: a CALL from a function is refused (25001)" "25001" "$(st "$DB" "SELECT run_in_function()")"
check "d: none of them charged anything" "$before" "$(spent "$DB" priv)"
check "d: ... nor wrote the ledger" "0" "$(ledger_count "$DB" r_tx)"
check "d: the release is still 'defined'" "defined" "$(state "$DB" r_tx)"
# a run, then a failing statement in the same psql batch (separate statements, ON_ERROR_STOP)
psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "$SEED" -c "CALL pap.run_release('r_batch', 0.1)" -c "SELECT 1/0" \
	>/dev/null 2>"$WORK/d.err"
check "d: run then a failing statement in one psql batch: the batch fails" "1" "$(grep -c 'division by zero' "$WORK/d.err")"
check "d: ... the charge is kept" "0.1" "$(spent "$DB" priv)"
check "d: ... and the release is released" "released" "$(state "$DB" r_batch)"
# DO blocks are not atomic: a CALL inside one commits, the charge and then the stored answers (the run commits them
# before it lets go of its lock); an exception raised after it rolls back neither.
check "d: DO block: CALL then RAISE fails (P0001)" "P0001" \
	"$(st "$DB" "$SEED" "DO \$\$ BEGIN CALL pap.run_release('r_do', 0.1); RAISE EXCEPTION 'after the run'; END \$\$")"
check "d: ... the charge is kept" "0.2" "$(spent "$DB" priv)"
check "d: ... the ledger has the entry" "1" "$(ledger_count "$DB" r_do)"
check "d: ... and the release is released" "released" "$(state "$DB" r_do)"

# ---------------------------------------------------------------------------------------------------------
section "f. exhaustion: refused before any private row is read"
# (run before e so that the dump holds an exhausted budget too)
r=$(run_scans "$DB" priv_f "$SEED" "CALL pap.run_release('r_f1', 0.5)")
check "f: a run that spends the whole budget succeeds" "00000" "${r% *}"
check "f: control: the successful run read the private table (the count of n and the scan)" "2" "${r#* }"
check "f: spent = total" "t" "$(q "$DB" "SELECT epsilon_spent = epsilon_total FROM pap.budgets WHERE private_table = 'priv_f'::regclass")"
r=$(run_scans "$DB" priv_f "$SEED" "CALL pap.run_release('r_f2', 0.01)")
check "f: the next run is refused (53000)" "53000" "${r% *}"
check "f: ... without reading the private table" "0" "${r#* }"
r=$(run_scans "$DB" priv_f "$SEED" "CALL pap.run_release('r_f2', 1e-9)")
check "f: even a tiny run (1e-9) is refused (53000)" "53000" "${r% *}"
check "f: ... without reading the private table" "0" "${r#* }"
r=$(run_scans "$DB" priv_f "$SEED" "CALL pap.run_release('r_f1', 0.01)")
check "f: a second run of the released release is refused (55000)" "55000" "${r% *}"
check "f: ... without reading the private table" "0" "${r#* }"
check "f: no ledger entry for the refused release" "0" "$(ledger_count "$DB" r_f2)"
check "f: the refused release is still 'defined'" "defined" "$(state "$DB" r_f2)"

# ---------------------------------------------------------------------------------------------------------
section "e. pg_dump and restore into a new database"
q "$DB" "$SEED" "CALL pap.run_release('r_gone', 0.4)"
pg_dump -Fc -d "$DB" -f "$WORK/dump.pgc" 2>"$WORK/dump.err"
check "e: pg_dump succeeds" "0" "$?"
createdb "$DB2"
pg_restore --exit-on-error -d "$DB2" "$WORK/dump.pgc" 2>"$WORK/restore.err"
check "e: pg_restore succeeds" "0" "$?"
cat_sql=(
	"SELECT string_agg(format('%s %s %s %s %s', private_table, epsilon_total, epsilon_spent, delta_total, delta_spent), '; ' ORDER BY private_table::text) FROM pap.budgets"
	"SELECT string_agg(format('%s %s %s %s %s', entry_id, private_table, release_name, epsilon, delta), '; ' ORDER BY entry_id) FROM pap.ledger"
	"SELECT string_agg(format('%s %s %s %s %s %s', name, private_table, state, epsilon, private_rows, md5(details::text)), '; ' ORDER BY name) FROM pap.releases"
	"SELECT string_agg(format('%s=%s', query, answer), '; ' ORDER BY cover_query) FROM pap.answers('r_batch')"
	"SELECT pap.answer('r_f1', 'x <= 42')"
)
labels=(budgets ledger releases "answers of r_batch" "an answer of r_f1")
for i in "${!cat_sql[@]}"; do
	a=$(q "$DB" "${cat_sql[$i]}"); b=$(q "$DB2" "${cat_sql[$i]}")
	check "e: ${labels[$i]} identical after restore" "$a" "$b"
done
check "e: the restored ledger is not empty" "t" "$(q "$DB2" "SELECT count(*) > 0 FROM pap.ledger")"
check "e: the ledger identity continues after the restored entries" "t" \
	"$(q "$DB2" "SELECT (SELECT max(entry_id) FROM pap.ledger) < nextval('pap.ledger_data_entry_id_seq')")"
oid1=$(q "$DB" "SELECT 'priv_f'::regclass::oid"); oid2=$(q "$DB2" "SELECT 'priv_f'::regclass::oid")
echo "   table priv_f: OID $oid1 in $DB, OID $oid2 in $DB2"
check "e: the budget row follows the table to its new OID" "$oid2" \
	"$(q "$DB2" "SELECT private_table::oid FROM pap.budgets WHERE private_table = 'priv_f'::regclass")"
q "$DB2" "SELECT pap.define_release('r_new', 'priv_f', 'pub', 'thresholds(x)')" >/dev/null
check "e: the restored budget governs the table: an exhausted budget refuses (53000)" "53000" \
	"$(st "$DB2" "$SEED" "CALL pap.run_release('r_new', 0.01)")"
check "e: restored priv (0.8 left): a run of 0.9 is refused (53000)" "53000" \
	"$(st "$DB2" "$SEED" "CALL pap.run_release('r_tx', 0.9)")"
check "e: ... and a run of 0.8 is accepted" "00000" "$(st "$DB2" "$SEED" "CALL pap.run_release('r_tx', 0.8)")"
check "e: ... spent = total on the restored copy" "t" \
	"$(q "$DB2" "SELECT epsilon_spent = epsilon_total FROM pap.budgets WHERE private_table = 'priv'::regclass")"
check "e: the original database is untouched by it" "0.2" "$(spent "$DB" priv)"
note "e: a dump is a copy of the budget: the original and the restored database now each spent 1.0 on the same data"
# renaming keeps the budget (regclass follows the table)
q "$DB2" "ALTER TABLE priv_f RENAME TO priv_f_renamed"
check "e: after RENAME the budget shows the new name" "priv_f_renamed 0.5 0.5" \
	"$(q "$DB2" "SELECT format('%s %s %s', private_table, epsilon_total, epsilon_spent) FROM pap.budgets WHERE private_table = 'priv_f_renamed'::regclass")"
check "e: ... and still refuses (53000)" "53000" "$(st "$DB2" "$SEED" "CALL pap.run_release('r_new', 0.01)")"
check "e: ... the ledger rows follow too" "priv_f_renamed" \
	"$(q "$DB2" "SELECT DISTINCT private_table FROM pap.ledger WHERE release_name = 'r_f1'")"
# DROP TABLE: the spent budget, the charges and the release stay, detached from the dropped OID (private_table
# NULL, the table's name kept), so that no later table inherits them (docs/security.md)
gone_oid=$(q "$DB2" "SELECT 'gone'::regclass::oid")
q "$DB2" "DROP TABLE gone"
check "e: after DROP TABLE the budget row stays, detached, with its name and spent budget" "|public.gone|0.4|t" \
	"$(q "$DB2" "SELECT format('%s|%s|%s|%s', private_table, table_name, epsilon_spent, dropped_at IS NOT NULL) FROM pap.budgets WHERE table_name = 'public.gone'")"
check "e: ... no catalog row keeps the dropped OID $gone_oid" "0" \
	"$(q "$DB2" "SELECT (SELECT count(*) FROM pap.budget_data WHERE private_table::oid = $gone_oid) + (SELECT count(*) FROM pap.ledger_data WHERE private_table::oid = $gone_oid) + (SELECT count(*) FROM pap.release_data WHERE private_table::oid = $gone_oid OR public_table::oid = $gone_oid)")"
check "e: ... the ledger row stays, detached" "|public.gone|0.4" \
	"$(q "$DB2" "SELECT format('%s|%s|%s', private_table, table_name, epsilon) FROM pap.ledger WHERE release_name = 'r_gone'")"
check "e: ... the release stays, detached" "|public.gone|released" \
	"$(q "$DB2" "SELECT format('%s|%s|%s', private_table, private_table_name, state) FROM pap.releases WHERE name = 'r_gone'")"
check "e: ... and the answers of its release stay readable" "00000" "$(st "$DB2" "SELECT pap.answer('r_gone', 'x <= 50')")"
check "e: a table created later under the same name gets a new OID and no budget" "0" \
	"$(q "$DB2" "CREATE TABLE gone AS SELECT * FROM base" "SELECT count(*) FROM pap.budgets WHERE private_table = 'gone'::regclass")"
# a dump of the database with the dropped table, restored elsewhere: the spent budget survives, attached to no
# table (before, the dangling OID was restored as a number and adopted by whichever table got that OID)
DB3=pap_ledger_restored2
pg_dump -Fc -d "$DB2" -f "$WORK/dump2.pgc" 2>"$WORK/dump2.err"
createdb "$DB3"
pg_restore --exit-on-error -d "$DB3" "$WORK/dump2.pgc" 2>"$WORK/restore2.err"
check "e: dump and restore after the DROP succeed" "0" "$?"
check "e: ... the dropped table's budget is restored detached, spent budget kept" "|public.gone|0.4|t" \
	"$(q "$DB3" "SELECT format('%s|%s|%s|%s', private_table, table_name, epsilon_spent, dropped_at IS NOT NULL) FROM pap.budgets WHERE table_name = 'public.gone' AND private_table IS NULL")"
check "e: ... no restored budget, charge or release names a relation that does not exist" "0" \
	"$(q "$DB3" "SELECT (SELECT count(*) FROM pap.budget_data b WHERE private_table IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = b.private_table)) + (SELECT count(*) FROM pap.ledger_data l WHERE private_table IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = l.private_table)) + (SELECT count(*) FROM pap.release_data r WHERE private_table IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = r.private_table))")"
check "e: ... the ledger of the dropped table is restored" "|public.gone|0.4" \
	"$(q "$DB3" "SELECT format('%s|%s|%s', private_table, table_name, epsilon) FROM pap.ledger WHERE release_name = 'r_gone'")"

# DROP EXTENSION would delete budgets, ledger and releases: refused while the ledger holds charges
check "e: DROP EXTENSION pap_release is refused while the ledger holds charges (2BP01)" "2BP01" \
	"$(st "$DB3" "DROP EXTENSION pap_release")"
check "e: ... DROP EXTENSION ... CASCADE too (2BP01)" "2BP01" "$(st "$DB3" "DROP EXTENSION pap_release CASCADE")"
check "e: ... the ledger is intact" "t" "$(q "$DB3" "SELECT count(*) > 0 FROM pap.ledger")"
check "e: with pap_release.allow_drop_ledger = on the drop is done" "00000" \
	"$(st "$DB3" "SET pap_release.allow_drop_ledger = on" "DROP EXTENSION pap_release")"
check "e: ... and the extension is gone" "0" "$(q "$DB3" "SELECT count(*) FROM pg_extension WHERE extname = 'pap_release'")"
check "e: an empty ledger does not stop DROP EXTENSION" "00000" \
	"$(st "$DB3" "CREATE EXTENSION pap_release" "DROP EXTENSION pap_release")"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB3" >/dev/null

# ---------------------------------------------------------------------------------------------------------
section "g. regressions of two defects these tests found, now fixed (docs/ledger.md)"
q "$DB" "CREATE TABLE priv_g AS SELECT * FROM base" "SELECT pap.set_budget('priv_g', 1.0)" \
	"SELECT pap.define_release('r_g1', 'priv_g', 'pub', 'thresholds(x)')" \
	"SELECT pap.define_release('r_g2', 'priv_g', 'pub', 'thresholds(x)')" >/dev/null
# g1: two runs queue on the budget row; the loser's 53000 detail should name the remaining budget (0.4)
psql -X -q -d "$DB" -c "BEGIN" -c "SELECT 1 FROM pap.budget_data WHERE private_table = 'priv_g'::regclass FOR UPDATE" \
	-c "SELECT pg_sleep(1.5)" -c "COMMIT" >/dev/null 2>&1 &
holder=$!; BG_PIDS+=("$holder")
waiting() { q "$DB" "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'pap.run_release(%): %'"; }
sleep 0.2
psql -X -q -d "$DB" -c "$SEED" -c "CALL pap.run_release('r_g1', 0.6)" >/dev/null 2>"$WORK/g1a.err" &
ga=$!; BG_PIDS+=("$ga")
for _ in $(seq 1 50); do [ "$(waiting)" -ge 1 ] && break; sleep 0.02; done
psql -X -q -d "$DB" -c "$SEED" -c "CALL pap.run_release('r_g2', 0.6)" >/dev/null 2>"$WORK/g1b.err" &
gb=$!; BG_PIDS+=("$gb")
wait "$holder" "$ga" "$gb"
check "g1: the loser of a race is refused (53000)" "1" "$(grep -c 'privacy budget of public.priv_g exceeded' "$WORK/g1b.err")"
check "g1: ... and its detail names the remaining budget after the winner's charge (0.4)" \
	"DETAIL:  The run asks for epsilon 0.6 and delta 0; the remaining budget is epsilon 0.4 and delta 0." \
	"$(grep DETAIL "$WORK/g1b.err")"
# g2: with track_activities = off (superuser setting, or server-wide), a run in progress is not detected:
# a second run of the same release is charged and run again, and overwrites the released answers
q "$DB" "SELECT pap.set_budget('priv_slow', 2.0)" "SELECT pap.define_release('r_g3', 'priv_slow', 'pub', 'thresholds(x)')" >/dev/null
psql -X -q -d "$DB" -c "SET track_activities = off" -c "$SEED" -c "$SLOW" -c "CALL pap.run_release('r_g3', 0.1)" >/dev/null 2>&1 &
gc=$!; BG_PIDS+=("$gc")
for _ in $(seq 1 100); do [ "$(q "$DB" "SELECT state FROM pap.release_data WHERE name = 'r_g3'")" == running ] && break; sleep 0.05; done
check "g2: with track_activities = off, a concurrent run of the same release is refused (55006)" "55006" \
	"$(st "$DB" "$SEED" "CALL pap.run_release('r_g3', 0.1)")"
wait "$gc"
check "g2: ... and the release was charged once" "1" "$(ledger_count "$DB" r_g3)"

# ---------------------------------------------------------------------------------------------------------
section "h. a cast added while a run waits at its debit, after its checks, never runs in its scan"
# Casts are found in no schema: another role's implicit cast from its enum to text, created after the run checked
# the predicate, would turn c = 'red' into a call of its function on every private row, as the table's owner. The
# read's guard checks the statement as the scan plans it (docs/security.md, "What a scan may run and leave behind").
q "$DB" "CREATE ROLE ledger_an" "CREATE SCHEMA lan AUTHORIZATION ledger_an" "GRANT USAGE ON SCHEMA lan TO PUBLIC" >/dev/null
q "$DB" "SET ROLE ledger_an" "CREATE TYPE lan.color AS ENUM ('red', 'green')" "GRANT USAGE ON TYPE lan.color TO PUBLIC" \
	"CREATE TABLE lan.loot (who name, what text)" "GRANT INSERT ON lan.loot TO PUBLIC" \
	"CREATE FUNCTION lan.color_text(lan.color) RETURNS text LANGUAGE plpgsql VOLATILE AS
	   \$\$ BEGIN INSERT INTO lan.loot VALUES (current_user, 'cast'); RETURN \$1::name::text; END \$\$" \
	"GRANT EXECUTE ON FUNCTION lan.color_text(lan.color) TO PUBLIC" >/dev/null
# A release of c = 'red' over an enum column of type $2, whose run waits at its debit (its checks passed) while the
# analyst runs $3; the run's errors go to $WORK/$1.err.
run_while_waiting_at_debit() {
	local name=$1 type=$2 sql=$3 holder hr
	q "$DB" "CREATE TABLE priv_$name (c $type)" \
		"INSERT INTO priv_$name SELECT (CASE WHEN i % 3 = 0 THEN 'red' ELSE 'green' END)::$type FROM generate_series(1, 300) AS i" \
		"CREATE TABLE pub_$name (c $type)" \
		"INSERT INTO pub_$name SELECT (CASE WHEN i % 2 = 0 THEN 'red' ELSE 'green' END)::$type FROM generate_series(1, 100) AS i" \
		"SELECT pap.set_budget('priv_$name', 1.0)" \
		"SELECT pap.define_release('r_$name', 'priv_$name', 'pub_$name', \$\$predicates('c = ''red''')\$\$)" >/dev/null
	psql -X -q -d "$DB" -c "BEGIN" -c "SELECT 1 FROM pap.budget_data WHERE private_table = 'priv_$name'::regclass FOR UPDATE" \
		-c "SELECT pg_sleep(2)" -c "COMMIT" >/dev/null 2>&1 &
	holder=$!; BG_PIDS+=("$holder")
	sleep 0.2
	psql -X -q -d "$DB" -c "$SEED" -c "CALL pap.run_release('r_$name', 0.5)" >/dev/null 2>"$WORK/$name.err" &
	hr=$!; BG_PIDS+=("$hr")
	for _ in $(seq 1 100); do [ "$(waiting)" -ge 1 ] && break; sleep 0.02; done
	check "$name: the run waits at its debit, its checks passed" "1" "$(waiting)"
	q "$DB" "SET ROLE ledger_an" "$sql" >/dev/null
	wait "$holder" "$hr"
}
run_while_waiting_at_debit h lan.color "CREATE CAST (lan.color AS text) WITH FUNCTION lan.color_text(lan.color) AS IMPLICIT"
check "h: the scan refuses the cast's function (42501)" "1" "$(grep -c 'SQLSTATE is 42501' "$WORK/h.err")"
check "h: ... which never ran" "0" "$(q "$DB" "SELECT count(*) FROM lan.loot")"
check "h: ... the run was charged and failed" "0.5 failed" "$(spent "$DB" priv_h) $(wait_state "$DB" r_h failed)"

# ---------------------------------------------------------------------------------------------------------
section "h2. an implicit cast through text, made while a run waits at its debit, is refused in its scan"
# CREATE CAST ... WITH INOUT AS IMPLICIT calls only built-in functions, but it turns c = 'red' into c::text = 'red'
# (text order for the enum's): a release would answer another predicate than the one it checked.
q "$DB" "SET ROLE ledger_an" "CREATE TYPE lan.tone AS ENUM ('red', 'green')" "GRANT USAGE ON TYPE lan.tone TO PUBLIC" >/dev/null
run_while_waiting_at_debit h2 lan.tone "CREATE CAST (lan.tone AS text) WITH INOUT AS IMPLICIT"
check "h2: the scan refuses the implicit cast (42501)" "1" "$(grep -c 'SQLSTATE is 42501' "$WORK/h2.err")"
check "h2: ... the run was charged and failed, answering nothing" "0.5 failed" \
	"$(spent "$DB" priv_h2) $(wait_state "$DB" r_h2 failed)"

# ---------------------------------------------------------------------------------------------------------
section "i. a charge committed under synchronous_commit = off survives a crash"
# Any role may turn synchronous_commit off: the charge's commit then returned before its WAL was flushed, and a crash
# after the private read lost the charge (the same budget could be spent again). The run flushes it whatever the
# caller set. wal_writer_delay = 10s keeps the background writer from flushing it first (the default 200 ms only
# narrows the window).
q "$DB" "ALTER SYSTEM SET wal_writer_delay = '10s'" "SELECT pg_reload_conf()" \
	"CREATE TABLE priv_i AS SELECT (g % 50)::float8 AS x FROM generate_series(1, 3000) AS g" \
	"SELECT pap.set_budget('priv_i', 1.0)" "CHECKPOINT" >/dev/null
psql -X -q -d "$DB" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
BG_PIDS+=("$!")
victim=""
for _ in $(seq 1 100); do
	victim=$(q "$DB" "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' LIMIT 1")
	[ -n "$victim" ] && break
	sleep 0.05
done
psql -X -q -d "$DB" -c "SET synchronous_commit = off" -c "SET client_min_messages = warning" \
	-c "CALL pap.run_private_quantile('q_i', 'priv_i', 'x', 0.5, 0.5, '{\"min\": 0, \"max\": 100, \"step\": 1}')" \
	>/dev/null 2>"$WORK/i.err"
kill -9 "$victim"
sleep 0.5
ready=no
for _ in $(seq 1 300); do
	if pg_isready -q -d "$DB" && psql -X -q -At -d "$DB" -c "SELECT 1" >/dev/null 2>&1; then ready=yes; break; fi
	sleep 0.1
done
check "i: the server accepts connections again after the crash restart" "yes" "$ready"
check "i: the charge survived (0.5 spent, one ledger entry)" "0.5 1" "$(spent "$DB" priv_i) $(ledger_count "$DB" q_i)"
q "$DB" "ALTER SYSTEM RESET wal_writer_delay" "SELECT pg_reload_conf()" >/dev/null

# ---------------------------------------------------------------------------------------------------------
section "j. a private quantile dropped and run again while its first run waits to publish"
# The first run stored its value by name: after a drop and a new run of the same name over another table, the first
# run's value replaced the second's, under the second's table name. It stores into its own row only.
q "$DB" "CREATE TABLE priv_j1 AS SELECT 40::float8 AS x FROM generate_series(1, 2000)" \
	"CREATE TABLE priv_j2 AS SELECT 10::float8 AS x FROM generate_series(1, 2000)" \
	"SELECT pap.set_budget('priv_j1', 10), pap.set_budget('priv_j2', 10)" >/dev/null
psql -X -q -d "$DB" -c "$SEED" -c "SET pap_release.publish_delay = 3000" -c "SET client_min_messages = warning" \
	-c "CALL pap.run_private_quantile('q_j', 'priv_j1', 'x', 0.5, 5, '{\"min\": 0, \"max\": 50, \"step\": 1}')" \
	>/dev/null 2>"$WORK/j.err" &
jr=$!; BG_PIDS+=("$jr")
for _ in $(seq 1 100); do [ "$(q "$DB" "SELECT count(*) FROM pap.private_quantiles WHERE name = 'q_j'")" = 1 ] && break; sleep 0.05; done
q "$DB" "SELECT pap.drop_private_quantile('q_j')" >/dev/null
q "$DB" "$SEED" "SET client_min_messages = warning" \
	"CALL pap.run_private_quantile('q_j', 'priv_j2', 'x', 0.5, 5, '{\"min\": 0, \"max\": 50, \"step\": 1}')" >/dev/null
wait "$jr"
check "j: the first run ends with an error: its quantile was dropped during its run" "1" \
	"$(grep -c 'was dropped during its run' "$WORK/j.err")"
check "j: the second run's value stays, under its own table (10 on priv_j2)" "public.priv_j2 10" \
	"$(q "$DB" "SELECT private_table || ' ' || value FROM pap.private_quantiles WHERE name = 'q_j'")"
check "j: both runs were charged" "5 5" "$(spent "$DB" priv_j1) $(spent "$DB" priv_j2)"

# ---------------------------------------------------------------------------------------------------------
section "done"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "DROP DATABASE IF EXISTS $DB2" >/dev/null
echo "ledger: $passed passed, $failed failed ($(elapsed)s)"
[ "$failed" -eq 0 ]
