// pap.answer_box(name, lower anyarray, upper anyarray, refine): the answer of one box of a boxes or orthants
// release given by typed bounds rather than a query text (docs/reference.md, "Answers for boxes"), usable with
// LATERAL over a table of bounds. Each answer is the one pap.answer gives for the same box written as text
// ("lower <= column AND column <= upper" per column), computed from the bounds without building or parsing text;
// the release is loaded once per statement (model_cache.hpp).
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/model_cache.hpp"
#include "pg/query_literals.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_answer_box);
}

// The elements of a bounds array (one-dimensional, or empty), in order.
static int
BoundElements(ArrayType *array, const char *argument, Datum **elements, bool **nulls)
{
	if (ARR_NDIM(array) > 1)
		ereport(ERROR,
		        (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("%s bounds must be a one-dimensional array", argument),
		         errdetail("The array has %d dimensions.", ARR_NDIM(array)),
		         errhint("Pass one element per column of the release's class, NULL for a side left open.")));
	int16 length;
	bool by_value;
	char align;
	get_typlenbyvalalign(ARR_ELEMTYPE(array), &length, &by_value, &align);
	int count = 0;
	deconstruct_array(array, ARR_ELEMTYPE(array), length, by_value, align, elements, nulls, &count);
	return count;
}

// NULL for a NULL name or bounds array, as pap.answer_between for missing bounds. Not strict: a NULL (or
// omitted) refine is the release's answer mode, as for pap.answer.
extern "C" Datum
pap_answer_box(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	const bool refine = PG_ARGISNULL(3) ? release->refine_by_default : PG_GETARG_BOOL(3);
	ArrayType *lower_array = PG_GETARG_ARRAYTYPE_P(1), *upper_array = PG_GETARG_ARRAYTYPE_P(2);
	Datum *lower_elements, *upper_elements;
	bool *lower_nulls, *upper_nulls;
	const int lower_count = BoundElements(lower_array, "lower", &lower_elements, &lower_nulls);
	const int upper_count = BoundElements(upper_array, "upper", &upper_elements, &upper_nulls);
	if (lower_count != upper_count)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("lower and upper bounds differ in length"),
		                errdetail("The lower bounds have %d elements, the upper bounds %d.", lower_count, upper_count),
		                errhint("Pass one element per column of the release's class, NULL for a side left open.")));
	const size_t columns = size_t(lower_count);
	PAP_CORE(pap::core::ModelRequireBox(release->model, columns));
	const Oid element_type = ARR_ELEMTYPE(lower_array);
	double *lower = (double *)palloc0(sizeof(double) * (columns + 1));
	double *upper = (double *)palloc0(sizeof(double) * (columns + 1));
	bool *has_lower = (bool *)palloc0(sizeof(bool) * (columns + 1));
	bool *has_upper = (bool *)palloc0(sizeof(bool) * (columns + 1));
	for (size_t a = 0; a < columns; a++) {
		pap::core::ValueType type;
		const char *column = nullptr;
		PAP_CORE(type = pap::core::ModelAxisValueType(release->model, a));
		PAP_CORE(column = pap::core::ModelColumnName(release->model, a));
		has_lower[a] = !lower_nulls[a];
		has_upper[a] = !upper_nulls[a];
		if (has_lower[a])
			lower[a] = PapAxisValueOfDatum(lower_elements[a], element_type, type, column);
		if (has_upper[a])
			upper[a] = PapAxisValueOfDatum(upper_elements[a], element_type, type, column);
	}
	double answer = 0.0;
	PAP_CORE(answer = pap::core::ModelAnswerBox(release->model, lower, has_lower, upper, has_upper, columns, refine,
	                                            PapInterruptPending));
	PG_RETURN_FLOAT8(answer);
}
