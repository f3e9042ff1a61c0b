// pap.define_labelling and pap.drop_labelling: a labelling's features come from the public table only
// (docs/mechanisms.md §17).
#include "core/api/labelling_api.hpp"
#include "pg/catalog_columns.hpp"
#include "pg/catalog_object.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/label_catalog.hpp"
#include "pg/relation_kinds.hpp"

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
PG_FUNCTION_INFO_V1(pap_define_labelling);
PG_FUNCTION_INFO_V1(pap_drop_labelling);
}

static int
CompareTexts(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// The first text that appears twice, or NULL: sorted once, so that 65,536 classes take milliseconds.
static const char *
FirstDuplicate(const std::vector<const char *> &texts)
{
	const char **sorted = (const char **)palloc(sizeof(char *) * (texts.size() + 1));
	for (size_t i = 0; i < texts.size(); i++)
		sorted[i] = texts[i];
	qsort(sorted, texts.size(), sizeof(char *), CompareTexts);
	for (size_t i = 1; i < texts.size(); i++)
		if (strcmp(sorted[i - 1], sorted[i]) == 0)
			return sorted[i];
	return NULL;
}

// The elements of a text[] argument: one-dimensional, at most max_count, no NULL, no duplicates, not empty.
static std::vector<const char *>
TextList(ArrayType *a, const char *what, int max_count)
{
	Datum *elements;
	bool *nulls;
	int n;
	if (ARR_NDIM(a) > 1)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("%s must be a one-dimensional array", what)));
	if (ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)) > max_count)
		ereport(ERROR,
		        (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("%s may hold at most %d elements", what, max_count)));
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &n);
	std::vector<const char *> out;
	for (int i = 0; i < n; i++) {
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not contain NULL", what)));
		out.push_back(TextDatumGetCString(elements[i]));
	}
	if (const char *twice = FirstDuplicate(out))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s lists \"%s\" twice", what, twice)));
	if (out.empty())
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must not be empty", what)));
	return out;
}

// Each class as the private read prints a label of the column's type ((label)::text under the scans' stable output
// settings: booleans as true/false, char(n) without its trailing blanks, dates in ISO), read by the type's input
// function under the caller's settings and the column's typmod (a numeric(10,2) column prints 1 as 1.00). A class
// written otherwise ('t' for a boolean, '00' for an integer, a date in the caller's DMY) would match no private row
// and label nothing, after the charge. Two classes that are one value are refused.
static void
CanonicalClasses(std::vector<const char *> &classes, Oid label_type, int32 label_typmod, const char *label_column)
{
	PapCanonicalCategoryTexts(classes.data(), classes.size(), label_type, label_typmod);
	if (const char *twice = FirstDuplicate(classes))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("classes list the value \"%s\" of label column \"%s\" twice", twice, label_column),
		                errdetail("Two of the classes are the same value of type %s.", format_type_be(label_type))));
}

static Datum
FloatArray(const double *values, size_t count)
{
	Datum *d = (Datum *)palloc(sizeof(Datum) * (count + 1));
	for (size_t i = 0; i < count; i++)
		d[i] = Float8GetDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

static Datum
IntArray(const int32 *values, size_t count)
{
	Datum *d = (Datum *)palloc(sizeof(Datum) * (count + 1));
	for (size_t i = 0; i < count; i++)
		d[i] = Int32GetDatum(values[i]);
	return PointerGetDatum(construct_array(d, int(count), INT4OID, sizeof(int32), true, TYPALIGN_INT));
}

static const char *
RequiredText(FunctionCallInfo fcinfo, int i, const char *what)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", what)));
	return text_to_cstring(PG_GETARG_TEXT_PP(i));
}

