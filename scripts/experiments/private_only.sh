#!/usr/bin/env bash
# The private-only check of docs/experiments.md: on data/diamonds.csv.gz (10% disjoint public sample), the CDF of
# price released with the public table (pap.define_release) against the same class and epsilon over a declared
# domain without it (pap.define_private_release), measured as the largest error over a common grid of thresholds,
# beside pap.plan's predictions; then the interior-point rate of the exponential-mechanism median against n over
# the n of its guarantee (scripts/experiments/interior_point.cpp, linked against build/unit/libpapcore.a).
# Needs the extension installed (make install) and `make unit` built. Usage: private_only.sh [runs] (default 3).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-3}"
g++ -std=c++17 -O2 -Isrc scripts/experiments/interior_point.cpp build/unit/libpapcore.a -o build/interior_point
build/interior_point 2000 | tee build/interior_point.csv
exec pg_virtualenv -t -v 15 bash scripts/experiments/run-inner.sh private_only runs="$runs" diamonds
