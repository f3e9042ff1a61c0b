// Columns closed to NULL by NOT NULL constraints (not_null.hpp).
#include "pg/not_null.hpp"

extern "C" {
#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "miscadmin.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

#include <cstring>

namespace {

// Whether one table's column is NOT NULL (a table that lacks the column stores no value of it: not closed).
bool
ColumnNotNull(Oid relid, const char *column)
{
	const AttrNumber attnum = get_attnum(relid, column);
	if (attnum <= 0)
		return false;
	Relation rel = table_open(relid, NoLock);  // locked by PapNotNullAxes (the root) or find_all_inheritors
	const bool not_null = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attnotnull;
	table_close(rel, NoLock);
	return not_null;
}

}  // namespace

const bool *
PapNotNullAxes(Oid relid, const pap::core::CatalogLayout &layout)
{
	// The root first, as every scan of the tree locks it (PapLockTreeOfOneOwner): find_all_inheritors locks the
	// members only, never relid itself, so without this a plain table (the tree of one) is read unlocked in the
	// scan's transaction (a DROP NOT NULL could commit before the scan locks it; table_open(NoLock) asserts), and
	// a partition locked before its parent could deadlock with DDL on the tree after the charge.
	PapLockTable(relid);
	List *tables = find_all_inheritors(relid, AccessShareLock, nullptr);
	bool *not_null = (bool *)palloc0(sizeof(bool) * (layout.axis_count + 1));
	bool any = false;
	for (size_t a = 0; a < layout.axis_count; a++) {
		const char *kind = layout.axis_kinds[a];
		if (strcmp(kind, "numeric") != 0 && strcmp(kind, "categorical") != 0)
			continue;  // a predicate or a linear axis reads no one column
		bool closed = true;
		ListCell *cell;
		foreach (cell, tables) {
			CHECK_FOR_INTERRUPTS();  // a tree may have many partitions
			const Oid table = lfirst_oid(cell);
			const char relkind = get_rel_relkind(table);
			if (relkind == RELKIND_PARTITIONED_TABLE)  // stores no row
				continue;
			if (relkind != RELKIND_RELATION || !ColumnNotNull(table, layout.axis_labels[a])) {
				closed = false;
				break;
			}
		}
		not_null[a] = closed;
		any = any || closed;
	}
	list_free(tables);
	if (!any) {
		pfree(not_null);
		return nullptr;
	}
	return not_null;
}
