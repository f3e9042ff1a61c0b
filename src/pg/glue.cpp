#include "pg/glue.hpp"
#include "core/api/release_api.hpp"
#include "pg/catalog_columns.hpp"
#include "pg/error_bridge.hpp"
#include "pg/guc.hpp"
#include "pg/partition_scan.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/row_read_guard.hpp"

#include <cfenv>
#include <cmath>

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/plancache.h"
#include "utils/rls.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

static pap::core::ValueType
ValueTypeOf(Oid relid, const char *column, Oid *type_out, bool enums)
{
	AttrNumber attnum = get_attnum(relid, column);
	if (attnum == InvalidAttrNumber || attnum < 0) {
		const char *relation = OidIsValid(relid) ? get_rel_name(relid) : NULL;
		// A release of a dropped table keeps InvalidOid (the sql_drop event trigger): say so.
		if (relation == NULL)
			ereport(ERROR,
			        (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("the table of column \"%s\" has been dropped", column)));
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
		                errmsg("column \"%s\" of relation \"%s\" does not exist", column, relation)));
	}
	Oid type = getBaseType(get_atttype(relid, attnum));
	if (type_out)
		*type_out = type;
	// An enum's code is the built-in enum_in and enum_out; the scans name enum_out in full (ReleaseLayout's
	// CategoryTextSql), so no cast its owner adds runs. Not a domain over one: enum_out(anyenum) does not take it.
	if (enums && type_is_enum(type) && get_atttype(relid, attnum) == type)
		return pap::core::ValueType::Enum;
	// The scans read a column through its type's functions (a category is col::text) as the table's owner: a type
	// another role owns could bring its own cast or output function, which would run there with the owner's rights.
	if (type >= FirstGenbkiObjectId)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		                errmsg("column \"%s\" has type %s, which is not built in", column,
		                       format_type_be(get_atttype(relid, attnum))),
		                errdetail("A release reads columns of built-in types (and domains over them)%s only: the code "
		                          "of another type would run on every row, with the rights of the table's owner.",
		                          enums ? " and of enum types (not domains over them)" : "")));
	if (PapIsNumberAxisType(type))
		return pap::core::ValueType::Number;
	switch (type) {
	case DATEOID: return pap::core::ValueType::Date;
	case TIMESTAMPOID: return pap::core::ValueType::Timestamp;
	case TIMESTAMPTZOID: return pap::core::ValueType::TimestampTz;
	case BOOLOID: return pap::core::ValueType::Boolean;
	default: break;
	}
	// A category is the value's text, made by the type's output function on every row. Fixed-size types and the
	// string types print at most a bounded multiple of what they store; a variable-length type whose text can be many
	// times its stored (and compressed) size (bytea, bit varying, jsonb, arrays) could make one private row's text
	// exceed the largest value PostgreSQL allocates, and fail a charged run.
	if (get_typlen(type) < 0 && type != TEXTOID && type != VARCHAROID && type != BPCHAROID)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		                errmsg("column \"%s\" has type %s, whose values a release cannot read as categories", column,
		                       format_type_be(get_atttype(relid, attnum))),
		                errdetail("A category is the value's text, and the text of a value of this type can be too "
		                          "large to make for some values it can store."),
		                errhint("Release a column of type text, varchar or char, or of a fixed-size type.")));
	return pap::core::ValueType::Text;
}

// The position of a column among the table's columns that are not dropped (1-based): what a logical dump and restore
// keeps, where it renumbers the attributes after a dropped one.
static int32
LiveColumnPosition(Oid relid, AttrNumber attnum)
{
	int32 position = 0;
	for (AttrNumber i = 1; i <= attnum; i++) {
		HeapTuple tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid), Int16GetDatum(i));
		if (!HeapTupleIsValid(tuple))
			continue;
		if (!((Form_pg_attribute)GETSTRUCT(tuple))->attisdropped)
			position++;
		ReleaseSysCache(tuple);
	}
	return position;
}

void
PapAxisColumnIdentities(Oid relid, const pap::core::CatalogLayout &layout, int32 **positions, const char ***types)
{
	const size_t n = layout.axis_count;
	*positions = (int32 *)palloc0(sizeof(int32) * (n ? n : 1));
	*types = (const char **)palloc(sizeof(char *) * (n ? n : 1));
	for (size_t a = 0; a < n; a++) {
		(*types)[a] = "";
		if (strcmp(layout.axis_kinds[a], "numeric") != 0 && strcmp(layout.axis_kinds[a], "categorical") != 0)
			continue;
		const AttrNumber attnum = get_attnum(relid, layout.axis_labels[a]);
		if (attnum == InvalidAttrNumber || attnum < 0)
			continue;
		Oid type, collation;
		int32 typmod;
		get_atttypetypmodcoll(relid, attnum, &type, &typmod, &collation);
		(*positions)[a] = LiveColumnPosition(relid, attnum);
		// Schema-qualified whatever the search_path (define pins it, a run's CALL does not).
		(*types)[a] = format_type_extended(type, typmod, FORMAT_TYPE_TYPEMOD_GIVEN | FORMAT_TYPE_FORCE_QUALIFY);
	}
}

pap::core::ValueType
PapValueTypeOfColumn(Oid relid, const char *column, Oid *type_out)
{
	return ValueTypeOf(relid, column, type_out, false);
}

