#!/usr/bin/env bash
# Draws the demo's picture, docs/demo-cdf.png: called by scripts/demo.sql (psql's \!) inside the demo's cluster,
# after it wrote every threshold's released, exact and public-only answer to the file named in PAP_DEMO_CURVES.
# The title's epsilon and row counts are read from pap.releases; the date is today's (UTC).
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/demo-cdf.png
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "No picture: gnuplot is missing (bash scripts/install-deps.sh installs it)."
	exit 0
fi
read -r epsilon private_rows public_rows < <(psql -X -A -t -F ' ' -c \
	"SELECT epsilon, private_rows, public_rows FROM pap.releases WHERE name = 'price_cdf'")
gnuplot -e "in='$PAP_DEMO_CURVES'; out='$out'; epsilon='$epsilon'; private_rows='$private_rows'; public_rows='$public_rows'; day='$(date -u +%Y-%m-%d)'" \
	scripts/demo-cdf.gp
echo "Picture of the three curves and their errors: $out"
