// pap.define_release and pap.drop_release: a release's axes, cover and cells come from the public table only.
#include "core/api/release_api.hpp"
#include "pg/catalog_columns.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/text_position.hpp"

#include <cmath>
#include <type_traits>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
PG_FUNCTION_INFO_V1(pap_define_release);
PG_FUNCTION_INFO_V1(pap_drop_release);
}

static void
RequireProbability(const char *what, double value)
{
	if (!(std::isfinite(value) && value > 0.0 && value < 1.0))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must be in (0, 1), got %g", what, value)));
}

template <typename T>
static Datum
ArrayDatum(const T *values, size_t count, Oid type)
{
	Datum *d = (Datum *)palloc(sizeof(Datum) * (count ? count : 1));
	for (size_t i = 0; i < count; i++) {
		if constexpr (std::is_same_v<T, double>)
			d[i] = Float8GetDatum(values[i]);
		else if constexpr (std::is_same_v<T, int64>)
			d[i] = Int64GetDatum(values[i]);
		else
			d[i] = Int32GetDatum(values[i]);
		if ((i & 65535) == 65535)
			CHECK_FOR_INTERRUPTS();  // a release may have tens of millions of cells
	}
	int16 len;
	bool byval;
	char align;
	get_typlenbyvalalign(type, &len, &byval, &align);
	return PointerGetDatum(construct_array(d, int(count), type, len, byval, align));
}

static Datum
TextArrayDatum(const char *const *values, size_t count)
{
	Datum *d = (Datum *)palloc(sizeof(Datum) * (count ? count : 1));
	for (size_t i = 0; i < count; i++)
		d[i] = CStringGetTextDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), TEXTOID, -1, false, TYPALIGN_INT));
}

static size_t
Total(const int32 *counts, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += size_t(counts[i]);
	return total;
}

// Draft callbacks for PapScanGridPoints.
static pap::core::ScanParameterKind
DraftParameter(const void *draft, size_t axis, const double **cuts, const char *const **categories, size_t *count)
{
	return pap::core::DraftScanParameter((const pap::core::ReleaseDraft *)draft, axis, cuts, categories, count);
}

static void
FreeDraftCallback(void *arg)
{
	pap::core::FreeReleaseDraft((pap::core::ReleaseDraft *)arg);
}

