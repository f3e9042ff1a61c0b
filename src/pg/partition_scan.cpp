// The leaf-by-leaf private scan of a partitioned table with foreign partitions (partition_scan.hpp).
#include "pg/partition_scan.hpp"

extern "C" {
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "common/int.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "parser/analyze.h"
#include "port.h"
#include "storage/lmgr.h"
#include "tcop/tcopprot.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
}

List *
PapForeignPartitionLeaves(Oid relid)
{
	if (get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE)
		return NIL;
	// The locks the scan through the parent would take, taken first: the parent, then every partition.
	LockRelationOid(relid, AccessShareLock);
	const char *name = get_rel_name(relid);
	List *all = find_all_inheritors(relid, AccessShareLock, NULL);
	List *leaves = NIL;
	int foreign = 0;
	ListCell *lc;
	foreach (lc, all) {
		const Oid child = lfirst_oid(lc);
		const char kind = get_rel_relkind(child);
		if (kind != RELKIND_RELATION && kind != RELKIND_FOREIGN_TABLE)
			continue;  // the parent itself and intermediate partitioned tables hold no rows
		// Queried directly, a leaf applies its own policies and not the parent's: with row-level security on
		// either side the two paths could read different rows, so keep PostgreSQL's (the parent's).
		if (check_enable_rls(child, InvalidOid, true) == RLS_ENABLED) {
			elog(DEBUG1, "pap_release: scanning %s through its parent: row-level security applies to partition %s",
			     name, get_rel_name(child));
			return NIL;
		}
		foreign += kind == RELKIND_FOREIGN_TABLE;
		leaves = lappend_oid(leaves, child);
	}
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED) {
		elog(DEBUG1, "pap_release: scanning %s through its parent: row-level security applies to it", name);
		return NIL;
	}
	// Local partitions alone gain nothing from the split (the parent's plan may run them in parallel).
	if (foreign == 0) {
		elog(DEBUG1, "pap_release: scanning %s through its parent: no partition is a foreign table", name);
		return NIL;
	}
	elog(DEBUG1, "pap_release: %s has %d partitions, %d of them foreign", name, list_length(leaves), foreign);
	return leaves;
}

bool
PapMayScanDirectly(const char *sql, const Oid *types, int nargs)
{
	// Parse analysis reads no rows and checks no privilege; the executor's check then sees exactly the tables
	// and columns the statement would read, so column privileges count as they would at execution.
	RawStmt *stmt = linitial_node(RawStmt, pg_parse_query(sql));
	Query *query = parse_analyze_fixedparams(stmt, sql, types, nargs, NULL);
	return ExecCheckRTPerms(query->rtable, false);
}

// Orders point indexes by their coordinates (lexicographic).
struct PointOrder {
	const int32 *points;
	size_t axis_count;
};

static int
ComparePoints(const void *a, const void *b, void *arg)
{
	const PointOrder *order = (const PointOrder *)arg;
	const int32 *x = order->points + *(const size_t *)a * order->axis_count;
	const int32 *y = order->points + *(const size_t *)b * order->axis_count;
	for (size_t i = 0; i < order->axis_count; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

void
PapMergeGridPoints(int32 *points, int64 *rows, size_t *count, size_t axis_count)
{
	const size_t n = *count;
	if (n == 0)
		return;
	size_t *order = (size_t *)palloc_extended(sizeof(size_t) * n, MCXT_ALLOC_HUGE);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	PointOrder arg = {points, axis_count};
	qsort_arg(order, n, sizeof(size_t), ComparePoints, &arg);
	// Sorted copies first: the merge then writes each point at or before its place in the copy.
	int32 *sorted_points = (int32 *)palloc_extended(sizeof(int32) * n * axis_count + 1, MCXT_ALLOC_HUGE);
	int64 *sorted_rows = (int64 *)palloc_extended(sizeof(int64) * n, MCXT_ALLOC_HUGE);
	for (size_t i = 0; i < n; i++) {
		memcpy(sorted_points + i * axis_count, points + order[i] * axis_count, sizeof(int32) * axis_count);
		sorted_rows[i] = rows[order[i]];
		if ((i & 65535) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		const int32 *p = sorted_points + i * axis_count;
		if (out > 0 && memcmp(points + (out - 1) * axis_count, p, sizeof(int32) * axis_count) == 0) {
			if (pg_add_s64_overflow(rows[out - 1], sorted_rows[i], &rows[out - 1]))
				ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				                errmsg("row count of a grid point out of range for bigint")));
			continue;
		}
		memcpy(points + out * axis_count, p, sizeof(int32) * axis_count);
		rows[out] = sorted_rows[i];
		out++;
	}
	pfree(order);
	pfree(sorted_points);
	pfree(sorted_rows);
	*count = out;
}
