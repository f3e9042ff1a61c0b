// pap.define_release and pap.drop_release: a release's axes, cover and cells come from the public table only.
#include "core/api/release_api.hpp"
#include "pg/catalog_columns.hpp"
#include "pg/catalog_object.hpp"
#include "pg/check_list.hpp"
#include "pg/declared_domain.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/guc.hpp"
#include "pg/ledger_charge.hpp"
#include "pg/not_null.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/row_read_guard.hpp"
#include "pg/text_position.hpp"

#include <cmath>
#include <type_traits>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
PG_FUNCTION_INFO_V1(pap_define_release);
PG_FUNCTION_INFO_V1(pap_define_private_release);
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
		else if constexpr (std::is_same_v<T, bool>)
			d[i] = BoolGetDatum(values[i]);
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

// A draft that lives in the current memory context and is freed with it, whatever fails after. class_origin: where
// the class text came from, for the caret of an error in it.
static pap::core::ReleaseDraft *
BeginDraft(const char *class_text, double alpha, pap::core::Granularity granularity, const PapTextOrigin *class_origin)
{
	pap::core::ReleaseDraft *draft = nullptr;
	PAP_CORE_AT(class_origin,
	            draft = pap::core::BeginReleaseDraft(class_text, alpha, granularity, PapInterruptPending));
	MemoryContextCallback *free_draft = (MemoryContextCallback *)palloc(sizeof(MemoryContextCallback));
	free_draft->func = FreeDraftCallback;
	free_draft->arg = draft;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, free_draft);
	return draft;
}

