// pap.plan (free) and pap.run_release (spends the budget).
#include "core/api/release_api.hpp"
#include "pg/answer_warnings.hpp"
#include "pg/catalog_columns.hpp"
#include "pg/catalog_object.hpp"
#include "pg/check_list.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/ledger_charge.hpp"
#include "pg/not_null.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/run_progress.hpp"
#include "pg/spend_rights.hpp"
#include "pg/spending_run.hpp"
#include "pg/zcdp_budget.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "portability/instr_time.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/timeout.h"
#include "utils/wait_event.h"
PG_FUNCTION_INFO_V1(pap_plan);
PG_FUNCTION_INFO_V1(pap_run_release);
}

static char *
TextArgument(FunctionCallInfo fcinfo, int i, const char *what)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", what)));
	return text_to_cstring(PG_GETARG_TEXT_PP(i));
}

static double
Float8Argument(FunctionCallInfo fcinfo, int i, const char *what)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", what)));
	return PG_GETARG_FLOAT8(i);
}

// The arguments pap.plan and pap.run_release share, read and checked before anything else happens.
struct RunArguments {
	char *name;
	double epsilon, delta;            // as the run uses them (PapLedgerAmount)
	char *epsilon_text, *delta_text;  // as the ledger records them
	char *mechanism, *prior;
};

static RunArguments
ReadRunArguments(FunctionCallInfo fcinfo)
{
	RunArguments a;
	a.name = TextArgument(fcinfo, 0, "release name");
	const double epsilon = Float8Argument(fcinfo, 1, "epsilon"), delta = Float8Argument(fcinfo, 2, "delta");
	PAP_CORE(pap::core::ValidatePrivacyParameters(epsilon, delta));
	// What the ledger records and what the run uses: the run never uses more than the ledger records.
	a.epsilon = PapLedgerAmount(epsilon, &a.epsilon_text);
	a.delta = PapLedgerAmount(delta, &a.delta_text);
	a.mechanism = TextArgument(fcinfo, 3, "mechanism");
	a.prior = TextArgument(fcinfo, 4, "prior");
	PAP_CORE(pap::core::ParseMechanism(a.mechanism); pap::core::ParseUniformPrior(a.prior);
	         pap::core::ValidatePrivacyParameters(a.epsilon, a.delta));
	return a;
}

// A scan returns at most min(n, grid points) distinct points. Refused before the charge when that could exceed what
// one scan can return, so that the number of distinct private points (a function of the rows) can never make a
// charged run fail.
static void
RequireAggregatable(const PapRelease *r, int64 n)
{
	double grid = 1.0;
	for (size_t a = 0; a < r->layout.axis_count; a++) {
		const char *kind = r->layout.axis_kinds[a];
		// Bins per axis, as the layout's radices count them: cuts + 2 for ordered axes (the NULL bin included),
		// categories + 2 for categorical ones (the "other" and NULL bins), 2 for predicates.
		if (strcmp(kind, "numeric") == 0 || strcmp(kind, "linear") == 0)
			grid *= double(r->layout.cut_counts[a]) + 2.0;
		else if (strcmp(kind, "categorical") == 0)
			grid *= double(r->layout.category_counts[a]) + 2.0;
		else
			grid *= 2.0;
	}
	if (std::min(grid, double(n)) > double(kPapMaxScanPoints))
		ereport(ERROR,
		        (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
		         errmsg("release \"%s\" could meet more distinct grid points than one scan can return", r->name),
		         errdetail("Its grid has %.0f points and the private table " INT64_FORMAT " rows; a run handles at "
		                   "most %.0f distinct points, and nothing has been charged.",
		                   grid, n, double(kPapMaxScanPoints)),
		         errhint("Define the release with coarser axes (a larger alpha, granularity 'alpha') or fewer "
		                 "columns.")));
}

// The delta a run is charged: what its mechanism uses, rounded up to 15 significant digits (the smallest such
// decimal not below it). The plan keeps it at most the requested delta, so it is at most the requested decimal.
static const char *
ChargedDelta(double used)
{
	if (!(used > 0.0))
		return "0";
	double v = used;
	for (;;) {
		char *text = psprintf("%.15g", v);
		if (PapDecimalFloor(text) >= used)  // the decimal is at least used
			return text;
		v = std::nextafter(v, HUGE_VAL);  // a few steps: 15 digits are coarser than a double's spacing
	}
}

static pap::core::PlanRequest
PlanRequestFor(const PapRelease *r, int64 private_rows, double epsilon, double delta, const char *mechanism,
               const char *prior)
{
	pap::core::PlanRequest req;
	req.vc_dimension = r->vc_dimension;
	req.cover_size = r->cover_size;
	req.cell_count = r->cell_count;
	// A declared domain has no public row: its plan counts the declared points' weights instead.
	req.public_rows =
	    r->declared_domain ? PapHistogramWeight(r->public_histogram, size_t(r->cell_count)) : r->public_rows;
	req.declared_domain = r->declared_domain;
	req.private_rows = private_rows;
	req.epsilon = epsilon;
	req.delta = delta;
	req.alpha = r->alpha;
	req.beta = r->beta;
	req.mechanism = mechanism;
	req.prior = prior;
	req.layout = &r->layout;
	req.max_cover_queries = size_t(pap_max_cover_queries);
	return req;
}

