#!/usr/bin/env bash
# The upgrade path of the catalog (docs/reference.md, "Upgrading"; docs/development.md, "Evolving the catalog").
# A database installs 0.1 from its frozen script and gets budgets, released, defined, failed and detached releases
# of several classes and mechanisms (seeded, pap_release.test_seed); it is dumped; then ALTER EXTENSION pap_release
# UPDATE must keep every budget, ledger row, catalog row, release state and answer, the 0.1 dump restored where
# CREATE EXTENSION installs the current version must hold the same, and a fresh install of the current version must
# have the same objects as the upgraded one. Run inside a throwaway cluster with the extension installed:
#   pg_virtualenv -t -v 15 bash test/upgrade/run_upgrade_test.sh
# Prints PASS/FAIL lines and ends with "upgrade: N passed, M failed"; exits non-zero when a check failed.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OLD=pap_upgrade_old        # 0.1, then updated
RESTORED=pap_upgrade_dump  # the 0.1 dump restored under the current version
FRESH=pap_upgrade_fresh    # a fresh install of the current version
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
source "$ROOT/test/lib.sh"  # check, $passed, $failed

# q DB SQL...: one session, one statement per argument, unaligned output, stops at the first error.
q() {
	local db=$1; shift
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "${args[@]}"
}
# st DB SQL...: the SQLSTATE of the last statement (00000 = success).
st() {
	local db=$1; shift
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	psql -X -q -At -d "$db" "${args[@]}" -c '\echo :SQLSTATE' 2>/dev/null | tail -1
}
# same NAME FILE_A FILE_B: a check that two files are identical, not empty and without an error; shows the
# difference if not.
same() {
	local verdict=identical
	if [ ! -s "$2" ]; then verdict="empty $2"; elif grep -q ERROR "$2" "$3"; then verdict="an ERROR in them";
	elif ! cmp -s "$2" "$3"; then verdict=different; fi
	check "$1" identical "$verdict"
	[ "$verdict" == different ] && diff -u "$2" "$3" | head -40
}
section() { echo "== $*"; }

CURRENT=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$ROOT/pap_release.control")
SHAREDIR=$(pg_config --sharedir)/extension

section "the scripts"
if git -C "$ROOT" rev-parse -q --verify refs/tags/v0.1 >/dev/null 2>&1; then
	check "extension/pap_release--0.1.sql is the script tagged v0.1, byte for byte" identical \
		"$(git -C "$ROOT" show v0.1:extension/pap_release--0.1.sql | cmp -s - "$ROOT/extension/pap_release--0.1.sql" && echo identical || echo different)"
else
	echo "NOTE: no git tag v0.1 here: the frozen 0.1 script is not compared with it"
fi
check "the installed 0.1 script is the repository's" identical \
	"$(cmp -s "$SHAREDIR/pap_release--0.1.sql" "$ROOT/extension/pap_release--0.1.sql" && echo identical || echo different)"
check "the installed control file names the current version ($CURRENT)" "$CURRENT" \
	"$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$SHAREDIR/pap_release.control")"
check "the current version differs from 0.1" yes "$([ "$CURRENT" != 0.1 ] && echo yes || echo no)"

section "0.1: install from the frozen script, budgets and releases"
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $OLD" \
	-c "DROP DATABASE IF EXISTS $RESTORED" -c "DROP DATABASE IF EXISTS $FRESH" -c "CREATE DATABASE $OLD" >/dev/null
q "$OLD" "CREATE EXTENSION pap_release VERSION '0.1'"
check "CREATE EXTENSION pap_release VERSION '0.1'" 0.1 \
	"$(q "$OLD" "SELECT extversion FROM pg_extension WHERE extname = 'pap_release'")"
# The current library works on 0.1's tables, which lack the columns added since (catalog_columns.hpp).
check "0.1's pap.release_data has no layout_version" 0 \
	"$(q "$OLD" "SELECT count(*) FROM pg_attribute WHERE attrelid = 'pap.release_data'::regclass AND attname = 'layout_version'")"