// Reads from the public table, as its owner (PapBeginTableRead), what the draft needs (api/release_api.hpp, steps 2-5).
static void
LearnFromPublicTable(pap::core::ReleaseDraft *draft, Oid private_table, Oid public_table, const char *public_name)
{
	size_t columns = 0, predicates = 0;
	PAP_CORE(columns = pap::core::DraftColumnCount(draft); predicates = pap::core::DraftPredicateCount(draft));
	Oid *private_types = (Oid *)palloc0(sizeof(Oid) * (columns + 1)),
	    *public_types = (Oid *)palloc0(sizeof(Oid) * (columns + 1));
	for (size_t i = 0; i < columns; i++) {
		const char *column = nullptr;
		PAP_CORE(column = pap::core::DraftColumn(draft, i));
		Oid private_type, public_type;
		pap::core::ValueType type = PapValueTypeOfReleaseColumn(private_table, column, &private_type);
		// The same kind of type is enough (integer and bigint, text and varchar): both scans read the same axis. An
		// enum is read over its own labels: both tables hold the same type.
		const pap::core::ValueType public_kind = PapValueTypeOfReleaseColumn(public_table, column, &public_type);
		if (public_kind != type || (type == pap::core::ValueType::Enum && public_type != private_type))
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("column \"%s\" has type %s in %s but %s in %s", column, format_type_be(private_type),
			                       PapQualifiedRelationName(private_table), format_type_be(public_type), public_name)));
		private_types[i] = getBaseType(private_type);
		public_types[i] = getBaseType(public_type);
		// The private column's type says which values its rows can hold (a public float8 column may cut between them).
		// A NOT NULL column's NULL bin is closed to every plan and run (public: the catalog); granularity auto plans
		// its candidates so too.
		const bool not_null = PapColumnNotNullInTree(private_table, column);
		PAP_CORE(pap::core::DraftSetColumnType(draft, i, type, format_type_be(private_type));
		         pap::core::DraftSetColumnValueStep(draft, i, PapValueStepOfType(private_type));
		         pap::core::DraftSetColumnNotNull(draft, i, not_null));
		if (type == pap::core::ValueType::Enum) {  // its categories are the type's labels (public: the catalog)
			PapRequireLocalEnumColumn(private_table, column, private_type);
			size_t count = 0;
			const char **labels = PapEnumLabels(private_type, &count);
			PAP_CORE(pap::core::DraftSetColumnLabels(draft, i, labels, count));
		}
		// A list of values the private table's CHECK constraint allows the column closes a categorical axis as an
		// enum's labels do (public: the catalog); the public read below refuses a public value outside it. An ordered
		// axis reads values, not categories: its lists are not read. The list becomes the release's categories,
		// which every reader of the release sees: said at definition, so that a list written from the data is seen.
		bool categorical = false;
		PAP_CORE(categorical = pap::core::DraftColumnsAreCategorical(draft));
		if (categorical && (type == pap::core::ValueType::Number || type == pap::core::ValueType::Text)) {
			size_t count = 0;
			const char **values = PapCheckListOfColumn(private_table, column, &count);
			if (values != nullptr) {
				PAP_CORE(pap::core::DraftSetColumnCheckList(draft, i, values, count));
				ereport(NOTICE,
				        (errmsg("column \"%s\" of %s is closed by its CHECK constraint: its %zu listed values are the "
				                "categories of its axis",
				                column, PapQualifiedRelationName(private_table), count),
				         errdetail("The release's categories are visible to every role that reads the release, "
				                   "listed values that no row holds included."),
				         errhint("A list written from the private rows' values publishes them; see "
				                 "docs/security.md, \"Closed columns\".")));
			}
		}
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
		PAP_CORE(pap::core::DraftMergePredicates(draft, points, rows, count));
	}
	size_t axes = 0;
	PAP_CORE(axes = pap::core::DraftAxisCount(draft));
	for (size_t a = 0; a < axes; a++) {
		const char *sql = nullptr;
		bool numeric = false;
		PAP_CORE(sql = pap::core::DraftAxisMarginalSql(draft, a); numeric = pap::core::DraftAxisIsNumeric(draft, a));
		if (sql == nullptr)
			continue;
		// A categorical axis (marginals, stumps: axis a is column a) bins by the value's text, which the public read
		// takes from the public column and the private scan from the private one: both must print a value alike.
		// The same kind of type is not enough (an integer 1 is "1", a numeric(6,2) one "1.00"; an interval is
		// "01:00:00", the text '1:00:00'), and a public category the private type cannot read would fail every later
		// answer naming the column, after the charge. So the same base type, text and varchar, or two integers.
		if (!numeric && a < columns && !PapSameCategoryText(private_types[a], public_types[a])) {
			const char *column = nullptr;
			PAP_CORE(column = pap::core::DraftColumn(draft, a));
			ereport(ERROR,
			        (errcode(ERRCODE_DATATYPE_MISMATCH),
			         errmsg("column \"%s\" has type %s in %s but %s in %s", column, format_type_be(private_types[a]),
			                PapQualifiedRelationName(private_table), format_type_be(public_types[a]), public_name),
			         errdetail("The class reads the column's values as categories, by their text: both tables must "
			                   "hold the same type (text and varchar may mix, and so may integer types)."),
			         errhint("Cast the public column to the private column's type in a view.")));
		}
		PapTableRead read;
		PapBeginTableRead(public_table, &read);
		PapExecuteGuarded(psprintf("SELECT %s, pg_catalog.count(*) FROM %s GROUP BY 1", sql, public_name));
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

// Stores a finished draft as a new release (pap.release_data), as the catalog's owner; public_table InvalidOid and
// declared_domain a jsonb for a release without a public table. The caller's SPI connection is open.
static void
StoreRelease(const char *name, Oid private_table, Oid public_table, const pap::core::ReleaseDraft *draft, double alpha,
             double beta, Datum declared_domain)
{
	const char *user = GetUserNameFromId(GetUserId(), false);
	pap::core::CatalogLayout l;
	pap::core::DraftSummary summary;
	const char *canonical = nullptr;
	PAP_CORE(l = pap::core::DraftCatalogLayout(draft); summary = pap::core::DraftSummaryOf(draft);
	         canonical = pap::core::DraftCanonicalClass(draft));
	const size_t axes = l.axis_count;
	// The private columns the axes read, as they are now: a run refuses a rename onto another column or a new type.
	int32 *positions;
	const char **column_types;
	PapAxisColumnIdentities(private_table, l, &positions, &column_types);
	// One entry per column (catalog_columns.hpp); a column added later goes here, optional if the table of an older
	// version lacks it.
	const PapCatalogValue row[] = {
	    {"name", TEXTOID, CStringGetTextDatum(name)},
	    {"private_table", REGCLASSOID, ObjectIdGetDatum(private_table)},
	    {"query_class", TEXTOID, CStringGetTextDatum(canonical)},
	    {"alpha", FLOAT8OID, Float8GetDatum(alpha)},
	    {"beta", FLOAT8OID, Float8GetDatum(beta)},
	    {"granularity", TEXTOID, CStringGetTextDatum(summary.granularity)},
	    {"public_rows", INT8OID, Int64GetDatum(summary.public_rows)},
	    {"axis_kinds", TEXTARRAYOID, PapCatalogTextArray(l.axis_kinds, axes)},
	    {"axis_value_types", TEXTARRAYOID, PapCatalogTextArray(l.axis_value_types, axes)},
	    {"axis_labels", TEXTARRAYOID, PapCatalogTextArray(l.axis_labels, axes)},
	    {"cut_counts", INT4ARRAYOID, ArrayDatum(l.cut_counts, axes, INT4OID)},
	    {"cuts", FLOAT8ARRAYOID, ArrayDatum(l.cuts, Total(l.cut_counts, axes), FLOAT8OID)},
	    {"category_counts", INT4ARRAYOID, ArrayDatum(l.category_counts, axes, INT4OID)},
	    {"categories", TEXTARRAYOID, PapCatalogTextArray(l.categories, Total(l.category_counts, axes))},
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
	    {"defined_at", TIMESTAMPTZOID, TimestampTzGetDatum(GetCurrentTransactionStartTimestamp())},   // now()
	    {"layout_version", INT4OID, Int32GetDatum(kPapCatalogLayoutVersion), true},                   // since 0.2
	    {"axis_value_steps", FLOAT8ARRAYOID, ArrayDatum(l.axis_value_steps, axes, FLOAT8OID), true},  // since 0.2
	    {"axis_column_positions", INT4ARRAYOID, ArrayDatum(positions, axes, INT4OID), true},          // since 0.2
	    {"axis_column_types", TEXTARRAYOID, PapCatalogTextArray(column_types, axes), true},           // since 0.2
	    {"axis_check_lists", BOOLARRAYOID, ArrayDatum(l.axis_check_lists, axes, BOOLOID), true},      // since 0.2
	};
	// A release over a declared domain has no public table (NULL) and keeps its declaration instead.
	PapCatalogValue *values = (PapCatalogValue *)palloc(sizeof(row) + 2 * sizeof(PapCatalogValue));
	memcpy(values, row, sizeof(row));
	int count = lengthof(row);
	if (OidIsValid(public_table))
		values[count++] = {"public_table", REGCLASSOID, ObjectIdGetDatum(public_table), false};
	if (declared_domain != (Datum)0)
		values[count++] = {"declared_domain", JSONBOID, declared_domain, false};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapCatalogInsert("release_data", values, count, "ON CONFLICT (name) DO NOTHING");
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("release \"%s\" already exists", name)));
}