// Whether the private table's budget is in rho (docs/mechanisms.md, "zCDP budgets"): a run on it is asked for with
// epsilon alone and may spend rho = epsilon^2 / 2, Gaussian noise and the zCDP sparse vector included; the delta
// at which its cost is reported is the budget's. Sets the request so; 22023 for a delta of its own. SPI is open.
static bool
RequestOnBudgetInRho(Oid private_table, const RunArguments &args, const char *procedure, double *budget_delta)
{
	if (!PapBudgetInRho(private_table, budget_delta))
		return false;
	if (args.delta != 0.0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("delta must be 0 for a run on a budget in rho, got %s", args.delta_text),
		                errdetail("A run on a budget in rho costs rho = epsilon^2 / 2; its delta is the budget's, %g.",
		                          *budget_delta),
		                errhint("Call %s with epsilon alone.", procedure)));
	return true;
}

// Whether an axis's stored categories are exactly `values` (sorted by bytes, as the categories are).
static bool
StoredCategoriesAre(const PapRelease *r, size_t axis, const char *const *values, size_t count)
{
	const pap::core::CatalogLayout &l = r->layout;
	size_t first = 0;
	for (size_t a = 0; a < axis; a++)
		first += size_t(l.category_counts[a]);
	bool same = values != nullptr && count == size_t(l.category_counts[axis]);
	for (size_t i = 0; same && i < count; i++)
		same = strcmp(values[i], l.categories[first + i]) == 0;
	return same;
}

// An enum column's type must still have exactly the labels the release was defined over, its axis's categories: a
// label added since (ALTER TYPE ... ADD VALUE) would let private rows hold a value the plan counted on no row holding
// (ReleaseAxis::ClosedCategories). The labels and categories are public (the catalog); the check reads no row.
static void
RequireEnumLabels(const PapRelease *r, size_t axis, Oid type)
{
	const pap::core::CatalogLayout &l = r->layout;
	const size_t stored = size_t(l.category_counts[axis]);
	size_t count = 0;
	const char **labels = PapEnumLabels(type, &count);
	qsort(labels, count, sizeof(char *),
	      [](const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); });
	if (!StoredCategoriesAre(r, axis, labels, count))
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
		                errmsg("the labels of type %s of column \"%s\" have changed", format_type_be(type),
		                       l.axis_labels[axis]),
		                errdetail("Release \"%s\" was defined over the %zu labels the type had then; it has %zu now. "
		                          "The release counts on no private row holding another value.",
		                          r->name, stored, count),
		                errhint("Define the release again.")));
}

// A column closed by a CHECK list must still be, with exactly the list the release was defined over, its axis's
// categories: a value added to the list (or the constraint dropped) would let private rows hold a value the plan
// counted on no row holding (ReleaseAxis::check_list). PapCheckListOfColumn locks the tables until the transaction
// ends, so the constraint stays as read through the scan that follows. Public: the catalog; reads no row.
static void
RequireCheckList(const PapRelease *r, size_t axis)
{
	const pap::core::CatalogLayout &l = r->layout;
	const size_t stored = size_t(l.category_counts[axis]);
	size_t count = 0;
	const char **values = PapCheckListOfColumn(r->private_table, l.axis_labels[axis], &count);
	if (!StoredCategoriesAre(r, axis, values, count))
		ereport(ERROR,
		        (errcode(ERRCODE_DATATYPE_MISMATCH),
		         errmsg("the CHECK constraint on column \"%s\" of %s no longer allows the values it did",
		                l.axis_labels[axis], PapQualifiedRelationName(r->private_table)),
		         values == nullptr
		             ? errdetail("Release \"%s\" was defined over the %zu values the private table's validated "
		                         "CHECK constraints allowed then; none lists the column's values now. The release "
		                         "counts on no private row holding another value.",
		                         r->name, stored)
		             : errdetail(
		                   "Release \"%s\" was defined over the %zu values the private table's validated "
		                   "CHECK constraints allowed then; they allow %zu values now, not the same ones. The release "
		                   "counts on no private row holding another value.",
		                   r->name, stored, count),
		         errhint("Define the release again.")));
}

