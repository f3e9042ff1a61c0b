// pap.labelling_data and the feature rows of a labelling's tables.
#include "pg/label_catalog.hpp"
#include "pg/row_read_guard.hpp"

#include "pg/catalog_columns.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
}

bool
PapIsCategoricalFeature(pap::core::ValueType type)
{
	return type == pap::core::ValueType::Text || type == pap::core::ValueType::Boolean;
}

// The elements of a one-dimensional catalog array without NULLs.
static Datum *
CatalogElements(Datum d, Oid element_type, size_t *count)
{
	ArrayType *a = DatumGetArrayTypeP(d);
	if (ARR_NDIM(a) > 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != element_type)
		elog(ERROR, "pap_release: malformed array in the labelling catalog");
	int16 len;
	bool byval;
	char align;
	get_typlenbyvalalign(element_type, &len, &byval, &align);
	Datum *elements;
	int n;
	deconstruct_array(a, element_type, len, byval, align, &elements, NULL, &n);
	*count = size_t(n);
	return elements;
}

static const char *const *
CatalogTexts(Datum d, size_t *count)
{
	Datum *e = CatalogElements(d, TEXTOID, count);
	const char **out = (const char **)palloc(sizeof(char *) * (*count + 1));
	for (size_t i = 0; i < *count; i++)
		out[i] = TextDatumGetCString(e[i]);
	return out;
}

// DatumGetInt32 is a macro: the element readers as functions.
static double
Float8OfDatum(Datum d)
{
	return DatumGetFloat8(d);
}

static int32
Int32OfDatum(Datum d)
{
	return DatumGetInt32(d);
}

template <typename T, Oid type, T (*from_datum)(Datum)>
static T *
CatalogNumbers(Datum d, size_t *count)
{
	Datum *e = CatalogElements(d, type, count);
	T *out = (T *)palloc(sizeof(T) * (*count + 1));
	for (size_t i = 0; i < *count; i++)
		out[i] = from_datum(e[i]);
	return out;
}

static double *
CatalogFloats(Datum d, size_t *count)
{
	return CatalogNumbers<double, FLOAT8OID, Float8OfDatum>(d, count);
}

static int32 *
CatalogInts(Datum d, size_t *count)
{
	return CatalogNumbers<int32, INT4OID, Int32OfDatum>(d, count);
}

void
PapLabellingLockTag(LOCKTAG *tag, int64 labelling_id)
{
	const Oid catalog = get_relname_relid("labelling_data", get_namespace_oid("pap", false));
	SET_LOCKTAG_OBJECT(*tag, MyDatabaseId, uint32(catalog), uint32(labelling_id), 0);
}

