// Reading a release: pap.answer, pap.answer_count, pap.answers, pap.synthetic. Free: they read only the
// differentially private output stored by run_release, never the private table.
#include <cmath>

#include "core/api/release_api.hpp"
#include "pg/answer_query.hpp"
#include "pg/answer_warnings.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/guc.hpp"
#include "pg/model_cache.hpp"
#include "pg/query_literals.hpp"
#include "pg/text_position.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
PG_FUNCTION_INFO_V1(pap_answer);
PG_FUNCTION_INFO_V1(pap_answer_count);
PG_FUNCTION_INFO_V1(pap_answers);
PG_FUNCTION_INFO_V1(pap_synthetic);
PG_FUNCTION_INFO_V1(pap_quantile);
}

// A release loaded for one pap.answers or pap.synthetic call (they list every cover query or cell, so the
// answer cache, src/pg/model_cache.hpp, would not pay). The C++ model is freed by a reset callback on the
// owning memory context.
struct PapLoadedRelease {
	char *name;
	Oid private_table;
	pap::core::ReleaseModel *model;
	MemoryContextCallback free_model;
};

static void
FreeModelCallback(void *arg)
{
	PapLoadedRelease *loaded = (PapLoadedRelease *)arg;
	pap::core::FreeReleaseModel(loaded->model);
	loaded->model = nullptr;
}

static PapLoadedRelease *
LoadRelease(const char *name, MemoryContext context)
{
	// Everything that outlives SPI_finish is allocated in context, never in SPI's own memory.
	SPI_connect();
	MemoryContext spi = MemoryContextSwitchTo(context);
	PapRelease *r = PapLoadRelease(name, false);
	PapRequireReleased(r);
	PapLoadedRelease *loaded = (PapLoadedRelease *)palloc0(sizeof(PapLoadedRelease));
	loaded->name = pstrdup(name);
	loaded->private_table = r->private_table;
	// The model is created and registered for freeing before any other PostgreSQL call can fail.
	loaded->free_model.func = FreeModelCallback;
	loaded->free_model.arg = loaded;
	PAP_CORE(loaded->model = pap::core::LoadReleaseModel(r->layout, r->synthetic, size_t(r->cell_count),
	                                                     r->private_rows, PapInterruptPending));
	MemoryContextRegisterResetCallback(context, &loaded->free_model);
	MemoryContextSwitchTo(spi);
	SPI_finish();
	return loaded;
}

// A categorical literal as the canonical text of its column's type: the type's input then output function
// (so that 037 and 37 are one integer category), "true"/"false" for booleans, a bpchar without its trailing
// blanks (as the scans' cast to text prints it). The input reads the literal as SQL
// would in the caller's session (its TimeZone and DateStyle, as the ordered classes and the casts read theirs); the
// output prints it under the settings the scans printed the categories with (PapBeginStableOutput).
static const char *
CategoryText(const pap::core::ReleaseModel *model, Oid private_table, const pap::core::LiteralTarget &t)
{
	Oid type;
	PapValueTypeOfReleaseColumn(private_table, t.column, &type);
	if (type_is_enum(type) && PapIsReleaseCategory(model, t.column, t.text))
		return t.text;  // a label the release was run over, even if renamed since
	Oid input, ioparam, output;
	bool varlena;
	getTypeInputInfo(type, &input, &ioparam);
	Datum value = OidInputFunctionCall(input, (char *)t.text, ioparam, -1);
	// Texts, integers and booleans print alike in every session.
	const bool stable = type == TEXTOID || type == VARCHAROID || type == BPCHAROID || type == INT2OID ||
	                    type == INT4OID || type == INT8OID || type == BOOLOID;
	const int level = stable ? 0 : PapBeginStableOutput();
	const char *text;
	if (type == BOOLOID) {
		text = DatumGetBool(value) ? "true" : "false";
	} else {
		getTypeOutputInfo(type, &output, &varlena);
		char *printed = OidOutputFunctionCall(output, value);
		PapTrimCharPadding(printed, type);
		text = printed;
	}
	if (!stable)
		PapEndStableOutput(level);
	return text;
}

