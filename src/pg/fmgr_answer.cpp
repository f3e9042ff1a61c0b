// Reading a release: pap.answer, pap.answer_count, pap.answers, pap.synthetic. Free: they read only the
// differentially private output stored by run_release, never the private table.
#include "core/release_engine.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
PG_FUNCTION_INFO_V1(pap_answer);
PG_FUNCTION_INFO_V1(pap_answer_count);
PG_FUNCTION_INFO_V1(pap_answers);
PG_FUNCTION_INFO_V1(pap_synthetic);
}

// A loaded release, kept for the rest of the statement in fn_extra (answers are fixed once released, and a
// statement sees one snapshot). The C++ model is freed by a reset callback on the owning memory context.
struct PapLoadedRelease {
	char *name;
	PapValueType value_type;
	char *column;  // quoted for display
	pap::core::ReleaseModel *model;
	MemoryContextCallback free_model;
};

static void
FreeModelCallback(void *arg)
{
	PapLoadedRelease *loaded = (PapLoadedRelease *) arg;
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
	PapLoadedRelease *loaded = (PapLoadedRelease *) palloc0(sizeof(PapLoadedRelease));
	loaded->name = pstrdup(name);
	loaded->value_type = r->value_type;
	loaded->column = pstrdup(quote_identifier(r->column_name));
	// The model is created and registered for freeing before any other PostgreSQL call can fail.
	loaded->free_model.func = FreeModelCallback;
	loaded->free_model.arg = loaded;
	PAP_CORE(loaded->model = pap::core::LoadReleaseModel(r->query_class, r->cuts, size_t(r->cut_count), r->synthetic,
	                                                     size_t(r->cell_count), r->private_rows));
	MemoryContextRegisterResetCallback(context, &loaded->free_model);
	MemoryContextSwitchTo(spi);
	SPI_finish();
	return loaded;
}

static PapLoadedRelease *
CachedRelease(FunctionCallInfo fcinfo, const char *name)
{
	PapLoadedRelease *loaded = (PapLoadedRelease *) fcinfo->flinfo->fn_extra;
	if (loaded != nullptr && strcmp(loaded->name, name) == 0)
		return loaded;
	// A different name in the same statement: load into a fresh child context so the old one can go.
	MemoryContext context = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pap_release answers",
	                                              ALLOCSET_SMALL_SIZES);
	loaded = LoadRelease(name, context);
	if (fcinfo->flinfo->fn_extra != nullptr) {
		PapLoadedRelease *previous = (PapLoadedRelease *) fcinfo->flinfo->fn_extra;
		MemoryContextDelete(GetMemoryChunkContext(previous));
	}
	fcinfo->flinfo->fn_extra = loaded;
	return loaded;
}

// The cover query a query text projects to.
static size_t
ProjectQuery(const PapLoadedRelease *loaded, const char *query)
{
	size_t q = 0;
	if (loaded->value_type == PAP_VALUE_NUMBER) {
		PAP_CORE(q = pap::core::ModelProjectNumericQuery(loaded->model, query));
		return q;
	}
	// Temporal literals go through the column type's input function, which may raise: the parsed query lives
	// in the core and is freed by a callback on the current context, never skipped by a longjmp.
	MemoryContextCallback *free_query = (MemoryContextCallback *) palloc(sizeof(MemoryContextCallback));
	pap::core::ParsedQuery *parsed = nullptr;
	PAP_CORE(parsed = pap::core::ParseQueryForModel(query));
	free_query->func = [](void *arg) { pap::core::FreeParsedQuery((pap::core::ParsedQuery *) arg); };
	free_query->arg = parsed;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, free_query);
	size_t count = 0;
	PAP_CORE(count = pap::core::ParsedQueryLiteralCount(parsed));
	double *values = (double *) palloc(sizeof(double) * (count + 1));
	for (size_t i = 0; i < count; i++) {
		const char *literal = nullptr;
		PAP_CORE(literal = pap::core::ParsedQueryLiteral(parsed, i));
		values[i] = PapTemporalLiteralToAxis(literal, loaded->value_type);
	}
	PAP_CORE(q = pap::core::ModelProjectParsedQuery(loaded->model, parsed, values));
	return q;
}

