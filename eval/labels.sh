#!/usr/bin/env bash
# The evaluation of private labels for public rows (docs/eval.md, "Private labels for public rows"). Runs the
# core's labelling entry points (PlanLabelling, RunLabelling: what pap.run_labelling calls after reading the
# tables; the SQL path itself is tested by sql/19_labels.sql) on ADULT and CPS1988 from data/, split 80% private,
# 10% public (labels hidden), 10% held out, against the same learner without privacy, the majority class and a
# private-only baseline at the same epsilon. No PostgreSQL cluster is needed.
#   bash eval/labels.sh        full: epsilon 0.5, 1, 2, 4; 3 repetitions; both learners. Writes
#                              eval/results/labels.csv, the section of docs/eval.md between its labels markers,
#                              and docs/eval/labels.png.
#   bash eval/labels.sh --ci   reduced (epsilon 1, 1 repetition): eval/results/labels-ci.csv,
#                              eval/results/ci/labels.md and eval/results/ci/labels.png; checks they are well formed.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=full
[ "${1:-}" = "--ci" ] && mode=ci
make -s -j2 build/unit/libpapcore.a
make -s -C eval labels_eval
mkdir -p eval/results eval/results/ci docs/eval
if [ "$mode" = ci ]; then
	csv=eval/results/labels-ci.csv; md=eval/results/ci/labels.md; png=eval/results/ci/labels.png
	eval/labels_eval data "$csv" --ci
else
	csv=eval/results/labels.csv; md=eval/results/labels.md; png=docs/eval/labels.png
	eval/labels_eval data "$csv"
fi

# Means over the repetitions, per data set, learner and epsilon ("-": no row was labelled in any repetition).
awk -F, 'NR > 1 {
	k = $1 "," $2 "," $3; keys[k] = 1; n[k]++; chunks[k] = $7; w[k] = $8; share[k] += $9
	if ($11 != "nan") { acc[k] += $11; m[k]++ }
	if ($10 != "nan") { lacc[k] += $10; lm[k]++ }
	np[k] = $12; maj[k] = $13; po[k] += $14
}
END {
	print "| data set | learner | epsilon | chunks | threshold w | labelled share | labels correct | final model | same learner, no privacy | majority class | private-only (noisy cells) |"
	print "|---|---|---|---|---|---|---|---|---|---|---|"
	for (k in keys) {
		split(k, p, ",")
		printf "| %s | %s | %s | %d | %d | %.2f%% | %s | %s | %.3f | %.3f | %.3f |\n", p[1], p[2], p[3], chunks[k], w[k],
		       100 * share[k] / n[k], lm[k] ? sprintf("%.3f", lacc[k] / lm[k]) : "-",
		       m[k] ? sprintf("%.3f (%d of %d)", acc[k] / m[k], m[k], n[k]) : "-", np[k], maj[k], po[k] / n[k]
	}
}' "$csv" | { read -r h1; read -r h2; echo "$h1"; echo "$h2"; sort -t'|' -k2,2 -k3,3 -k4,4n; } > "$md"

# The plot: the final model's held-out accuracy against epsilon, per data set and learner, with the baselines.
dat=$(mktemp); trap 'rm -f "$dat"' EXIT
awk -F, 'NR > 1 { k = $1 " " $2 " " $3; if ($11 != "nan") { a[k] += $11; m[k]++ } np[$1 " " $2] = $12; maj[$1] = $13; po[$1 " " $3] += $14; pn[$1 " " $3]++; e[$3] = 1 }
END { for (x in e) {
	printf "%s", x
	split("adult cps1988", ds, " ")
	for (i = 1; i <= 2; i++) {
		d = ds[i]
		printf " %s %s %s %s %s %s", (m[d " cells " x] ? a[d " cells " x] / m[d " cells " x] : "NaN"),
		       (m[d " logistic " x] ? a[d " logistic " x] / m[d " logistic " x] : "NaN"),
		       np[d " logistic"], maj[d], (pn[d " " x] ? po[d " " x] / pn[d " " x] : "NaN"), np[d " cells"]
	}
	printf "\n" } }' "$csv" | sort -n > "$dat"
gnuplot -e "in='$dat'; out='$png'" eval/labels_plot.gp
[ -s "$png" ] || { echo "labels: plot $png missing" >&2; exit 1; }
rows=$(tail -n +3 "$md" | wc -l)
[ "$rows" -ge 3 ] || { echo "labels: table $md has $rows rows" >&2; exit 1; }

if [ "$mode" = full ]; then
	# Replace the section between the markers of docs/eval.md, or append it.
	begin='<!-- labels:begin (eval/labels.sh writes this section) -->'; end='<!-- labels:end -->'
	section=$(mktemp)
	{
		echo "$begin"
		cat eval/labels-section.md
		echo
		cat "$md"
		echo
		echo "![held-out accuracy of the final model against epsilon](eval/labels.png)"
		echo "$end"
	} > "$section"
	if grep -qF "$begin" docs/eval.md; then
		awk -v b="$begin" -v e="$end" -v f="$section" '$0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == e { skip = 0; next } !skip' docs/eval.md > docs/eval.md.new && mv docs/eval.md.new docs/eval.md
	else
		{ echo; cat "$section"; } >> docs/eval.md
	fi
	rm -f "$section"
fi
echo "labels: $mode run done: $csv, $md, $png"
