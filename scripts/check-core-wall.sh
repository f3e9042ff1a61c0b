#!/usr/bin/env bash
# The wall between the core and PostgreSQL (docs/robustness.md), checked on the source text: no file under
# src/core (or the directory given) may include a PostgreSQL header or use a PostgreSQL error or memory call.
# core/core_only.hpp's static_assert catches a PostgreSQL header only when one is included before it; this
# check also catches a header included after it, and calls that would need no header of their own.
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
echo "check-core-wall: $dir is free of PostgreSQL headers and calls ($(find "$dir" -type f \( -name '*.cpp' -o -name '*.hpp' \) | wc -l) files)"