q "$OLD" "CREATE TABLE people AS
	SELECT i AS id, (20 + (i * 37) % 50)::int AS age, (ARRAY['F', 'M'])[1 + (i * 13) % 2] AS sex,
	       (ARRAY['north', 'south', 'east', 'west'])[1 + (i * 7) % 4] AS region, ((i * 11) % 3 = 0) AS smoker,
	       ((i * 7919) % 1000)::float8 AS income, ((i * 104729) % 97)::float8 AS hours,
	       date '2020-01-01' + (i * 17) % 700 AS day
	  FROM generate_series(1, 3000) AS i" \
	"CREATE TABLE pub AS SELECT * FROM people WHERE md5(id::text) < '4'" \
	"CREATE TABLE priv AS SELECT * FROM people WHERE md5(id::text) >= '4'" \
	"CREATE TABLE priv2 AS SELECT * FROM priv WHERE id % 2 = 0" \
	"CREATE TABLE gone AS SELECT * FROM priv WHERE id % 3 = 0" \
	"SELECT pap.set_budget('priv', 10)" "SELECT pap.set_budget('priv2', 2, 1e-6)" "SELECT pap.set_budget('gone', 1)" >/dev/null
# name | private table | class | alpha | run arguments (empty: defined only)
RELEASES=(
	"r_cdf|priv|thresholds(income)|0.1|0.5"
	"r_ranges|priv|ranges(hours)|0.2|0.5, mechanism => 'hierarchical'"
	"r_days|priv|thresholds(day)|0.1|0.5, mechanism => 'identity'"
	"r_boxes|priv|boxes(income, hours)|0.5|1.0, mechanism => 'mwem'"
	"r_marginals|priv|marginals(2; sex, region, smoker)|0.05|1.0"
	"r_halfspaces|priv2|halfspaces(income, hours; [1, 2], [1, -1])|0.2|0.5, 1e-6, mechanism => 'mwem'"
	"r_predicates|priv2|predicates('age > 40 AND sex = ''F''', 'income < 100')|0.05|0.5"
	"r_gone|gone|thresholds(income)|0.1|0.5"
	"r_defined|priv|ranges(income)|0.2|"
)
for spec in "${RELEASES[@]}"; do
	IFS='|' read -r name table class alpha run <<<"$spec"
	r=$(st "$OLD" "SELECT pap.define_release('$name', '$table', 'pub', \$c\$$class\$c\$, alpha => $alpha)")
	[ -n "$run" ] && [ "$r" == 00000 ] &&
		r=$(st "$OLD" "SET pap_release.test_seed = 11" "CALL pap.run_release('$name', $run)")
	check "release $name ($class) defined${run:+ and run}" 00000 "$r"
done
check "a run that fails after its charge fails (XX000)" XX000 \
	"$(st "$OLD" "SELECT pap.define_release('r_failed', 'priv', 'pub', 'thresholds(hours)')" \
		"SET pap_release.test_seed = 11" "SET pap_release.debug_fail_after_charge = on" "CALL pap.run_release('r_failed', 0.25)")"
q "$OLD" "DROP TABLE gone"
check "0.1 database: 10 releases, 9 charges, 3 budgets" "10 9 3" \
	"$(q "$OLD" "SELECT (SELECT count(*) FROM pap.releases) || ' ' || (SELECT count(*) FROM pap.ledger) || ' ' || (SELECT count(*) FROM pap.budgets)")"
check "... states: 1 defined, 1 failed, 8 released" "defined 1, failed 1, released 8" \
	"$(q "$OLD" "SELECT string_agg(state || ' ' || n, ', ' ORDER BY state) FROM (SELECT state, count(*) AS n FROM pap.releases GROUP BY state) s")"

