// The catalog tables of schema pap read and written by column name (docs/development.md, "Evolving the catalog"):
// adding a column touches one list. The library serves every SQL version it can be loaded by, and a database keeps
// its older version's tables until ALTER EXTENSION pap_release UPDATE: a column added after 0.1 is marked optional,
// skipped by a write and read as NULL while the table lacks it. Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"

// How the axis and cell arrays of a release are laid out in pap.release_data (docs/query-classes.md): the layout
// this build writes and the only one it reads. A row without the column (0.1's table) is in layout 1.
constexpr int32 kPapCatalogLayoutVersion = 1;

// A value to write into a column of a catalog table.
struct PapCatalogValue {
	const char *column;
	Oid type;
	Datum value;
	bool optional;  // added after 0.1: not written while the table lacks it
};

// A text[] of count C strings (a catalog column's value; count 0 gives the empty array), in the current context.
Datum PapCatalogTextArray(const char *const *values, size_t count);

// Whether table (of schema pap) has the column now (a syscache lookup).
bool PapCatalogHasColumn(const char *table, const char *column);

// INSERT INTO pap.<table> (column, ...) VALUES ($1, ...) <suffix>: one parameter per value, in the order given,
// optional ones left out while the table lacks them. Runs as the current user (the caller switches to the catalog
// owner); returns SPI_processed.
uint64 PapCatalogInsert(const char *table, const PapCatalogValue *values, int count, const char *suffix);

// A row of an SPI result, read by column name.
struct PapCatalogRow {
	HeapTuple tuple;
	TupleDesc desc;
};
// The value of a column of the row (*isnull set). An optional column absent from the result reads as NULL; any
// other absent column is an internal error: the statement and its reader disagree.
Datum PapCatalogGet(const PapCatalogRow *row, const char *column, bool optional, bool *isnull);
