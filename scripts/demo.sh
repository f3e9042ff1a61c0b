#!/usr/bin/env bash
# The README's quick start: on a fresh Debian 12 machine, installs what is missing, builds and installs
# pap_release, then runs a private release of the CDF of diamond prices in a throwaway PostgreSQL 15 cluster
# (scripts/demo-inner.sh, scripts/demo.sql), and draws it into docs/demo-cdf.png (scripts/demo-plot.sh).
# Exits non-zero if any step or SQL statement fails, or if the released answers are not more accurate than the
# public sample alone (the demo's PASS/FAIL line).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

echo "== build"
make -s -j"$(nproc)"
$SUDO make -s install

echo "== demo (throwaway PostgreSQL 15 cluster)"
# pg_virtualenv creates a temporary cluster, runs the command with PGHOST/PGPORT/PGUSER/PGDATABASE set, then
# removes the cluster. -t keeps the cluster in a temporary directory even as root, so the demo never touches a
# cluster named "regress" that another run (scripts/test.sh) may be using. The data file is read by the client.
pg_virtualenv -t -v 15 bash scripts/demo-inner.sh
