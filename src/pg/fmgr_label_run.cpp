// pap.plan_labelling (free) and pap.run_labelling (spends the budget once, through the ledger's charge that
// pap.run_release uses): docs/mechanisms.md §17.
#include "core/api/labelling_api.hpp"
#include "pg/catalog_object.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/label_catalog.hpp"
#include "pg/ledger_charge.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/spending_run.hpp"
#include "pg/zcdp_budget.hpp"

#include <cmath>
#include <cstring>

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "storage/lock.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_plan_labelling);
PG_FUNCTION_INFO_V1(pap_run_labelling);
}

// The most feature values one run holds in memory (private and public rows, features and label), checked before the
// charge from public row counts.
constexpr double kMaxLabelValues = double(1 << 26);

struct LabelRunArguments {
	char *name;
	double epsilon, delta;
	char *epsilon_text, *delta_text;  // as the ledger records them
	int32 cutoff;
};

static LabelRunArguments
ReadLabelRunArguments(FunctionCallInfo fcinfo)
{
	for (int i = 0; i < 4; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			                errmsg("%s must not be NULL",
			                       (const char *[]){"labelling name", "epsilon", "delta", "cutoff"}[i])));
	LabelRunArguments a;
	a.name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	const double epsilon = PG_GETARG_FLOAT8(1), delta = PG_GETARG_FLOAT8(2);
	PAP_CORE(pap::core::ValidatePrivacyParameters(epsilon, delta));
	if (!(delta > 0.0))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("delta must be positive for a labelling"),
		                errdetail("A stable label is released exactly; a row whose vote one private row could flip "
		                          "is released with a probability of at most delta."),
		                errhint("Pass a small delta, such as 1e-6.")));
	a.epsilon = PapLedgerAmount(epsilon, &a.epsilon_text);
	a.delta = PapLedgerAmount(delta, &a.delta_text);
	a.cutoff = PG_GETARG_INT32(3);
	if (a.cutoff < 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("cutoff must be positive, got %d", a.cutoff)));
	return a;
}

static pap::core::LabellingPlan
PlanFor(const PapLabelling *l, int64 private_rows, int64 public_rows, const LabelRunArguments &a)
{
	pap::core::LabellingRequest req;
	req.private_rows = private_rows;
	req.public_rows = public_rows;
	req.chunks = l->chunks;
	req.cutoff = a.cutoff;
	req.epsilon = a.epsilon;
	req.delta = a.delta;
	req.interrupted = PapInterruptPending;
	pap::core::LabellingPlan plan;
	PAP_CORE(plan = pap::core::PlanLabelling(req));
	return plan;
}

