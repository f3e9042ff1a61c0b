#!/usr/bin/env bash
# The accuracy harness (docs/eval.md): pap_release's mechanisms against public-only, identity, hierarchical
# and MWEM over data-independent grids, noisy marginal tables, and PMW^Pub, on diamonds, ADULT, CPS1988 and
# movielens, in a throwaway PostgreSQL 15 cluster (pg_virtualenv).
#   bash eval/run.sh        full: epsilon 0.1, 0.5, 1, 2; 5 repetitions; 1% and 10% public; random and shifted
#                           samples. Writes eval/results/full.csv, docs/eval.md and docs/eval/*.png.
#   bash eval/run.sh --report  the report alone (docs/eval.md, docs/eval/*.png) from eval/results/full.csv as it is.
#   bash eval/run.sh --ci   reduced (1 repetition, fewer epsilons and fractions, smaller query sets): eval/results/ci.csv,
#                           eval/results/ci/eval.md and eval/results/ci/*.png; checks only that it completes and
#                           that its outputs are well formed.
# Exits non-zero if a step fails, a run fails with an unexpected error, or an output is malformed or missing.
# PAP_EVAL_NO_INSTALL=1 skips building and installing the extension (when it is installed already);
# PAP_EVAL_REPS=k overrides the number of repetitions; PAP_EVAL_FIRST_REP=k starts at repetition k, and with it,
# PAP_EVAL_ONLY, PAP_EVAL_METHODS or PAP_EVAL_EPSILONS a full run is merged into eval/results/full.csv (its rows
# replace those of the same workload, public fraction, regime, epsilon, repetition and method).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=full
[ "${1:-}" = "--ci" ] && mode=ci
# --report: the report of the full run alone, from eval/results/full.csv as it is (no experiment is run).
report_only=0
[ "${1:-}" = "--report" ] && report_only=1
bash scripts/install-deps.sh
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ "${PAP_EVAL_NO_INSTALL:-0}" != 1 ] && [ "$report_only" = 0 ]; then
	echo "== build and install the extension"
	make -s -j2
	$SUDO make -s install
fi
echo "== build the client"
make -s -C eval pap_eval

mkdir -p eval/results
if [ "$mode" = ci ]; then
	csv=eval/results/ci.csv; doc=eval/results/ci/eval.md; plots=eval/results/ci; img=""; args=(--ci)
else
	csv=eval/results/full.csv; doc=docs/eval.md; plots=docs/eval; img="eval/"; args=()
fi
mkdir -p "$plots" eval/results/plot-data
start=$(date +%s)
[ "$report_only" = 1 ] || echo "== experiments ($mode) in a throwaway cluster"
# A partial full run (PAP_EVAL_ONLY, PAP_EVAL_METHODS, PAP_EVAL_EPSILONS or PAP_EVAL_FIRST_REP set) is merged into
# the CSV that is there: its rows replace those of the same workload, public fraction, regime, epsilon, repetition and
# method, every other row is kept, and the report covers them all.
if [ "$report_only" = 1 ]; then
	[ -s "$csv" ] || { echo "eval: --report needs $csv" >&2; exit 1; }
elif [ "$mode" = full ] && [ -n "${PAP_EVAL_ONLY:-}${PAP_EVAL_METHODS:-}${PAP_EVAL_EPSILONS:-}${PAP_EVAL_FIRST_REP:-}" ] &&
	[ -s "$csv" ]; then
	# The partial run's rows go to a file of their own, kept (and named) if the run or the merge fails.
	part=eval/results/partial-$(date +%Y%m%d-%H%M%S).csv
	trap 'echo "eval: the partial run was not merged; its rows are in $part" >&2' ERR
	pg_virtualenv -t -v 15 bash eval/run-inner.sh "${args[@]}" "$part"
	head -1 "$part" | cmp -s - <(head -1 "$csv") || { echo "eval: $csv has another header; $part not merged" >&2; exit 1; }
	merged=$(mktemp --suffix=.csv)
	# Fields 2 and 4-8: workload, public fraction, regime, epsilon, repetition and method (no field up to them holds a
	# comma).
	awk -F, 'NR == FNR { if (FNR > 1) replaced[$2 "," $4 "," $5 "," $6 "," $7 "," $8] = 1; next }
	         FNR == 1 || !(($2 "," $4 "," $5 "," $6 "," $7 "," $8) in replaced)' "$part" "$csv" > "$merged"
	tail -n +2 "$part" >> "$merged"
	cat "$merged" > "$csv"  # the CSV keeps its mode
	rm -f "$merged" "$part"
	trap - ERR
else
	pg_virtualenv -t -v 15 bash eval/run-inner.sh "${args[@]}" "$csv"
fi
echo "== report"
rm -f eval/results/plot-data/*.dat
# The labellings' section of docs/eval.md is written by eval/labels.sh: kept across this rewrite.
labels_section=""
if [ "$mode" = full ] && grep -qF '<!-- labels:begin' "$doc"; then
	labels_section=$(sed -n '/<!-- labels:begin/,/<!-- labels:end -->/p' "$doc")
fi
eval/pap_eval report "$csv" "$doc" eval/results/plot-data "$img"
if [ -n "$labels_section" ]; then
	printf '\n%s\n' "$labels_section" >> "$doc"
fi
for dat in eval/results/plot-data/*.dat; do
	name=$(basename "$dat" .dat)
	columns=$(head -1 "$dat" | wc -w)
	gnuplot -e "in='$dat'; out='$plots/$name.png'; name='$name'; columns=$columns" eval/plot.gp 2>/dev/null
	[ -s "$plots/$name.png" ] || { echo "eval: plot $plots/$name.png missing" >&2; exit 1; }
done
n=$(ls eval/results/plot-data/*.dat | wc -l)
expected=$(tail -n +2 "$csv" | cut -d, -f2,4,5 | sort -u | wc -l)
[ "$n" -eq "$expected" ] || { echo "eval: expected $expected plots (workload x public fraction x regime), got $n" >&2; exit 1; }
echo "eval: $mode run done in $(( $(date +%s) - start )) s: $csv, $doc, $plots/*.png"
