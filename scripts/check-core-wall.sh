#!/usr/bin/env bash
# The wall between the core and PostgreSQL (docs/robustness.md), checked on the source text: no file under
# src/core (or the directory given) may include a PostgreSQL header or use a PostgreSQL error or memory call.
# core/core_only.hpp's static_assert catches a PostgreSQL header only when one is included before it; this
# check also catches a header included after it, and calls that would need no header of their own.
# Inside the core, each folder includes only the folders its README.md names on its "May include:" line, those
# allowances form no cycle, and no header includes itself through others; the glue (src/pg) includes only the
# core headers src/core/api/README.md names on its "The glue may include:" line (docs/architecture.md).
# Exit status 1, with every offending line, if the wall is broken.
set -euo pipefail
dir=${1:-src/core}

# Includes: only "core/..." in quotes, and only headers outside PostgreSQL's include tree in angle brackets.
pg_header='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]((server|internal)/|(postgres|postgres_ext|postgres_fe|c|fmgr|funcapi|miscadmin|pgstat|pg_config|pg_config_manual|pg_config_os|pgtime|windowapi|libpq-fe|executor/spi)\.h|(access|catalog|commands|common|datatype|executor|foreign|jit|lib|libpq|mb|nodes|optimizer|parser|partitioning|port|postmaster|regex|replication|rewrite|snowball|statistics|storage|tcop|tsearch|utils)/)'
quoted_other='^[[:space:]]*#[[:space:]]*include[[:space:]]*"(core/)?[^"]*"'
# Calls: PostgreSQL's error reporting, memory contexts, SPI and longjmp. Matched as whole words outside // comments.
pg_words='ereport|elog|errmsg|errcode|palloc|palloc0|palloc_extended|repalloc|pfree|pstrdup|psprintf|MemoryContext[A-Za-z]*|CurrentMemoryContext|PG_TRY|PG_CATCH|PG_FINALLY|PG_RE_THROW|PG_END_TRY|CHECK_FOR_INTERRUPTS|SPI_[A-Za-z_]+|sigsetjmp|siglongjmp|longjmp|setjmp'

status=0
while IFS= read -r -d '' f; do
	if grep -nE "$pg_header" "$f" | sed "s|^|$f:|" | grep .; then status=1; fi
	if grep -nE "$quoted_other" "$f" | grep -vE '#[[:space:]]*include[[:space:]]*"core/' | sed "s|^|$f:|" | grep .; then
		status=1
	fi
	if sed -e 's://.*$::' "$f" | grep -nwE "$pg_words" | sed "s|^|$f:|" | grep .; then status=1; fi
done < <(find "$dir" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' \) -print0 | sort -z)

if [ "$status" -ne 0 ]; then
	echo "check-core-wall: the lines above break the wall: $dir must not include PostgreSQL headers or call" \
	     "ereport/elog/palloc and friends (move that code to src/pg)" >&2
	exit 1
fi

# The folders of the core and what each may include.
edges=$(mktemp); files=$(mktemp); trap 'rm -f "$edges" "$files"' EXIT
for folder in "$dir"/*/; do
	name=$(basename "$folder")
	readme="$folder/README.md"
	allowed=$(sed -n 's/^May include: *//p' "$readme" 2>/dev/null | head -1)
	if [ ! -f "$readme" ] || ! grep -q '^May include:' "$readme"; then
		echo "check-core-wall: $readme must say what the folder owns and end with a 'May include:' line" >&2
		status=1; continue
	fi
	case "$allowed" in "("*) allowed="";; esac
	for a in $allowed; do echo "$name $a" >> "$edges"; done
	while IFS= read -r line; do
		file=${line%%:*}; target=$(sed -E 's/.*#[[:space:]]*include[[:space:]]*"core\/([a-z_]+)\/.*/\1/' <<<"$line")
		[ "$target" = "$name" ] && continue
		if ! grep -qw -- "$target" <<<"$allowed"; then
			echo "$line   <- $name/ may not include $target/ (see $readme)"; status=1
		fi
	done < <(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"core/' "$folder"*.cpp "$folder"*.hpp 2>/dev/null)
	# file-level include edges, for the cycle check below
	for f in "$folder"*.cpp "$folder"*.hpp; do
		[ -f "$f" ] || continue
		sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"core\/([a-z_]+\/[a-z_]+\.hpp)".*/\1/p' "$f" |
			while read -r h; do echo "${f#"$dir"/} $h"; done >> "$files"
	done
done
# Every core file sits in a folder.
if loose=$(find "$dir" -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.hpp' \) | grep .); then
	echo "$loose   <- every core file belongs to a folder that names its stage" >&2; status=1
fi
if ! tsort "$edges" >/dev/null 2>&1; then
	echo "check-core-wall: the 'May include:' lines of $dir/*/README.md form a cycle:" >&2; tsort "$edges" 2>&1 >/dev/null | head -5 >&2
	status=1
fi
if ! tsort "$files" >/dev/null 2>&1; then
	echo "check-core-wall: an include cycle among the core's files:" >&2; tsort "$files" 2>&1 >/dev/null | head -5 >&2
	status=1
fi
# The glue includes only the API (and the hot path and error type the API's README names).
glue_allowed=$(sed -n 's/^The glue may include: *//p' "$dir/api/README.md" 2>/dev/null | head -1)
glue_dir="$(dirname "$dir")/pg"
if [ -d "$glue_dir" ]; then
	while IFS= read -r line; do
		header=$(sed -E 's/.*#[[:space:]]*include[[:space:]]*"core\/([^"]+)".*/\1/' <<<"$line")
		if ! grep -qwF -- "$header" <<<"$glue_allowed"; then
			echo "$line   <- src/pg may include only: $glue_allowed"; status=1
		fi
	done < <(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"core/' "$glue_dir"/*.cpp "$glue_dir"/*.hpp 2>/dev/null)
fi
if [ "$status" -ne 0 ]; then
	echo "check-core-wall: the lines above break the core's folder rules (docs/architecture.md)" >&2
	exit 1
fi
echo "check-core-wall: $dir is free of PostgreSQL headers and calls, its folders include only what they may," \
     "no include cycle ($(find "$dir" -type f \( -name '*.cpp' -o -name '*.hpp' \) | wc -l) files)"
