#!/usr/bin/env bash
# Runs every test of pap_release on a fresh Debian 12 machine: installs what is missing, builds, runs the
# GoogleTest suite of the core, installs the extension and runs the pg_regress suite in a throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

echo "== build"
make -s -j"$(nproc)"
$SUDO make -s install

echo "== unit tests (GoogleTest, src/core)"
make -s unit

echo "== SQL tests (pg_regress in a throwaway cluster)"
# pg_virtualenv creates a temporary cluster, runs the command with PGHOST/PGPORT/PGUSER set, then removes it.
# pg_regress writes results/ into the tree, which the cluster's user must be able to write when run as root.
if ! pg_virtualenv -v 15 make -s installcheck; then
  [ -f regression.diffs ] && head -c 20000 regression.diffs
  exit 1
fi