pap::core::ValueType
PapValueTypeOfReleaseColumn(Oid relid, const char *column, Oid *type_out)
{
	return ValueTypeOf(relid, column, type_out, true);
}

void
PapRequireLocalEnumColumn(Oid relid, const char *column, Oid enum_type)
{
	List *relations = find_all_inheritors(relid, NoLock, NULL);
	ListCell *cell;
	foreach (cell, relations) {
		const Oid member = lfirst_oid(cell);
		if (get_rel_relkind(member) != RELKIND_FOREIGN_TABLE)
			continue;
		ereport(ERROR,
		        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		         errmsg("column \"%s\" has enum type %s, and %s is a foreign table", column, format_type_be(enum_type),
		                PapQualifiedRelationName(member)),
		         errdetail("A foreign server sends an enum as text, read back with the local type's input function, "
		                   "which fails on a value that is not a local label: one row would decide whether a run "
		                   "fails after its charge."),
		         errhint("Declare the column text in the table and its partitions: a text column reads every value "
		                 "a server sends.")));
	}
	list_free(relations);
}

const char **
PapEnumLabels(Oid enum_type, size_t *count)
{
	CatCList *list = SearchSysCacheList1(ENUMTYPOIDNAME, ObjectIdGetDatum(enum_type));
	const char **labels = (const char **)palloc(sizeof(char *) * (size_t(list->n_members) + 1));
	for (int i = 0; i < list->n_members; i++)
		labels[i] = pstrdup(NameStr(((Form_pg_enum)GETSTRUCT(&list->members[i]->tuple))->enumlabel));
	*count = size_t(list->n_members);
	ReleaseCatCacheList(list);
	return labels;
}

static_assert(double(USECS_PER_DAY) == pap::core::kDateAxisStep, "the core's date step is PapDateToAxis's day");

