// The catalog read and written by column name (catalog_columns.hpp).
#include "pg/catalog_columns.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
}

Datum
PapCatalogTextArray(const char *const *values, size_t count)
{
	Datum *d = (Datum *)palloc(sizeof(Datum) * (count + 1));
	for (size_t i = 0; i < count; i++)
		d[i] = CStringGetTextDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), TEXTOID, -1, false, TYPALIGN_INT));
}

bool
PapCatalogHasColumn(const char *table, const char *column)
{
	const Oid relid = get_relname_relid(table, get_namespace_oid("pap", false));
	if (!OidIsValid(relid))
		elog(ERROR, "pap_release: catalog table pap.%s does not exist", table);
	return get_attnum(relid, column) != InvalidAttrNumber;
}

uint64
PapCatalogInsert(const char *table, const PapCatalogValue *values, int count, const char *suffix)
{
	StringInfoData columns, parameters;
	initStringInfo(&columns);
	initStringInfo(&parameters);
	Oid *types = (Oid *)palloc(sizeof(Oid) * (count ? count : 1));
	Datum *datums = (Datum *)palloc(sizeof(Datum) * (count ? count : 1));
	int n = 0;
	for (int i = 0; i < count; i++) {
		if (values[i].optional && !PapCatalogHasColumn(table, values[i].column))
			continue;
		types[n] = values[i].type;
		datums[n] = values[i].value;
		n++;
		appendStringInfo(&columns, "%s%s", n > 1 ? ", " : "", quote_identifier(values[i].column));
		appendStringInfo(&parameters, "%s$%d", n > 1 ? ", " : "", n);
	}
	PapExecute(psprintf("INSERT INTO pap.%s (%s) VALUES (%s) %s", quote_identifier(table), columns.data,
	                    parameters.data, suffix),
	           n, types, datums, false);
	return SPI_processed;
}

Datum
PapCatalogGet(const PapCatalogRow *row, const char *column, bool optional, bool *isnull)
{
	const int attnum = SPI_fnumber(row->desc, column);
	if (attnum <= 0) {
		if (!optional)
			elog(ERROR, "pap_release: the catalog row has no column \"%s\"", column);
		*isnull = true;
		return (Datum)0;
	}
	return SPI_getbinval(row->tuple, row->desc, attnum, isnull);
}
