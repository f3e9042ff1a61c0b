// pap.define_release and pap.drop_release: a release's cover and cells come from the public table only.
#include "core/release_engine.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"

#include <cmath>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_define_release);
PG_FUNCTION_INFO_V1(pap_drop_release);
}

static void
RequireProbability(const char *what, double value)
{
	if (!(std::isfinite(value) && value > 0.0 && value < 1.0))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must be in (0, 1), got %g", what, value)));
}

static Datum
Float8ArrayDatum(const double *values, size_t count)
{
	Datum *d = (Datum *) palloc(sizeof(Datum) * (count ? count : 1));
	for (size_t i = 0; i < count; i++)
		d[i] = Float8GetDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

static Datum
Int8ArrayDatum(const int64 *values, size_t count)
{
	Datum *d = (Datum *) palloc(sizeof(Datum) * (count ? count : 1));
	for (size_t i = 0; i < count; i++)
		d[i] = Int64GetDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

// The SQL expression that places a column's value on its axis, shared by the public and the private scan.
static char *
AxisExpression(const char *column, PapValueType type)
{
	const char *col = quote_identifier(column);
	if (type == PAP_VALUE_NUMBER)
		return psprintf("pap.axis_value((%s)::pg_catalog.float8)", col);
	return psprintf("pap.axis_value(%s)", col);
}

char *
PapHistogramQuery(Oid relid, const char *column, PapValueType type)
{
	return psprintf("SELECT pap.cell_index($1, %s) AS cell, pg_catalog.count(*) AS rows FROM %s GROUP BY 1",
	                AxisExpression(column, type), PapQualifiedRelationName(relid));
}

extern "C" Datum
pap_define_release(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Oid private_table = PG_GETARG_OID(1);
	Oid public_table = PG_GETARG_OID(2);
	char *class_text = text_to_cstring(PG_GETARG_TEXT_PP(3));
	double alpha = PG_GETARG_FLOAT8(4);
	double beta = PG_GETARG_FLOAT8(5);

	if (name[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("release name must not be empty")));
	RequireProbability("alpha", alpha);
	RequireProbability("beta", beta);
	pap::core::ParsedClass parsed;
	PAP_CORE(parsed = pap::core::ParseClassForDefine(class_text, PapAllocate));
	char *private_name = PapQualifiedRelationName(private_table);
	char *public_name = PapQualifiedRelationName(public_table);
	if (private_table == public_table)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("the public table must not be the private table"),
		                errdetail("The public table is read without privacy; it must hold rows other than the "
		                          "private ones.")));
	PapRequireSelect(private_table);
	PapRequireSelect(public_table);
	Oid private_type, public_type;
	PapValueType type = PapValueTypeOfColumn(private_table, parsed.column, &private_type);
	PapValueType public_value_type = PapValueTypeOfColumn(public_table, parsed.column, &public_type);
	if (type != public_value_type)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
		                errmsg("column \"%s\" has type %s in %s but %s in %s", parsed.column,
		                       format_type_be(private_type), private_name, format_type_be(public_type), public_name)));
	const char *user = GetUserNameFromId(GetUserId(), false);

	SPI_connect();
	Oid name_type[1] = {TEXTOID};
	Datum name_value[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT 1 FROM pap.release_data WHERE name OPERATOR(pg_catalog.=) $1", 1, name_type, name_value, true);
	PapRestoreUser(&saved);
	if (SPI_processed > 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("release \"%s\" already exists", name)));

	// The public table, read with the caller's rights: distinct axis positions and their row counts.
	PapExecute(psprintf("SELECT %s AS v, pg_catalog.count(*) FROM %s GROUP BY 1", AxisExpression(parsed.column, type),
	                    public_name),
	           0, NULL, NULL, true);
	const uint64 groups = SPI_processed;
	double *values = (double *) palloc(sizeof(double) * (groups + 1));
	int64 *counts = (int64 *) palloc(sizeof(int64) * (groups + 1));
	size_t value_count = 0;
	int64 null_rows = 0;
	for (uint64 i = 0; i < groups; i++) {
		bool isnull_v, isnull_c;
		Datum v = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull_v);
		int64 c = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull_c));
		if (isnull_v) {
			null_rows += c;
			continue;
		}
		values[value_count] = DatumGetFloat8(v);
		counts[value_count++] = c;
	}
	pap::core::DefinedRelease defined;
	PAP_CORE(defined = pap::core::BuildDefinedRelease(parsed.canonical_text, values, counts, value_count, null_rows,
	                                                  size_t(pap_max_cover_queries), PapAllocate));

	Oid types[13] = {TEXTOID, REGCLASSOID, REGCLASSOID, TEXTOID, TEXTOID, TEXTOID, FLOAT8OID,
	                 FLOAT8OID, INT8OID, FLOAT8ARRAYOID, INT8ARRAYOID, INT8OID, INT8OID};
	Datum args[13] = {CStringGetTextDatum(name),
	                  ObjectIdGetDatum(private_table),
	                  ObjectIdGetDatum(public_table),
	                  CStringGetTextDatum(parsed.canonical_text),
	                  CStringGetTextDatum(parsed.column),
	                  CStringGetTextDatum(PapValueTypeName(type)),
	                  Float8GetDatum(alpha),
	                  Float8GetDatum(beta),
	                  Int64GetDatum(defined.public_rows),
	                  Float8ArrayDatum(defined.cuts, defined.cut_count),
	                  Int8ArrayDatum(defined.public_histogram, defined.cell_count),
	                  Int64GetDatum(defined.cover_size),
	                  Int64GetDatum(int64(defined.cell_count))};
	PapBecomeCatalogOwner(&saved);
	PapExecute(psprintf("INSERT INTO pap.release_data (name, private_table, public_table, query_class, column_name, "
	                    "value_type, alpha, beta, public_rows, cuts, public_histogram, cover_size, cell_count, "
	                    "defined_by, defined_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, "
	                    "%s, pg_catalog.now()) ON CONFLICT (name) DO NOTHING",
	                    quote_literal_cstr(user)),
	           13, types, args, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("release \"%s\" already exists", name)));
	SPI_finish();
	PG_RETURN_VOID();
}

extern "C" Datum
pap_drop_release(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SPI_connect();
	PapRelease *release = PapLoadRelease(name, true);
	const char *user = GetUserNameFromId(GetUserId(), false);
	if (strcmp(user, release->defined_by) != 0 && !pg_class_ownercheck(release->private_table, GetUserId()))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("must be the role that defined release \"%s\" or the owner of its private table", name)));
	if (release->run_live)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_IN_USE),
		                errmsg("release \"%s\" is being run by another session", name)));
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("DELETE FROM pap.release_data WHERE name OPERATOR(pg_catalog.=) $1", 1, types, values, false);
	PapRestoreUser(&saved);
	SPI_finish();
	PG_RETURN_VOID();
}
