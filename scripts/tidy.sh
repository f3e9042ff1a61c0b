#!/usr/bin/env bash
# Runs clang-tidy (checks in .clang-tidy) on the C++ files given, on every core; prints the findings and exits 1
# if there is any. Files under src/pg are compiled against PostgreSQL's server headers ($PG_INCLUDES).
set -uo pipefail
tidy=${CLANG_TIDY:-clang-tidy-14}
log=$(mktemp); trap 'rm -f "$log"' EXIT
run() {  # one file
	local extra=()
	case "$1" in src/pg/*) read -r -a extra <<<"${PG_INCLUDES:-} -D_GNU_SOURCE -Wno-register" ;; esac
	"$tidy" --quiet "$1" -- -std=c++17 -Isrc "${extra[@]}" 2>&1 |
		grep -vE '^[0-9]+ warnings? generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter'
}
export -f run; export tidy PG_INCLUDES
printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} bash -c 'run "$1"' _ {} > "$log"
if grep -qE '(warning|error):' "$log"; then
	cat "$log"
	echo "tidy: findings above (checks and why: .clang-tidy)" >&2
	exit 1
fi
echo "tidy: $# files, no finding"
