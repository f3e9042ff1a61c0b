#!/usr/bin/env bash
# The query-class experiment of docs/experiments.md on real data, in a throwaway cluster (pg_virtualenv):
#   ADULT     marginals(3; all 14 columns), 10% disjoint public sample, public-support domain;
#   diamonds  boxes(carat, price), 10% disjoint public sample, full grid with alpha-driven cut points.
# Prints max and mean error of the released answers beside the public sample alone. Needs the extension
# installed (bash scripts/test.sh or make install). Usage: classes.sh [--full]  (--full: 20000 random boxes
# instead of 1000).
set -euo pipefail
cd "$(dirname "$0")/../.."
boxes=1000
[ "${1:-}" = "--full" ] && boxes=20000
exec pg_virtualenv -t -v 15 bash scripts/experiments/run-inner.sh classes boxes="$boxes" adult diamonds