// Reads from the public table, as its owner (PapBeginTableRead), what the draft needs (api/release_api.hpp, steps 2-5).
static void
LearnFromPublicTable(pap::core::ReleaseDraft *draft, Oid private_table, Oid public_table, const char *public_name)
{
	size_t columns = 0, predicates = 0;
	PAP_CORE(columns = pap::core::DraftColumnCount(draft); predicates = pap::core::DraftPredicateCount(draft));
	for (size_t i = 0; i < columns; i++) {
		const char *column = nullptr;
		PAP_CORE(column = pap::core::DraftColumn(draft, i));
		Oid private_type, public_type;
		pap::core::ValueType type = PapValueTypeOfColumn(private_table, column, &private_type);
		// The same kind of type is enough (integer and bigint, text and varchar): both scans read the same axis.
		if (PapValueTypeOfColumn(public_table, column, &public_type) != type)
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("column \"%s\" has type %s in %s but %s in %s", column, format_type_be(private_type),
			                       PapQualifiedRelationName(private_table), format_type_be(public_type), public_name)));
		PAP_CORE(pap::core::DraftSetColumnType(draft, i, type, format_type_be(private_type)));
	}
	if (predicates > 0) {
		for (size_t i = 0; i < predicates; i++) {
			const char *predicate = nullptr;
			PAP_CORE(predicate = pap::core::DraftPredicate(draft, i));
			// The scans evaluate it on both tables: it must be a total condition on one row of each.
			PapCheckPredicate(public_table, predicate);
			PapCheckPredicate(private_table, predicate);
		}
		const char *labels = nullptr;
		PAP_CORE(labels = pap::core::DraftPredicateLabelSql(draft));
		int32 *points;
		int64 *rows;
		size_t count;
		PapScanGridPoints(
		    public_table, pstrdup(labels), predicates,
		    [](const void *, size_t, const double **, const char *const **, size_t *count) {
			    *count = 0;
			    return pap::core::ScanParameterKind::None;
		    },
		    nullptr, false, &points, &rows, &count);
		PAP_CORE(pap::core::DraftMergePredicates(draft, points, count));
	}
	size_t axes = 0;
	PAP_CORE(axes = pap::core::DraftAxisCount(draft));
	for (size_t a = 0; a < axes; a++) {
		const char *sql = nullptr;
		bool numeric = false;
		PAP_CORE(sql = pap::core::DraftAxisMarginalSql(draft, a); numeric = pap::core::DraftAxisIsNumeric(draft, a));
		if (sql == nullptr)
			continue;
		PapTableRead read;
		PapBeginTableRead(public_table, &read);
		PapExecute(psprintf("SELECT %s, pg_catalog.count(*) FROM %s GROUP BY 1", sql, public_name), 0, NULL, NULL,
		           true);
		PapEndTableRead(&read);
		const uint64 groups = SPI_processed;
		double *values = (double *)palloc(sizeof(double) * (groups + 1));
		const char **texts = (const char **)palloc(sizeof(char *) * (groups + 1));
		int64 *counts = (int64 *)palloc(sizeof(int64) * (groups + 1));
		size_t count = 0;
		int64 null_rows = 0;
		for (uint64 i = 0; i < groups; i++) {
			bool isnull_v, isnull_c;
			Datum v = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull_v);
			int64 c = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull_c));
			if (isnull_v) {
				null_rows += c;
				continue;
			}
			if (numeric)
				values[count] = DatumGetFloat8(v);
			else
				texts[count] = TextDatumGetCString(v);
			counts[count++] = c;
		}
		if (numeric)
			PAP_CORE(pap::core::DraftSetNumericMarginal(draft, a, values, counts, count, null_rows));
		else
			PAP_CORE(pap::core::DraftSetCategories(draft, a, texts, count));
		SPI_freetuptable(SPI_tuptable);
	}
	const char *select_list = nullptr;
	PAP_CORE(select_list = pap::core::DraftScanSelectList(draft));
	int32 *points;
	int64 *rows;
	size_t count;
	PapScanGridPoints(public_table, pstrdup(select_list), axes, DraftParameter, draft, false, &points, &rows, &count);
	PAP_CORE(pap::core::DraftSetPublicPoints(draft, points, rows, count, uint64(pap_max_cells),
	                                         size_t(pap_max_cover_queries)));
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
	char *granularity_text = text_to_cstring(PG_GETARG_TEXT_PP(6));

	if (name[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("release name must not be empty")));
	RequireProbability("alpha", alpha);
	RequireProbability("beta", beta);
	PAP_CORE(pap::core::ValidateAccuracyParameters(alpha, beta));
	pap::core::Granularity granularity;
	PAP_CORE(granularity = pap::core::ParseGranularity(granularity_text));
	// The draft lives in the current context and is freed with it, whatever fails below.
	pap::core::ReleaseDraft *draft = nullptr;
	const PapTextOrigin class_origin{fcinfo, 3, class_text};
	PAP_CORE_AT(&class_origin,
	            draft = pap::core::BeginReleaseDraft(class_text, alpha, granularity, PapInterruptPending));
	MemoryContextCallback *free_draft = (MemoryContextCallback *)palloc(sizeof(MemoryContextCallback));
	free_draft->func = FreeDraftCallback;
	free_draft->arg = draft;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, free_draft);

	PapQualifiedRelationName(private_table);  // raises if it no longer exists
	char *public_name = PapQualifiedRelationName(public_table);
	if (private_table == public_table)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("the public table must not be the private table"),
		         errdetail("The public table is read without privacy; it must hold rows other than the "
		                   "private ones.")));
	PapRequireReadable(private_table);
	PapRequireReadable(public_table);
	const char *user = GetUserNameFromId(GetUserId(), false);

	SPI_connect();
	PapRequirePrivateTable(private_table);
	PapRequirePublicTable(public_table, private_table);
	Oid name_type[1] = {TEXTOID};
	Datum name_value[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT 1 FROM pap.release_data WHERE name OPERATOR(pg_catalog.=) $1", 1, name_type, name_value, true);
	PapRestoreUser(&saved);
	if (SPI_processed > 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("release \"%s\" already exists", name)));

	const int output_level = PapBeginStableOutput();
	LearnFromPublicTable(draft, private_table, public_table, public_name);
	PapEndStableOutput(output_level);
	pap::core::CatalogLayout l;
	pap::core::DraftSummary summary;
	const char *canonical = nullptr;
	PAP_CORE(l = pap::core::DraftCatalogLayout(draft); summary = pap::core::DraftSummaryOf(draft);
	         canonical = pap::core::DraftCanonicalClass(draft));
	const size_t axes = l.axis_count;
	// One entry per column (catalog_columns.hpp); a column added later goes here, optional if the table of an older
	// version lacks it.
	const PapCatalogValue row[] = {
	    {"name", TEXTOID, CStringGetTextDatum(name)},
	    {"private_table", REGCLASSOID, ObjectIdGetDatum(private_table)},
	    {"public_table", REGCLASSOID, ObjectIdGetDatum(public_table)},
	    {"query_class", TEXTOID, CStringGetTextDatum(canonical)},
	    {"alpha", FLOAT8OID, Float8GetDatum(alpha)},
	    {"beta", FLOAT8OID, Float8GetDatum(beta)},
	    {"granularity", TEXTOID, CStringGetTextDatum(summary.granularity)},
	    {"public_rows", INT8OID, Int64GetDatum(summary.public_rows)},
	    {"axis_kinds", TEXTARRAYOID, TextArrayDatum(l.axis_kinds, axes)},
	    {"axis_value_types", TEXTARRAYOID, TextArrayDatum(l.axis_value_types, axes)},
	    {"axis_labels", TEXTARRAYOID, TextArrayDatum(l.axis_labels, axes)},
	    {"cut_counts", INT4ARRAYOID, ArrayDatum(l.cut_counts, axes, INT4OID)},
	    {"cuts", FLOAT8ARRAYOID, ArrayDatum(l.cuts, Total(l.cut_counts, axes), FLOAT8OID)},
	    {"category_counts", INT4ARRAYOID, ArrayDatum(l.category_counts, axes, INT4OID)},
	    {"categories", TEXTARRAYOID, TextArrayDatum(l.categories, Total(l.category_counts, axes))},
	    {"public_value_counts", INT4ARRAYOID, ArrayDatum(l.public_value_counts, axes, INT4OID)},
	    {"public_values", FLOAT8ARRAYOID, ArrayDatum(l.public_values, Total(l.public_value_counts, axes), FLOAT8OID)},
	    {"public_value_rows", INT8ARRAYOID,
	     ArrayDatum(l.public_value_rows, Total(l.public_value_counts, axes), INT8OID)},
	    {"predicate_axis", INT4ARRAYOID, ArrayDatum(l.predicate_axis, l.predicate_count, INT4OID)},
	    {"public_points", INT4ARRAYOID, ArrayDatum(l.public_points, l.public_point_count * axes, INT4OID)},
	    {"public_point_rows", INT8ARRAYOID, ArrayDatum(l.public_point_rows, l.public_point_count, INT8OID)},
	    {"domain", TEXTOID, CStringGetTextDatum(l.domain)},
	    {"domain_reason", TEXTOID, CStringGetTextDatum(summary.domain_reason)},
	    {"vc_dimension", INT4OID, Int32GetDatum(summary.vc_dimension)},
	    {"public_histogram", INT8ARRAYOID, ArrayDatum(summary.public_histogram, size_t(summary.cell_count), INT8OID)},
	    {"cover_size", INT8OID, Int64GetDatum(summary.cover_size)},
	    {"cell_count", INT8OID, Int64GetDatum(summary.cell_count)},
	    {"defined_by", TEXTOID, CStringGetTextDatum(user)},
	    {"defined_at", TIMESTAMPTZOID, TimestampTzGetDatum(GetCurrentTransactionStartTimestamp())},  // now()
	    {"layout_version", INT4OID, Int32GetDatum(kPapCatalogLayoutVersion), true},                  // since 0.2
	};
	PapBecomeCatalogOwner(&saved);
	PapCatalogInsert("release_data", row, lengthof(row), "ON CONFLICT (name) DO NOTHING");
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
	// A dropped private table (InvalidOid) has no owner: only the defining role may drop the release then.
	if (strcmp(user, release->defined_by) != 0 &&
	    !(OidIsValid(release->private_table) && pg_class_ownercheck(release->private_table, GetUserId())))
		ereport(ERROR,
		        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		         errmsg("must be the role that defined release \"%s\" or the owner of its private table", name)));
	if (release->run_live)
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_IN_USE), errmsg("release \"%s\" is being run by another session", name)));
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("DELETE FROM pap.release_data WHERE name OPERATOR(pg_catalog.=) $1", 1, types, values, false);
	PapRestoreUser(&saved);
	SPI_finish();
	PG_RETURN_VOID();
}