PapLabelling *
PapLoadLabelling(const char *name, bool for_update)
{
	static const char *const select_sql =
	    "SELECT l.*, (l.state OPERATOR(pg_catalog.=) 'running' AND pap.labelling_in_progress(l.labelling_id)) "
	    "AS run_live FROM pap.labelling_data l WHERE l.name OPERATOR(pg_catalog.=) $1";
	MemoryContext caller = CurrentMemoryContext;
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(for_update ? psprintf("%s FOR UPDATE OF l", select_sql) : select_sql, 1, types, values, !for_update);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("labelling \"%s\" does not exist", name)));
	MemoryContextSwitchTo(caller);
	const PapCatalogRow row = {SPI_tuptable->vals[0], SPI_tuptable->tupdesc};
	bool isnull;
	auto column = [&](const char *column_name) { return PapCatalogGet(&row, column_name, false, &isnull); };
	PapLabelling *l = (PapLabelling *)palloc0(sizeof(PapLabelling));
	l->name = pstrdup(name);
	l->labelling_id = DatumGetInt64(column("labelling_id"));
	l->private_table = DatumGetObjectId(column("private_table"));
	if (isnull)
		l->private_table = InvalidOid;
	l->public_table = DatumGetObjectId(column("public_table"));
	if (isnull)
		l->public_table = InvalidOid;
	l->label_column = TextDatumGetCString(column("label_column"));
	size_t n[10];
	l->feature_columns = CatalogTexts(column("feature_columns"), &n[0]);
	l->feature_value_types = CatalogTexts(column("feature_value_types"), &n[1]);
	l->classes = CatalogTexts(column("classes"), &l->class_count);
	PAP_CORE(l->learner = pap::core::ParseLearner(TextDatumGetCString(column("learner"))));
	const Datum chunks = column("chunks");
	l->chunks = isnull ? 0 : DatumGetInt32(chunks);
	l->public_rows = DatumGetInt64(column("public_rows"));
	l->defined_by = pstrdup(NameStr(*DatumGetName(column("defined_by"))));
	l->state = TextDatumGetCString(column("state"));
	l->run_live = DatumGetBool(column("run_live")) && !isnull;
	l->feature_count = n[0];
	l->categorical = (bool *)palloc(sizeof(bool) * (n[0] + 1));
	bool consistent = n[1] == n[0] && l->class_count >= 1;
	for (size_t f = 0; consistent && f < n[0]; f++) {
		pap::core::ValueType type;
		PAP_CORE(type = pap::core::ValueTypeFromName(l->feature_value_types[f]));
		l->categorical[f] = PapIsCategoricalFeature(type);
	}
	pap::core::LabelSchemaData &s = l->schema;
	s.feature_count = n[0];
	s.categorical = l->categorical;
	s.centers = CatalogFloats(column("centers"), &n[2]);
	s.spreads = CatalogFloats(column("spreads"), &n[3]);
	s.cut_counts = CatalogInts(column("cut_counts"), &n[4]);
	s.cuts = CatalogFloats(column("cuts"), &s.cut_total);
	s.category_counts = CatalogInts(column("category_counts"), &n[5]);
	s.categories = CatalogTexts(column("categories"), &s.category_total);
	s.cell_count = DatumGetInt64(column("cell_count"));
	consistent = consistent && n[2] == n[0] && n[3] == n[0] && n[4] == n[0] && n[5] == n[0];
	const Datum model = column("model");
	if (!isnull)
		l->model = CatalogFloats(model, &l->model_size);
	if (!consistent)
		elog(ERROR, "pap_release: labelling \"%s\" is inconsistent in the catalog", name);
	return l;
}

// The public categories of each categorical feature, and the classes, as text[] parameters of the private read,
// sorted by bytes as pap.category_index needs them; sorted_classes[k] is the class at sorted position k.
struct LabelReadParameters {
	int count = 0;
	Oid types[FUNC_MAX_ARGS];
	Datum values[FUNC_MAX_ARGS];
	int32 *sorted_classes = nullptr;
};

static const PapLabelling *sorting_labelling;

static int
CompareClassIndexes(const void *a, const void *b)
{
	return strcmp(sorting_labelling->classes[*(const int32 *)a], sorting_labelling->classes[*(const int32 *)b]);
}

// The select list: one expression per feature, then the label. Public rows: categorical features as their text.
// Private rows (params given): categorical features as their bin among the public categories and the label as its
// position among the sorted classes, both by pap.category_index inside the read, so that no private text (a value
// stored out of line, of any size) is fetched after the guarded read ends or held in memory row by row.
static char *
LabelSelectList(Oid relid, const PapLabelling *l, const char *label_column, LabelReadParameters *params)
{
	StringInfoData sql;
	initStringInfo(&sql);
	size_t category_at = 0;
	for (size_t f = 0; f < l->feature_count; f++) {
		const char *column = quote_identifier(l->feature_columns[f]);
		if (f > 0)
			appendStringInfoString(&sql, ", ");
		if (l->categorical[f] && params != nullptr) {
			const size_t count = size_t(l->schema.category_counts[f]);
			params->types[params->count] = TEXTARRAYOID;
			params->values[params->count] = PapCatalogTextArray(l->schema.categories + category_at, count);
			category_at += count;
			appendStringInfo(&sql, "pap.category_index($%d, (%s)::pg_catalog.text)", ++params->count, column);
		} else if (l->categorical[f]) {
			appendStringInfo(&sql, "(%s)::pg_catalog.text", column);
		} else {
			appendStringInfo(&sql, "pap.axis_value(%s)", column);
		}
	}
	if (label_column != nullptr && params != nullptr) {
		params->sorted_classes = (int32 *)palloc(sizeof(int32) * (l->class_count + 1));
		for (size_t c = 0; c < l->class_count; c++)
			params->sorted_classes[c] = int32(c);
		sorting_labelling = l;
		qsort(params->sorted_classes, l->class_count, sizeof(int32), CompareClassIndexes);
		const char **sorted = (const char **)palloc(sizeof(char *) * (l->class_count + 1));
		for (size_t c = 0; c < l->class_count; c++)
			sorted[c] = l->classes[params->sorted_classes[c]];
		params->types[params->count] = TEXTARRAYOID;
		params->values[params->count] = PapCatalogTextArray(sorted, l->class_count);
		appendStringInfo(&sql, ", pap.category_index($%d, (%s)::pg_catalog.text)", ++params->count,
		                 quote_identifier(label_column));
	}
	return psprintf("SELECT %s FROM %s", sql.data, PapQualifiedRelationName(relid));
}

