#!/usr/bin/env bash
# Runs the tutorial (docs/tutorial.md) in a throwaway PostgreSQL 15 cluster and checks it, or rewrites its outputs.
#   bash scripts/tutorial.sh            check: every ```sql block of docs/tutorial.md runs, in order, in one psql
#                                       session; every ```text block after it matches what the run printed up to
#                                       the numbers (noise changes them from run to run); docs/tutorial.sql is
#                                       the md's SQL
#   bash scripts/tutorial.sh --write    run, then put this run's outputs into docs/tutorial.md and its SQL into
#                                       docs/tutorial.sql
# docs/tutorial.md is the source: edit its prose and SQL there, then run --write. Needs the extension installed
# (make install); reads data/diamonds.csv.gz on the client side, from the repository's root.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--in-cluster" ]; then
	# pg_virtualenv creates a temporary cluster, sets PGHOST, PGPORT, PGUSER and PGDATABASE, runs the command and
	# removes the cluster; -t keeps it in a temporary directory (as scripts/demo.sh does).
	exec pg_virtualenv -t -v 15 bash scripts/tutorial.sh --in-cluster "$@"
fi
shift
mode=check
[ "${1:-}" = "--write" ] && mode=write

md=docs/tutorial.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The md's SQL blocks, in order, each preceded by a marker line that the run echoes; and docs/tutorial.sql,
#    the same SQL under the md's section titles.
awk -v run="$tmp/run.sql" -v sql="$tmp/tutorial.sql" '
	BEGIN {
		print "-- The SQL of docs/tutorial.md, written by bash scripts/tutorial.sh --write: edit the md, not this file." > sql
		print "-- Run from the repository root, in an empty database of a scratch cluster (it creates the role analyst):" > sql
		print "-- psql -X -f docs/tutorial.sql" > sql
	}
	/^```sql$/ { inside = 1; n++; printf "\\echo @@pap-tutorial-block %d@@\n", n > run; next }
	/^```$/ && inside { inside = 0; print "" > sql; next }
	inside { print > run; print > sql; next }
	/^## / { printf "\n-- %s\n\n", substr($0, 4) > sql }
' "$md"

# 2. One session, as a newcomer would type it. Errors do not stop it: the tutorial shows some on purpose, and
#    the check below compares them with the ones the md shows.
#    Messages in English whatever the machine's locale: the page shows them so.
LC_ALL=C.UTF-8 PGOPTIONS="-c lc_messages=C" psql -X -q -f "$tmp/run.sql" >"$tmp/run.out" 2>&1 || true
sed -i -E 's/^psql:[^:]*:[0-9]+: //' "$tmp/run.out"

# 3. The md with this run's outputs: a ```text block right after every ```sql block that printed something
#    (the old one, if any, is replaced).
awk -v out="$tmp/run.out" -v dir="$tmp" '
	BEGIN {
		while ((getline line < out) > 0) {
			if (line ~ /^@@pap-tutorial-block [0-9]+@@$/) { b = line; gsub(/[^0-9]/, "", b); b += 0; continue }
			if (b > 0) { text[b] = text[b] line "\n" }
		}
	}
	skip == 1 && /^```text$/ { skip = 2; next }
	skip == 2 { if ($0 ~ /^```$/) skip = 0; next }
	{ skip = 0 }
	/^```sql$/ { inside = 1; n++; print; next }
	/^```$/ && inside {
		inside = 0; print
		t = text[n]; sub(/\n+$/, "\n", t); if (t == "\n") t = ""
		if (t != "") { printf "```text\n%s```\n", t }
		skip = 1; next
	}
	{ print }
' "$md" >"$tmp/tutorial.md"

if [ "$mode" = write ]; then
	sed -E "s/^The outputs on this page were made on [^,]*,/The outputs on this page were made on $(date -u +%Y-%m-%d),/" \
		"$tmp/tutorial.md" >"$md"
	cp "$tmp/tutorial.sql" docs/tutorial.sql
	echo "tutorial: wrote $md and docs/tutorial.sql"
	exit 0
fi

# The skeleton of a tutorial: inside ```text blocks, numbers (and the dates and times they make) removed, then
# everything but letters, so that noise and column widths do not matter but headers, texts and errors do.
skeleton() {
	awk '
		/^```text$/ { inside = 1; print; next }
		/^```$/ && inside { inside = 0; print; next }
		inside {
			gsub(/[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/, "")
			gsub(/[^A-Za-z]/, "")
			if ($0 != "") print
			next
		}
		{ print }
	' "$1"
}
status=0
if ! diff -u <(skeleton "$md") <(skeleton "$tmp/tutorial.md") >"$tmp/skeleton.diff"; then
	echo "tutorial: the run's outputs differ from docs/tutorial.md beyond their numbers (- md, + run):"
	head -60 "$tmp/skeleton.diff"
	status=1
fi
if ! diff -u docs/tutorial.sql "$tmp/tutorial.sql" >"$tmp/sql.diff"; then
	echo "tutorial: docs/tutorial.sql is not the SQL of docs/tutorial.md (run bash scripts/tutorial.sh --write):"
	head -40 "$tmp/sql.diff"
	status=1
fi
blocks=$(grep -c '^```sql$' "$md")
errors=$(grep -c '^ERROR: ' "$tmp/run.out" || true)
if [ "$status" -eq 0 ]; then
	echo "tutorial: PASS ($blocks SQL blocks run, $errors errors, all as docs/tutorial.md shows)"
else
	echo "tutorial: FAIL (fix the md or the code, then: bash scripts/tutorial.sh --write)"
fi
exit "$status"