// Refuses a name already taken, before any work (the insert checks again, atomically).
static void
RequireNewReleaseName(const char *name)
{
	Oid name_type[1] = {TEXTOID};
	Datum name_value[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT 1 FROM pap.release_data WHERE name OPERATOR(pg_catalog.=) $1", 1, name_type, name_value, true);
	PapRestoreUser(&saved);
	if (SPI_processed > 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("release \"%s\" already exists", name)));
}

// The guard rails of a defined release (docs/mechanisms.md §15) that public information decides at definition: a
// warning, with the numbers, when its public table is smaller than its cover needs. (The private rows and epsilon
// are pap.plan's: definition reads no private row.)
static void
WarnDefinedRelease(const pap::core::ReleaseDraft *draft, double alpha, double beta)
{
	pap::core::DraftSummary summary;
	const char *canonical = nullptr;
	bool declared = false;
	PAP_CORE(summary = pap::core::DraftSummaryOf(draft); canonical = pap::core::DraftCanonicalClass(draft);
	         declared = pap::core::DraftIsDeclared(draft));
	pap::core::GuardRailRequest request{};
	request.query_class = canonical;
	request.vc_dimension = summary.vc_dimension;
	request.public_rows = summary.public_rows;
	request.private_rows = -1;
	request.domain_size = declared ? PapHistogramWeight(summary.public_histogram, size_t(summary.cell_count)) : 0;
	request.alpha = alpha;
	request.beta = beta;
	PapWarnGuardRails(request);
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
	const PapTextOrigin class_origin{fcinfo, 3, class_text};
	pap::core::ReleaseDraft *draft = BeginDraft(class_text, alpha, granularity, &class_origin);

	// The caller's rights first, as LOCK TABLE checks them: a role that may not read the private table would
	// otherwise hold a lock on it while it waited for the public table's, stalling the owner's DDL and every read
	// queued behind it. Checked again once both are locked.
	PapRequireReadable(private_table);
	PapRequireReadable(public_table);
	PapLockTable(private_table);  // raises if it no longer exists
	PapLockTable(public_table);
	char *public_name = PapQualifiedRelationName(public_table);
	if (private_table == public_table)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("the public table must not be the private table"),
		         errdetail("The public table is read without privacy; it must hold rows other than the "
		                   "private ones.")));
	PapRequireReadable(private_table);
	PapRequireReadable(public_table);

	SPI_connect();
	PapRequirePrivateTable(private_table);
	PapRequirePublicTable(public_table, private_table);
	RequireNewReleaseName(name);
	bool plans_layout = false;
	PAP_CORE(plans_layout = pap::core::DraftPlansLayout(draft));
	if (plans_layout) {
		// Granularity auto plans its candidates as pap.plan would (docs/mechanisms.md §20): n is public under
		// replace-one, read by count(*) as pap.plan and run_release read it.
		const int64 private_rows = PapCountRows(private_table);
		PAP_CORE(pap::core::DraftSetLayoutPlanning(draft, private_rows, pap_layout_epsilon, 0.0, beta));
	}

	const int output_level = PapBeginStableOutput();
	LearnFromPublicTable(draft, private_table, public_table, public_name);
	PapEndStableOutput(output_level);
	StoreRelease(name, private_table, public_table, draft, alpha, beta, (Datum)0);
	WarnDefinedRelease(draft, alpha, beta);
	SPI_finish();
	PG_RETURN_VOID();
}