extern "C" Datum
pap_define_labelling(PG_FUNCTION_ARGS)
{
	const char *name = RequiredText(fcinfo, 0, "labelling name");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
		        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("the private and public tables must not be NULL")));
	const Oid private_table = PG_GETARG_OID(1), public_table = PG_GETARG_OID(2);
	const char *label_column = RequiredText(fcinfo, 3, "label column");
	if (PG_ARGISNULL(4))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("feature columns must not be NULL")));
	const std::vector<const char *> features = TextList(PG_GETARG_ARRAYTYPE_P(4), "feature columns", kMaxLabelFeatures);
	pap::core::LearnerKind learner;
	PAP_CORE(learner = pap::core::ParseLearner(RequiredText(fcinfo, 5, "learner")));
	const bool auto_chunks = PG_ARGISNULL(6);
	const int32 chunks = auto_chunks ? 0 : PG_GETARG_INT32(6);
	if (!auto_chunks && chunks < 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("chunks must be positive, got %d", chunks),
		                errhint("Pass NULL to let pap.plan_labelling choose it.")));
	if (name[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("labelling name must not be empty")));

	// The caller's rights first, as LOCK TABLE checks them: a role that may not read the private table would
	// otherwise hold a lock on it while it waited for the public table's, stalling the owner's DDL and every read
	// queued behind it. Checked again once both are locked.
	PapRequireReadable(private_table);
	PapRequireReadable(public_table);
	PapLockTable(private_table);  // raises if it no longer exists
	PapLockTable(public_table);
	const char *public_name = PapQualifiedRelationName(public_table);
	if (private_table == public_table)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("the public table must not be the private table"),
		         errdetail("The public table is read without privacy; it must hold rows other than the "
		                   "private ones.")));
	PapRequireReadable(private_table);
	PapRequireReadable(public_table);
	const char *user = GetUserNameFromId(GetUserId(), false);

	// The label column: in the private table only. Its classes are public: listed, or false/true for a boolean.
	Oid label_type;
	const pap::core::ValueType label_kind = PapValueTypeOfColumn(private_table, label_column, &label_type);
	std::vector<const char *> classes;
	if (!PG_ARGISNULL(7))
		classes = TextList(PG_GETARG_ARRAYTYPE_P(7), "classes", 65536);
	else if (label_kind == pap::core::ValueType::Boolean)
		classes = {"false", "true"};
	else
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("classes must be listed for label column \"%s\" of type %s", label_column,
		                       format_type_be(label_type)),
		                errdetail("The labels a public row may get are public; reading them from the private rows "
		                          "would reveal them."),
		                errhint("Pass classes => ARRAY['...', '...'] with the labels as text.")));
	if (classes.size() < 2)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("a labelling needs at least two classes")));
	CanonicalClasses(classes, label_type, PapColumnTypmod(private_table, label_column), label_column);

	// Feature columns: of the same kind of type in both tables; the label column is not one of them.
	std::vector<const char *> value_types;
	std::vector<bool> categorical;
	for (const char *column : features) {
		if (strcmp(column, label_column) == 0)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("label column \"%s\" must not be a feature column", column)));
		Oid private_type, public_type;
		const pap::core::ValueType type = PapValueTypeOfColumn(private_table, column, &private_type);
		if (PapValueTypeOfColumn(public_table, column, &public_type) != type)
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("column \"%s\" has type %s in %s but %s in %s", column, format_type_be(private_type),
			                       PapQualifiedRelationName(private_table), format_type_be(public_type), public_name)));
		// A categorical feature's categories are the public column's texts, and the private read bins the private
		// column's: both must print a value alike (a varchar 'a ' is not a char(2) 'a').
		if (PapIsCategoricalFeature(type) && !PapSameCategoryText(private_type, public_type))
			ereport(ERROR,
			        (errcode(ERRCODE_DATATYPE_MISMATCH),
			         errmsg("column \"%s\" has type %s in %s but %s in %s", column, format_type_be(private_type),
			                PapQualifiedRelationName(private_table), format_type_be(public_type), public_name),
			         errdetail("A categorical feature is read by its text: both tables must hold the same type (text "
			                   "and varchar may mix, and so may integer types)."),
			         errhint("Cast the public column to the private column's type in a view.")));
		value_types.push_back(pap::core::ValueTypeName(type));
		categorical.push_back(PapIsCategoricalFeature(type));
	}

	SPI_connect();
	PapRequirePrivateTable(private_table);
	PapRequirePublicTable(public_table, private_table);
	// The schema from the public table: a PapLabelling with the features only.
	PapLabelling draft = {};
	draft.feature_count = features.size();
	draft.feature_columns = features.data();
	draft.categorical = (bool *)palloc(sizeof(bool) * features.size());
	for (size_t f = 0; f < features.size(); f++)
		draft.categorical[f] = categorical[f];
	const PapLabelRowsRead pub = PapReadLabelRows(public_table, &draft, nullptr, false);
	pap::core::LabelSchemaData s;
	PAP_CORE(s = pap::core::DescribeLabelSchema(pub.rows, learner, uint64(pap_max_cells), PapAllocate));
	PAP_CORE(pap::core::RequireLabellingFits(s, learner, int32(classes.size()), int64(pub.rows.row_count)));
	const size_t nf = features.size();
	const PapCatalogValue row[] = {
	    {"name", TEXTOID, CStringGetTextDatum(name)},
	    {"private_table", REGCLASSOID, ObjectIdGetDatum(private_table)},
	    {"public_table", REGCLASSOID, ObjectIdGetDatum(public_table)},
	    {"label_column", TEXTOID, CStringGetTextDatum(label_column)},
	    {"feature_columns", TEXTARRAYOID, PapCatalogTextArray(features.data(), nf)},
	    {"feature_value_types", TEXTARRAYOID, PapCatalogTextArray(value_types.data(), nf)},
	    {"classes", TEXTARRAYOID, PapCatalogTextArray(classes.data(), classes.size())},
	    {"learner", TEXTOID, CStringGetTextDatum(pap::core::LearnerName(learner))},
	    {"public_rows", INT8OID, Int64GetDatum(int64(pub.rows.row_count))},
	    {"centers", FLOAT8ARRAYOID, FloatArray(s.centers, nf)},
	    {"spreads", FLOAT8ARRAYOID, FloatArray(s.spreads, nf)},
	    {"cut_counts", INT4ARRAYOID, IntArray(s.cut_counts, nf)},
	    {"cuts", FLOAT8ARRAYOID, FloatArray(s.cuts, s.cut_total)},
	    {"category_counts", INT4ARRAYOID, IntArray(s.category_counts, nf)},
	    {"categories", TEXTARRAYOID, PapCatalogTextArray(s.categories, s.category_total)},
	    {"cell_count", INT8OID, Int64GetDatum(s.cell_count)},
	    {"defined_by", NAMEOID, DirectFunctionCall1(namein, CStringGetDatum(user))},
	    {"defined_at", TIMESTAMPTZOID, TimestampTzGetDatum(GetCurrentTransactionStartTimestamp())},
	    {"chunks", INT4OID, Int32GetDatum(chunks)},  // last: left out (NULL) when the plan chooses
	};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	const uint64 inserted = PapCatalogInsert("labelling_data", row, int(lengthof(row)) - (auto_chunks ? 1 : 0),
	                                         "ON CONFLICT (name) DO NOTHING");
	PapRestoreUser(&saved);
	if (inserted == 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("labelling \"%s\" already exists", name)));
	SPI_finish();
	PG_RETURN_VOID();
}

extern "C" Datum
pap_drop_labelling(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SPI_connect();
	PapDropCatalogObject(PapObjectOf(PapLoadLabelling(name, true)));
	SPI_finish();
	PG_RETURN_VOID();
}