# The columns of 0.1's catalog tables: compared raw, row by row, on every database below.
declare -A COLUMNS
for t in budget_data ledger_data release_data; do
	COLUMNS[$t]=$(q "$OLD" "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
	                        WHERE attrelid = 'pap.$t'::regclass AND attnum > 0 AND NOT attisdropped")
done

# snapshot DB FILE: everything a user can read of the catalog, and the answers of every release.
snapshot() {
	local db=$1 out=$2
	{
		echo "-- catalog rows (0.1's columns)"
		for t in budget_data ledger_data release_data; do
			q "$db" "SELECT '$t', md5(x::text), x.* FROM (SELECT ${COLUMNS[$t]} FROM pap.$t) x ORDER BY 2"
		done
		echo "-- views"
		# pap.releases as 0.1 shows it: 0.2 adds declared_domain (NULL for every release over a public table); the
		# budgets and the ledger likewise, without the columns of budgets in rho (docs/mechanisms.md, "zCDP budgets").
		q "$db" "SELECT to_jsonb(b) OPERATOR(pg_catalog.-) '{unit, rho_total, rho_spent, rho_remaining}'::text[]
		           FROM pap.budgets b ORDER BY b.budget_id" \
			"SELECT to_jsonb(l) OPERATOR(pg_catalog.-) 'rho' FROM pap.ledger l ORDER BY l.entry_id" \
			"SELECT to_jsonb(r) OPERATOR(pg_catalog.-) 'declared_domain' FROM pap.releases r ORDER BY r.name"
		echo "-- answers"
		q "$db" "SELECT r.name, a.* FROM pap.releases r, pap.answers(r.name) a WHERE r.state = 'released' ORDER BY 1, 2"
		q "$db" "SELECT r.name, s.* FROM pap.releases r, pap.synthetic(r.name) s WHERE r.state = 'released' ORDER BY 1, 2"
		q "$db" "SELECT k, pap.answer('r_cdf', 'income <= ' || k), pap.answer('r_cdf', 'income <= ' || k, true),
		                pap.answer_count('r_gone', 'income <= ' || k), pap.answer('r_ranges', 'hours BETWEEN ' || k % 97 || ' AND 90'),
		                pap.answer('r_boxes', 'income <= ' || k || ' AND hours > ' || k % 97, true)
		           FROM generate_series(-10, 1010, 17) AS k"
		q "$db" "SELECT pap.answer('r_days', 'day <= ''2020-06-01'''), pap.answer('r_marginals', 'sex = ''F'' AND smoker = true'),
		                pap.answer('r_halfspaces', 'income + 2 * hours <= 700'), pap.answer('r_predicates', 'income < 100')"
		echo "-- plan of the defined release (the columns of 0.1: 0.2 adds the error's parts after them)"
		q "$db" "SELECT chosen_mechanism, private_rows, public_rows, cover_size, cell_count, alpha, beta, predicted_error,
		                public_only_error, book_private_rows, book_public_rows, book_guarantee_holds, book_cutoff, cutoff,
		                cutoff_suffices, threshold, accounting, epsilon_split, noise_scales, max_passes, predictions
		           FROM pap.plan('r_defined', 1.0)"
	} >"$out" 2>&1
}
snapshot "$OLD" "$WORK/old.txt"
check "the 0.1 snapshot holds the answers (more than 500 lines, no error)" yes \
	"$([ "$(wc -l <"$WORK/old.txt")" -gt 500 ] && ! grep -q ERROR "$WORK/old.txt" && echo yes || echo no)"
check "the failed release refuses answers (55000)" 55000 "$(st "$OLD" "SELECT pap.answer('r_failed', 'hours <= 5')")"

pg_dump -Fc -d "$OLD" -f "$WORK/old.pgc" 2>"$WORK/dump.err"
check "pg_dump of the 0.1 database" 0 "$?"

section "ALTER EXTENSION pap_release UPDATE (0.1 -> $CURRENT)"
check "ALTER EXTENSION pap_release UPDATE succeeds" 00000 "$(st "$OLD" "ALTER EXTENSION pap_release UPDATE")"
check "extversion is $CURRENT" "$CURRENT" "$(q "$OLD" "SELECT extversion FROM pg_extension WHERE extname = 'pap_release'")"
snapshot "$OLD" "$WORK/updated.txt"
same "every catalog row, budget, ledger row, release state and answer unchanged by the update" "$WORK/old.txt" "$WORK/updated.txt"
check "every release of 0.1 is in layout 1" "10 1 1" \
	"$(q "$OLD" "SELECT count(*) || ' ' || min(layout_version) || ' ' || max(layout_version) FROM pap.release_data")"
check "every budget of 0.1 is in epsilon, with no rho spent, and no charge of 0.1 in rho" "3 epsilon 0 0" \
	"$(q "$OLD" "SELECT count(*) || ' ' || min(unit) || ' ' || max(rho_spent) || ' ' || (SELECT count(rho) FROM pap.ledger)
	            FROM pap.budgets WHERE unit = 'epsilon' AND rho_total IS NULL")"

section "the 0.1 dump restored where CREATE EXTENSION installs $CURRENT"
createdb "$RESTORED"
pg_restore --exit-on-error -d "$RESTORED" "$WORK/old.pgc" 2>"$WORK/restore.err"
check "pg_restore of the 0.1 dump succeeds" 0 "$?"
head -5 "$WORK/restore.err"
check "... extversion is $CURRENT" "$CURRENT" \
	"$(q "$RESTORED" "SELECT extversion FROM pg_extension WHERE extname = 'pap_release'")"
snapshot "$RESTORED" "$WORK/restored.txt"
same "... every catalog row, budget, ledger row, release state and answer as in 0.1" "$WORK/old.txt" "$WORK/restored.txt"

section "a fresh install of $CURRENT has the objects of the upgraded one"
createdb "$FRESH"
q "$FRESH" "CREATE EXTENSION pap_release"
# Every member of the extension and what defines it: columns, defaults, storage, constraints, indexes, comments,
# privileges, function and view definitions, aggregates, sequences, event triggers, the dumped configuration.
OBJECTS_SQL=$(cat <<'EOF'
WITH m AS (SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
            WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'pap_release' AND d.deptype = 'e')
SELECT 'member ' || pg_describe_object(classid, objid, 0) FROM m
UNION ALL
SELECT format('column %s.%s %s notnull=%s default=%s storage=%s identity=%s comment=%s acl=%s', c.oid::regclass,
              a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid),
              a.attstorage, a.attidentity, col_description(c.oid, a.attnum), a.attacl)
  FROM m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
UNION ALL
SELECT format('relation %s kind=%s acl=%s comment=%s options=%s view=%s', c.oid::regclass, c.relkind, c.relacl,
              obj_description(c.oid, 'pg_class'), c.reloptions, CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END)
  FROM m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('constraint %s %s %s', co.conrelid::regclass, co.conname, pg_get_constraintdef(co.oid))
  FROM m JOIN pg_constraint co ON m.classid = 'pg_class'::regclass AND co.conrelid = m.objid
UNION ALL
SELECT format('index %s', pg_get_indexdef(i.indexrelid))
  FROM m JOIN pg_index i ON m.classid = 'pg_class'::regclass AND i.indrelid = m.objid
UNION ALL
SELECT format('sequence %s %s %s %s %s %s %s', s.seqrelid::regclass, s.seqtypid::regtype, s.seqstart, s.seqincrement,
              s.seqmax, s.seqmin, s.seqcycle)
  FROM m JOIN pg_sequence s ON m.classid = 'pg_class'::regclass AND s.seqrelid = m.objid
UNION ALL
SELECT format('routine %s kind=%s acl=%s comment=%s def=%s', p.oid::regprocedure, p.prokind, p.proacl,
              obj_description(p.oid, 'pg_proc'), CASE WHEN p.prokind <> 'a' THEN pg_get_functiondef(p.oid) END)
  FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
UNION ALL
SELECT format('aggregate %s %s %s %s %s %s %s %s %s', g.aggfnoid::regprocedure, g.aggtransfn, g.aggcombinefn,
              g.aggserialfn, g.aggdeserialfn, g.aggfinalfn, g.aggfinalmodify, g.aggtransspace, g.aggtranstype::regtype)
  FROM m JOIN pg_aggregate g ON m.classid = 'pg_proc'::regclass AND g.aggfnoid = m.objid
UNION ALL
SELECT format('event trigger %s %s %s %s %s', t.evtname, t.evtevent, t.evtfoid::regproc, t.evttags, t.evtenabled)
  FROM m JOIN pg_event_trigger t ON m.classid = 'pg_event_trigger'::regclass AND t.oid = m.objid
UNION ALL
SELECT format('schema %s acl=%s comment=%s', n.nspname, n.nspacl, obj_description(n.oid, 'pg_namespace'))
  FROM m JOIN pg_namespace n ON m.classid = 'pg_namespace'::regclass AND n.oid = m.objid
UNION ALL
SELECT format('initial privileges %s %s %s', pg_describe_object(i.classoid, i.objoid, i.objsubid), i.privtype, i.initprivs)
  FROM pg_init_privs i JOIN m ON m.classid = i.classoid AND m.objid = i.objoid
UNION ALL
SELECT format('extension %s relocatable=%s schema=%s config=%s conditions=%s', extversion, extrelocatable,
              extnamespace::regnamespace, extconfig::regclass[], extcondition)
  FROM pg_extension WHERE extname = 'pap_release'
ORDER BY 1
EOF
)
q "$OLD" "$OBJECTS_SQL" >"$WORK/objects_updated.txt" 2>&1
q "$FRESH" "$OBJECTS_SQL" >"$WORK/objects_fresh.txt" 2>&1
q "$RESTORED" "$OBJECTS_SQL" >"$WORK/objects_restored.txt" 2>&1
check "the object list names every kind (tables, views, functions, aggregate, event triggers)" 5 \
	"$(grep -cE '^(member table pap.release_data|member view pap.releases|member function pap.answer\(|aggregate pap.grid_counts|event trigger pap_release_sql_drop)' "$WORK/objects_fresh.txt")"