static Datum
Float8Pair(double a, double b)
{
	Datum d[2] = {Float8GetDatum(a), Float8GetDatum(b)};
	return PointerGetDatum(construct_array(d, 2, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

extern "C" Datum
pap_plan_labelling(PG_FUNCTION_ARGS)
{
	const LabelRunArguments a = ReadLabelRunArguments(fcinfo);
	TupleDesc desc;
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "pap.plan_labelling must return a record");
	MemoryContext caller = CurrentMemoryContext;
	SPI_connect();
	MemoryContext spi = MemoryContextSwitchTo(caller);
	PapLabelling *l = PapLoadLabelling(a.name, false);
	MemoryContextSwitchTo(spi);
	// n is public under replace-one neighbours (docs/mechanisms.md §1); reading it needs SELECT on the table.
	PapRequirePrivateTable(l->private_table);  // as pap.plan: no policy runs on the rows it counts
	PapRequireReadable(l->private_table);
	const int64 n = PapCountRows(l->private_table);
	SPI_finish();
	const pap::core::LabellingPlan p = PlanFor(l, n, l->public_rows, a);
	Datum values[10];
	bool nulls[10] = {false};
	values[0] = Int64GetDatum(p.chunks);
	values[1] = Int64GetDatum(n);
	values[2] = Int64GetDatum(l->public_rows);
	values[3] = Float8GetDatum(p.rows_per_chunk);
	values[4] = Int64GetDatum(p.threshold);
	values[5] = Float8Pair(p.epsilon_threshold, p.epsilon_compare);
	values[6] = Float8Pair(p.threshold_scale, p.compare_scale);
	values[7] = Int64GetDatum(p.chunks_needed);
	values[8] = Float8GetDatum(p.private_rows_needed);
	values[9] = Float8GetDatum(p.labelled_share_if_unanimous);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

struct LabelTypeContext {
	const PapLabelling *labelling;
	Oid type;
	int32 typmod;
};

static void
LabelTypeErrorContext(void *arg)
{
	const auto *c = static_cast<const LabelTypeContext *>(arg);
	errcontext("reading the classes of labelling \"%s\" as label column \"%s\" of type %s", c->labelling->name,
	           c->labelling->label_column, format_type_with_typemod(c->type, c->typmod));
}

// The feature columns must still have the value types the labelling was defined over, in both tables, and the
// label column must still print the classes as they were stored.
static void
RequireFeatureTypes(const PapLabelling *l)
{
	for (size_t f = 0; f < l->feature_count; f++) {
		Oid types[2];
		pap::core::ValueType now = pap::core::ValueType::Number;
		for (int side = 0; side < 2; side++) {
			const Oid table = side == 0 ? l->private_table : l->public_table;
			now = PapValueTypeOfColumn(table, l->feature_columns[f], &types[side]);
			if (strcmp(pap::core::ValueTypeName(now), l->feature_value_types[f]) != 0)
				ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
				                errmsg("column \"%s\" of %s now has type %s", l->feature_columns[f],
				                       PapQualifiedRelationName(table), format_type_be(types[side])),
				                errdetail("Labelling \"%s\" was defined over a column of value type %s.", l->name,
				                          l->feature_value_types[f]),
				                errhint("Define the labelling again.")));
		}
		// The define's rule, again: either table may have changed a categorical feature's type since (the public
		// table's owner alone could otherwise make the charged run bin every private row apart from its class).
		if (PapIsCategoricalFeature(now) && !PapSameCategoryText(types[0], types[1]))
			ereport(ERROR,
			        (errcode(ERRCODE_DATATYPE_MISMATCH),
			         errmsg("column \"%s\" now has type %s in %s but %s in %s", l->feature_columns[f],
			                format_type_be(types[0]), PapQualifiedRelationName(l->private_table),
			                format_type_be(types[1]), PapQualifiedRelationName(l->public_table)),
			         errdetail("Labelling \"%s\" reads a categorical feature by its text: both tables must hold the "
			                   "same type (text and varchar may mix, and so may integer types).",
			                   l->name),
			         errhint("Define the labelling again over tables whose feature columns agree.")));
	}
	// The classes as the private read would print a label now: a type or typmod changed since define (integer to
	// numeric(10,2) prints 1 as 1.00) would leave every private row unlisted, and the charged run labelling nothing.
	Oid label_type;
	(void)PapValueTypeOfColumn(l->private_table, l->label_column, &label_type);  // 42703 if it is gone
	const int32 label_typmod = PapColumnTypmod(l->private_table, l->label_column);
	const char **now = (const char **)palloc(sizeof(char *) * (l->class_count + 1));
	for (size_t c = 0; c < l->class_count; c++)
		now[c] = l->classes[c];
	LabelTypeContext context{l, label_type, label_typmod};
	ErrorContextCallback callback{error_context_stack, LabelTypeErrorContext, &context};
	error_context_stack = &callback;           // a class the column's type can no longer read
	const int level = PapBeginStableOutput();  // the stored texts are stable output: read them back alike
	PapCanonicalCategoryTexts(now, l->class_count, label_type, label_typmod);
	PapEndStableOutput(level);
	error_context_stack = callback.previous;
	for (size_t c = 0; c < l->class_count; c++)
		if (strcmp(now[c], l->classes[c]) != 0)
			ereport(
			    ERROR,
			    (errcode(ERRCODE_DATATYPE_MISMATCH),
			     errmsg("label column \"%s\" of %s now has type %s", l->label_column,
			            PapQualifiedRelationName(l->private_table), format_type_with_typemod(label_type, label_typmod)),
			     errdetail("Labelling \"%s\"'s class \"%s\" now reads as \"%s\": no private row's label would "
			               "match it.",
			               l->name, l->classes[c], now[c]),
			     errhint("Define the labelling again.")));
}

// A labelled row is stored as one text array of its features: a public row whose features take more than an array
// may hold would fail the run after its charge (construct_md_array's limit). Public data: refused before it.
static void
RequireStorableRows(const PapLabelling *l, const pap::core::LabelRows &rows)
{
	for (size_t r = 0; r < rows.row_count; r++) {
		double bytes = 1024.0;  // the array's header and NULL bitmap, with room to spare
		for (size_t f = 0; f < rows.feature_count; f++) {
			const size_t at = r * rows.feature_count + f;
			if (!rows.categorical[f])
				bytes += 32.0;  // a float8's text
			else if (rows.texts[at] != NULL)
				bytes += double(strlen(rows.texts[at])) + 8.0;  // its header and alignment
		}
		// lz4, when it is the session's default_toast_compression, allocates up to 1/255 more than the value
		if (bytes > double(MaxAllocSize) * 255.0 / 256.0 - 64.0)
			ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			                errmsg("public row %zu of labelling \"%s\" is too large to store", r + 1, l->name),
			                errdetail("Its features take %.0f bytes; a labelled row stores them in one array of at "
			                          "most %.0f bytes. Nothing has been charged.",
			                          bytes, double(MaxAllocSize) * 255.0 / 256.0 - 64.0),
			                errhint("Label the rows of a view of the public table that shortens its text features.")));
		if ((r & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
}

// Each row's texts and array in a context reset after it: the run's memory does not grow with the rows stored.
static void
StoreLabelledRows(const PapLabelling *l, const pap::core::LabelRows &rows, const int32 *labels)
{
	SPIPlanPtr insert;
	Oid types[4] = {INT8OID, INT8OID, TEXTARRAYOID, INT4OID};
	insert = SPI_prepare("INSERT INTO pap.labelled_row_data (labelling_id, public_row, features, class) "
	                     "VALUES ($1, $2, $3, $4)",
	                     4, types);
	if (insert == NULL)
		elog(ERROR, "pap_release: SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	Datum *elements = (Datum *)palloc(sizeof(Datum) * (rows.feature_count + 1));
	bool *element_nulls = (bool *)palloc(sizeof(bool) * (rows.feature_count + 1));
	int dims[1] = {int(rows.feature_count)}, lbs[1] = {1};
	MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "pap labelled row", ALLOCSET_DEFAULT_SIZES);
	for (size_t r = 0; r < rows.row_count; r++) {
		MemoryContext old = MemoryContextSwitchTo(row_context);
		for (size_t f = 0; f < rows.feature_count; f++) {
			const size_t at = r * rows.feature_count + f;
			element_nulls[f] = rows.categorical[f] ? rows.texts[at] == NULL : std::isnan(rows.numbers[at]);
			if (!element_nulls[f])
				elements[f] = rows.categorical[f] ? CStringGetTextDatum(rows.texts[at])
				                                  : CStringGetTextDatum(float8out_internal(rows.numbers[at]));
		}
		Datum values[4] = {Int64GetDatum(l->labelling_id), Int64GetDatum(int64(r) + 1),
		                   PointerGetDatum(construct_md_array(elements, element_nulls, 1, dims, lbs, TEXTOID, -1, false,
		                                                      TYPALIGN_INT)),
		                   Int32GetDatum(labels[r])};
		const char nulls[4] = {' ', ' ', ' ', labels[r] < 0 ? 'n' : ' '};
		if (SPI_execute_plan(insert, values, nulls, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "pap_release: storing the labelled rows failed");
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_context);
		if ((r & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(row_context);
}

// The members of the run's details: the plan and counts of the sparse vector's answers (all differentially private).
static char *
RunDetails(const pap::core::LabellingPlan &p, const pap::core::LabellingOutcome &o, pap::core::LearnerKind learner)
{
	return psprintf("{\"learner\": \"%s\", \"chunks\": " INT64_FORMAT ", \"cutoff\": " INT64_FORMAT
	                ", \"threshold\": " INT64_FORMAT ", \"epsilon_split\": [%.17g, %.17g], \"noise_scales\": "
	                "[%.17g, %.17g], \"margin_sensitivity\": 2, \"answered\": " INT64_FORMAT
	                ", \"labelled\": " INT64_FORMAT ", \"unstable\": " INT64_FORMAT ", \"cutoff_reached\": %s}",
	                pap::core::LearnerName(learner), p.chunks, p.cutoff, p.threshold, p.epsilon_threshold,
	                p.epsilon_compare, p.threshold_scale, p.compare_scale, o.reached, o.labelled, o.unstable,
	                o.cutoff_reached ? "true" : "false");
}

extern "C" Datum
pap_run_labelling(PG_FUNCTION_ARGS)
{
	const LabelRunArguments a = ReadLabelRunArguments(fcinfo);
	const char *name = a.name;
	PapRun run;
	PapBeginRun(fcinfo, "pap.run_labelling", &run);
	// --- transaction 1: every check, the public rows, the plan, then the charge -------------------------------------
	MemoryContextSwitchTo(run.procedure_context);
	PapLabelling *l = PapLoadLabelling(name, true);
	MemoryContextSwitchTo(run.spi_context);
	const PapCatalogObject object = PapObjectOf(l);
	PapRequireRunnable(object, run.user);
	PapRequirePrivateTable(l->private_table);
	PapRequireReadable(l->private_table);
	// A run reads the public rows again: they are the rows it labels.
	if (!OidIsValid(l->public_table))
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("the public table has been dropped"),
		                errdetail("Labelling \"%s\" labels the rows of its public table when it runs.", name),
		                errhint("Define the labelling again over a public table.")));
	PapRequirePublicTable(l->public_table, l->private_table);
	PapRequireReadable(l->public_table);
	RequireFeatureTypes(l);
	char *private_name = PapQualifiedRelationName(l->private_table);

	LOCKTAG run_lock;
	PapLabellingLockTag(&run_lock, l->labelling_id);
	PapLockRun(object, &run_lock);
	PG_TRY();
	{
		// The budget and the right to spend it (docs/security.md, "Who may spend"), as for releases. The stability
		// release is (epsilon, delta)-DP without a zCDP guarantee: a budget in rho cannot account for it.
		double budget_delta;
		if (PapBudgetInRho(l->private_table, &budget_delta))
			ereport(ERROR,
			        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			         errmsg("labelling \"%s\" cannot spend the budget of %s, which is in rho", name, private_name),
			         errdetail("A labelling's stable vote is (epsilon, delta)-differentially private with a delta "
			                   "that no rho of zero-concentrated differential privacy bounds."),
			         errhint("Label from a private table whose budget is in (epsilon, delta).")));
		const bool limited = PapRequireBudgetFor(l->private_table, private_name, a.epsilon_text, NULL);
		const int64 planned_rows = PapCountRows(l->private_table);
		// The public rows, read now (public information): everything that can fail on them fails before the charge.
		MemoryContextSwitchTo(run.procedure_context);
		const PapLabelRowsRead pub = PapReadLabelRows(l->public_table, l, nullptr, false);
		MemoryContextSwitchTo(run.spi_context);
		RequireStorableRows(l, pub.rows);
		const double values = (double(planned_rows) + double(pub.rows.row_count)) * double(l->feature_count + 1);
		if (values > kMaxLabelValues)
			ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			                errmsg("labelling \"%s\" would hold more feature values than one run may", name),
			                errdetail("The tables have " INT64_FORMAT " private and %zu public rows of %zu features; "
			                          "a run holds at most %.0f values, and nothing has been charged.",
			                          planned_rows, pub.rows.row_count, l->feature_count, kMaxLabelValues)));
		PAP_CORE(
		    pap::core::RequireLabellingFits(l->schema, l->learner, int32(l->class_count), int64(pub.rows.row_count)));
		const pap::core::LabellingPlan plan = PlanFor(l, planned_rows, int64(pub.rows.row_count), a);
		PAP_CORE(pap::core::RequireLabellingWorkFits(l->schema, l->learner, int32(l->class_count),
		                                             int64(pub.rows.row_count), planned_rows, plan.chunks));
		// A run that would label no row even if every chunk agreed spends the budget for nothing: refused, from
		// public numbers (n, m, epsilon, delta, cutoff).
		const double expected = plan.labelled_share_if_unanimous * double(pub.rows.row_count);
		if (expected < 1.0)
			ereport(ERROR,
			        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			         errmsg("labelling \"%s\" would label no public row at epsilon %s", name, a.epsilon_text),
			         errdetail("Even if every chunk voted alike, the run would label %.3g rows on average: it "
			                   "needs " INT64_FORMAT " chunks of %d private rows, and %s has " INT64_FORMAT
			                   ". Nothing has been charged.",
			                   expected, plan.chunks_needed, int(pap::core::kMinChunkRows), private_name, planned_rows),
			         errhint("Spend a larger epsilon or delta; pap.plan_labelling shows the plan for free.")));

		PapChargeBudget(l->private_table, private_name, a.epsilon_text, a.delta_text, NULL, name,
		                psprintf("labels (%s)", pap::core::LearnerName(l->learner)), run.user, limited);
		const Oid running_types[3] = {FLOAT8OID, FLOAT8OID, INT4OID};
		const Datum running_values[3] = {Float8GetDatum(a.epsilon), Float8GetDatum(a.delta), Int32GetDatum(a.cutoff)};
		PapMarkRunning(object, "epsilon = $2, delta = $3, cutoff = $4", 3, running_types, running_values);
		PapCommitCharge(&run);
		PapFailIfInjectedAfterCharge();

		// --- transaction 2: the one read of the private table, the labelling, the stored result -----------------
		// The catalog checks of the first transaction again, in the scan's (as pap.run_release does): a failure here
		// is after the charge but reads no row.
		PapRequirePrivateTable(l->private_table);
		PapRequireReadable(l->private_table);
		RequireFeatureTypes(l);
		MemoryContextSwitchTo(run.procedure_context);
		const PapLabelRowsRead priv = PapReadLabelRows(l->private_table, l, l->label_column, true);
		pap::core::LabellingRunRequest req;
		req.schema = &l->schema;
		req.learner = l->learner;
		req.class_count = int32(l->class_count);
		req.private_rows = priv.rows;
		req.private_labels = priv.classes;
		req.public_rows = pub.rows;
		req.seed = run.seed;
		req.fill_secure = PapFillSecureBytes;
		req.interrupted = PapInterruptPending;
		pap::core::LabellingOutcome out;
		PAP_CORE(out = pap::core::RunLabelling(req, plan, PapAllocate));
		CHECK_FOR_INTERRUPTS();
		MemoryContextSwitchTo(run.spi_context);

		PapWaitUntilPublishTime(run.charged);
		PapUserSwitch saved;
		PapBecomeCatalogOwner(&saved);
		const int output_level = PapBeginStableOutput();  // the stored features' digits are not the runner's
		StoreLabelledRows(l, pub.rows, out.labels);
		PapEndStableOutput(output_level);
		Datum *model = (Datum *)palloc(sizeof(Datum) * (out.model_size + 1));
		for (size_t i = 0; i < out.model_size; i++)
			model[i] = Float8GetDatum(out.model[i]);
		Oid store_types[7] = {TEXTOID, INT8OID, INT8OID, FLOAT8ARRAYOID, TEXTOID, BOOLOID, INT4OID};
		Datum store[7] = {CStringGetTextDatum(name),
		                  Int64GetDatum(out.private_rows),
		                  Int64GetDatum(out.labelled),
		                  PointerGetDatum(construct_array(model, int(out.model_size), FLOAT8OID, sizeof(float8),
		                                                  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)),
		                  CStringGetTextDatum(RunDetails(plan, out, l->learner)),
		                  BoolGetDatum(!run.seeded),
		                  Int32GetDatum(int32(plan.chunks))};
		const char store_nulls[7] = {' ', ' ', ' ', out.model == nullptr ? 'n' : ' ', ' ', ' ', ' '};
		if (SPI_execute_with_args("UPDATE pap.labelling_data SET state = 'labelled', private_rows = $2, "
		                          "labelled_rows = $3, model = $4, details = $5::pg_catalog.jsonb, is_private = $6, "
		                          "chunks = $7, labelled_at = pg_catalog.clock_timestamp() "
		                          "WHERE name OPERATOR(pg_catalog.=) $1",
		                          7, store_types, store, store_nulls, false, 0) != SPI_OK_UPDATE)
			elog(ERROR, "pap_release: storing the labelling failed");
		PapRestoreUser(&saved);
		// Published before the run lock goes: released first, pap.labellings showed the run "failed" until the
		// commit (a state without its lock reads as a run that died).
		SPI_commit();
	}
	PG_FINALLY();
	{
		LockRelease(&run_lock, ExclusiveLock, true);
	}
	PG_END_TRY();
	SPI_finish();
	PG_RETURN_VOID();
}
