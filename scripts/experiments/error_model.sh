#!/usr/bin/env bash
# The error model's measured check of docs/experiments.md: for a few releases on data/diamonds.csv.gz and
# data/adult.csv.gz (10% disjoint public sample, epsilon 1, auto), pap.plan's predicted max error over the class
# against the measured max error over a random workload of the class, over several runs (secure noise).
# Needs the extension installed (make install). Usage: error_model.sh [runs]  (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec pg_virtualenv -t -v 15 bash scripts/experiments/run-inner.sh error_model runs="${1:-5}" adult diamonds