same "fresh install and updated database: the same objects" "$WORK/objects_fresh.txt" "$WORK/objects_updated.txt"
same "fresh install and restored 0.1 dump: the same objects" "$WORK/objects_fresh.txt" "$WORK/objects_restored.txt"

section "the updated and the restored database go on alike"
for db in "$OLD" "$RESTORED"; do
	q "$db" "SELECT pap.define_release('r_after', 'priv', 'pub', 'boxes(income, age)', alpha => 0.5)" \
		"SET pap_release.test_seed = 12" "CALL pap.run_release('r_after', 0.75)" >/dev/null
done
after_sql=(
	"SELECT layout_version FROM pap.release_data WHERE name = 'r_after'"
	"SELECT epsilon_spent || ' ' || delta_spent FROM pap.budgets WHERE private_table = 'priv'::regclass"
	"SELECT count(*) || ' ' || max(entry_id) FROM pap.ledger"
	"SELECT count(*) || ' answers, md5 ' || md5(string_agg(format('%s=%s', query, answer), '; ' ORDER BY cover_query)) FROM pap.answers('r_after')"
)
check "a release defined after the update is in layout 1" 1 "$(q "$OLD" "${after_sql[0]}")"
check "... the budget of priv charged once more (4.50 of 10)" "4.50 0" "$(q "$OLD" "${after_sql[1]}")"
check "... the ledger continues (10 entries, ids up to 10)" "10 10" "$(q "$OLD" "${after_sql[2]}")"
# docs/mechanisms.md §18, "Stored with the release": a run after the update stores the facts its answers read; the
# releases of 0.1 keep none and are answered from what the library computes, as the snapshots above compare.
check "... its run stored its answer facts (answer_facts and answer_gap_spreads, since 0.2)" "true true" \
	"$(q "$OLD" "SELECT (answer_facts ? 'event_projection') || ' ' || (cardinality(answer_gap_spreads) > 0) FROM pap.release_data WHERE name = 'r_after'")"