double
PapValueStepOfType(Oid type)
{
	switch (type) {
	case INT2OID:
	case INT4OID:
	case INT8OID: return 1.0;
	case DATEOID: return pap::core::kDateAxisStep;  // a day in PapDateToAxis's unit
	default: return 0.0;
	}
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
PapTemporalLiteralToAxis(const char *text, pap::core::ValueType type)
{
	using pap::core::ValueType;
	switch (type) {
	case ValueType::Date:
		return PapDateToAxis(DatumGetDateADT(
		    DirectFunctionCall3(date_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	case ValueType::Timestamp:
		return PapTimestampToAxis(DatumGetTimestamp(
		    DirectFunctionCall3(timestamp_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	case ValueType::TimestampTz:
		return PapTimestampToAxis(DatumGetTimestampTz(DirectFunctionCall3(
		    timestamptz_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	default: break;
	}
	elog(ERROR, "pap_release: only temporal literals are converted by the glue");
	pg_unreachable();
}

double
PapLedgerAmount(double requested, char **decimal)
{
	// 15 significant digits, as PostgreSQL's float8-to-numeric cast: what the user wrote (0.1, not
	// 0.1000000000000000055...), so that budgets add up as written. The run then uses the largest double not above
	// that decimal (strtod rounding toward -Infinity), never the double above it.
	*decimal = psprintf("%.15g", requested);
	return PapDecimalFloor(*decimal);
}

double
PapDecimalFloor(const char *decimal)
{
	const int mode = fegetround();
	fesetround(FE_DOWNWARD);
	const double floor = strtod(decimal, nullptr);
	fesetround(mode);
	return floor;
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

void
PapRunLockTag(LOCKTAG *tag, int64 release_id)
{
	SET_LOCKTAG_OBJECT(*tag, MyDatabaseId, PapReleaseLockKey(), uint32(release_id), 0);
}

Oid
PapCatalogOwner()
{
	Oid nsp = get_namespace_oid("pap", false);
	HeapTuple tuple = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nsp));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for schema pap");
	Oid owner = ((Form_pg_namespace)GETSTRUCT(tuple))->nspowner;
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

int
PapExecuteOnTable(const char *sql, Oid table, bool read_only)
{
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	const int rc = PapExecute(sql, 1, types, values, read_only);
	PapRestoreUser(&saved);
	return rc;
}

void
PapRequireSelect(Oid relid)
{
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("permission denied for table %s", get_rel_name(relid))));
}

void
PapRequireReadable(Oid relid)
{
	PapRequireSelect(relid);
	if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("row-level security applies to table %s for role %s", get_rel_name(relid),
		                       GetUserNameFromId(GetUserId(), false)),
		                errdetail("A release reads every row of its tables; a role that may read only some of them "
		                          "may not define, plan or run it."),
		                errhint("Use a role that row-level security does not restrict on this table.")));
}

Oid
PapRelationOwner(Oid relid)
{
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relid)));
	const Oid owner = ((Form_pg_class)GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

void
PapLockTable(Oid relid)
{
	LockRelationOid(relid, AccessShareLock);
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("the table was dropped while this statement waited"),
		                errdetail("The relation with OID %u no longer exists.", relid)));
}

List *
PapTablesStoringRows(Oid relid, bool *all_plain)
{
	// The root first, as every scan of the tree locks it (PapLockTreeOfOneOwner): without it a plain table (the tree
	// of one) is read unlocked, and a partition locked before its parent could deadlock with DDL on the tree.
	PapLockTable(relid);
	List *tree = find_all_inheritors(relid, AccessShareLock, nullptr);
	List *storing = NIL;
	*all_plain = true;
	ListCell *cell;
	foreach (cell, tree) {
		CHECK_FOR_INTERRUPTS();  // a tree may have many partitions
		const Oid table = lfirst_oid(cell);
		const char kind = get_rel_relkind(table);
		if (kind == RELKIND_PARTITIONED_TABLE)  // stores no row
			continue;
		if (kind == RELKIND_RELATION)
			storing = lappend_oid(storing, table);
		else
			*all_plain = false;
	}
	list_free(tree);
	return storing;
}

void
PapBeginTableRead(Oid relid, PapTableRead *read)
{
	const Oid owner = PapLockTreeOfOneOwner(relid);
	GetUserIdAndSecContext(&read->saved_user, &read->saved_context);
	SetUserIdAndSecContext(owner, read->saved_context | SECURITY_RESTRICTED_OPERATION);
	read->nest_level = NewGUCNestLevel();
	(void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
	                        false);
	// One aggregate over the whole table: per partition, each partial aggregate would keep its own state to the
	// end of the scan (megabytes each), so the memory, and whether a charged run runs out of it, would follow
	// which partitions hold rows, private where a private column partitions the table.
	(void)set_config_option("enable_partitionwise_aggregate", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
	                        0, false);
	// Under pap_release.publish_delay no other role may learn when the private rows were read (docs/security.md,
	// "Timing"), but a parallel worker is a backend every role sees in pg_stat_activity and pg_locks, from the
	// scan's start to its end: the read runs in this backend alone then.
	if (pap_publish_delay > 0) {
		(void)set_config_option("max_parallel_workers_per_gather", "0", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
		                        true, 0, false);
#if PG_VERSION_NUM >= 160000
		(void)set_config_option("debug_parallel_query", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
		                        false);
#else
		(void)set_config_option("force_parallel_mode", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
		                        false);
#endif
	}
	(void)PapBeginStableOutput();  // restored with the level above
}

void
PapEndTableRead(const PapTableRead *read)
{
	AtEOXact_GUC(false, read->nest_level);
	SetUserIdAndSecContext(read->saved_user, read->saved_context);
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
	// Only a cancel or a termination stops the core. InterruptPending alone is also set by interrupts that ask for
	// no stop (a sinval catch-up while other sessions change catalogs, a ProcSignal barrier, a memory-context log
	// request): taking it for a cancel made long releases fail with "canceling statement due to user request".
	// Those wait until the core returns and the next CHECK_FOR_INTERRUPTS serves them.
	return InterruptPending && (QueryCancelPending || ProcDiePending);
}

bool
PapFillSecureBytes(void *context, unsigned char *buf, size_t len)
{
	return pg_strong_random(buf, len);
}

// Catalog arrays as plain C arrays in the current memory context (one-dimensional, no NULLs: checked).
static ArrayType *
CatalogArray(Datum d, Oid element_type)
{
	ArrayType *a = DatumGetArrayTypeP(d);
	if (ARR_NDIM(a) > 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != element_type)
		elog(ERROR, "pap_release: malformed array in the release catalog");
	return a;
}

template <typename T>
static T *
CatalogValues(Datum d, Oid element_type, size_t *count)
{
	ArrayType *a = CatalogArray(d, element_type);
	*count = size_t(ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)));
	// A toasted array was detoasted into a fresh copy in this context: use it in place, one copy less of the
	// largest arrays (the first answer of a release mostly pays for touching new memory). An inline array lives
	// in the SPI tuple, which SPI_finish frees: copy it.
	if ((Pointer)a != DatumGetPointer(d))
		return (T *)ARR_DATA_PTR(a);
	T *out = (T *)palloc(sizeof(T) * (*count ? *count : 1));
	memcpy(out, ARR_DATA_PTR(a), sizeof(T) * *count);
	return out;
}

static const char *const *
CatalogStrings(Datum d, size_t *count)
{
	ArrayType *a = CatalogArray(d, TEXTOID);
	Datum *elements;
	int n;
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elements, NULL, &n);
	const char **out = (const char **)palloc(sizeof(char *) * (n ? n : 1));
	for (int i = 0; i < n; i++)
		out[i] = TextDatumGetCString(elements[i]);
	*count = size_t(n);
	return out;
}