static double
AnswerFraction(FunctionCallInfo fcinfo, double *rows)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char *query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	PapLoadedRelease *loaded = CachedRelease(fcinfo, name);
	const size_t q = ProjectQuery(loaded, query);
	double answer = 0.0;
	int64 n = 0;
	PAP_CORE(answer = pap::core::ModelAnswer(loaded->model, q); n = pap::core::ModelPrivateRows(loaded->model));
	*rows = double(n);
	return answer;
}

extern "C" Datum
pap_answer(PG_FUNCTION_ARGS)
{
	double rows;
	PG_RETURN_FLOAT8(AnswerFraction(fcinfo, &rows));
}

extern "C" Datum
pap_answer_count(PG_FUNCTION_ARGS)
{
	double rows;
	const double fraction = AnswerFraction(fcinfo, &rows);
	PG_RETURN_FLOAT8(fraction * rows);
}

// "col > a AND col <= b", "col <= b", "col > a", "col IS NOT NULL", "col < a" (empty), "col IS NULL".
static char *
RenderBounds(const PapLoadedRelease *loaded, bool is_empty, bool is_null, const pap::core::ValueBound &lower,
             const pap::core::ValueBound &upper)
{
	StringInfoData buf;
	initStringInfo(&buf);
	if (is_null) {
		appendStringInfo(&buf, "%s IS NULL", loaded->column);
		return buf.data;
	}
	if (is_empty) {
		appendStringInfo(&buf, "%s < %s", loaded->column, PapFormatAxisValue(upper.value, loaded->value_type));
		return buf.data;
	}
	if (lower.present)
		appendStringInfo(&buf, "%s > %s", loaded->column, PapFormatAxisValue(lower.value, loaded->value_type));
	if (upper.present)
		appendStringInfo(&buf, "%s%s <= %s", lower.present ? " AND " : "", loaded->column,
		                 PapFormatAxisValue(upper.value, loaded->value_type));
	if (!lower.present && !upper.present)
		appendStringInfo(&buf, "%s IS NOT NULL", loaded->column);
	return buf.data;
}

extern "C" Datum
pap_answers(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	InitMaterializedSRF(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PapLoadedRelease *loaded = LoadRelease(name, CurrentMemoryContext);
	size_t queries = 0;
	int64 n = 0;
	PAP_CORE(queries = pap::core::ModelCoverSize(loaded->model); n = pap::core::ModelPrivateRows(loaded->model));
	for (size_t q = 0; q < queries; q++) {
		pap::core::CoverQueryShape shape;
		double answer = 0.0;
		PAP_CORE(shape = pap::core::ModelCoverQueryShape(loaded->model, q);
		         answer = pap::core::ModelAnswer(loaded->model, q));
		Datum values[4] = {Int64GetDatum(int64(q)),
		                   CStringGetTextDatum(RenderBounds(loaded, shape.empty, false, shape.lower, shape.upper)),
		                   Float8GetDatum(answer), Float8GetDatum(answer * double(n))};
		bool nulls[4] = {false, false, false, false};
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((q & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return (Datum) 0;
}

extern "C" Datum
pap_synthetic(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	InitMaterializedSRF(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PapLoadedRelease *loaded = LoadRelease(name, CurrentMemoryContext);
	size_t cells = 0;
	int64 n = 0;
	PAP_CORE(cells = pap::core::ModelCellCount(loaded->model); n = pap::core::ModelPrivateRows(loaded->model));
	for (size_t cell = 0; cell < cells; cell++) {
		pap::core::CellShape shape;
		double weight = 0.0;
		PAP_CORE(shape = pap::core::ModelCellShape(loaded->model, cell);
		         weight = pap::core::ModelCellWeight(loaded->model, cell));
		if (!(weight > 0.0))
			continue;
		Datum values[4] = {Int32GetDatum(int32(cell)),
		                   CStringGetTextDatum(RenderBounds(loaded, false, shape.is_null, shape.lower, shape.upper)),
		                   Float8GetDatum(weight), Float8GetDatum(weight * double(n))};
		bool nulls[4] = {false, false, false, false};
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