check "... the releases run under 0.1 have none" 0 \
	"$(q "$OLD" "SELECT count(*) FROM pap.release_data WHERE answer_facts IS NOT NULL AND name <> 'r_after'")"
after_labels=("its layout" "the budget" "the ledger" "its answers")
for i in "${!after_sql[@]}"; do
	check "... the restored database agrees: ${after_labels[$i]}" "$(q "$OLD" "${after_sql[$i]}")" \
		"$(q "$RESTORED" "${after_sql[$i]}")"
done

section "the layout marker"
q "$OLD" "UPDATE pap.release_data SET layout_version = 2 WHERE name = 'r_cdf'"
check "a release in a layout this library does not know is refused (0A000)" 0A000 \
	"$(st "$OLD" "SELECT pap.answer('r_cdf', 'income <= 500')")"
q "$OLD" "UPDATE pap.release_data SET layout_version = 1 WHERE name = 'r_cdf'"
check "... and answered again in layout 1" "$(q "$RESTORED" "SELECT pap.answer('r_cdf', 'income <= 500')")" \
	"$(q "$OLD" "SELECT pap.answer('r_cdf', 'income <= 500')")"

section "the right to spend: SELECT is enough under 0.1, the owner's grant is needed from $CURRENT on"
# docs/reference.md, "Upgrading": the update does not turn 0.1's readers into spenders; the owner grants the right.
SPEND=pap_upgrade_spend
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $SPEND" \
	-c "DROP ROLE IF EXISTS pap_upgrade_reader" -c "CREATE DATABASE $SPEND" -c "CREATE ROLE pap_upgrade_reader" >/dev/null