PapRelease *
PapLoadRelease(const char *name, bool for_update)
{
	// Every column, read below by name (catalog_columns.hpp): the same statement serves every version's table.
	static const char *const select_sql =
	    "SELECT r.*, (r.state OPERATOR(pg_catalog.=) 'running' AND pap.run_in_progress(r.release_id)) AS run_live, "
	    "r.details OPERATOR(pg_catalog.->>) 'answer_mode' AS answer_mode, "
	    // The chosen mechanism's parts of the plan, from the run's details: what answers' error bounds read.
	    "(chosen.p OPERATOR(pg_catalog.->>) 'projection_error')::pg_catalog.float8 AS bound_projection_error, "
	    "(chosen.p OPERATOR(pg_catalog.->>) 'outside_mass_error')::pg_catalog.float8 AS bound_outside_mass_error, "
	    // A run whose outcome bounds its noise part (PMW's, docs/mechanisms.md §18) stored its own.
	    "COALESCE(r.details OPERATOR(pg_catalog.->>) 'bound_noise_error', "
	    "chosen.p OPERATOR(pg_catalog.->>) 'noise_error')::pg_catalog.float8 AS bound_noise_error ";
	// The answer facts the run stored (since 0.2's answer_facts; docs/mechanisms.md §18): the scalars and the caps
	// in order. No shape of the jsonb makes this statement fail (the release must stay droppable): a member missing
	// or of another type reads as NaN, or the caps as NULL, which the core refuses when answers load the facts.
	static const char *const facts_sql =
	    ", r.answer_facts IS NOT NULL AS facts_stored, "
	    "CASE WHEN pg_catalog.jsonb_typeof(r.answer_facts OPERATOR(pg_catalog.->) 'event_projection') "
	    "OPERATOR(pg_catalog.=) 'number' THEN (r.answer_facts OPERATOR(pg_catalog.->>) 'event_projection')"
	    "::pg_catalog.float8 ELSE 'NaN'::pg_catalog.float8 END AS facts_event_projection, "
	    "CASE WHEN pg_catalog.jsonb_typeof(r.answer_facts OPERATOR(pg_catalog.->) 'unseen_points_mass') "
	    "OPERATOR(pg_catalog.=) 'number' THEN (r.answer_facts OPERATOR(pg_catalog.->>) 'unseen_points_mass')"
	    "::pg_catalog.float8 ELSE 'NaN'::pg_catalog.float8 END AS facts_unseen_mass, "
	    "CASE WHEN pg_catalog.jsonb_typeof(r.answer_facts OPERATOR(pg_catalog.->) 'other_bin_caps') "
	    "OPERATOR(pg_catalog.=) 'array' THEN ARRAY(SELECT CASE WHEN pg_catalog.jsonb_typeof(e.c) "
	    "OPERATOR(pg_catalog.=) 'number' THEN (e.c OPERATOR(pg_catalog.#>>) '{}')::pg_catalog.float8 "
	    "ELSE 'NaN'::pg_catalog.float8 END FROM pg_catalog.jsonb_array_elements(r.answer_facts "
	    "OPERATOR(pg_catalog.->) 'other_bin_caps') WITH ORDINALITY AS e(c, i) ORDER BY e.i) END "
	    "AS facts_other_bin_caps ";
	static const char *const from_sql =
	    "FROM pap.release_data r CROSS JOIN LATERAL (SELECT r.details OPERATOR(pg_catalog.->) 'predictions' "
	    "OPERATOR(pg_catalog.->) (r.details OPERATOR(pg_catalog.->>) 'mechanism')) AS chosen(p) "
	    "WHERE r.name OPERATOR(pg_catalog.=) $1";
	const bool has_facts = PapCatalogHasColumn("release_data", "answer_facts");
	MemoryContext caller = CurrentMemoryContext;
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(
	    psprintf("%s%s%s%s", select_sql, has_facts ? facts_sql : "", from_sql, for_update ? " FOR UPDATE OF r" : ""), 1,
	    types, values, !for_update);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("release \"%s\" does not exist", name)));

	// SPI left its own context current; copy the row into the caller's, which stays current on return.
	MemoryContextSwitchTo(caller);
	const PapCatalogRow row = {SPI_tuptable->vals[0], SPI_tuptable->tupdesc};
	bool isnull;
	auto column = [&](const char *column_name) { return PapCatalogGet(&row, column_name, false, &isnull); };
	const Datum layout_version = PapCatalogGet(&row, "layout_version", true, &isnull);  // since 0.2
	const bool catalog_has_layout_version = !isnull;
	if (!isnull && DatumGetInt32(layout_version) != kPapCatalogLayoutVersion)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		                errmsg("release \"%s\" is in catalog layout %d, unknown to this pap_release library", name,
		                       DatumGetInt32(layout_version)),
		                errhint("Install the version of pap_release that defined it, or a later one.")));
	PapRelease *r = (PapRelease *)palloc0(sizeof(PapRelease));
	r->name = pstrdup(name);
	r->answer_modes = catalog_has_layout_version;
	r->private_table = DatumGetObjectId(column("private_table"));
	r->public_table = DatumGetObjectId(column("public_table"));
	r->query_class = TextDatumGetCString(column("query_class"));
	r->alpha = DatumGetFloat8(column("alpha"));
	r->beta = DatumGetFloat8(column("beta"));
	r->public_rows = DatumGetInt64(column("public_rows"));
	r->cover_size = DatumGetInt64(column("cover_size"));
	r->cell_count = DatumGetInt64(column("cell_count"));
	r->defined_by = pstrdup(NameStr(*DatumGetName(column("defined_by"))));
	r->state = TextDatumGetCString(column("state"));
	r->run_live = DatumGetBool(column("run_live")) && !isnull;
	Datum synthetic = column("synthetic");
	if (!isnull) {
		size_t n;
		r->synthetic = CatalogValues<double>(synthetic, FLOAT8OID, &n);
		if (int64(n) != r->cell_count)
			elog(ERROR, "pap_release: release \"%s\" has a synthetic distribution of the wrong size", name);
	}
	Datum rows = column("private_rows");
	r->private_rows = isnull ? 0 : DatumGetInt64(rows);
	// The mode answers use when a query names none, as the run's plan chose it; a run recorded without one (before
	// 0.2) keeps the projection its answers always used.
	Datum mode = column("answer_mode");
	r->refine_by_default = !isnull && strcmp(TextDatumGetCString(mode), "refine") == 0;
	r->release_id = DatumGetInt64(column("release_id"));
	r->vc_dimension = DatumGetInt32(column("vc_dimension"));
	(void)PapCatalogGet(&row, "declared_domain", true, &isnull);  // since 0.2
	r->declared_domain = !isnull;
	r->error_facts.beta = r->beta;
	r->error_facts.public_rows = r->public_rows;
	r->error_facts.known = true;
	r->error_facts.refine_mode = r->refine_by_default;
	double *parts[3] = {&r->error_facts.projection, &r->error_facts.outside_mass, &r->error_facts.noise};
	const char *part_columns[3] = {"bound_projection_error", "bound_outside_mass_error", "bound_noise_error"};
	for (int i = 0; i < 3; i++) {
		const Datum part = column(part_columns[i]);
		*parts[i] = isnull ? 0.0 : DatumGetFloat8(part);
		r->error_facts.known = r->error_facts.known && !isnull;
	}
	// The answer facts the run stored, read as they are (the core checks them against the layout when answers
	// load them): a member the jsonb lacks, or spreads missing beside it, as a NaN projection part, which it refuses.
	const Datum stored = PapCatalogGet(&row, "facts_stored", true, &isnull);
	r->error_facts.answers_stored = !isnull && DatumGetBool(stored);
	if (r->error_facts.answers_stored) {
		pap::core::StoredAnswerFacts &f = r->error_facts.answers;
		f.event_projection = DatumGetFloat8(column("facts_event_projection"));
		f.unseen_points_mass = DatumGetFloat8(column("facts_unseen_mass"));
		const Datum caps = column("facts_other_bin_caps");
		if (!isnull)
			f.other_bin_caps = CatalogValues<double>(caps, FLOAT8OID, &f.other_bin_cap_count);
		else
			f.event_projection = std::nan("");
		const Datum spreads = PapCatalogGet(&row, "answer_gap_spreads", true, &isnull);
		if (!isnull)
			f.gap_spreads = CatalogValues<double>(spreads, FLOAT8OID, &f.gap_spread_count);
		else
			f.event_projection = std::nan("");
	}
	size_t hist_count;
	r->public_histogram = CatalogValues<int64>(column("public_histogram"), INT8OID, &hist_count);
	if (int64(hist_count) != r->cell_count)
		elog(ERROR, "pap_release: release \"%s\" has a public histogram of the wrong size", name);

	pap::core::CatalogLayout &l = r->layout;
	size_t n[14];
	l.query_class = r->query_class;
	l.axis_kinds = CatalogStrings(column("axis_kinds"), &n[0]);
	l.axis_value_types = CatalogStrings(column("axis_value_types"), &n[1]);
	l.axis_labels = CatalogStrings(column("axis_labels"), &n[2]);
	l.cut_counts = CatalogValues<int32>(column("cut_counts"), INT4OID, &n[3]);
	l.cuts = CatalogValues<double>(column("cuts"), FLOAT8OID, &n[4]);
	l.category_counts = CatalogValues<int32>(column("category_counts"), INT4OID, &n[5]);
	l.categories = CatalogStrings(column("categories"), &n[6]);
	l.public_value_counts = CatalogValues<int32>(column("public_value_counts"), INT4OID, &n[7]);
	l.public_values = CatalogValues<double>(column("public_values"), FLOAT8OID, &n[8]);
	l.public_value_rows = CatalogValues<int64>(column("public_value_rows"), INT8OID, &n[9]);
	l.predicate_axis = CatalogValues<int32>(column("predicate_axis"), INT4OID, &l.predicate_count);
	l.public_points = CatalogValues<int32>(column("public_points"), INT4OID, &n[10]);
	l.public_point_rows = CatalogValues<int64>(column("public_point_rows"), INT8OID, &l.public_point_count);
	l.domain = TextDatumGetCString(column("domain"));
	l.axis_count = n[0];
	// Since 0.2; NULL (a release stored before, or a 0.1 table): the axes take their value types' steps.
	size_t step_count = n[0];
	const Datum steps = PapCatalogGet(&row, "axis_value_steps", true, &isnull);
	l.axis_value_steps = isnull ? nullptr : CatalogValues<double>(steps, FLOAT8OID, &step_count);
	// Since 0.2; NULL (a release defined before, or a 0.1 table): the run checks the value types alone.
	size_t position_count = n[0], column_type_count = n[0];
	const Datum positions = PapCatalogGet(&row, "axis_column_positions", true, &isnull);
	r->axis_column_positions = isnull ? nullptr : CatalogValues<int32>(positions, INT4OID, &position_count);
	const Datum column_types = PapCatalogGet(&row, "axis_column_types", true, &isnull);
	r->axis_column_types = isnull ? nullptr : CatalogStrings(column_types, &column_type_count);
	if ((r->axis_column_positions == nullptr) != (r->axis_column_types == nullptr))
		position_count = n[0] + 1;  // one without the other: inconsistent
	// Since 0.2; NULL (a release defined before, or a 0.1 table): no axis is closed by a CHECK list.
	size_t check_list_count = n[0];
	const Datum check_lists = PapCatalogGet(&row, "axis_check_lists", true, &isnull);
	l.axis_check_lists = isnull ? nullptr : CatalogValues<bool>(check_lists, BOOLOID, &check_list_count);
	l.axis_not_null = nullptr;  // not stored: read by a plan and a run (PapNotNullAxes)
	// Sizes must agree before the core reads them: a damaged catalog is an error, never a wrong answer.
	size_t cuts = 0, categories = 0, marginal = 0;
	bool consistent = n[1] == n[0] && n[2] == n[0] && n[3] == n[0] && n[5] == n[0] && n[7] == n[0] &&
	                  n[10] == l.public_point_count * l.axis_count && n[9] == n[8] && step_count == n[0] &&
	                  position_count == n[0] && column_type_count == n[0] && check_list_count == n[0];
	for (size_t a = 0; consistent && a < l.axis_count; a++) {
		consistent = l.cut_counts[a] >= 0 && l.category_counts[a] >= 0 && l.public_value_counts[a] >= 0;
		cuts += size_t(l.cut_counts[a]);
		categories += size_t(l.category_counts[a]);
		marginal += size_t(l.public_value_counts[a]);
	}
	if (!consistent || cuts != n[4] || categories != n[6] || marginal != n[8])
		elog(ERROR, "pap_release: release \"%s\" has an inconsistent layout in the catalog", name);
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

