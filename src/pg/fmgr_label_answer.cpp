// pap.predict: the final model of a labelling, for any feature values, by any role, for free (post-processing of a
// differentially private output: docs/mechanisms.md §17).
#include "core/api/labelling_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/label_catalog.hpp"
#include "pg/model_cache.hpp"

#include <cstring>

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/memutils.h"
PG_FUNCTION_INFO_V1(pap_predict);
}

// The labelling a call site read last (fn_extra), in a context of its own that each load resets: a query predicting
// many rows loads it once, one naming a different labelling per row holds one at a time. It is read again in each
// statement (PapSameStatement), so a labelling dropped, redefined or run since is never answered from its old model
// (PL/pgSQL keeps a call site's state across statements).
struct PredictCache {
	MemoryContext context;
	PapStatementStamp stamp;
	char *name;
	PapLabelling *labelling;
	// The labelling's model prepared for many rows (core memory), freed when the context is reset or deleted.
	pap::core::LabelPredictor *predictor;
	MemoryContextCallback free_predictor;
};

static void
FreePredictor(void *arg)
{
	PredictCache *cache = (PredictCache *)arg;
	pap::core::FreeLabelPredictor(cache->predictor);
	cache->predictor = NULL;
}

// The cached labelling's predictor, prepared on first use.
static const pap::core::LabelPredictor *
PredictorOf(FunctionCallInfo fcinfo, const PapLabelling *l)
{
	PredictCache *cache = (PredictCache *)fcinfo->flinfo->fn_extra;
	if (cache->predictor == NULL) {
		PAP_CORE(cache->predictor = pap::core::MakeLabelPredictor(l->schema, l->learner, int32(l->class_count),
		                                                          l->model, l->model_size));
		cache->free_predictor.func = FreePredictor;
		cache->free_predictor.arg = cache;
		MemoryContextRegisterResetCallback(cache->context, &cache->free_predictor);
	}
	return cache->predictor;
}

static PapLabelling *
LoadForPrediction(FunctionCallInfo fcinfo, const char *name)
{
	PredictCache *cache = (PredictCache *)fcinfo->flinfo->fn_extra;
	if (cache == NULL) {
		cache = (PredictCache *)MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PredictCache));
		cache->context = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pap.predict", ALLOCSET_DEFAULT_SIZES);
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->labelling != NULL && strcmp(cache->name, name) == 0 && PapSameStatement(&cache->stamp))
		return cache->labelling;
	cache->labelling = NULL;
	cache->name = NULL;
	MemoryContextReset(cache->context);
	MemoryContext old = CurrentMemoryContext;
	SPI_connect();
	MemoryContextSwitchTo(cache->context);
	PapLabelling *l = PapLoadLabelling(name, false);
	SPI_finish();
	MemoryContextSwitchTo(old);
	if (strcmp(l->state, "labelled") != 0)
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("labelling \"%s\" has not been run", name),
		         errhint("Run it with CALL pap.run_labelling('%s', epsilon, delta).", name)));
	cache->name = MemoryContextStrdup(cache->context, name);
	cache->labelling = l;
	PapStampStatement(&cache->stamp);
	return l;
}

// A feature value given as text, as the run read it: a number or a temporal literal through its type's input
// function (then its axis position), a boolean as true/false, any other text as it is.
static void
ReadFeature(const char *text, const char *value_type, double *number, const char **category)
{
	pap::core::ValueType type;
	PAP_CORE(type = pap::core::ValueTypeFromName(value_type));
	switch (type) {
	case pap::core::ValueType::Text: *category = text; return;
	case pap::core::ValueType::Boolean:
		*category = DatumGetBool(DirectFunctionCall1(boolin, CStringGetDatum(text))) ? "true" : "false";
		return;
	case pap::core::ValueType::Number:
		// Through numeric, as pap.axis_value reads a numeric column: a value past float8's range is an infinity
		// (float8in would refuse 1e400, which the run read as Infinity).
		*number = DatumGetFloat8(DirectFunctionCall1(
		    numeric_float8_no_overflow,
		    DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
		return;
	default: *number = PapTemporalLiteralToAxis(text, type); return;
	}
}

extern "C" Datum
pap_predict(PG_FUNCTION_ARGS)
{
	const char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ArrayType *features = PG_GETARG_ARRAYTYPE_P(1);
	PapLabelling *l = LoadForPrediction(fcinfo, name);
	Datum *elements;
	bool *nulls;
	int n;
	if (ARR_NDIM(features) > 1)
		ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("features must be a one-dimensional array")));
	deconstruct_array(features, TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &n);
	if (size_t(n) != l->feature_count)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("labelling \"%s\" has %zu feature columns, got %d values", name, l->feature_count, n),
		                errhint("Pass the values in the order of pap.labellings.feature_columns.")));
	if (l->model == NULL)
		PG_RETURN_NULL();  // no public row was labelled: there is no final model
	double *numbers = (double *)palloc(sizeof(double) * (l->feature_count + 1));
	const char **texts = (const char **)palloc(sizeof(char *) * (l->feature_count + 1));
	for (size_t f = 0; f < l->feature_count; f++) {
		numbers[f] = get_float8_nan();
		texts[f] = NULL;
		if (!nulls[f])
			ReadFeature(TextDatumGetCString(elements[f]), l->feature_value_types[f], &numbers[f], &texts[f]);
	}
	pap::core::LabelRows row;
	row.row_count = 1;
	row.feature_count = l->feature_count;
	row.categorical = l->categorical;
	row.numbers = numbers;
	row.texts = texts;
	int32 c;
	const pap::core::LabelPredictor *predictor = PredictorOf(fcinfo, l);
	PAP_CORE(c = pap::core::PredictWith(predictor, row));
	if (c < 0 || size_t(c) >= l->class_count)
		elog(ERROR, "pap_release: the model of labelling \"%s\" predicted no class", name);
	PG_RETURN_TEXT_P(cstring_to_text(l->classes[c]));
}
