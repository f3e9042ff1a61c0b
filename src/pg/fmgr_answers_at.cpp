// The set-based answers of one-column releases, typed rather than written as query texts (docs/reference.md,
// "Answers for many bounds"): pap.answers_at(name, upper_bounds anyarray) answers "column <= b" for every element
// b, pap.answer_between(name, lower, upper) one closed interval, usable with LATERAL over a table of bounds. Each
// answer is the one pap.answer gives for the same query written as text, through the same parsed query.
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/model_cache.hpp"
#include "pg/query_literals.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_answers_at);
PG_FUNCTION_INFO_V1(pap_answer_between);
}

// The parsed interval query of a one-column release, freed with the current memory context.
static pap::core::ParsedQuery *
IntervalQuery(const PapCachedRelease *release, bool has_lower, bool has_upper, pap::core::LiteralTarget *target)
{
	pap::core::ParsedQuery *parsed = nullptr;
	PAP_CORE(parsed = pap::core::ParseIntervalQueryForModel(release->model, has_lower, has_upper));
	PapFreeWithCurrentContext(parsed);
	if (has_lower || has_upper)
		PAP_CORE(*target = pap::core::ParsedQueryLiteral(release->model, parsed, 0));
	return parsed;
}

static double
AnswerBounds(const PapCachedRelease *release, const pap::core::ParsedQuery *parsed, const double *bounds, bool refine)
{
	const char *texts[2] = {nullptr, nullptr};
	double answer = 0.0;
	PAP_CORE(answer = pap::core::ModelAnswerQuery(release->model, parsed, bounds, texts, refine, PapInterruptPending));
	return answer;
}

// pap.answers_at(name, upper_bounds anyarray, refine): one row (upper_bound, answer, answer_count) per element, in
// the array's order; a NULL element gives NULL answers, as a comparison with NULL does. No rows for a NULL name or
// array. Not strict: a NULL (or omitted) refine is the release's answer mode, as for pap.answer.
extern "C" Datum
pap_answers_at(PG_FUNCTION_ARGS)
{
	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum)0;
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	ArrayType *array = PG_GETARG_ARRAYTYPE_P(1);
	const bool refine = PG_ARGISNULL(2) ? release->refine_by_default : PG_GETARG_BOOL(2);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
	pap::core::LiteralTarget target;
	const pap::core::ParsedQuery *parsed = IntervalQuery(release, false, true, &target);
	int64 n = 0;
	PAP_CORE(n = pap::core::ModelPrivateRows(release->model));
	const Oid element_type = ARR_ELEMTYPE(array);
	int16 length;
	bool by_value;
	char align;
	get_typlenbyvalalign(element_type, &length, &by_value, &align);
	Datum *elements;
	bool *nulls;
	int count;
	deconstruct_array(array, element_type, length, by_value, align, &elements, &nulls, &count);
	MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "pap.answers_at row", ALLOCSET_SMALL_SIZES);
	for (int i = 0; i < count; i++) {
		CHECK_FOR_INTERRUPTS();
		MemoryContext old = MemoryContextSwitchTo(row_context);
		Datum values[3] = {elements[i], (Datum)0, (Datum)0};
		bool row_nulls[3] = {nulls[i], nulls[i], nulls[i]};
		if (!nulls[i]) {
			const double bound = PapAxisValueOfDatum(elements[i], element_type, target.type, target.column);
			const double answer = AnswerBounds(release, parsed, &bound, refine);
			values[1] = Float8GetDatum(answer);
			values[2] = Float8GetDatum(answer * double(n));
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, row_nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_context);
	}
	return (Datum)0;
}

// pap.answer_between(name, lower anyelement, upper anyelement, refine): the answer of "column >= lower AND
// column <= upper" (BETWEEN). A NULL bound leaves its side open, as a range type's missing bound does; NULL when
// both are NULL or name is NULL.
extern "C" Datum
pap_answer_between(PG_FUNCTION_ARGS)
{
	const bool has_lower = !PG_ARGISNULL(1), has_upper = !PG_ARGISNULL(2);
	if (PG_ARGISNULL(0) || (!has_lower && !has_upper))
		PG_RETURN_NULL();
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	const bool refine = PG_ARGISNULL(3) ? release->refine_by_default : PG_GETARG_BOOL(3);  // NULL: the release's mode
	pap::core::LiteralTarget target;
	const pap::core::ParsedQuery *parsed = IntervalQuery(release, has_lower, has_upper, &target);
	const Oid type = get_fn_expr_argtype(fcinfo->flinfo, has_lower ? 1 : 2);
	if (!OidIsValid(type))
		ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_DATATYPE), errmsg("could not determine the type of the bounds")));
	double bounds[2];
	size_t next = 0;
	if (has_lower)
		bounds[next++] = PapAxisValueOfDatum(PG_GETARG_DATUM(1), type, target.type, target.column);
	if (has_upper)
		bounds[next++] = PapAxisValueOfDatum(PG_GETARG_DATUM(2), type, target.type, target.column);
	PG_RETURN_FLOAT8(AnswerBounds(release, parsed, bounds, refine));
}