PapLabelRowsRead
PapReadLabelRows(Oid relid, const PapLabelling *l, const char *label_column, bool is_private)
{
	MemoryContext context = CurrentMemoryContext;
	if (l->feature_count > size_t(kMaxLabelFeatures))  // refused at define; a run reads the public rows first
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		                errmsg("a labelling reads at most %d feature columns", kMaxLabelFeatures)));
	if (label_column != nullptr && !is_private)
		elog(ERROR, "pap_release: a label is read from the private rows only");
	LabelReadParameters params;
	const char *sql = LabelSelectList(relid, l, label_column, is_private ? &params : nullptr);
	const size_t features = l->feature_count;
	PapTableRead read;
	PapBeginTableRead(relid, &read);
	// The rows in the table's order, not in the order parallel workers happen to return them (nor from where another
	// session's scan of a large table has got to): a learner's sums over its chunk's rows depend on their order at
	// the last bit, which would then depend on the workers' timing (on the rows themselves), outside the proof, and
	// a seeded run would not repeat. Restored with the read's level.
	(void)set_config_option("max_parallel_workers_per_gather", "0", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
	                        0, false);
	(void)set_config_option("synchronize_seqscans", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	const int output_level = PapBeginStableOutput();
	PG_TRY();
	{
		PapExecuteGuardedWith(sql, params.count, params.types, params.values);
	}
	PG_CATCH();
	{
		// As the release's private scan (glue.cpp, RunScan): an error reading private rows may quote a private
		// value, so only its SQLSTATE leaves.
		MemoryContextSwitchTo(context);
		ErrorData *error = CopyErrorData();
		if (!is_private || error->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		    ERRCODE_TO_CATEGORY(error->sqlerrcode) == ERRCODE_OPERATOR_INTERVENTION)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR, (errcode(error->sqlerrcode), errmsg("the read of the private table failed"),
		                errdetail("The error's text is withheld because it could quote a private value; its "
		                          "SQLSTATE is %s.",
		                          unpack_sql_state(error->sqlerrcode))));
	}
	PG_END_TRY();
	PapEndStableOutput(output_level);
	PapEndTableRead(&read);
	MemoryContextSwitchTo(context);
	const uint64 n = SPI_processed;
	PapLabelRowsRead out;
	double *numbers = (double *)MemoryContextAllocHuge(context, sizeof(double) * (n * features + 1));
	const char **texts =
	    is_private ? nullptr : (const char **)MemoryContextAllocHuge(context, sizeof(char *) * (n * features + 1));
	int32 *bins = is_private ? (int32 *)MemoryContextAllocHuge(context, sizeof(int32) * (n * features + 1)) : nullptr;
	int32 *classes =
	    label_column != nullptr ? (int32 *)MemoryContextAllocHuge(context, sizeof(int32) * (n + 1)) : nullptr;
	for (uint64 r = 0; r < n; r++) {
		for (size_t f = 0; f < features; f++) {
			bool isnull;
			const Datum v = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, int(f + 1), &isnull);
			const size_t at = r * features + f;
			numbers[at] = l->categorical[f] || isnull ? get_float8_nan() : DatumGetFloat8(v);
			if (is_private)
				bins[at] = l->categorical[f] ? DatumGetInt32(v) : 0;  // pap.category_index is never NULL
			else
				texts[at] = l->categorical[f] && !isnull ? TextDatumGetCString(v) : NULL;
		}
		if (label_column != nullptr) {
			bool isnull;
			const int32 k =
			    DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, int(features + 1), &isnull));
			// Positions past the classes are pap.category_index's "other" and NULL bins: no class.
			classes[r] = k >= 0 && size_t(k) < l->class_count ? params.sorted_classes[k] : -1;
		}
		if ((r & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	SPI_freetuptable(SPI_tuptable);
	out.rows.row_count = size_t(n);
	out.rows.feature_count = features;
	out.rows.categorical = l->categorical;
	out.rows.numbers = numbers;
	out.rows.texts = texts;
	out.rows.bins = bins;
	out.classes = classes;
	return out;
}
