// Columns closed to NULL by NOT NULL constraints (not_null.hpp).
#include "pg/not_null.hpp"

extern "C" {
#include "access/table.h"
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
	Relation rel = table_open(relid, NoLock);  // locked by PapTablesStoringRows
	const bool not_null = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attnotnull;
	table_close(rel, NoLock);
	return not_null;
}

// Whether the column is NOT NULL in every table of PapTablesStoringRows' list, none of them a foreign table.
bool
ColumnNotNullInTables(List *tables, bool all_plain, const char *column)
{
	if (!all_plain)
		return false;
	ListCell *cell;
	foreach (cell, tables) {
		CHECK_FOR_INTERRUPTS();  // a tree may have many partitions
		if (!ColumnNotNull(lfirst_oid(cell), column))
			return false;
	}
	return true;
}

}  // namespace

bool
PapColumnNotNullInTree(Oid relid, const char *column)
{
	bool all_plain = false;
	List *tables = PapTablesStoringRows(relid, &all_plain);
	const bool closed = ColumnNotNullInTables(tables, all_plain, column);
	list_free(tables);
	return closed;
}

const bool *
PapNotNullAxes(Oid relid, const pap::core::CatalogLayout &layout)
{
	bool all_plain = false;
	List *tables = PapTablesStoringRows(relid, &all_plain);  // locked whatever the axes: the run's scan relies on it
	bool *not_null = (bool *)palloc0(sizeof(bool) * (layout.axis_count + 1));
	bool any = false;
	for (size_t a = 0; a < layout.axis_count; a++) {
		const char *kind = layout.axis_kinds[a];
		if (strcmp(kind, "numeric") != 0 && strcmp(kind, "categorical") != 0)
			continue;  // a predicate or a linear axis reads no one column
		not_null[a] = ColumnNotNullInTables(tables, all_plain, layout.axis_labels[a]);
		any = any || not_null[a];
	}
	list_free(tables);
	if (!any) {
		pfree(not_null);
		return nullptr;
	}
	return not_null;
}