// The columns a release reads must still have the types it was defined over (and, for a release defined since 0.2,
// be the very columns: the same positions and exact types).
static void
RequireColumnTypes(const PapRelease *r)
{
	const pap::core::CatalogLayout &l = r->layout;
	int32 *positions = nullptr;
	const char **column_types = nullptr;
	if (r->axis_column_positions != nullptr)
		PapAxisColumnIdentities(r->private_table, l, &positions, &column_types);
	for (size_t a = 0; a < l.axis_count; a++) {
		if (strcmp(l.axis_kinds[a], "numeric") != 0 && strcmp(l.axis_kinds[a], "categorical") != 0)
			continue;
		Oid type;
		pap::core::ValueType now = PapValueTypeOfReleaseColumn(r->private_table, l.axis_labels[a], &type);
		pap::core::ValueType then;
		PAP_CORE(then = pap::core::ValueTypeFromName(l.axis_value_types[a]));
		if (now != then)
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("column \"%s\" of the private table now has type %s", l.axis_labels[a],
			                       format_type_be(type)),
			                errdetail("Release \"%s\" was defined over a column of value type %s.", r->name,
			                          l.axis_value_types[a]),
			                errhint("Define the release again.")));
		if (now == pap::core::ValueType::Enum) {
			PapRequireLocalEnumColumn(r->private_table, l.axis_labels[a], type);
			RequireEnumLabels(r, a, type);
		}
		if (l.axis_check_lists != nullptr && l.axis_check_lists[a])
			RequireCheckList(r, a);
		// Number covers integers and floats alike: a column that can now hold values between the ones it could
		// (integer to double precision) would break the plan's discrete bounds (docs/mechanisms.md §10).
		if (l.axis_value_steps != nullptr && strcmp(l.axis_kinds[a], "numeric") == 0 &&
		    l.axis_value_steps[a] != PapValueStepOfType(type))
			ereport(
			    ERROR,
			    (errcode(ERRCODE_DATATYPE_MISMATCH),
			     errmsg("column \"%s\" of the private table now has type %s", l.axis_labels[a], format_type_be(type)),
			     errdetail("Release \"%s\" was planned for a column whose values are whole multiples of %g (in axis "
			               "units), which type %s changes.",
			               r->name, l.axis_value_steps[a], format_type_be(type)),
			     errhint("Define the release again.")));
		if (positions == nullptr)
			continue;
		// A rename (or a column dropped and added again) would have the run read other data than the define
		// planned for; another type (numeric(10,2) for integer, interval for text) would bin it apart from the
		// categories and cuts it was defined over.
		if (positions[a] != r->axis_column_positions[a])
			ereport(
			    ERROR,
			    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			     errmsg("column \"%s\" of the private table is not the column release \"%s\" was defined over",
			            l.axis_labels[a], r->name),
			     errdetail(
			         "The name now names the table's column %d (of those not dropped); the release was defined "
			         "over its column %d (a column renamed, dropped and added again, or an earlier column dropped).",
			         positions[a], r->axis_column_positions[a]),
			     errhint("Define the release again.")));
		if (strcmp(column_types[a], r->axis_column_types[a]) != 0)
			ereport(
			    ERROR,
			    (errcode(ERRCODE_DATATYPE_MISMATCH),
			     errmsg("column \"%s\" of the private table now has type %s", l.axis_labels[a], column_types[a]),
			     errdetail("Release \"%s\" was defined over a column of type %s.", r->name, r->axis_column_types[a]),
			     errhint("Define the release again.")));
	}
}

// The columns of a release's linear axes (halfspaces) must still be of number types: pap.linear_value checks its
// arguments' types on the first row whose values are all non-NULL, which would make a run charged on a column of
// another type fail or not as the private rows have NULLs.
static void
RequireLinearColumnTypes(const PapRelease *r)
{
	const pap::core::CatalogLayout &l = r->layout;
	bool linear = false;
	for (size_t a = 0; a < l.axis_count; a++)
		linear = linear || strcmp(l.axis_kinds[a], "linear") == 0;
	if (!linear)
		return;
	std::vector<std::string> columns;  // read in the core, where nothing may longjmp
	PAP_CORE({
		std::unique_ptr<pap::core::ReleaseDraft, void (*)(pap::core::ReleaseDraft *)> draft(
		    pap::core::BeginReleaseDraft(l.query_class, 0.05, pap::core::Granularity::Alpha),
		    pap::core::FreeReleaseDraft);
		for (size_t i = 0; i < pap::core::DraftColumnCount(draft.get()); i++)
			columns.emplace_back(pap::core::DraftColumn(draft.get(), i));
	});
	// Into palloc'd memory before anything may ereport (a longjmp skips destructors).
	const size_t count = columns.size();
	char **names = (char **)palloc(sizeof(char *) * (count ? count : 1));
	for (size_t i = 0; i < count; i++)
		names[i] = pstrdup(columns[i].c_str());
	std::vector<std::string>().swap(columns);
	for (size_t i = 0; i < count; i++) {
		const char *column = names[i];
		Oid type;
		if (PapValueTypeOfReleaseColumn(r->private_table, column, &type) != pap::core::ValueType::Number)
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("column \"%s\" of the private table now has type %s", column, format_type_be(type)),
			                errdetail("Release \"%s\" reads it on a linear axis, which takes number columns.", r->name),
			                errhint("Define the release again.")));
	}
}

// ", reference workload <kind>" for the DEBUG1 lines of a benchmark run (pap_release.reference_workload), else "".
static const char *
ReferenceLabel()
{
	switch (pap::core::ReferenceKind(pap_reference_workload)) {
	case pap::core::ReferenceKind::CellLists: return ", reference workload cell_lists";
	case pap::core::ReferenceKind::Membership: return ", reference workload membership";
	default: return "";
	}
}

