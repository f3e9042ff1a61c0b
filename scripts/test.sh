#!/usr/bin/env bash
# Runs every test of pap_release on a fresh Debian 12 machine: installs what is missing, builds, then runs
# the GoogleTest suite of the core (plain and under ASan+UBSan), the bounded privacy audit, a bounded libFuzzer
# run, the pg_regress and isolation suites (pg_regress once more with force_parallel_mode = regress), the
# ledger-safety script and the others of test/ in throwaway clusters. Every step runs even if an earlier one
# failed; the last line is "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
begin=$SECONDS
bash scripts/install-deps.sh || exit 1
deps_done=$SECONDS
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
logs=$(mktemp -d)
declare -A step_pid  # the process group of each step running in the background, by name
# On exit (an interrupt included) the steps running in the background stop too, before their log directory goes.
trap 'for pid in "${step_pid[@]}"; do kill -- -"$pid" 2>/dev/null; done; rm -rf "$logs"' EXIT

echo "== build"
# WERROR: a warning of the core fails the build here (a user's build of the extension only warns).
make -s -j"$(nproc)" WERROR=-Werror && $SUDO make -s install || { echo "tests: 0 passed, 1 failed"; exit 1; }
# The test programs are one compiler run each: build them side by side on every core before the steps run them
# (a failed build here shows again, and counts, in its own step).
make -s -j"$(nproc)" WERROR=-Werror test/unit/run_unit_tests test/unit/run_unit_tests_sanitized test/audit/privacy_audit \
	test/fuzz/text_fuzzer >/dev/null 2>&1 || true
build_done=$SECONDS

passed=0; failed=0; timings=""
# step NAME COMMAND...: runs the command, shows its output, and adds its counts to the totals. A step's count
# is read from its own summary line when it prints one, otherwise the step counts as one test.
step() {
	local name=$1; shift
	echo "== $name"
	local status=0 start=$SECONDS
	"$@" 2>&1 | tee "$logs/$name.log" || status=$?
	account "$name" "$status" $((SECONDS - start))
}
# account NAME STATUS SECONDS: adds the counts of a step whose output is in $logs/NAME.log.
account() {
	local name=$1 status=$2 secs=$3
	local p f
	case "$name" in
	unit*)
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$logs/$name.log" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$logs/$name.log" | tail -1) ;;
	sql | sql-parallel-mode)
		p=$(grep -cE '\.\.\. ok' "$logs/$name.log")
		f=$(grep -cE '\.\.\. FAILED' "$logs/$name.log") ;;
	ledger | upgrade | stats)
		p=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p" "$logs/$name.log" | tail -1)
		f=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p" "$logs/$name.log" | tail -1) ;;
	*)
		p=0; f=0; [ "$status" -eq 0 ] && p=1 ;;
	esac
	p=${p:-0}; f=${f:-0}
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	[ "$status" -eq 0 ] || echo "== $name FAILED (exit $status)"
	timings+="$(printf '%-18s %5d s' "$name" "$secs")"$'\n'
}

# start_step NAME COMMAND...: runs a step in the background, in a process group of its own (setsid) so that the
# trap above stops it and its children together; its output is kept, and shown and counted by finish_step NAME.
start_step() {
	local name=$1; shift
	echo "== $name (in the background; its output follows later)"
	setsid bash -c 'name=$1 logs=$2; shift 2; start=$SECONDS; "$@" > "$logs/$name.log" 2>&1
		echo "$? $((SECONDS - start))" > "$logs/$name.status"' _ "$name" "$logs" "$@" &
	step_pid[$name]=$!
}
finish_step() {
	local name=$1 status secs
	wait "${step_pid[$name]}"
	unset "step_pid[$name]"
	echo "== $name"
	cat "$logs/$name.log"
	read -r status secs < "$logs/$name.status" || { status=1; secs=0; }
	account "$name" "$status" "$secs"
}

# Every C++ source as clang-format formats it (make format rewrites them).
step format make -s format-check
# clang-tidy with the checks of .clang-tidy on src/ (on every core).
step tidy make -s tidy
# The sanitized suite, one thread and the longest of the steps, runs beside the next five (one thread each) on the
# other core; its output is shown, and counted, after them.
start_step unit-sanitize make -s unit-sanitize
step unit make -s unit
step audit make -s audit
step fuzz make -s fuzz FUZZ_TIME="${FUZZ_TIME:-60}"
# pg_virtualenv creates a temporary cluster, runs the command with PGHOST/PGPORT/PGUSER set, then removes it.
step sql pg_virtualenv -t -v 15 make -s installcheck
[ -f regression.diffs ] && head -c 20000 regression.diffs
[ -f output_iso/regression.diffs ] && head -c 20000 output_iso/regression.diffs
# The pg_regress suite again with force_parallel_mode = regress, in a cluster of its own (Makefile,
# installcheck-parallel-mode): the same outputs when the parallel-safe functions run in parallel workers.
step sql-parallel-mode pg_virtualenv -t -v 15 make -s installcheck-parallel-mode
[ -f regression.diffs ] && head -c 20000 regression.diffs
finish_step unit-sanitize
# The reduced accuracy harness (one repetition, two epsilons; bash eval/run.sh runs the full experiment), one
# thread and the longest of the cluster steps, runs beside the next ones on the other core, in a cluster on a port
# of its own (pg_virtualenv takes the first free one from 5432 up, and two starting at once could both take it).
# The port is below Linux's ephemeral range (32768-60999): 55432, inside it, was once the source port of one of the
# next steps' client connections to localhost when the cluster started, and the bind failed. Above the scan from
# 5432 and below the multiserver test's remote servers (20000 up). It must complete and its outputs be well formed.
start_step eval-ci env PGPORT=15432 PAP_EVAL_NO_INSTALL=1 bash eval/run.sh --ci
step ledger pg_virtualenv -t -v 15 bash test/ledger/run_ledger_tests.sh
# With pg_stat_statements preloaded: a run's counters in it do not depend on the private values.
step stats pg_virtualenv -t -v 15 -o shared_preload_libraries=pg_stat_statements \
	bash test/stats/run_statement_stats_test.sh
# 0.1 installed from its frozen script, updated, dumped and restored: every budget, charge and answer kept.
step upgrade pg_virtualenv -t -v 15 bash test/upgrade/run_upgrade_test.sh
# The tutorial (docs/tutorial.md) in a throwaway cluster, about 5 seconds: every output must match the page's up to
# its numbers (bash scripts/tutorial.sh --write rewrites them).
step tutorial bash scripts/tutorial.sh
# Two extra local servers hold partitions of the private table as postgres_fdw foreign tables (docs/distributed.md).
step multiserver pg_virtualenv -t -v 15 bash test/multiserver/run_multiserver_test.sh
# Real data, bounded (1000 random boxes): prints max and mean errors of two multi-column releases (docs/experiments.md).
step experiment-classes bash scripts/experiments/classes.sh
finish_step eval-ci

# Each step's wall-clock time, to keep the whole under its budget (README, "Tests").
echo "== time per step"
printf '%-18s %5d s\n' install-deps $((deps_done - begin)) build $((build_done - deps_done))
printf '%s' "$timings"
printf '%-18s %5d s\n' total $((SECONDS - begin))
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