// The answer (fraction) of a query text. Literals are read for the column they are compared with; a type's
// input function may raise, so the parsed query lives in the core and is freed by a callback on the current
// context, never skipped by a longjmp. origin: where the text came from, for errposition (nullptr: none); bound:
// when given, the answer's error bound is computed too.
double
PapAnswerQuery(const PapCachedRelease *release, const char *query, bool refine, pap::core::AnswerBound *bound,
               const PapTextOrigin *origin)
{
	pap::core::ParsedQuery *parsed = nullptr;
	PAP_CORE_AT(origin, parsed = pap::core::ParseQueryForModel(release->model, query));
	PapFreeWithCurrentContext(parsed);
	size_t count = 0;
	PAP_CORE(count = pap::core::ParsedQueryLiteralCount(parsed));
	double *numbers = (double *)palloc0(sizeof(double) * (count + 1));
	const char **texts = (const char **)palloc0(sizeof(char *) * (count + 1));
	for (size_t i = 0; i < count; i++) {
		pap::core::LiteralTarget t;
		PAP_CORE(t = pap::core::ParsedQueryLiteral(release->model, parsed, i));
		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();  // an IN list may hold as many literals as 1 MB of text
		if (!t.known)
			continue;
		if (t.casts > 0) {
			PapCastLiteral(release->model, release->private_table, parsed, i, t, origin, &numbers[i], &texts[i]);
			continue;
		}
		PapTextPositionCallback at_literal;
		if (origin != nullptr)
			PapPushTextPosition(&at_literal, origin, t.position);
		if (t.kind == pap::core::AxisKind::Categorical)
			texts[i] = CategoryText(release->model, release->private_table, t);
		else if (t.type == pap::core::ValueType::Number)
			PAP_CORE_AT(origin, numbers[i] = pap::core::ReadNumberLiteral(parsed, i));
		else
			numbers[i] = PapTemporalLiteralToAxis(t.text, t.type);
		if (origin != nullptr)
			PapPopTextPosition(&at_literal);
	}
	// The answer first, so that a query outside the class fails with its caret; then the warnings it may deserve
	// (an error under pap_release.strict).
	double answer = 0.0;
	if (bound != nullptr)
		PAP_CORE_AT(origin, *bound = pap::core::ModelAnswerBound(release->model, parsed, numbers, texts, refine,
		                                                         PapInterruptPending));
	else
		PAP_CORE_AT(origin, answer = pap::core::ModelAnswerQuery(release->model, parsed, numbers, texts, refine,
		                                                         PapInterruptPending));
	PapCheckAnswerLiterals(release, parsed, numbers, texts, refine);
	return bound != nullptr ? bound->estimate : answer;
}

// The answer mode of a call: refine as given, or when NULL (its default) the release's own (docs/mechanisms.md
// §10, "The answer mode").
static bool
RefineArgument(FunctionCallInfo fcinfo, int arg, const PapCachedRelease *release)
{
	return PG_NARGS() > arg && !PG_ARGISNULL(arg) ? PG_GETARG_BOOL(arg) : release->refine_by_default;
}

// pap.answer and pap.answer_count: (name, query [, refine]); the release comes from the answer cache. Not strict
// (a NULL refine is the release's mode): the caller returns NULL for a NULL name or query.
static double
AnswerFraction(FunctionCallInfo fcinfo, double *rows)
{
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	char *query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	const bool refine = RefineArgument(fcinfo, 2, release);
	const PapTextOrigin origin{fcinfo, 1, query};
	const double answer = PapAnswerQuery(release, query, refine, nullptr, &origin);
	int64 n = 0;
	PAP_CORE(n = pap::core::ModelPrivateRows(release->model));
	*rows = double(n);
	return answer;
}

extern "C" Datum
pap_answer(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	double rows;
	PG_RETURN_FLOAT8(AnswerFraction(fcinfo, &rows));
}

extern "C" Datum
pap_answer_count(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	double rows;
	const double fraction = AnswerFraction(fcinfo, &rows);
	PG_RETURN_FLOAT8(fraction * rows);
}