// The scan's statement and parameters (shared by PapCheckScan and PapScanGridPoints).
struct PapScanStatement {
	char *sql;
	bool aggregate;  // the pap.grid_counts form of the select list (release_layout.hpp), else GROUP BY
	Oid *types;
	Datum *values;
	char *nulls;
};

// only: the statement reads relid alone ("FROM ONLY"), not its partitions or children.
static PapScanStatement
BuildScan(Oid relid, bool only, const char *select_list, size_t axis_count, PapScanParameter parameter,
          const void *source)
{
	PapScanStatement scan;
	scan.types = (Oid *)palloc(sizeof(Oid) * (axis_count + 1));
	scan.values = (Datum *)palloc(sizeof(Datum) * (axis_count + 1));
	scan.nulls = (char *)palloc(axis_count + 1);
	StringInfoData group_by;
	initStringInfo(&group_by);
	for (size_t a = 0; a < axis_count; a++) {
		const double *cuts = nullptr;
		const char *const *categories = nullptr;
		size_t count = 0;
		pap::core::ScanParameterKind kind;
		PAP_CORE(kind = parameter(source, a, &cuts, &categories, &count));
		scan.nulls[a] = ' ';
		if (kind == pap::core::ScanParameterKind::Cuts) {
			Datum *d = (Datum *)palloc(sizeof(Datum) * (count ? count : 1));
			for (size_t i = 0; i < count; i++)
				d[i] = Float8GetDatum(cuts[i]);
			scan.types[a] = FLOAT8ARRAYOID;
			scan.values[a] = PointerGetDatum(
			    construct_array(d, int(count), FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
		} else if (kind == pap::core::ScanParameterKind::Categories) {
			Datum *d = (Datum *)palloc(sizeof(Datum) * (count ? count : 1));
			for (size_t i = 0; i < count; i++)
				d[i] = CStringGetTextDatum(categories[i]);
			scan.types[a] = TEXTARRAYOID;
			scan.values[a] = PointerGetDatum(construct_array(d, int(count), TEXTOID, -1, false, TYPALIGN_INT));
		} else {
			scan.types[a] = INT4OID;
			scan.values[a] = (Datum)0;
			scan.nulls[a] = 'n';
		}
		appendStringInfo(&group_by, "%s%zu", a ? ", " : "", a + 1);
	}
	scan.nulls[axis_count] = '\0';
	scan.aggregate = strncmp(select_list, "pap.grid_counts(", strlen("pap.grid_counts(")) == 0;
	scan.sql = psprintf("SELECT %s FROM %s%s%s%s", select_list, only ? "ONLY " : "", PapQualifiedRelationName(relid),
	                    scan.aggregate ? "" : " GROUP BY ", scan.aggregate ? "" : group_by.data);
	return scan;
}

void
PapCheckScan(Oid relid, const char *select_list, size_t axis_count, PapScanParameter parameter, const void *source)
{
	PapScanStatement scan = BuildScan(relid, false, select_list, axis_count, parameter, source);
	PapTableRead read;
	PapBeginTableRead(relid, &read);
	SPIPlanPtr plan = SPI_prepare(scan.sql, int(axis_count), scan.types);
	if (plan == NULL)
		elog(ERROR, "pap_release: SPI_prepare failed (%s) for: %s", SPI_result_code_string(SPI_result), scan.sql);
	// What the read's guard will check as it plans the statement (row_read_guard.hpp), checked now.
	ListCell *lc;
	foreach (lc, SPI_plan_get_plan_sources(plan))
		PapCheckGuardedQueries(((CachedPlanSource *)lfirst(lc))->query_list);
	SPI_freeplan(plan);
	PapEndTableRead(&read);
}

// Grid points read so far (palloc'd, grown as scans append).
struct PapGridPoints {
	int32 *points;
	int64 *rows;
	size_t count, capacity;
};

// Room for n more grid points in out.
static void
ReserveGridPoints(PapGridPoints *out, size_t n, size_t axis_count)
{
	if (out->count + n > out->capacity) {
		const size_t capacity = Max(out->count + n, 2 * out->capacity) + 1;
		out->points = (int32 *)repalloc_huge(out->points, sizeof(int32) * capacity * axis_count + 1);
		out->rows = (int64 *)repalloc_huge(out->rows, sizeof(int64) * capacity);
		out->capacity = capacity;
	}
}

// An int8[] column of the grid scan as a palloc'd C array (one-dimensional, no NULLs: checked).
static int64 *
ScanInt64Array(HeapTuple tuple, TupleDesc desc, int column, size_t *count)
{
	bool isnull;
	Datum d = SPI_getbinval(tuple, desc, column, &isnull);
	ArrayType *a = isnull ? nullptr : DatumGetArrayTypeP(d);
	if (a == nullptr || ARR_NDIM(a) > 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != INT8OID)
		elog(ERROR, "pap_release: malformed grid counts in the grid scan");
	*count = size_t(ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)));
	int64 *out = (int64 *)palloc_extended(sizeof(int64) * (*count ? *count : 1), MCXT_ALLOC_HUGE);
	memcpy(out, ARR_DATA_PTR(a), sizeof(int64) * *count);
	return out;
}

