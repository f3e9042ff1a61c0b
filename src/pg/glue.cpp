#include "core/release_engine.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"

#include <cmath>

extern "C" {
#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "port.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"
}

const char *
PapValueTypeName(PapValueType type)
{
	switch (type) {
	case PAP_VALUE_NUMBER: return "number";
	case PAP_VALUE_DATE: return "date";
	case PAP_VALUE_TIMESTAMP: return "timestamp";
	case PAP_VALUE_TIMESTAMPTZ: return "timestamptz";
	}
	return "number";
}

PapValueType
PapValueTypeFromName(const char *name)
{
	if (strcmp(name, "date") == 0)
		return PAP_VALUE_DATE;
	if (strcmp(name, "timestamp") == 0)
		return PAP_VALUE_TIMESTAMP;
	if (strcmp(name, "timestamptz") == 0)
		return PAP_VALUE_TIMESTAMPTZ;
	return PAP_VALUE_NUMBER;
}

PapValueType
PapValueTypeOfColumn(Oid relid, const char *column, Oid *type_out)
{
	AttrNumber attnum = get_attnum(relid, column);
	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
		                errmsg("column \"%s\" of relation \"%s\" does not exist", column, get_rel_name(relid))));
	Oid type = getBaseType(get_atttype(relid, attnum));
	if (type_out)
		*type_out = type;
	switch (type) {
	case INT2OID:
	case INT4OID:
	case INT8OID:
	case FLOAT4OID:
	case FLOAT8OID:
	case NUMERICOID: return PAP_VALUE_NUMBER;
	case DATEOID: return PAP_VALUE_DATE;
	case TIMESTAMPOID: return PAP_VALUE_TIMESTAMP;
	case TIMESTAMPTZOID: return PAP_VALUE_TIMESTAMPTZ;
	default:
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
		                errmsg("column \"%s\" of relation \"%s\" has type %s, not a numeric, date or timestamp type",
		                       column, get_rel_name(relid), format_type_be(type)),
		                errhint("thresholds and ranges classes need a column of type smallint, integer, bigint, "
		                        "real, double precision, numeric, date, timestamp or timestamptz.")));
	}
	pg_unreachable();
}

double
PapDateToAxis(DateADT d)
{
	if (DATE_IS_NOBEGIN(d))
		return -INFINITY;
	if (DATE_IS_NOEND(d))
		return INFINITY;
	return double(d) * double(USECS_PER_DAY);
}

double
PapTimestampToAxis(Timestamp ts)
{
	if (TIMESTAMP_IS_NOBEGIN(ts))
		return -INFINITY;
	if (TIMESTAMP_IS_NOEND(ts))
		return INFINITY;
	return double(ts);
}

