#!/usr/bin/env bash
# Run by the experiments of this folder (classes.sh, error_model.sh, private_only.sh) inside their throwaway cluster:
# loads the data sets they name (scripts/load-data.sh), then runs the experiment's SQL file with one psql variable.
#   run-inner.sh EXPERIMENT NAME=VALUE DATA_SET...   runs scripts/experiments/EXPERIMENT.sql with -v NAME=VALUE
set -euo pipefail
cd "$(dirname "$0")/../.."
experiment="$1"
variable="$2"
shift 2
bash scripts/load-data.sh "$@"
exec psql -X -q -v ON_ERROR_STOP=1 -v "$variable" -f "scripts/experiments/$experiment.sql"
