// pap.answer_bounded: an answer with its (1 - beta) error bound (docs/mechanisms.md §18). Free like pap.answer:
// the bound reads the release's public facts (its beta, public marginals and the plan parts its run stored), never
// the private table.
#include "core/api/release_api.hpp"
#include "pg/answer_query.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/model_cache.hpp"

extern "C" {
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
PG_FUNCTION_INFO_V1(pap_answer_bounded);
}

extern "C" Datum
pap_answer_bounded(PG_FUNCTION_ARGS)
{
	TupleDesc desc;
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "pap.answer_bounded must return a record");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))  // not strict, for the NULL refine that means the release's mode
		PG_RETURN_NULL();
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	char *query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	const bool refine = PG_ARGISNULL(2) ? release->refine_by_default : PG_GETARG_BOOL(2);  // NULL: the release's mode
	pap::core::AnswerBound bound;
	const PapTextOrigin origin{fcinfo, 1, query};
	PapAnswerQuery(release, query, refine, &bound, &origin);
	int64 n = 0;
	PAP_CORE(n = pap::core::ModelPrivateRows(release->model));
	Datum values[6] = {
	    Float8GetDatum(bound.estimate), Float8GetDatum(bound.error_bound),          Float8GetDatum(bound.lower),
	    Float8GetDatum(bound.upper),    Float8GetDatum(double(n) * bound.estimate), Int64GetDatum(n)};
	bool nulls[6] = {false, false, false, false, false, false};
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