extern "C" Datum
pap_answers(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	InitMaterializedSRF(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
	PapLoadedRelease *loaded = LoadRelease(name, CurrentMemoryContext);
	size_t queries = 0;
	int64 n = 0;
	PAP_CORE(queries = pap::core::ModelCoverSize(loaded->model); n = pap::core::ModelPrivateRows(loaded->model));
	// An ordered class's cover may be too large to list (docs/query-classes.md): every query is still answered.
	if (queries > size_t(pap_max_cover_queries))
		ereport(
		    ERROR,
		    (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		     errmsg("release \"%s\" has %llu cover queries, more than pap_release.max_cover_queries (%d)", name,
		            (unsigned long long)queries, pap_max_cover_queries),
		     errdetail("pap.answers lists every cover query."),
		     errhint(
		         "Answer single queries with pap.answer, or have a superuser raise pap_release.max_cover_queries.")));
	MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "pap.answers row", ALLOCSET_SMALL_SIZES);
	for (size_t q = 0; q < queries; q++) {
		MemoryContext old = MemoryContextSwitchTo(row_context);
		char *text = nullptr;
		double answer = 0.0;
		PAP_CORE(text = pap::core::ModelRenderQuery(loaded->model, q, PapAllocate);
		         answer = pap::core::ModelAnswer(loaded->model, q));
		Datum values[4] = {Int64GetDatum(int64(q)), CStringGetTextDatum(text), Float8GetDatum(answer),
		                   Float8GetDatum(answer * double(n))};
		bool nulls[4] = {false, false, false, false};
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_context);
		CHECK_FOR_INTERRUPTS();  // every row: one naming an "other" bin prints every category of its axis
	}
	return (Datum)0;
}

extern "C" Datum
pap_synthetic(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	InitMaterializedSRF(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
	PapLoadedRelease *loaded = LoadRelease(name, CurrentMemoryContext);
	size_t cells = 0;
	int64 n = 0;
	PAP_CORE(cells = pap::core::ModelCellCount(loaded->model); n = pap::core::ModelPrivateRows(loaded->model));
	MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "pap.synthetic row", ALLOCSET_SMALL_SIZES);
	for (size_t cell = 0; cell < cells; cell++) {
		if ((cell & 1023) == 0)  // before the empty cells' skip: a grid may hold millions of them
			CHECK_FOR_INTERRUPTS();
		double weight = 0.0;
		PAP_CORE(weight = pap::core::ModelCellWeight(loaded->model, cell));
		if (!(weight > 0.0))
			continue;
		MemoryContext old = MemoryContextSwitchTo(row_context);
		char *bounds = nullptr, *json = nullptr;
		PAP_CORE(pap::core::ModelDescribeCell(loaded->model, cell, &bounds, &json, PapAllocate));
		Datum values[5] = {Int64GetDatum(int64(cell)), CStringGetTextDatum(bounds), (Datum)0, Float8GetDatum(weight),
		                   Float8GetDatum(weight * double(n))};
		bool nulls[5] = {false, false, json[0] == '\0', false, false};
		if (json[0] != '\0')
			values[2] = DirectFunctionCall1(jsonb_in, CStringGetDatum(json));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_context);
		CHECK_FOR_INTERRUPTS();  // every row described: an "other" cell's prints every category of its axis
	}
	return (Datum)0;
}

// pap.quantile(name, q [, refine]) (not strict, as pap.answer): the q-quantile of a thresholds or ranges release's
// column (ModelQuantile), from the answer cache. NULL when the release puts no weight on non-NULL values. Numbers are
// returned as they are; dates and timestamps as seconds since 1970-01-01 00:00 UTC, as extract(epoch from ...) gives
// them.
extern "C" Datum
pap_quantile(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PapCachedRelease *release = PapStatementRelease(fcinfo, PG_GETARG_TEXT_PP(0));
	const double q = PG_GETARG_FLOAT8(1);
	const bool refine = RefineArgument(fcinfo, 2, release);
	double value = 0.0;
	bool has_value = false;
	pap::core::ValueType type = pap::core::ValueType::Number;
	PAP_CORE(value = pap::core::ModelQuantile(release->model, q, refine, &has_value, PapInterruptPending);
	         type = pap::core::ModelAxisValueType(release->model, 0));
	if (!has_value)
		PG_RETURN_NULL();
	// Temporal axis values are microseconds since 2000-01-01 (PostgreSQL's epoch): shift to the Unix epoch.
	if (type != pap::core::ValueType::Number && std::isfinite(value))
		value = value / double(USECS_PER_SEC) + double(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
	PG_RETURN_FLOAT8(value);
}
