#!/usr/bin/env bash
# Run by eval/run.sh and eval/bounds.sh inside the throwaway cluster: loads the data sets of data/ client side into
# tables adult_raw, diamonds_raw, cps_raw and movielens_raw (scripts/load-data.sh), creates the harness's SQL helpers
# (eval/eval.sql) and runs the client. Usage: run-inner.sh [bounds] [--ci] OUT.csv
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/load-data.sh --suffix _raw adult diamonds cps movielens
psql -X -q -v ON_ERROR_STOP=1 -f eval/eval.sql
mode=run
if [ "${1:-}" = bounds ]; then mode=bounds; shift; fi
exec eval/pap_eval "$mode" "$@"
