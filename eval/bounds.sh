#!/usr/bin/env bash
# The measured coverage of pap.answer_bounded (docs/eval-bounds.md): on the harness's data sets, splits and random
# workloads (docs/eval.md), the auto release of every cell and how many answers lie within their (1 - beta) bound,
# in a throwaway PostgreSQL 15 cluster (pg_virtualenv).
#   bash eval/bounds.sh        full: the harness's epsilons, public fractions, regimes and 5 repetitions:
#                              eval/results/bounds.csv
#   bash eval/bounds.sh --ci   reduced as eval/run.sh --ci: eval/results/bounds-ci.csv
# The totals are printed last. PAP_EVAL_NO_INSTALL=1 skips building and installing the extension; PAP_EVAL_REPS=k
# overrides the number of repetitions. Exits non-zero if a release or a bound fails.
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
csv=eval/results/bounds.csv
if [ "${1:-}" = "--ci" ]; then
	args=(--ci)
	csv=eval/results/bounds-ci.csv
fi
bash scripts/install-deps.sh
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ "${PAP_EVAL_NO_INSTALL:-0}" != 1 ]; then
	echo "== build and install the extension"
	make -s -j2
	$SUDO make -s install
fi
echo "== build the client"
make -s -C eval pap_eval
mkdir -p eval/results
pg_virtualenv -t -v 15 bash eval/run-inner.sh bounds "${args[@]}" "$csv"