q "$SPEND" "CREATE EXTENSION pap_release VERSION '0.1'" \
	"CREATE TABLE t AS SELECT i % 40 AS x FROM generate_series(1, 400) AS i" \
	"CREATE TABLE s AS SELECT i % 40 AS x FROM generate_series(1, 100) AS i" \
	"GRANT SELECT ON t, s TO pap_upgrade_reader" "SELECT pap.set_budget('t', 3)" "SET ROLE pap_upgrade_reader" \
	"SELECT pap.define_release(r, 't', 's', 'thresholds(x)') FROM unnest(ARRAY['u1', 'u2']) AS r" >/dev/null
quiet="SET client_min_messages = warning"
check "0.1: a role with SELECT spends" 00000 "$(st "$SPEND" "$quiet" "SET ROLE pap_upgrade_reader" "CALL pap.run_release('u1', 1)")"
q "$SPEND" "ALTER EXTENSION pap_release UPDATE"
check "$CURRENT: the same role is refused without a grant (42501)" 42501 \
	"$(st "$SPEND" "$quiet" "SET ROLE pap_upgrade_reader" "CALL pap.run_release('u2', 1)")"
q "$SPEND" "SELECT pap.grant_spend('t', 'pap_upgrade_reader')" >/dev/null
check "... and spends once the owner grants the right" 00000 \
	"$(st "$SPEND" "$quiet" "SET ROLE pap_upgrade_reader" "CALL pap.run_release('u2', 1)")"
check "... charged twice in all" "2 2" "$(q "$SPEND" "SELECT count(*) || ' ' || sum(epsilon) FROM pap.ledger")"
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE $SPEND" \
	-c "DROP ROLE pap_upgrade_reader" >/dev/null

section "an operator of public's owner never binds the catalog's checks"
# 0.1's checks on the budgets compared a numeric with an integer by an unqualified operator, resolved on CREATE
# EXTENSION's search_path (public first): an owner of public that made numeric > integer had its function run as the
# catalog owner on every write of a budget. The update creates them again with pg_catalog's operators; a fresh
# install has them so.
HIJACK=pap_upgrade_hijack
decoy="CREATE FUNCTION public.decoy_gt(numeric, integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
       CREATE OPERATOR public.> (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = public.decoy_gt)"
bindings="SELECT count(*) FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_operator o ON d.refobjid = o.oid
          WHERE d.classid = 'pg_constraint'::regclass AND d.refclassid = 'pg_operator'::regclass
            AND o.oprcode = 'public.decoy_gt'::regproc"
for version in 0.1 "$CURRENT"; do
	createdb "$HIJACK"
	q "$HIJACK" "$decoy" "CREATE EXTENSION pap_release VERSION '$version'"
	if [ "$version" = 0.1 ]; then
		check "0.1's frozen script binds a budget check to the decoy (the test sees the binding)" 1 \
			"$(q "$HIJACK" "$bindings")"
		q "$HIJACK" "ALTER EXTENSION pap_release UPDATE"
		check "after the update to $CURRENT no check is bound to it" 0 "$(q "$HIJACK" "$bindings")"
	else
		check "a fresh install of $CURRENT binds no check to it" 0 "$(q "$HIJACK" "$bindings")"
	fi
	dropdb "$HIJACK"
done

