// The private scan of a partitioned table with foreign partitions, leaf by leaf (docs/distributed.md).
// postgres_fdw pushes a GROUP BY to the remote server only for a query on one foreign table (it never ships a
// partial aggregate), so a partitioned table whose partitions live on other servers is scanned one leaf at a
// time with the same GROUP BY, and the leaves' grid points are merged here. Include after postgres.h.
#pragma once

// C++ headers that use names PostgreSQL redefines as macros (snprintf) come before "postgres.h".
#include "pg/error_bridge.hpp"

extern "C" {
#include "postgres.h"
#include "nodes/pg_list.h"
}

// The leaves (OIDs) of relid to scan one by one, or NIL to scan relid as one table, as before. Non-NIL only
// when relid is a partitioned table with at least one foreign leaf and row-level security applies to none of
// relid and its leaves (a leaf's own policies apply only when it is queried directly). Locks every leaf
// (AccessShareLock). Says which path it chose, and why, at DEBUG1.
List *PapForeignPartitionLeaves(Oid relid);

// True when the current user may run sql (the scan of one leaf, with its parameter types) directly: the
// executor's own permission check (table or column privileges) on the parsed statement. Raises nothing for a
// missing privilege.
bool PapMayScanDirectly(const char *sql, const Oid *types, int nargs);

// Merges grid points scanned leaf by leaf: sorts the count points (axis_count coordinates each, flat) and adds
// the row counts of equal points, in place; *count becomes the number of distinct points. Raises 22003 if a
// sum overflows int64. O(count log count).
void PapMergeGridPoints(int32 *points, int64 *rows, size_t *count, size_t axis_count);