// The one row of the pap.grid_counts form: [key, rows, ...] and the radices, the keys decoded into grid points
// (the last axis varies fastest).
static void
DecodeGridCounts(HeapTuple tuple, TupleDesc desc, size_t axis_count, PapGridPoints *out)
{
	size_t pair_values, radix_count;
	int64 *pairs = ScanInt64Array(tuple, desc, 1, &pair_values);
	int64 *radices = ScanInt64Array(tuple, desc, 2, &radix_count);
	if (radix_count != axis_count || pair_values % 2 != 0)
		elog(ERROR, "pap_release: malformed grid counts in the grid scan");
	const size_t n = pair_values / 2;
	ReserveGridPoints(out, n, axis_count);
	for (size_t i = 0; i < n; i++) {
		int64 key = pairs[2 * i];
		int32 *point = out->points + (out->count + i) * axis_count;
		for (size_t a = axis_count; a-- > 0;) {
			if (key < 0 || radices[a] <= 0)
				elog(ERROR, "pap_release: grid key out of range in the grid scan");
			point[a] = int32(key % radices[a]);
			key /= radices[a];
		}
		if (key != 0)
			elog(ERROR, "pap_release: grid key out of range in the grid scan");
		out->rows[out->count + i] = pairs[2 * i + 1];
		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	out->count += n;
	pfree(pairs);
	pfree(radices);
}

// Runs one scan statement and appends its grid points to out.
static void
RunScan(const PapScanStatement &scan, size_t axis_count, bool is_private, PapGridPoints *out)
{
	MemoryContext context = CurrentMemoryContext;
	int rc = 0;
	PapGuardedRead guard;
	PapBeginGuardedRead(&guard);
	PG_TRY();
	{
		rc = SPI_execute_with_args(scan.sql, int(axis_count), scan.types, scan.values, scan.nulls, true, 0);
	}
	PG_CATCH();
	{
		PapAbandonGuardedRead(&guard);
		// An error raised while reading private rows may quote a private value (a failing cast in a predicate,
		// here or on a remote server): only its SQLSTATE leaves. Cancellation, shutdown and a failed connection to
		// a remote server carry no row data and go on unchanged.
		MemoryContextSwitchTo(context);
		ErrorData *error = CopyErrorData();
		if (!is_private || error->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		    ERRCODE_TO_CATEGORY(error->sqlerrcode) == ERRCODE_OPERATOR_INTERVENTION ||
		    ERRCODE_TO_CATEGORY(error->sqlerrcode) == ERRCODE_CONNECTION_EXCEPTION)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR, (errcode(error->sqlerrcode), errmsg("the scan of the private table failed"),
		                errdetail("The error's text is withheld because it could quote a private value; its "
		                          "SQLSTATE is %s.",
		                          unpack_sql_state(error->sqlerrcode)),
		                errhint("Check that every column and predicate of the class is valid for every row the "
		                        "private table can hold.")));
	}
	PG_END_TRY();
	PapEndGuardedRead(&guard);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "pap_release: SPI failed (%s) for: %s", SPI_result_code_string(rc), scan.sql);
	MemoryContextSwitchTo(context);
	const uint64 n = SPI_processed;
	if (scan.aggregate) {
		if (n != 1)
			elog(ERROR, "pap_release: the grid scan returned " UINT64_FORMAT " rows instead of one", n);
		DecodeGridCounts(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, axis_count, out);
		SPI_freetuptable(SPI_tuptable);
		return;
	}
	ReserveGridPoints(out, size_t(n), axis_count);
	for (uint64 i = 0; i < n; i++) {
		bool isnull;
		int32 *point = out->points + (out->count + i) * axis_count;
		for (size_t a = 0; a < axis_count; a++) {
			Datum bin = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, int(a + 1), &isnull);
			if (isnull)
				elog(ERROR, "pap_release: NULL bin in the grid scan");
			point[a] = DatumGetInt32(bin);
		}
		out->rows[out->count + i] =
		    DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, int(axis_count + 1), &isnull));
		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	out->count += size_t(n);
	SPI_freetuptable(SPI_tuptable);
}

