// A declared domain's jsonb, read by PostgreSQL's own jsonb operators (declared_domain.hpp).
#include "pg/declared_domain.hpp"

#include <cstring>

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
}

// One declaration's JSON type and the members it may have; from selects it from $1 (the domain) and $2 (the column).
static PapDeclaredColumn
ReadDeclaration(Datum domain, const char *column, const char *from)
{
	const char *sql = psprintf(
	    "SELECT v IS NOT NULL, pg_catalog.jsonb_typeof(v) OPERATOR(pg_catalog.=) 'object', "
	    "  EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(CASE pg_catalog.jsonb_typeof(v) WHEN 'object' THEN v "
	    "          ELSE '{}' END) k WHERE k OPERATOR(pg_catalog.<>) ALL "
	    "('{min,max,step,categories}'::pg_catalog.text[])), "
	    "  pg_catalog.jsonb_typeof(v OPERATOR(pg_catalog.->) 'min') OPERATOR(pg_catalog.=) 'number' "
	    "  AND pg_catalog.jsonb_typeof(v OPERATOR(pg_catalog.->) 'max') OPERATOR(pg_catalog.=) 'number' "
	    "  AND pg_catalog.jsonb_typeof(v OPERATOR(pg_catalog.->) 'step') OPERATOR(pg_catalog.=) 'number', "
	    "  (v OPERATOR(pg_catalog.->>) 'min')::pg_catalog.float8, (v OPERATOR(pg_catalog.->>) "
	    "'max')::pg_catalog.float8, "
	    "  (v OPERATOR(pg_catalog.->>) 'step')::pg_catalog.float8, "
	    "  pg_catalog.jsonb_typeof(v OPERATOR(pg_catalog.->) 'categories') OPERATOR(pg_catalog.=) 'array', "
	    "  CASE pg_catalog.jsonb_typeof(v OPERATOR(pg_catalog.->) 'categories') WHEN 'array' THEN ARRAY("
	    "    SELECT pg_catalog.jsonb_array_elements_text(v OPERATOR(pg_catalog.->) 'categories')) END "
	    "FROM (SELECT %s AS v) d",
	    from);
	Oid types[2] = {JSONBOID, TEXTOID};
	Datum values[2] = {domain, CStringGetTextDatum(column)};
	PapExecute(sql, strcmp(from, "$1") == 0 ? 1 : 2, types, values, true);
	PapDeclaredColumn d = {};
	bool isnull;
	HeapTuple row = SPI_tuptable->vals[0];
	TupleDesc desc = SPI_tuptable->tupdesc;
	auto flag = [&](int i) {
		const Datum v = SPI_getbinval(row, desc, i, &isnull);
		return !isnull && DatumGetBool(v);
	};
	d.present = flag(1);
	d.is_object = flag(2);
	d.has_unknown = flag(3);
	d.bounded = flag(4);
	if (d.bounded) {
		d.low = DatumGetFloat8(SPI_getbinval(row, desc, 5, &isnull));
		d.high = DatumGetFloat8(SPI_getbinval(row, desc, 6, &isnull));
		d.step = DatumGetFloat8(SPI_getbinval(row, desc, 7, &isnull));
	}
	d.has_categories = flag(8);
	if (d.has_categories) {
		Datum *elements;
		bool *element_nulls;
		int count;
		deconstruct_array(DatumGetArrayTypeP(SPI_getbinval(row, desc, 9, &isnull)), TEXTOID, -1, false, TYPALIGN_INT,
		                  &elements, &element_nulls, &count);
		d.categories = (char **)palloc(sizeof(char *) * (count ? count : 1));
		for (int i = 0; i < count; i++) {
			if (element_nulls[i])
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("the declared categories of column \"%s\" must not contain null", column)));
			d.categories[i] = TextDatumGetCString(elements[i]);
		}
		d.category_count = size_t(count);
	}
	SPI_freetuptable(SPI_tuptable);
	return d;
}

PapDeclaredColumn
PapReadDeclaredColumn(Datum domain, const char *column)
{
	return ReadDeclaration(domain, column, "$1 OPERATOR(pg_catalog.->) $2");
}

PapDeclaredColumn
PapReadDeclaration(Datum declaration, const char *column)
{
	return ReadDeclaration(declaration, column, "$1");
}

void
PapRequireDeclarationObject(const PapDeclaredColumn &d, const char *column)
{
	if (!d.is_object || d.has_unknown)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("the declaration of column \"%s\" must be an object with min, max and step, or with "
		                       "categories",
		                       column)));
}