// --- a release over a declared domain, without a public table (docs/mechanisms.md §14) ----------------------------

// Reads the declaration of every axis into the draft (api/release_api.hpp, "A release without a public table").
static void
DeclareDomain(pap::core::ReleaseDraft *draft, Oid private_table, Datum domain)
{
	size_t columns = 0;
	PAP_CORE(pap::core::DraftRequireDeclarable(draft); columns = pap::core::DraftColumnCount(draft));
	// Every member of the domain must name a column of the class: a misspelt name would otherwise go unnoticed.
	Oid types[1] = {JSONBOID};
	Datum values[1] = {domain};
	PapExecute("SELECT pg_catalog.jsonb_typeof($1)", 1, types, values, true);
	bool isnull;
	char *json_type = TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (strcmp(json_type, "object") != 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("the declared domain must be a JSON object, got a JSON %s", json_type),
		                errhint("Declare {\"column\": {\"min\": ..., \"max\": ..., \"step\": ...}, \"other\": "
		                        "{\"categories\": [...]}}.")));
	PapExecute("SELECT k FROM pg_catalog.jsonb_object_keys($1) k ORDER BY k", 1, types, values, true);
	const uint64 keys = SPI_processed;
	SPITupleTable *key_table = SPI_tuptable;
	for (uint64 i = 0; i < keys; i++) {
		const char *key = TextDatumGetCString(SPI_getbinval(key_table->vals[i], key_table->tupdesc, 1, &isnull));
		bool known = false;
		for (size_t c = 0; c < columns && !known; c++) {
			const char *column = nullptr;
			PAP_CORE(column = pap::core::DraftColumn(draft, c));
			known = strcmp(column, key) == 0;
		}
		if (!known)
			ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
			                errmsg("the declared domain names column \"%s\", which the class does not read", key)));
	}
	SPI_freetuptable(key_table);

	for (size_t c = 0; c < columns; c++) {
		const char *column = nullptr;
		PAP_CORE(column = pap::core::DraftColumn(draft, c));
		Oid type;
		const pap::core::ValueType value_type = PapValueTypeOfReleaseColumn(private_table, column, &type);
		PAP_CORE(pap::core::DraftSetColumnType(draft, c, value_type, format_type_be(type));
		         pap::core::DraftSetColumnValueStep(draft, c, PapValueStepOfType(type)));
		if (value_type == pap::core::ValueType::Enum) {  // its domain is its type's labels, as a boolean's is
			PapRequireLocalEnumColumn(private_table, column, type);
			size_t count = 0;
			const char **labels = PapEnumLabels(type, &count);
			PAP_CORE(pap::core::DraftSetColumnLabels(draft, c, labels, count));
		}
	}
	size_t axes = 0;
	PAP_CORE(axes = pap::core::DraftAxisCount(draft));
	for (size_t a = 0; a < axes; a++) {
		const char *column = nullptr;
		bool numeric = false, needs_values = false;
		PAP_CORE(column = pap::core::DraftColumn(draft, a); numeric = pap::core::DraftAxisIsNumeric(draft, a);
		         needs_values = pap::core::DraftAxisMarginalSql(draft, a) != nullptr);
		const PapDeclaredColumn d = PapReadDeclaredColumn(domain, column);
		if (!needs_values) {  // a boolean column (its domain is {false, true}) or an enum one (its type's labels)
			Oid type;
			if (d.present && PapValueTypeOfReleaseColumn(private_table, column, &type) == pap::core::ValueType::Enum)
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("column \"%s\" has enum type %s: its domain is the type's labels and is not "
				                       "declared",
				                       column, format_type_be(type)),
				                errhint("Leave it out of the declared domain.")));
			if (d.present)
				ereport(ERROR,
				        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				         errmsg("column \"%s\" is boolean: its domain is {false, true} and is not declared", column),
				         errhint("Leave it out of the declared domain.")));
			continue;
		}
		if (d.present)
			PapRequireDeclarationObject(d, column);
		if (numeric) {
			Oid type;
			if (PapValueTypeOfColumn(private_table, column, &type) != pap::core::ValueType::Number)
				ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				                errmsg("a declared domain of column \"%s\" (type %s) is not supported", column,
				                       format_type_be(type)),
				                errdetail("Declared bounds and steps are numbers; dates and timestamps are not."),
				                errhint("Declare a number column in a view (e.g. the date's year), or use a public "
				                        "table.")));
			if (!d.bounded)
				PAP_CORE(pap::core::RefuseUnboundedDomain(column));
			PAP_CORE(pap::core::DraftDeclareNumericDomain(draft, a, d.low, d.high, d.step, uint64(pap_max_cells)));
		} else {
			if (!d.has_categories)
				ereport(ERROR,
				        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				         errmsg("a release without a public table needs the categories of column \"%s\"", column),
				         errdetail("A categorical axis is the list of its categories; without a public table "
				                   "nothing else can give it."),
				         errhint("Declare the column as {\"%s\": {\"categories\": [...]}}.", column)));
			// As the scan prints the private column's values: a date declared "Jan 3 2001" is 2001-01-03, and a text
			// the column's type cannot read is refused now, not by every answer after the charge.
			Oid type;
			(void)PapValueTypeOfReleaseColumn(private_table, column, &type);
			PapCanonicalCategoryTexts((const char **)d.categories, d.category_count, type,
			                          PapColumnTypmod(private_table, column));
			PAP_CORE(pap::core::DraftDeclareCategories(draft, a, d.categories, d.category_count));
		}
	}
	PAP_CORE(pap::core::DraftDeclareFullGrid(draft, uint64(pap_max_cells), size_t(pap_max_cover_queries)));
}