void
PapScanGridPoints(Oid relid, const char *select_list, size_t axis_count, PapScanParameter parameter, const void *source,
                  bool is_private, int32 **points, int64 **rows, size_t *point_count)
{
	PapTableRead read;
	PapBeginTableRead(relid, &read);
	PapGridPoints out;
	out.capacity = 1;
	out.count = 0;
	out.points = (int32 *)palloc(sizeof(int32) * axis_count + 1);
	out.rows = (int64 *)palloc(sizeof(int64));
	// A partitioned table with foreign partitions is read leaf by leaf, so that each foreign leaf's aggregate runs
	// on its own server (docs/distributed.md); only when the caller may query every leaf directly.
	List *leaves = PapForeignPartitionLeaves(relid);
	List *scans = NIL;
	ListCell *lc;
	foreach (lc, leaves) {
		PapScanStatement *scan = (PapScanStatement *)palloc(sizeof(PapScanStatement));
		*scan = BuildScan(lfirst_oid(lc), true, select_list, axis_count, parameter, source);
		if (!PapMayScanDirectly(scan->sql, scan->types, int(axis_count))) {
			elog(DEBUG1,
			     "pap_release: scanning %s through its parent: the current user may not query partition %s "
			     "directly",
			     get_rel_name(relid), get_rel_name(lfirst_oid(lc)));
			scans = NIL;
			break;
		}
		scans = lappend(scans, scan);
	}
	if (scans == NIL) {
		PapScanStatement scan = BuildScan(relid, false, select_list, axis_count, parameter, source);
		elog(DEBUG1, "pap_release: scan: %s", scan.sql);
		RunScan(scan, axis_count, is_private, &out);
	} else {
		elog(DEBUG1, "pap_release: scanning %s leaf by leaf", get_rel_name(relid));
		foreach (lc, scans) {
			const PapScanStatement *scan = (const PapScanStatement *)lfirst(lc);
			elog(DEBUG1, "pap_release: leaf scan: %s", scan->sql);
			RunScan(*scan, axis_count, is_private, &out);
		}
		PapMergeGridPoints(out.points, out.rows, &out.count, axis_count);
	}
	PapEndTableRead(&read);
	*points = out.points;
	*rows = out.rows;
	*point_count = out.count;
}