static pap::core::ScanParameterKind
LayoutParameter(const void *layout, size_t axis, const double **cuts, const char *const **categories, size_t *count)
{
	return pap::core::LayoutScanParameter(*(const pap::core::CatalogLayout *)layout, axis, cuts, categories, count);
}

static Datum
Float8Array2(const double v[2])
{
	Datum d[2] = {Float8GetDatum(v[0]), Float8GetDatum(v[1])};
	return PointerGetDatum(construct_array(d, 2, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

// The guard rails of a planned request (docs/mechanisms.md §15), from public information only: the release's
// sizes, n and epsilon.
static void
WarnPlannedRelease(const PapRelease *r, int64 n, double epsilon)
{
	pap::core::GuardRailRequest request{};
	request.query_class = r->query_class;
	request.vc_dimension = r->vc_dimension;
	request.public_rows = r->declared_domain ? 0 : r->public_rows;
	request.private_rows = n;
	request.domain_size = r->declared_domain ? PapHistogramWeight(r->public_histogram, size_t(r->cell_count)) : 0;
	request.alpha = r->alpha;
	request.beta = r->beta;
	request.epsilon = epsilon;
	PapWarnGuardRails(request);
}

extern "C" Datum
pap_plan(PG_FUNCTION_ARGS)
{
	const RunArguments args = ReadRunArguments(fcinfo);
	char *name = args.name, *mechanism = args.mechanism, *prior = args.prior;
	const double epsilon = args.epsilon, delta = args.delta;
	TupleDesc desc;
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "pap.plan must return a record");

	MemoryContext caller = CurrentMemoryContext;
	SPI_connect();
	MemoryContext spi = MemoryContextSwitchTo(caller);  // the release must outlive SPI_finish
	PapRelease *r = PapLoadRelease(name, false);
	MemoryContextSwitchTo(spi);
	// n is public under replace-one neighbours (docs/mechanisms.md); reading it needs SELECT on the table, and the
	// table must still be one a release may read (a FORCE ROW LEVEL SECURITY policy added since define would run
	// on every row as the owner, and count fewer).
	PapRequirePrivateTable(r->private_table);  // first: it names a dropped table as such
	PapRequireReadable(r->private_table);
	const int64 n = PapCountRows(r->private_table);
	double budget_delta = 0;
	const bool in_rho = RequestOnBudgetInRho(r->private_table, args, "pap.plan", &budget_delta);
	SPI_finish();
	// The columns NOT NULL closes (public: the catalog), as a run would read them now.
	r->layout.axis_not_null = PapNotNullAxes(r->private_table, r->layout);

	pap::core::PlanSummary s;
	pap::core::PlanRequest req = PlanRequestFor(r, n, epsilon, in_rho ? budget_delta : delta, mechanism, prior);
	req.zcdp_budget = in_rho;
	req.interrupted = PapInterruptPending;
	PAP_CORE(s = pap::core::MakePlan(req));
	WarnPlannedRelease(r, n, epsilon);
	PapCheckAgainstPublicTable(name, mechanism, s);
	Datum values[27];
	bool nulls[27] = {false};
	values[0] = CStringGetTextDatum(pap::core::MechanismName(s.chosen));
	values[1] = Int64GetDatum(n);
	values[2] = Int64GetDatum(r->public_rows);
	values[3] = Int64GetDatum(r->cover_size);
	values[4] = Int64GetDatum(r->cell_count);
	values[5] = Float8GetDatum(r->alpha);
	values[6] = Float8GetDatum(r->beta);
	values[7] = Float8GetDatum(s.predicted_error);
	values[8] = Float8GetDatum(s.public_only_error);
	values[9] = Float8GetDatum(s.book_private_rows);
	values[10] = Float8GetDatum(s.book_public_rows);
	values[11] = BoolGetDatum(double(n) >= s.book_private_rows && double(r->public_rows) >= s.book_public_rows);
	values[12] = Float8GetDatum(s.book_cutoff);
	values[13] = Int64GetDatum(s.cutoff);
	values[14] = BoolGetDatum(s.converges);
	values[15] = Float8GetDatum(s.threshold);
	values[16] = CStringGetTextDatum(s.pmw_accounting);
	values[17] = Float8Array2(s.epsilon_split);
	values[18] = Float8Array2(s.noise_scales);
	values[19] = Int32GetDatum(s.max_passes);
	char *predictions;
	PAP_CORE(predictions = pap::core::PlanPredictionsJson(s, PapAllocate));
	values[20] = DirectFunctionCall1(jsonb_in, CStringGetDatum(predictions));
	// The chosen mechanism's error parts (docs/mechanisms.md §10): predicted_error is their total. A database not
	// yet updated to 0.2 has the 21 columns of 0.1: heap_form_tuple reads only the descriptor's.
	values[21] = Float8GetDatum(s.parts.projection);
	values[22] = Float8GetDatum(s.parts.outside_mass);
	values[23] = Float8GetDatum(s.parts.noise);
	values[24] = Float8GetDatum(s.parts.prior);
	// The same request without the public table (docs/mechanisms.md §14), since 0.2.
	values[25] = Float8GetDatum(s.private_only_error);
	nulls[25] = std::isnan(s.private_only_error);
	values[26] = CStringGetTextDatum(s.answer_mode);  // the mode answers use when refine is not given
	if (s.approximate_accounting)
		nulls[17] = true;
	HeapTuple tuple = heap_form_tuple(BlessTupleDesc(desc), values, nulls);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

// The members of the run's details (pap.releases.details, jsonb): keys and strings through escape_json; numbers
// with 17 significant digits, which jsonb keeps as they are printed.
static void
JsonKey(StringInfo buf, const char *key)
{
	if (buf->len > 1)
		appendStringInfoString(buf, ", ");
	escape_json(buf, key);
	appendStringInfoString(buf, ": ");
}

static void
JsonString(StringInfo buf, const char *key, const char *value)
{
	JsonKey(buf, key);
	escape_json(buf, value);
}

// value: JSON text (true, false, an object built by the core).
static void
JsonRaw(StringInfo buf, const char *key, const char *value)
{
	JsonKey(buf, key);
	appendStringInfoString(buf, value);
}

static void
JsonInteger(StringInfo buf, const char *key, int64 value)
{
	JsonKey(buf, key);
	appendStringInfo(buf, INT64_FORMAT, value);
}

static void
JsonNumber(StringInfo buf, const char *key, double value)
{
	JsonKey(buf, key);
	appendStringInfo(buf, "%.17g", value);
}

static void
JsonNumberPair(StringInfo buf, const char *key, const double value[2])
{
	JsonKey(buf, key);
	appendStringInfo(buf, "[%.17g, %.17g]", value[0], value[1]);
}

static const char *
Int64Text(int64 value)
{
	return psprintf(INT64_FORMAT, value);
}

// The mechanism's phase, with the plan's parameters that govern its passes (all of them public: pap.plan shows
// them before the run).
static void
ReportMechanismStart(PapRunProgress *progress, const PapRelease *r, const pap::core::PlanSummary &plan)
{
	const char *chosen = pap::core::MechanismName(plan.chosen);
	const char *cover = Int64Text(r->cover_size), *cells = Int64Text(r->cell_count);
	if (strcmp(chosen, "pmw") == 0)
		PapProgressPhase(progress,
		                 "running pmw over %s cover queries and %s cells (cutoff " INT64_FORMAT
		                 " updates, threshold %.6g, at most %d passes)",
		                 cover, cells, int64(plan.cutoff), plan.threshold, plan.max_passes);
	else if (strcmp(chosen, "mwem") == 0)
		PapProgressPhase(progress, "running mwem over %s cover queries and %s cells (%d rounds)", cover, cells,
		                 plan.mwem_rounds);
	else
		PapProgressPhase(progress, "running %s over %s cover queries and %s cells", chosen, cover, cells);
}

static const char *const kRunDetailsSql =
    "UPDATE pap.release_data SET state = 'released', synthetic = $2, private_rows = $3, details = "
    "$4::pg_catalog.jsonb, "
    "is_private = $5, mechanism = $6, released_at = pg_catalog.clock_timestamp() WHERE name OPERATOR(pg_catalog.=) $1";
// The same with the answer facts (since 0.2's answer_facts column): what answers read beside the plan's parts.
static const char *const kRunDetailsWithFactsSql =
    "UPDATE pap.release_data SET state = 'released', synthetic = $2, private_rows = $3, details = "
    "$4::pg_catalog.jsonb, "
    "is_private = $5, mechanism = $6, released_at = pg_catalog.clock_timestamp(), answer_facts = "
    "$7::pg_catalog.jsonb, answer_gap_spreads = $8 WHERE name OPERATOR(pg_catalog.=) $1";

extern "C" Datum
pap_run_release(PG_FUNCTION_ARGS)
{
	const RunArguments args = ReadRunArguments(fcinfo);
	char *name = args.name, *mechanism = args.mechanism, *prior = args.prior;
	const double epsilon = args.epsilon, delta = args.delta;
	PapRun run;
	PapBeginRun(fcinfo, "pap.run_release", &run);
	// --- transaction 1: check everything, then charge the budget and mark the release as running ---------------
	MemoryContextSwitchTo(run.procedure_context);
	PapRelease *r = PapLoadRelease(name, true);
	MemoryContextSwitchTo(run.spi_context);
	const PapCatalogObject object = PapObjectOf(r);
	PapRequireRunnable(object, run.user);
	PapRequirePrivateTable(r->private_table);  // still one budget for its rows (a partition may have been attached)
	PapRequireReadable(r->private_table);
	RequireColumnTypes(r);
	RequireLinearColumnTypes(r);
	// The predicates again, on the private table as it is now (and under the pinned search_path).
	for (size_t a = 0; a < r->layout.axis_count; a++)
		if (strcmp(r->layout.axis_kinds[a], "predicate") == 0)
			PapCheckPredicate(r->private_table, r->layout.axis_labels[a]);
	PAP_CORE(pap::core::RequireMechanismApplies(r->layout, mechanism));
	char *private_name = PapQualifiedRelationName(r->private_table);
	MemoryContextSwitchTo(run.procedure_context);
	char *select_list;
	PAP_CORE(select_list = pap::core::LayoutScanSelectList(r->layout, PapAllocate));
	MemoryContextSwitchTo(run.spi_context);
	// The scan's statement must fit the private table before anything is charged: predicates and linear axes are SQL
	// the catalog checks above do not cover, and so is an enum's enum_out; and what it calls must pass the read's
	// guard (row_read_guard.hpp), which checks it again as the scan plans it after the charge.
	PapCheckScan(r->private_table, select_list, r->layout.axis_count, LayoutParameter, &r->layout);

	// The running marker: a session-level lock on the release (PapRunLockTag), held until the run ends or its
	// backend dies (PostgreSQL then drops it), and released on error below. pap.run_in_progress() reads it.
	LOCKTAG run_lock;
	PapRunLockTag(&run_lock, r->release_id);
	PapLockRun(object, &run_lock);
	PapRunProgress progress;
	PapProgressBegin(&progress, name);
	PG_TRY();
	{
		PapProgressActivity(&progress, "checking, counting the private rows and planning");
		// An exhausted budget is refused before the count reads the table (the debit below checks again, atomically).
		// The right to spend, beside SELECT (the table's owner, or a role it granted, with its limit): checked with it.
		double budget_delta = 0;
		const bool in_rho = RequestOnBudgetInRho(r->private_table, args, "pap.run_release", &budget_delta);
		const char *rho_charged = in_rho ? PapZcdpCost(args.epsilon_text, kPureRunRho) : NULL;
		const bool limited = PapRequireBudgetFor(r->private_table, private_name, args.epsilon_text, rho_charged);
		// The whole plan before the charge, with n public under replace-one (count(*), as pap.plan reads it): every
		// check and every parameter the mechanism runs with; the run after the charge derives nothing. Under the
		// run marker, so that a second run of the release is refused before it waits on the count.
		const int64 planned_rows = PapCountRows(r->private_table);
		RequireAggregatable(r, planned_rows);
		// The columns NOT NULL closes (public: the catalog), for the plan; the scan's transaction reads them again.
		MemoryContext planning = MemoryContextSwitchTo(run.procedure_context);
		r->layout.axis_not_null = PapNotNullAxes(r->private_table, r->layout);
		MemoryContextSwitchTo(planning);
		pap::core::PlanRequest plan_request =
		    PlanRequestFor(r, planned_rows, epsilon, in_rho ? budget_delta : delta, mechanism, prior);
		plan_request.zcdp_budget = in_rho;
		plan_request.interrupted = PapInterruptPending;
		pap::core::PlanSummary plan;
		PAP_CORE(plan = pap::core::MakePlan(plan_request));
		PapCheckAgainstPublicTable(name, mechanism, plan);  // a warning, or under pap_release.strict no charge

		// The ledger records epsilon as written (the run uses the double not above it, ReadRunArguments) and the
		// delta the chosen mechanism uses: 0 for a pure one, whatever was requested. On a budget in rho it charges
		// rho = epsilon^2 / 2 and records what the run guarantees: (epsilon, 0) for a pure plan, the tight
		// conversion of the plan's rho at the budget's delta for a zCDP one, rounded up.
		const char *epsilon_charged = in_rho ? ChargedDelta(plan.epsilon_used) : args.epsilon_text;
		const char *delta_charged = ChargedDelta(plan.delta_used);
		PapChargeBudget(r->private_table, private_name, epsilon_charged, delta_charged, rho_charged, name, mechanism,
		                run.user, limited);
		const Oid running_types[3] = {FLOAT8OID, FLOAT8OID, TEXTOID};
		const Datum running_values[3] = {Float8GetDatum(in_rho ? plan.epsilon_used : epsilon),
		                                 Float8GetDatum(plan.delta_used), CStringGetTextDatum(mechanism)};
		// The facts of an earlier run go with its distribution (a table without answer_facts, 0.1's, has none).
		PapMarkRunning(
		    object,
		    PapCatalogHasColumn("release_data", "answer_facts")
		        ? "epsilon = $2, delta = $3, mechanism = $4, synthetic = NULL, details = NULL, "
		          "released_at = NULL, answer_facts = NULL, answer_gap_spreads = NULL"
		        : "epsilon = $2, delta = $3, mechanism = $4, synthetic = NULL, details = NULL, released_at = NULL",
		    3, running_types, running_values);
		PapCommitCharge(&run);
		if (in_rho)
			PapProgressPhase(&progress, "charged rho %s to the budget of %s", rho_charged, private_name);
		else
			PapProgressPhase(&progress, "charged epsilon %s and delta %s to the budget of %s", args.epsilon_text,
			                 delta_charged, private_name);
		PapFailIfInjectedAfterCharge();
		elog(DEBUG1, "pap_release: charged epsilon %g, delta %g for release \"%s\"; reading %s", epsilon, delta, name,
		     private_name);

		// --- transaction 2: the one read of the private table, the mechanism, the stored result ---------------------
		MemoryContextSwitchTo(run.procedure_context);
		int32 *points;
		int64 *rows;
		size_t point_count;
		// Timings go to the caller only, at DEBUG1 (bench/ reads them), never to the catalog: the mechanism's time
		// depends on the private data. (The glue logs the scan's exact statement.)
		instr_time started, elapsed;
		INSTR_TIME_SET_CURRENT(started);
		// The catalog checks of the first transaction again, in the scan's: a type's owner may have renamed a label,
		// or the table's owner attached a partition, while the run waited at its debit. This narrows that window to
		// the moment before the scan opens the table; a failure here is after the charge but reads no row.
		PapRequirePrivateTable(r->private_table);
		PapRequireReadable(r->private_table);
		RequireColumnTypes(r);
		RequireLinearColumnTypes(r);
		// The NOT NULL constraints as they stand now, locked with every table of the tree until the scan ends: the
		// mechanism leaves the NULL bins they close unmeasured (public: the catalog; privacy does not rest on them).
		r->layout.axis_not_null = PapNotNullAxes(r->private_table, r->layout);
		PapProgressPhase(&progress, "reading %s", private_name);
		const int output_level = PapBeginStableOutput();
		PapScanGridPoints(r->private_table, select_list, r->layout.axis_count, LayoutParameter, &r->layout, true,
		                  &points, &rows, &point_count);
		PapEndStableOutput(output_level);
		// Again after the scan, every table it read locked since: a table that joined the tree after the read above
		// (ATTACH PARTITION, INHERIT, neither blocked by AccessShareLock), possibly foreign or without NOT NULL, is
		// seen now. A bin stays closed only if both reads close it.
		const bool *after_scan = PapNotNullAxes(r->private_table, r->layout);
		if (r->layout.axis_not_null != nullptr) {
			bool *both = (bool *)palloc0(sizeof(bool) * (r->layout.axis_count + 1));
			bool any = false;
			for (size_t a = 0; a < r->layout.axis_count; a++) {
				both[a] = r->layout.axis_not_null[a] && after_scan != nullptr && after_scan[a];
				any = any || both[a];
			}
			r->layout.axis_not_null = any ? both : nullptr;
		}
		MemoryContextSwitchTo(run.spi_context);
		INSTR_TIME_SET_CURRENT(elapsed);
		INSTR_TIME_SUBTRACT(elapsed, started);
		elog(DEBUG1, "pap_release: mapping (private scan) took %.3f ms", INSTR_TIME_GET_MILLISEC(elapsed));
		elog(DEBUG1, "pap_release: private table read; running %s over " INT64_FORMAT " cover queries%s", mechanism,
		     r->cover_size, ReferenceLabel());

		pap::core::RunRequest req;
		req.layout = &r->layout;
		req.private_points = points;
		req.private_rows = rows;
		req.private_point_count = point_count;
		req.seed = run.seed;
		req.fill_secure = PapFillSecureBytes;
		req.interrupted = PapInterruptPending;
		req.reference_workload = pap::core::ReferenceKind(pap_reference_workload);
		req.progress = PapProgressPass;
		req.progress_context = &progress;
		ReportMechanismStart(&progress, r, plan);
		pap::core::RunSummary out;
		INSTR_TIME_SET_CURRENT(started);
		PAP_CORE(out = pap::core::RunRelease(req, plan, PapAllocate));
		CHECK_FOR_INTERRUPTS();
		INSTR_TIME_SET_CURRENT(elapsed);
		INSTR_TIME_SUBTRACT(elapsed, started);
		const char *chosen = pap::core::MechanismName(out.plan.chosen);
		// The mechanism alone (measured in the core), and the whole core step (cover, true counts, plan, mechanism).
		elog(DEBUG1, "pap_release: mechanism (%s%s) took %.3f ms", chosen, ReferenceLabel(),
		     out.mechanism_seconds * 1000.0);
		elog(DEBUG1, "pap_release: cover, true counts, plan and mechanism took %.3f ms",
		     INSTR_TIME_GET_MILLISEC(elapsed));
		elog(DEBUG1, "pap_release: %s made " INT64_FORMAT " updates in %d passes", chosen, out.updates, out.passes);

		const int64 n = out.private_rows;
		Datum *weights = (Datum *)palloc(sizeof(Datum) * r->cell_count);
		for (int64 i = 0; i < r->cell_count; i++)
			weights[i] = Float8GetDatum(out.synthetic[i]);
		// Only public quantities and counts of the mechanism's own steps: nothing here depends on a private value
		// except through the differentially private output. accounting .. passes describe PMW's plan (and its run,
		// when PMW ran); predicted_error is the chosen mechanism's.
		char *predictions;
		PAP_CORE(predictions = pap::core::PlanPredictionsJson(out.plan, PapAllocate));
		StringInfoData details;
		initStringInfo(&details);
		appendStringInfoChar(&details, '{');
		JsonString(&details, "mechanism", chosen);
		JsonString(&details, "requested", mechanism);
		JsonRaw(&details, "predictions", predictions);
		JsonInteger(&details, "mwem_rounds", out.plan.mwem_rounds);
		JsonString(&details, "accounting", out.plan.approximate_accounting ? "zcdp" : "pure");
		JsonInteger(&details, "cutoff", out.plan.cutoff);
		JsonNumber(&details, "threshold", out.plan.threshold);
		JsonNumberPair(&details, "epsilon_split", out.plan.epsilon_split);
		JsonNumberPair(&details, "noise_scales", out.plan.noise_scales);
		JsonInteger(&details, "max_passes", out.plan.max_passes);
		JsonInteger(&details, "updates", out.updates);
		JsonInteger(&details, "passes", out.passes);
		JsonRaw(&details, "cutoff_reached", out.cutoff_reached ? "true" : "false");
		JsonRaw(&details, "cutoff_suffices", out.plan.converges ? "true" : "false");
		if (!std::isnan(out.bound_noise))
			JsonNumber(&details, "bound_noise_error", out.bound_noise);
		JsonNumber(&details, "predicted_error", out.plan.predicted_error);
		JsonNumber(&details, "public_only_error", out.plan.public_only_error);
		JsonString(&details, "prior", prior);
		if (in_rho)  // the zCDP cost of the chosen plan (docs/mechanisms.md, "zCDP budgets"); the ledger charges rho
			JsonNumber(&details, "rho_used", out.plan.rho_used);
		// A database still on 0.1's SQL documents answers by projection: its runs record no mode, and keep
		// answering by projection after ALTER EXTENSION UPDATE.
		if (r->answer_modes)
			JsonString(&details, "answer_mode", out.plan.answer_mode);
		appendStringInfoChar(&details, '}');
		// The facts answers read beside the plan's parts, from public numbers only (the layout, m, n, beta): stored,
		// so that a later library does not change this release's answers (docs/mechanisms.md §18).
		const bool store_facts = PapCatalogHasColumn("release_data", "answer_facts");
		pap::core::RunAnswerFacts facts{};
		if (store_facts)
			PAP_CORE(facts = pap::core::ComputeAnswerFacts(r->layout, r->public_rows, n, r->beta, PapAllocate));
		Datum *spreads = (Datum *)palloc(sizeof(Datum) * (facts.gap_spread_count + 1));
		for (size_t i = 0; i < facts.gap_spread_count; i++)
			spreads[i] = Float8GetDatum(facts.gap_spreads[i]);
		Oid store_types[8] = {TEXTOID, FLOAT8ARRAYOID, INT8OID, TEXTOID, BOOLOID, TEXTOID, TEXTOID, FLOAT8ARRAYOID};
		Datum store_values[8] = {CStringGetTextDatum(name),
		                         PointerGetDatum(construct_array(weights, int(r->cell_count), FLOAT8OID, sizeof(float8),
		                                                         FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)),
		                         Int64GetDatum(n),
		                         CStringGetTextDatum(details.data),
		                         BoolGetDatum(!run.seeded),
		                         CStringGetTextDatum(chosen),
		                         store_facts ? CStringGetTextDatum(facts.json) : (Datum)0,
		                         PointerGetDatum(construct_array(spreads, int(facts.gap_spread_count), FLOAT8OID,
		                                                         sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE))};
		// Other roles see the answers when this transaction commits: not before pap_release.publish_delay after
		// the charge, a time fixed before the private table was read (docs/security.md, "Timing").
		if (pap_publish_delay > 0)
			PapProgressPhase(&progress, "storing the released distribution, published %d ms after the charge",
			                 pap_publish_delay);
		else
			PapProgressPhase(&progress, "storing the released distribution");
		PapWaitUntilPublishTime(run.charged);
		PapUserSwitch saved;
		PapBecomeCatalogOwner(&saved);
		PapExecute(store_facts ? kRunDetailsWithFactsSql : kRunDetailsSql, store_facts ? 8 : 6, store_types,
		           store_values, false);
		PapRestoreUser(&saved);
		// The summary: every number in it is published by the release (pap.releases, pap.plan).
		ereport(NOTICE,
		        (errmsg("release \"%s\" released by %s: predicted max error %.3g over %s cells, %s private rows", name,
		                chosen, out.plan.predicted_error, Int64Text(r->cell_count), Int64Text(n))));
		// Published before the run lock goes: released first, pap.releases showed the run "failed" until the
		// commit (a state without its lock reads as a run that died).
		SPI_commit();
	}
	PG_FINALLY();
	{
		PapProgressEnd(&progress);
		LockRelease(&run_lock, ExclusiveLock, true);
	}
	PG_END_TRY();
	SPI_finish();
	PG_RETURN_VOID();
}
