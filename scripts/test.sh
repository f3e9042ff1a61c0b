#!/usr/bin/env bash
# Runs every test of pap_release on a fresh Debian 12 machine: installs what is missing, builds, runs the
# GoogleTest suite of the core, installs the extension and runs the pg_regress suite in a throwaway cluster.
# Ends with one summary line "tests: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

echo "== build"
make -s -j"$(nproc)"
$SUDO make -s install

echo "== unit tests (GoogleTest, src/core)"
unit_status=0
make -s unit 2>&1 | tee "$logs/unit.log" || unit_status=$?

echo "== SQL tests (pg_regress in a throwaway cluster)"
# pg_virtualenv creates a temporary cluster, runs the command with PGHOST/PGPORT/PGUSER set, then removes it.
sql_status=0
pg_virtualenv -t -v 15 make -s installcheck 2>&1 | tee "$logs/sql.log" || sql_status=$?
if [ "$sql_status" -ne 0 ] && [ -f regression.diffs ]; then head -c 20000 regression.diffs; fi

# One summary over both suites (GoogleTest: "[  PASSED  ] N tests", "[  FAILED  ] N tests";
# pg_regress: "test name ... ok" / "... FAILED").
unit_passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$logs/unit.log" | tail -1)
unit_failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$logs/unit.log" | tail -1)
sql_passed=$(grep -cE '^(test |ok |     )?[[:alnum:]_]+ +\.\.\. ok' "$logs/sql.log" || true)
sql_failed=$(grep -cE '\.\.\. FAILED' "$logs/sql.log" || true)
passed=$(( ${unit_passed:-0} + ${sql_passed:-0} ))
failed=$(( ${unit_failed:-0} + ${sql_failed:-0} ))
if [ "$unit_status" -ne 0 ] || [ "$sql_status" -ne 0 ]; then
  [ "$failed" -gt 0 ] || failed=1
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
