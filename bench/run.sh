#!/usr/bin/env bash
# bench/: the speed figures of docs/bench.md, each a ratio against a floor measured in the same run.
#   bash bench/run.sh        tables of 1e5, 1e6 and 3e6 rows, 3 repetitions, ADULT reference run (about 15 min)
#   bash bench/run.sh --ci   1e5 and 1e6 rows, one repetition (under 4 minutes)
# Builds and installs pap_release (as scripts/demo.sh does), builds the libpq client bench/bench.cpp and the
# core-level program bench/pmw_pass.cpp, runs the client in a throwaway PostgreSQL 15 cluster (pg_virtualenv), and
# prints a markdown report that also goes to bench/results/<UTC date>[-ci].md with the machine described.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v pg_virtualenv >/dev/null || { echo "bench: run scripts/install-deps.sh first" >&2; exit 1; }
mode="${1:-}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
make -s -j2 >&2
$SUDO make -s install >&2
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
g++ -std=c++17 -O2 -Wall -Wextra -I"$(pg_config --includedir)" bench/bench.cpp -L"$(pg_config --libdir)" -lpq \
    -o "$build/bench"
make -s -j2 build/bench/pmw_pass >&2  # the core library (build/unit/libpapcore.a) and bench/pmw_pass.cpp
cp build/bench/pmw_pass "$build/pmw_pass"

mkdir -p bench/results
out="bench/results/$(date -u +%Y-%m-%d)${mode:+-ci}.md"
{
  echo "# pap_release benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')${mode:+ (--ci)}"
  echo
  echo "Produced by \`bash bench/run.sh $mode\` at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo
  echo "## Machine"
  echo
  echo '```'
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz|L2|L3)' || true
  free -h | head -2
  echo '```'
  "$build/pmw_pass" ${mode:+--ci}
  # pg_virtualenv's own lines ("Creating new PostgreSQL cluster ...") go to the terminal, not the report.
  pg_virtualenv -t -v 15 -o shared_buffers=512MB bash bench/inner.sh "$build/bench" $mode \
    | grep -v -E '^(Creating new PostgreSQL cluster|Dropping cluster) '
} | tee "$out"
echo "bench: written to $out" >&2