double
PapTemporalLiteralToAxis(const char *text, PapValueType type)
{
	switch (type) {
	case PAP_VALUE_DATE:
		return PapDateToAxis(DatumGetDateADT(
		    DirectFunctionCall3(date_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	case PAP_VALUE_TIMESTAMP:
		return PapTimestampToAxis(DatumGetTimestamp(DirectFunctionCall3(
		    timestamp_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	case PAP_VALUE_TIMESTAMPTZ:
		return PapTimestampToAxis(DatumGetTimestampTz(DirectFunctionCall3(
		    timestamptz_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	case PAP_VALUE_NUMBER: break;
	}
	elog(ERROR, "numeric literals are converted by the core");
	pg_unreachable();
}

char *
PapFormatAxisValue(double value, PapValueType type)
{
	if (type == PAP_VALUE_NUMBER || std::isnan(value)) {
		char buf[64];
		PAP_CORE(pap::core::FormatFloat8Into(value, buf, sizeof buf));
		return pstrdup(buf);
	}
	// ISO 8601 whatever the session's DateStyle, so that the text reads back as the same value anywhere.
	char text[MAXDATELEN + 1];
	struct pg_tm tm;
	fsec_t fsec = 0;
	if (std::isinf(value)) {
		strlcpy(text, value < 0 ? "-infinity" : "infinity", sizeof text);
	} else if (type == PAP_VALUE_DATE) {
		j2date(int(std::llround(value / double(USECS_PER_DAY))) + POSTGRES_EPOCH_JDATE, &tm.tm_year, &tm.tm_mon,
		       &tm.tm_mday);
		EncodeDateOnly(&tm, USE_ISO_DATES, text);
	} else {
		if (timestamp2tm(Timestamp(std::llround(value)), NULL, &tm, &fsec, NULL, NULL) != 0)
			ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
		// timestamptz positions are UTC: print them with an explicit +00 offset
		EncodeDateTime(&tm, fsec, type == PAP_VALUE_TIMESTAMPTZ, 0, NULL, USE_ISO_DATES, text);
	}
	return quote_literal_cstr(text);
}

void *
PapAllocate(size_t bytes)
{
	return MemoryContextAllocExtended(CurrentMemoryContext, bytes, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

uint32
PapReleaseLockKey()
{
	return uint32(get_relname_relid("release_data", get_namespace_oid("pap", false)));
}

static Oid
PapCatalogOwner()
{
	Oid nsp = get_namespace_oid("pap", false);
	HeapTuple tuple = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nsp));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for schema pap");
	Oid owner = ((Form_pg_namespace) GETSTRUCT(tuple))->nspowner;
	ReleaseSysCache(tuple);
	return owner;
}

void
PapBecomeCatalogOwner(PapUserSwitch *saved)
{
	GetUserIdAndSecContext(&saved->saved_user, &saved->saved_context);
	SetUserIdAndSecContext(PapCatalogOwner(),
	                       saved->saved_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
}

void
PapRestoreUser(const PapUserSwitch *saved)
{
	SetUserIdAndSecContext(saved->saved_user, saved->saved_context);
}

int
PapExecute(const char *sql, int nargs, Oid *types, Datum *values, bool read_only)
{
	int rc = SPI_execute_with_args(sql, nargs, types, values, NULL, read_only, 0);
	if (rc < 0)
		elog(ERROR, "pap_release: SPI failed (%s) for: %s", SPI_result_code_string(rc), sql);
	return rc;
}

void
PapRequireSelect(Oid relid)
{
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("permission denied for table %s", get_rel_name(relid))));
}

char *
PapQualifiedRelationName(Oid relid)
{
	char *rel = get_rel_name(relid);
	if (rel == NULL)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relid)));
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), rel);
}

bool
PapInterruptPending()
{
	return InterruptPending;
}

bool
PapFillSecureBytes(void *context, unsigned char *buf, size_t len)
{
	return pg_strong_random(buf, len);
}

static double *
CopyFloat8Array(Datum d, int *count)
{
	ArrayType *a = DatumGetArrayTypeP(d);
	if (ARR_NDIM(a) > 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != FLOAT8OID)
		elog(ERROR, "pap_release: malformed float8 array in the catalog");
	int n = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
	double *out = (double *) palloc(sizeof(double) * (n > 0 ? n : 1));
	memcpy(out, ARR_DATA_PTR(a), sizeof(double) * n);
	*count = n;
	return out;
}

static int64 *
CopyInt8Array(Datum d, int *count)
{
	ArrayType *a = DatumGetArrayTypeP(d);
	if (ARR_NDIM(a) > 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != INT8OID)
		elog(ERROR, "pap_release: malformed bigint array in the catalog");
	int n = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
	int64 *out = (int64 *) palloc(sizeof(int64) * (n > 0 ? n : 1));
	memcpy(out, ARR_DATA_PTR(a), sizeof(int64) * n);
	*count = n;
	return out;
}

PapRelease *
PapLoadRelease(const char *name, bool for_update)
{
	static const char *const select_sql =
	    "SELECT r.private_table, r.public_table, r.query_class, r.column_name, r.value_type, r.alpha, r.beta, "
	    "r.public_rows, r.cuts, r.public_histogram, r.cover_size, r.cell_count, r.defined_by, r.state, "
	    "(r.state OPERATOR(pg_catalog.=) 'running' AND pap.run_in_progress(r.release_id)), "
	    "r.synthetic, r.private_rows, r.release_id "
	    "FROM pap.release_data r WHERE r.name OPERATOR(pg_catalog.=) $1";
	MemoryContext caller = CurrentMemoryContext;
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(for_update ? psprintf("%s FOR UPDATE OF r", select_sql) : select_sql, 1, types, values, !for_update);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("release \"%s\" does not exist", name)));

	// SPI left its own context current; copy the row into the caller's, which stays current on return.
	MemoryContextSwitchTo(caller);
	HeapTuple tuple = SPI_tuptable->vals[0];
	TupleDesc desc = SPI_tuptable->tupdesc;
	bool isnull;
	PapRelease *r = (PapRelease *) palloc0(sizeof(PapRelease));
	r->name = pstrdup(name);
	r->private_table = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
	r->public_table = DatumGetObjectId(SPI_getbinval(tuple, desc, 2, &isnull));
	r->query_class = TextDatumGetCString(SPI_getbinval(tuple, desc, 3, &isnull));
	r->column_name = TextDatumGetCString(SPI_getbinval(tuple, desc, 4, &isnull));
	r->value_type = PapValueTypeFromName(TextDatumGetCString(SPI_getbinval(tuple, desc, 5, &isnull)));
	r->alpha = DatumGetFloat8(SPI_getbinval(tuple, desc, 6, &isnull));
	r->beta = DatumGetFloat8(SPI_getbinval(tuple, desc, 7, &isnull));
	r->public_rows = DatumGetInt64(SPI_getbinval(tuple, desc, 8, &isnull));
	r->cuts = CopyFloat8Array(SPI_getbinval(tuple, desc, 9, &isnull), &r->cut_count);
	int hist_count;
	r->public_histogram = CopyInt8Array(SPI_getbinval(tuple, desc, 10, &isnull), &hist_count);
	r->cover_size = DatumGetInt64(SPI_getbinval(tuple, desc, 11, &isnull));
	r->cell_count = DatumGetInt64(SPI_getbinval(tuple, desc, 12, &isnull));
	r->defined_by = pstrdup(NameStr(*DatumGetName(SPI_getbinval(tuple, desc, 13, &isnull))));
	r->state = TextDatumGetCString(SPI_getbinval(tuple, desc, 14, &isnull));
	r->run_live = DatumGetBool(SPI_getbinval(tuple, desc, 15, &isnull)) && !isnull;
	Datum synthetic = SPI_getbinval(tuple, desc, 16, &isnull);
	if (!isnull) {
		int n;
		r->synthetic = CopyFloat8Array(synthetic, &n);
		if (n != r->cell_count)
			elog(ERROR, "pap_release: release \"%s\" has a synthetic distribution of the wrong size", name);
	}
	Datum rows = SPI_getbinval(tuple, desc, 17, &isnull);
	r->private_rows = isnull ? 0 : DatumGetInt64(rows);
	r->release_id = DatumGetInt64(SPI_getbinval(tuple, desc, 18, &isnull));
	if (hist_count != r->cell_count)
		elog(ERROR, "pap_release: release \"%s\" has a public histogram of the wrong size", name);
	return r;
}

void
PapRequireReleased(const PapRelease *release)
{
	if (strcmp(release->state, "released") != 0 || release->synthetic == NULL)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("release \"%s\" has not been run", release->name),
		                errhint("Run it with CALL pap.run_release('%s', epsilon).", release->name)));
}