section "the installing role's default privileges grant nothing on the catalog"
# ALTER DEFAULT PRIVILEGES of the role that creates the extension apply to the catalog's tables, views, sequences and
# schema as they are created: a role could have been given UPDATE on pap.budget_data (a budget raised, a charge
# erased) or CREATE on schema pap. The install and the update revoke every grant but USAGE on the schema and SELECT
# on the views, to PUBLIC, with the grants made from them (CASCADE); the update first refuses a catalog that such
# grants already changed (here a trigger on pap.budget_data, which would run as the catalog owner). The role's name
# needs quotes, as any name may.
DEFACL=pap_upgrade_defacl
OPS='"Pap Ops"'
extra="SELECT count(*) FROM (
         SELECT a.grantee, a.privilege_type, c.relname::text AS object FROM pg_catalog.pg_class c, aclexplode(c.relacl) a
          WHERE c.relnamespace = 'pap'::regnamespace AND a.grantee <> c.relowner
         UNION ALL
         SELECT a.grantee, a.privilege_type, 'schema' FROM pg_catalog.pg_namespace n, aclexplode(n.nspacl) a
          WHERE n.nspname = 'pap' AND a.grantee <> n.nspowner) g
        WHERE NOT (g.grantee = 0 AND ((g.privilege_type = 'USAGE' AND g.object = 'schema')
                   OR (g.privilege_type = 'SELECT' AND g.object IN ('budgets', 'ledger', 'releases', 'labellings',
                                                                      'labelled_rows', 'spenders', 'private_quantiles'))))"
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP ROLE IF EXISTS $OPS" \
	-c "DROP ROLE IF EXISTS pap_upgrade_other" -c "CREATE ROLE $OPS" -c "CREATE ROLE pap_upgrade_other" >/dev/null
for version in 0.1 "$CURRENT"; do
	createdb "$DEFACL"
	q "$DEFACL" "ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO $OPS WITH GRANT OPTION" \
		"ALTER DEFAULT PRIVILEGES GRANT ALL ON SEQUENCES TO $OPS" \
		"ALTER DEFAULT PRIVILEGES GRANT ALL ON SCHEMAS TO $OPS" \
		"ALTER DEFAULT PRIVILEGES GRANT INSERT, UPDATE ON TABLES TO PUBLIC" \
		"CREATE EXTENSION pap_release VERSION '$version'" 2>&1 | grep -v "^NOTICE"
	if [ "$version" = 0.1 ]; then
		check "0.1's frozen script leaves the default grants in place (the test sees them)" t \
			"$(q "$DEFACL" "SELECT ($extra) > 0 AND has_table_privilege('Pap Ops', 'pap.budget_data', 'UPDATE')")"
		q "$DEFACL" "CREATE SCHEMA ops AUTHORIZATION $OPS" "SET ROLE $OPS" \
			"GRANT SELECT ON pap.budget_data TO pap_upgrade_other" \
			"CREATE FUNCTION ops.evil() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'" \
			"CREATE TRIGGER evil BEFORE UPDATE ON pap.budget_data FOR EACH ROW EXECUTE FUNCTION ops.evil()"
		check "the update refuses a catalog with another role's trigger (P0001)" P0001 \
			"$(st "$DEFACL" "ALTER EXTENSION pap_release UPDATE")"
		q "$DEFACL" "DROP TRIGGER evil ON pap.budget_data"
		check "... and updates once it is dropped" 00000 "$(st "$DEFACL" "ALTER EXTENSION pap_release UPDATE")"
		check "after the update to $CURRENT no grant but the script's own stands (nor the one made from a grant)" \
			"0 false" "$(q "$DEFACL" "SELECT ($extra) || ' ' || has_table_privilege('pap_upgrade_other', 'pap.budget_data', 'SELECT')")"
	else
		check "a fresh install of $CURRENT keeps no grant but its own" 0 "$(q "$DEFACL" "$extra")"
	fi
	check "... and the role may not write a budget" f \
		"$(q "$DEFACL" "SELECT has_table_privilege('Pap Ops', 'pap.budget_data', 'UPDATE')")"
	dropdb "$DEFACL"
done
psql -X -q -d postgres -c "DROP ROLE $OPS" -c "DROP ROLE pap_upgrade_other" >/dev/null

section "done"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $OLD" -c "DROP DATABASE IF EXISTS $RESTORED" \
	-c "DROP DATABASE IF EXISTS $FRESH" >/dev/null
echo "upgrade: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