extern "C" Datum
pap_define_private_release(PG_FUNCTION_ARGS)
{
	// Not STRICT: a NULL domain is refused with the reason, not answered with NULL.
	static const char *const arguments[] = {"name", "private_table", "query_class", "domain", "alpha", "beta"};
	for (int i = 0; i < int(lengthof(arguments)); i++)
		if (PG_ARGISNULL(i) && i != 3)
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be null", arguments[i])));
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Oid private_table = PG_GETARG_OID(1);
	char *class_text = text_to_cstring(PG_GETARG_TEXT_PP(2));
	Datum domain = PG_ARGISNULL(3) ? DirectFunctionCall1(jsonb_in, CStringGetDatum("{}")) : PG_GETARG_DATUM(3);
	double alpha = PG_GETARG_FLOAT8(4);
	double beta = PG_GETARG_FLOAT8(5);

	if (name[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("release name must not be empty")));
	RequireProbability("alpha", alpha);
	RequireProbability("beta", beta);
	PAP_CORE(pap::core::ValidateAccuracyParameters(alpha, beta));
	const PapTextOrigin class_origin{fcinfo, 2, class_text};
	pap::core::ReleaseDraft *draft = BeginDraft(class_text, alpha, pap::core::Granularity::Finest, &class_origin);

	PapLockTable(private_table);  // raises if it no longer exists
	PapRequireReadable(private_table);
	SPI_connect();
	PapRequirePrivateTable(private_table);
	RequireNewReleaseName(name);
	DeclareDomain(draft, private_table, domain);
	StoreRelease(name, private_table, InvalidOid, draft, alpha, beta, domain);
	WarnDefinedRelease(draft, alpha, beta);
	SPI_finish();
	PG_RETURN_VOID();
}

extern "C" Datum
pap_drop_release(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SPI_connect();
	PapDropCatalogObject(PapObjectOf(PapLoadRelease(name, true)));
	SPI_finish();
	PG_RETURN_VOID();
}