int
PapBeginStableOutput()
{
	const int level = NewGUCNestLevel();
	(void)set_config_option("datestyle", "ISO, YMD", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void)set_config_option("intervalstyle", "postgres", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void)set_config_option("extra_float_digits", "1", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void)set_config_option("timezone", "UTC", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void)set_config_option("bytea_output", "hex", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void)set_config_option("lc_monetary", "C", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	// Predicates and linear axes are SQL text read by the definer's and the runner's sessions alike: one reading of
	// their string literals (a backslash is a character), whatever either session set.
	(void)set_config_option("standard_conforming_strings", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
	                        false);
	return level;
}

void
PapEndStableOutput(int level)
{
	AtEOXact_GUC(true, level);
}

int32
PapColumnTypmod(Oid relid, const char *column)
{
	const AttrNumber attnum = get_attnum(relid, column);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
		                errmsg("column \"%s\" does not exist in %s", column, PapQualifiedRelationName(relid))));
	Oid type, collation;
	int32 typmod;
	get_atttypetypmodcoll(relid, attnum, &type, &typmod, &collation);
	// A column of a domain type has none of its own: the domain's (CREATE DOMAIN d AS numeric(10,2)) applies.
	(void)getBaseTypeAndTypmod(type, &typmod);
	return typmod;
}

void
PapCanonicalCategoryTexts(const char **texts, size_t count, Oid type, int32 typmod)
{
	const Oid base = getBaseType(type);
	Oid input, ioparam, output;
	bool varlena;
	getTypeInputInfo(base, &input, &ioparam);
	getTypeOutputInfo(base, &output, &varlena);
	for (size_t i = 0; i < count; i++) {
		CHECK_FOR_INTERRUPTS();
		const Datum value = OidInputFunctionCall(input, (char *)texts[i], ioparam, typmod);
		const int level = PapBeginStableOutput();
		char *canonical =
		    base == BOOLOID ? pstrdup(DatumGetBool(value) ? "true" : "false") : OidOutputFunctionCall(output, value);
		PapEndStableOutput(level);
		PapTrimCharPadding(canonical, base);
		texts[i] = canonical;
	}
}

void
PapTrimCharPadding(char *text, Oid type)
{
	if (getBaseType(type) != BPCHAROID)
		return;
	size_t length = strlen(text);
	while (length > 0 && text[length - 1] == ' ')
		text[--length] = '\0';
}

bool
PapSameCategoryText(Oid a, Oid b)
{
	a = getBaseType(a);
	b = getBaseType(b);
	const auto text_like = [](Oid t) { return t == TEXTOID || t == VARCHAROID; };
	const auto integer = [](Oid t) { return t == INT2OID || t == INT4OID || t == INT8OID; };
	return a == b || (text_like(a) && text_like(b)) || (integer(a) && integer(b));
}

void
PapWarnGuardRails(const pap::core::GuardRailRequest &request)
{
	pap::core::GuardRailWarning warnings[pap::core::kMaxGuardRails];
	size_t count = 0;
	PAP_CORE(count = pap::core::GuardRails(request, warnings, PapAllocate));
	PapEmitGuardRails(warnings, count);
}

void
PapEmitGuardRails(const pap::core::GuardRailWarning *warnings, size_t count)
{
	for (size_t i = 0; i < count; i++)
		ereport(WARNING, (errcode(ERRCODE_WARNING), errmsg_internal("%s", warnings[i].message),
		                  errdetail_internal("%s", warnings[i].detail), errhint("%s", warnings[i].hint)));
}

int64
PapHistogramWeight(const int64 *histogram, size_t count)
{
	int64 total = 0;
	for (size_t i = 0; i < count; i++)
		total += histogram[i];
	return total;
}
