// The core's entry points for the PostgreSQL glue. Plain data crosses this boundary (pointers, numbers, C strings)
// and opaque handles (ReleaseDraft, ReleaseModel) that the glue frees from a memory-context reset callback, so it
// never holds a C++ object on its stack while it calls PostgreSQL: a PostgreSQL error longjmps, and must not jump
// over destructors (docs/architecture.md, "The wall"). Every function may throw pap::core::Error; the glue catches
// it in one place (src/pg/error_bridge.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/axes/release_axis.hpp"
#include "core/base/progress_scope.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/registry.hpp"
#include "core/noise/random_source.hpp"
#include "core/noise/zcdp_conversion.hpp"  // ZcdpEpsilon: the ledger reports a budget in rho with it

namespace pap::core {

// Allocates memory owned by the caller; returns nullptr on failure and never throws or longjmps
// (the glue passes palloc_extended(..., MCXT_ALLOC_NO_OOM)). The core turns nullptr into std::bad_alloc.
using Allocate = void *(*)(std::size_t bytes);

// --- a release as stored in pap.release_data ------------------------------------------------------------------
// Flat arrays, one entry per axis unless said otherwise (the catalog stores each as a PostgreSQL array).
struct CatalogLayout {
	const char *query_class;  // canonical text
	std::size_t axis_count;
	const char *const *axis_kinds;        // AxisKindName
	const char *const *axis_value_types;  // ValueTypeName
	const char *const *axis_labels;
	const std::int32_t *cut_counts;  // per axis; cuts of all axes concatenated in `cuts`
	const double *cuts;
	const std::int32_t *category_counts;  // per axis; categories concatenated
	const char *const *categories;
	const std::int32_t *public_value_counts;  // per axis; the finest public marginals concatenated
	const double *public_values;
	const std::int64_t *public_value_rows;
	std::size_t predicate_count;  // predicates only: listed predicate -> axis
	const std::int32_t *predicate_axis;
	std::size_t public_point_count;  // distinct public grid points (axis_count coordinates each)
	const std::int32_t *public_points;
	const std::int64_t *public_point_rows;
	const char *domain;  // "full grid" or "public support"
	// Per axis, the distance between consecutive values its column can hold (ReleaseAxis::value_step: 1 for an
	// integer column); nullptr for a release stored without them (before 0.2's axis_value_steps), whose axes take
	// their value type's (a date's day, else 0).
	const double *axis_value_steps;
	// Per axis, whether its categories are the list a CHECK constraint of the private table allows its column
	// (ReleaseAxis::check_list); nullptr for none (a release stored before 0.2's axis_check_lists).
	const bool *axis_check_lists;
	// Per axis, whether the private table's column is NOT NULL in every table that stores its rows
	// (ReleaseAxis::not_null); never stored: the glue reads it from the catalog when it plans or runs the release,
	// and leaves it nullptr (none) elsewhere.
	const bool *axis_not_null;
};

// --- defining a release ----------------------------------------------------------------------------------------
// A release being defined: the glue feeds it what only PostgreSQL can read (column types, the public table),
// step by step, in this order:
//   1. BeginReleaseDraft parses the class; DraftColumnCount/DraftColumn name the columns it reads.
//   2. DraftSetColumnType for every column (Error(InvalidParameter) when the class cannot use that type),
//      DraftSetColumnValueStep for those whose values are discrete, DraftSetColumnLabels for those of an enum type.
//   3. predicates only: the glue checks each predicate (DraftPredicate) is one boolean expression, runs
//      DraftPredicateLabelSql on the public table and passes the rows to DraftMergePredicates.
//   4. for every axis a with DraftAxisMarginalSql(a) != nullptr: the glue runs
//      "SELECT <sql>, count(*) FROM public GROUP BY 1" and passes the rows to
//      DraftSetNumericMarginal (float8 values) or DraftSetCategories (text values) as DraftAxisIsNumeric(a) says.
//   5. DraftScanSelectList + DraftScanParameter*: the glue runs the scan on the public table and passes the rows to
//      DraftSetPublicPoints, which builds the domain and the cover (the limits apply here).
//   6. DraftCatalogLayout and DraftSummary give what to store.
class ReleaseDraft;
enum class Granularity { Alpha, Finest, Auto };
// "alpha", "finest" or "auto"; Error(InvalidParameter) otherwise.
Granularity ParseGranularity(const char *text);
// interrupted: polled by every long step of the draft (domain, cover, histogram): Error(Cancelled).
ReleaseDraft *BeginReleaseDraft(const char *class_text, double alpha, Granularity granularity,
                                InterruptCheck interrupted = nullptr);
void FreeReleaseDraft(ReleaseDraft *draft) noexcept;
const char *DraftCanonicalClass(const ReleaseDraft *draft);
std::size_t DraftColumnCount(const ReleaseDraft *draft);
const char *DraftColumn(const ReleaseDraft *draft, std::size_t i);
// Whether the class reads its columns as categories (marginals, stumps: categorical axes, which a closed column's
// labels or CHECK list close), not as ordered values.
bool DraftColumnsAreCategorical(const ReleaseDraft *draft);
void DraftSetColumnType(ReleaseDraft *draft, std::size_t i, ValueType type, const char *type_name);
// After DraftSetColumnType, for a column whose values are whole multiples of step in axis units (an integer column:
// 1; docs/mechanisms.md §10, "Discrete columns"); without it a column takes its value type's (a date's day, else 0).
// Error(Internal) for a step that is negative or not finite.
void DraftSetColumnValueStep(ReleaseDraft *draft, std::size_t i, double step);
// After DraftSetColumnType(ValueType::Enum), the labels of the column's enum type (public: the catalog), every one
// of them: they are the axis's categories, and its "other" bin holds nothing (ReleaseAxis::ClosedCategories).
// Error(InvalidParameter) for a type without labels.
void DraftSetColumnLabels(ReleaseDraft *draft, std::size_t i, const char *const *labels, std::size_t count);
// After DraftSetColumnType(Number or Text), for a column a validated CHECK constraint of the private table allows
// only the listed values (their texts as the column's cast to text prints them; public: the catalog): on a
// categorical axis they are its categories, every one of them, and its "other" bin holds nothing
// (ReleaseAxis::check_list); an ordered axis ignores them. The public read of step 4 still runs on such an axis and
// DraftSetCategories then refuses a public value outside the list (Error(DataException)). Error(Internal) for an
// empty list, duplicates or another value type.
void DraftSetColumnCheckList(ReleaseDraft *draft, std::size_t i, const char *const *values, std::size_t count);
// Whether the private table's column i is NOT NULL in every table that stores its rows (public: the catalog,
// PapNotNullAxes' rule). Granularity auto then plans its candidates with the NULL bin of every numeric or categorical
// axis over that column closed, as pap.plan and a run will (docs/mechanisms.md §9, "Cells no row can hold"); the
// stored layout does not keep it. Any time before step 5's DraftSetPublicPoints.
void DraftSetColumnNotNull(ReleaseDraft *draft, std::size_t i, bool not_null);
std::size_t DraftPredicateCount(const ReleaseDraft *draft);
const char *DraftPredicate(const ReleaseDraft *draft, std::size_t i);
const char *DraftPredicateLabelSql(const ReleaseDraft *draft);  // SELECT list: one 0/1 per predicate, count(*)
// label_points: the distinct public label points (one 0/1 per listed predicate each), point_rows their public rows.
void DraftMergePredicates(ReleaseDraft *draft, const std::int32_t *label_points, const std::int64_t *point_rows,
                          std::size_t point_count);
std::size_t DraftAxisCount(const ReleaseDraft *draft);
const char *DraftAxisMarginalSql(const ReleaseDraft *draft, std::size_t axis);  // nullptr: nothing to read
bool DraftAxisIsNumeric(const ReleaseDraft *draft, std::size_t axis);
// values/rows: the distinct non-NULL values and their public rows; null_rows: the public rows where it is NULL.
void DraftSetNumericMarginal(ReleaseDraft *draft, std::size_t axis, const double *values, const std::int64_t *rows,
                             std::size_t count, std::int64_t null_rows);
void DraftSetCategories(ReleaseDraft *draft, std::size_t axis, const char *const *texts, std::size_t count);
const char *DraftScanSelectList(ReleaseDraft *draft);
// The scan's parameter $(axis+1): cut points (float8[]) or categories (text[]), or none (predicate axes).
enum class ScanParameterKind { None, Cuts, Categories };
ScanParameterKind DraftScanParameter(const ReleaseDraft *draft, std::size_t axis, const double **cuts,
                                     const char *const **categories, std::size_t *count);
void DraftSetPublicPoints(ReleaseDraft *draft, const std::int32_t *points, const std::int64_t *rows,
                          std::size_t point_count, std::uint64_t cell_limit, std::size_t max_cover_queries);
// Granularity auto (docs/mechanisms.md §20): the draft scans the public table at a cut at every public value, then
// DraftSetPublicPoints plans every candidate layout at this request and keeps the best. DraftPlansLayout says
// whether the glue must call DraftSetLayoutPlanning (before step 5's DraftSetPublicPoints) with the private row
// count (count(*), public as for pap.plan), epsilon, delta and beta. Error(InvalidParameter) for parameters out of
// their ranges.
bool DraftPlansLayout(const ReleaseDraft *draft);
void DraftSetLayoutPlanning(ReleaseDraft *draft, std::int64_t private_rows, double epsilon, double delta, double beta);
CatalogLayout DraftCatalogLayout(const ReleaseDraft *draft);  // valid while the draft lives
struct DraftSummary {
	std::int64_t public_rows, cover_size, cell_count;
	const std::int64_t *public_histogram;  // per domain cell
	const char *domain_reason;             // a sentence
	const char *granularity;               // a sentence: finest, the public mass per bin alpha allows, or auto's choice
	int vc_dimension;
};
DraftSummary DraftSummaryOf(const ReleaseDraft *draft);  // valid while the draft lives

// A release without a public table (docs/mechanisms.md §14): steps 3-5 above are replaced by a declared domain.
// Every axis is declared (DraftDeclareNumericDomain: low, low + step, ..., up to high; DraftDeclareCategories: the
// list), then DraftDeclareFullGrid builds a full-grid domain with one weight per declared point (the uniform
// "public" histogram a prior may start from; DraftSummary.public_rows is 0). Error(InvalidParameter) for an
// unbounded or malformed declaration, a class a declaration cannot define (halfspaces, predicates), a numeric
// declaration of a categorical axis or the reverse; Error(LimitExceeded) for more cells than cell_limit.
void DraftDeclareNumericDomain(ReleaseDraft *draft, std::size_t axis, double low, double high, double step,
                               std::uint64_t cell_limit);
void DraftDeclareCategories(ReleaseDraft *draft, std::size_t axis, const char *const *texts, std::size_t count);
void DraftDeclareFullGrid(ReleaseDraft *draft, std::uint64_t cell_limit, std::size_t max_cover_queries);
bool DraftIsDeclared(const ReleaseDraft *draft);
// Error(InvalidParameter) for a class a declared domain cannot define; the first step of a declaration.
void DraftRequireDeclarable(const ReleaseDraft *draft);
// The refusal of an ordered column without declared finite bounds (no public table, no finite domain).
[[noreturn]] void RefuseUnboundedDomain(const char *column);

// --- planning and running ------------------------------------------------------------------------------------
// The mechanisms over the cells (docs/architecture.md step 5; docs/mechanisms.md §10): one of the registry's
// (core/mechanisms/registry.hpp), by its position there, or Auto: a request only, which the plan resolves to the
// mechanism with the smallest predicted error, from public information only.
enum class MechanismChoice : std::size_t { Auto = ~std::size_t(0) };
const char *MechanismName(MechanismChoice m);  // the registered name, or "auto"
// A registered name ("pmw", "mwem", "identity", "hierarchical") or "auto"; Error(InvalidParameter) otherwise.
MechanismChoice ParseMechanism(const char *text);
bool ParseUniformPrior(const char *text);
// ValidatePrivacyParameters (mechanisms/mechanism.hpp) checks epsilon and delta.

struct PlanRequest {
	int vc_dimension;
	std::int64_t cover_size;
	std::int64_t cell_count;
	std::int64_t public_rows;
	std::int64_t private_rows;
	double epsilon, delta, alpha, beta;
	const char *mechanism;
	const char *prior;  // "public" or "uniform"
	// The stored release: which mechanisms apply and how many cells a cover query spans are read from it.
	const CatalogLayout *layout;
	// pap_release.max_cover_queries: a larger cover is not listed, and the mechanisms that read every cover query
	// (pmw, mwem) do not apply (docs/query-classes.md, "Covers too large to list").
	std::size_t max_cover_queries = 1000000;
	// Polled during the plan (the release's cover and domain, the identity bias over every cell): Error(Cancelled).
	InterruptCheck interrupted = nullptr;
	// A release over a declared domain, without a public table (docs/mechanisms.md §14): the cover is exact at the
	// declared resolution (no projection part) and every prior is the uniform one over the declared points.
	bool declared_domain = false;
	// A run on a zCDP budget (docs/mechanisms.md, "zCDP budgets"): it may spend rho = epsilon^2 / 2, pure mechanisms
	// at epsilon and the zCDP ones (Gaussian noise, zCDP sparse vector) at that rho; delta is the budget's, in
	// (0, 1), at which a zCDP plan's cost is reported.
	bool zcdp_budget = false;
};

// What the planner predicts for one mechanism; applies = false with a reason (a static sentence) when the
// mechanism cannot run on this release (hierarchical needs a dense grid of one or two ordered axes).
struct MechanismPrediction {
	bool applies;
	double predicted_error;  // max error over the query class, fraction of n, w.p. 1 - beta: parts.Total()
	const char *reason;
	const char *detail;  // when it applies: the name of one number shown beside it ("rounds"), or nullptr
	std::int64_t detail_value;
	ErrorParts parts;             // the error model's parts (mechanisms/error_model.hpp); zero when it does not apply
	bool rests_on_public_sample;  // MechanismPlan's: its prior part is the public prior's sampling error
};

struct PlanSummary {
	// predicted_error: the chosen mechanism's (parts: its error model's parts). public_only_error: the public table's
	// own answers by the same model (the projection part plus the public sample's sampling error on the cover).
	double predicted_error, public_only_error;
	ErrorParts parts;
	bool converges;
	double book_private_rows, book_public_rows, book_cutoff;
	std::int64_t cutoff;
	double threshold;             // counts
	bool approximate_accounting;  // PMW's sparse vector is accounted with delta (zCDP), not pure
	const char *pmw_accounting;   // PMW's accounting, a static name (PrivacyUsed::accounting)
	double epsilon_split[2];      // threshold, comparisons (pure accounting)
	double noise_scales[2];       // threshold and comparison noise scales in counts (the exact values used)
	double first_pass_factor;
	int max_passes;
	// PMW guards the public prior (docs/mechanisms.md §5, "Refine or guard"): it keeps the public answers unless a
	// query is off by more than its threshold, and its prediction covers a shifted sample, which public_only_error
	// does not.
	bool pmw_guards_prior;
	// Every registered mechanism's prediction (indexed by MechanismChoice, the first Mechanisms().size()), and the
	// one the request resolves to: the request itself, or for auto the applicable mechanism with the smallest
	// prediction. predicted_error above is the chosen mechanism's; the PMW fields describe PMW's plan whatever is
	// chosen.
	MechanismPrediction predictions[kMaxMechanisms];
	MechanismChoice chosen;
	int mwem_rounds;  // MWEM's planned rounds (0 when it does not apply), for the run's details
	// What the chosen mechanism spends (pmw_plan.hpp, PrivacyUsed): epsilon_used <= epsilon and delta_used <=
	// delta of the request, delta_used = 0 for a pure mechanism (a run is charged these), and the accounting's
	// name (a static string).
	double epsilon_used, delta_used;
	const char *accounting;
	// The chosen plan's zCDP cost: its rho for a zCDP plan, epsilon_used^2 / 2 for a pure one (rounded up). On a
	// zCDP budget at most epsilon^2 / 2, and a zCDP plan's (epsilon_used, delta_used) is then the tight conversion
	// of rho_used at the budget's delta (ZcdpEpsilon).
	double rho_used;
	std::int64_t planned_rows;  // the n the plan is for (public: count(*) before the charge)
	bool uniform_prior;
	// How answers are computed when a query names no mode (pap.answer's refine): "projection" or "refine", the mode
	// with the smaller predicted projection part, or on marginals and stumps over a full grid "refine" when the
	// chosen mechanism measures every cell (a static name; docs/mechanisms.md §10, "The answer mode").
	const char *answer_mode;
	// The exact parameters the chosen mechanism runs with (its own plan's, opaque here): the run reads them and
	// derives nothing itself, so that nothing after the charge can fail on a parameter.
	MechanismParameters parameters;
	// The same class and epsilon without the public table: the smallest prediction of the mechanisms that start
	// from nothing (identity, hierarchical), noise part only, over this release's cells as a declared domain
	// (docs/mechanisms.md §14, "What the public table is worth"). NaN when none of them applies.
	double private_only_error = 0;
};
// Every check a run needs and its whole plan, from public information only: the glue calls it before the charge,
// with n from count(*). Error(InvalidParameter) when a parameter is outside the documented ranges or the requested
// mechanism does not apply to the release; Error(DataException) for no rows; Error(Cancelled) when interrupted.
// A mechanism whose noise cannot be sampled exactly at this epsilon does not apply (its reason says so); PMW
// (unless the cover has more than max_cover_queries queries) and identity always apply within the ranges
// ValidatePrivacyParameters accepts.
PlanSummary MakePlan(const PlanRequest &request);
// Error(InvalidParameter) when the named mechanism cannot run on the release (checked before the charge, from the
// layout alone; auto always applies).
void RequireMechanismApplies(const CatalogLayout &layout, const char *mechanism);
// The predictions as a JSON object {"pmw": {...}, ...} for pap.plan, allocated with allocate.
char *PlanPredictionsJson(const PlanSummary &plan, Allocate allocate);

// The private scan of a stored release: its SELECT list and parameters (as for the draft), from the layout.
// The string is allocated with allocate.
char *LayoutScanSelectList(const CatalogLayout &layout, Allocate allocate);
ScanParameterKind LayoutScanParameter(const CatalogLayout &layout, std::size_t axis, const double **cuts,
                                      const char *const **categories, std::size_t *count);

// The workload a run's MW mechanism reads the cover through: the grouped one, or a benchmark reference.
enum class ReferenceKind {
	None,        // ProductWorkload: grouped, prefix sums
	CellLists,   // ReferenceWorkload: each query's cells listed, answers query by query
	Membership,  // MembershipWorkload: every cell tested against every query (the textbook evaluation)
};

struct RunRequest {
	const CatalogLayout *layout;  // the layout the plan was made for
	// The private scan's rows: grid points (layout.axis_count coordinates each, flat) and their row counts. The
	// only private input.
	const std::int32_t *private_points;
	const std::int64_t *private_rows;
	std::size_t private_point_count;
	std::int64_t seed;            // >= 0: deterministic noise for tests (not private); < 0: secure
	FillSecureBytes fill_secure;  // the secure source when seed < 0
	InterruptCheck interrupted;
	// Told as each pass of the mechanism starts (PMW's passes, MWEM's rounds), with progress_context; may be
	// nullptr. It must not throw.
	ProgressHook progress = nullptr;
	void *progress_context = nullptr;
	// Benchmarks only (pap_release.reference_workload): the mechanism reads the cover through a reference workload
	// instead of the grouped ProductWorkload. Same output up to rounding.
	ReferenceKind reference_workload;
};

struct RunSummary {
	PlanSummary plan;   // plan.chosen is the mechanism that ran
	double *synthetic;  // cell_count weights, summing to 1
	std::int64_t private_rows;
	std::int64_t updates, comparisons;  // pmw; mwem: updates = rounds
	int passes;
	bool cutoff_reached;
	// The noise part of answers' error bounds from the run's outcome (mechanism.hpp, RunStatistics::bound_noise):
	// stored in the details as bound_noise_error, which answers' bounds read instead of the plan's noise_error; NaN
	// where the plan's part stands.
	double bound_noise;
	// Wall time of the mechanism with the construction of the workload it reads (not the cover's construction or
	// the true counts), for the caller's DEBUG1 line and bench/ only: it depends on the private data, so it is
	// never stored.
	double mechanism_seconds;
};
// Runs plan.chosen with plan.parameters (MakePlan on the same layout, made before the charge) on the private scan.
// Never fails on the private data: any histogram runs, grid points outside the axes are clamped onto them (a
// per-row map, which the glue's scan never needs), and a scanned n different from plan.planned_rows runs with the
// scanned n; n = 0 releases the prior the plan starts from (data-independent). It throws only Error(Cancelled),
// std::bad_alloc, Error(RandomSourceFailure) (the secure source failed) and Error(Internal) for a layout that is not
// the plan's.
RunSummary RunRelease(const RunRequest &request, const PlanSummary &plan, Allocate allocate);

// --- answering ----------------------------------------------------------------------------------------------
class ReleaseModel;  // a released cover with the answers of its synthetic distribution
// O(cells x axes) for thresholds, ranges, boxes and orthants (their cover is listed only when rendered), plus the
// cover's construction for the other classes. interrupted: polled by those long steps (Error(Cancelled)).
ReleaseModel *LoadReleaseModel(const CatalogLayout &layout, const double *synthetic, std::size_t cell_count,
                               std::int64_t private_rows, InterruptCheck interrupted = nullptr);
void FreeReleaseModel(ReleaseModel *model) noexcept;
std::size_t ModelCoverSize(const ReleaseModel *model);
std::size_t ModelCellCount(const ReleaseModel *model);
double ModelAnswer(const ReleaseModel *model, std::size_t cover_query);  // fraction of the private rows
double ModelCellWeight(const ReleaseModel *model, std::size_t cell);
std::int64_t ModelPrivateRows(const ReleaseModel *model);
// Readable text of a cover query / bounds of a cell (text and per-column JSON, "" for the outside cell's JSON);
// allocated with allocate.
char *ModelRenderQuery(const ReleaseModel *model, std::size_t cover_query, Allocate allocate);
void ModelDescribeCell(const ReleaseModel *model, std::size_t cell, char **bounds, char **json, Allocate allocate);

// A query is parsed once; the glue converts each literal for the column it is compared with, then projects.
struct ParsedQuery;
// Predicates releases take the text as is (no literals); every other class parses it.
ParsedQuery *ParseQueryForModel(const ReleaseModel *model, const char *query);
void FreeParsedQuery(ParsedQuery *query) noexcept;
std::size_t ParsedQueryLiteralCount(const ParsedQuery *query);
// The literal's text (valid while the query lives) and how the glue must read it: kind Numeric with type Number
// -> the core reads it (LiteralValue.number via ReadNumberLiteral); Numeric with a temporal type -> the type's
// input function, then the axis value; Categorical -> the canonical output text of the column's type
// (booleans "true"/"false"). column: the column it is compared with (valid while the model lives).
// known = false: the literal is compared with a column outside the class; the glue passes nothing for it and
// ModelProject reports the column (42703).
// casts: how many casts the literal carries ('v'::date, CAST('v' AS date), date 'v'): the glue applies them with
// PostgreSQL's own casts before reading the value for the column (ParsedQueryLiteralCast), and never asks
// ReadNumberLiteral for such a literal. position: the literal's byte offset in the query text, for errposition.
struct LiteralTarget {
	const char *text;
	AxisKind kind;
	ValueType type;
	const char *column;
	bool quoted;
	bool known;
	std::size_t casts;
	std::size_t position;
};
LiteralTarget ParsedQueryLiteral(const ReleaseModel *model, const ParsedQuery *query, std::size_t i);
double ReadNumberLiteral(const ParsedQuery *query, std::size_t i);
// Cast k (0 = innermost) of literal i: the type name as written (valid while the query lives), and its byte offset.
const char *ParsedQueryLiteralCast(const ParsedQuery *query, std::size_t i, std::size_t k, std::size_t *position);
// The interval query of a one-column release ("column >= lower AND column <= upper", a side left out when it has
// no bound, "TRUE" with neither), parsed once for the set-based answers (pap.answers_at, pap.answer_between):
// its numeric literals are the lower bound (when present), then the upper one, answered with ModelAnswerQuery as
// pap.answer answers the same text. Error(InvalidParameter) for a release whose class has more than one column.
ParsedQuery *ParseIntervalQueryForModel(const ReleaseModel *model, bool has_lower, bool has_upper);
// values[i] for literal i: numbers[i] for numeric targets, texts[i] for categorical ones (others ignored).
std::size_t ModelProject(const ReleaseModel *model, const ParsedQuery *query, const double *numbers,
                         const char *const *texts);
// The query's answer (fraction of the private rows), O(2^k) for k bounded axes, never a scan of the cover.
// refine = false: ModelAnswer(ModelProject(...)). refine = true, ordered classes (thresholds, ranges, boxes,
// orthants): a bin that a bound cuts through counts with the share of its public rows (the finest public
// marginal) on the query's side, independently per axis; a bin without public rows (above the highest cut) as
// the projection takes it. refine = true, marginals and stumps on a full grid: the sum of the query's own cells
// (docs/mechanisms.md §10, "Marginals and stumps on a full grid"). Other classes ignore refine. A query with IN
// lists is the sum of up to 2^20 conjunctions: interrupted is polled while they are summed (Error(Cancelled)).
double ModelAnswerQuery(const ReleaseModel *model, const ParsedQuery *query, const double *numbers,
                        const char *const *texts, bool refine, InterruptCheck interrupted = nullptr);
// The answer of a box of a boxes or orthants release given by its bounds rather than a text (pap.answer_box,
// docs/reference.md "Answers for boxes"): for every class column a (class order, columns of them), the
// condition "lower[a] <= column AND column <= upper[a]" (both inclusive, as BETWEEN and pap.answer_between), a
// side left open where has_lower[a] / has_upper[a] is false, no condition at all on a column with neither; the
// same answer as pap.answer for that text, without parsing. Values are axis values (numbers, or the temporal
// encoding of the column's type), NaN the highest value as in float8. Error(InvalidParameter) for a release of
// another class or columns other than the class's column count; Error(QueryOutsideClass) for a lower bound of
// an orthants release.
double ModelAnswerBox(const ReleaseModel *model, const double *lower, const bool *has_lower, const double *upper,
                      const bool *has_upper, std::size_t columns, bool refine, InterruptCheck interrupted = nullptr);
// Error(InvalidParameter) unless the release is of class boxes or orthants over exactly `columns` columns: the
// checks of ModelAnswerBox, made once before a caller converts the bounds for the columns' types.
void ModelRequireBox(const ReleaseModel *model, std::size_t columns);
// The class column of axis `axis` of a boxes or orthants release (valid while the model lives), and the number
// of them; Error(Internal) when out of range.
std::size_t ModelColumnCount(const ReleaseModel *model);
const char *ModelColumnName(const ReleaseModel *model, std::size_t axis);
// The q-quantile of the released distribution of a thresholds or ranges release's column, over its non-NULL
// rows: the smallest candidate value v with answer(column <= v) >= q * M, M the released weight of the cells
// whose value is not NULL (the outside cell of a public-support domain left out), answers as pap.answer
// computes them (refine alike). Candidates are the cut
// points, or with refine the finest public values. Free post-processing of the release (docs/mechanisms.md §6).
// has_value = false when the release puts no mass on non-NULL values. +Infinity when the quantile lies above the
// highest candidate (the release cannot place it there more precisely). Error(InvalidParameter) for q outside
// [0, 1] or NaN, or a release of another class. The value is an axis value (number, or the temporal encoding of
// the column's type, which the glue converts back).
double ModelQuantile(const ReleaseModel *model, double q, bool refine, bool *has_value,
                     InterruptCheck interrupted = nullptr);
// The value type of the release's axis `axis` (Error(Internal) when out of range).
ValueType ModelAxisValueType(const ReleaseModel *model, std::size_t axis);
// What the model holds in memory, in bytes, for the glue's cache bound: an estimate from its large arrays (texts
// and indexes left out), the deferred bytes below included. The glue measures the load where the allocator tells it.
std::size_t ModelMemoryBytes(const ReleaseModel *model);
// What the model may still build on a first use after its load, in bytes (estimated): an ordered class's cover,
// built only to render a cover query or to word an error, holds per-axis covers as large as the model's own.
std::size_t ModelDeferredBytes(const ReleaseModel *model);

// --- guard rails from the lower bounds (docs/mechanisms.md §15) -----------------------------------------------
// What a request needs by the lower bounds of the theory, against what it has: a warning per bound it misses,
// each with the numbers and the theorem in words. Public information only.
struct GuardRailRequest {
	const char *query_class;  // canonical class text
	int vc_dimension;
	std::int64_t public_rows;   // 0: no public table (a declared domain)
	std::int64_t private_rows;  // n; < 0 when unknown
	std::int64_t domain_size;   // declared domain: its points (the public histogram's weight); 0 otherwise
	double alpha, beta;
	double epsilon;  // 0 when unknown (at definition)
};
struct GuardRailWarning {
	char *message, *detail, *hint;  // allocated with allocate
};
constexpr std::size_t kMaxGuardRails = 3;
// Fills out[0..k) and returns k <= kMaxGuardRails.
std::size_t GuardRails(const GuardRailRequest &request, GuardRailWarning *out, Allocate allocate);

// --- a DP quantile over a declared domain, without a release (docs/mechanisms.md §16) --------------------------
// The candidates are the declared grid of one numeric column (DeclaredGrid: low, low + step, ..., up to high).
struct PrivateQuantileDomain {
	const char *column;  // for messages
	double low, high, step;
	std::uint64_t max_values;              // pap_release.max_cells
	InterruptCheck interrupted = nullptr;  // polled while the grid is built
};
// The most candidates a private quantile ranks, whatever max_values allows: with its K + 2 bins at most 2^18, the
// scan's pap.grid_counts keeps its counts in one dense array (2 MiB) whatever the rows, never a hash of the bins
// met whose memory would grow with how spread the private values are and could fail a charged run
// (docs/security.md, "What errors and messages may say").
constexpr std::size_t kMaxQuantileCandidates = (std::size_t(1) << 18) - 2;
// The candidates in increasing order (*count of them), allocated with allocate. Error(InvalidParameter) for a bound
// or step that is not finite, a step that is not positive or low > high, Error(LimitExceeded) beyond max_values or
// kMaxQuantileCandidates. Public: computed before any charge.
const double *PrivateQuantileCandidates(const PrivateQuantileDomain &domain, std::size_t *count, Allocate allocate);
// The private scan's SELECT list over column (the aggregate form of the release scans, pap.grid_counts over one
// axis of K + 2 bins), with the K candidates as its cut points $1: a row's bin is pap.cell_index's, the number of
// candidates below its value (K when above them all or NaN, K + 1 for NULL), so that a row is counted at the
// smallest candidate at or above it. Allocated.
char *PrivateQuantileScanSelectList(const char *column, std::size_t candidate_count, Allocate allocate);
struct PrivateQuantileRun {
	std::size_t candidate_count;  // K
	const std::int32_t *bins;     // the scan's bins (0..K + 1) and their row counts
	const std::int64_t *rows;
	std::size_t bin_count;
	double q, epsilon;
	std::int64_t seed;            // >= 0: pap_release.test_seed (not private); < 0: fill_secure
	FillSecureBytes fill_secure;  // the secure source when seed < 0
	InterruptCheck interrupted;
};
// The index of the released candidate: the exponential mechanism with the rank utility (SamplePrivateQuantile),
// the rows above the largest candidate and the NULLs ranked above every candidate. epsilon-DP under replace-one
// neighbours. Error(Cancelled) when interrupted, Error(Internal) for a bin out of range.
std::size_t RunPrivateQuantile(const PrivateQuantileRun &run);
// The interior-point guard rail: a warning (returns 1, out filled) when rows < (4 / epsilon) ln(domain_size / beta),
// below which the released value is not promised to lie between the private minimum and maximum; 0 otherwise.
std::size_t PrivateQuantileGuardRails(std::int64_t rows, std::size_t domain_size, double epsilon, double beta,
                                      GuardRailWarning *out, Allocate allocate);

// --- error bounds of answers (docs/mechanisms.md §18) -----------------------------------------------------------
// The answer facts: what answers read from the error model beside the plan's parts (ReleaseErrorFacts below): the
// projection part in projection mode, the bound on the private mass at grid points without a public row, each
// axis's cap on one value of its "other" bin, and the shares of each public value's first row that refined answers
// spread over the gap below it (docs/mechanisms.md §18, "Stored with the release"). The run computes them from public
// numbers only (the layout, the public rows, the private row count and beta) and stores them
// (pap.release_data.answer_facts and answer_gap_spreads), so that a later library, whose bounds may differ, does not
// change a released answer. The spreads are one per public value of the layout (the layout's public_values, axes
// concatenated; 0 on an axis no edge moves), or none where answers do not spread: a flat float8[] the loader uses in
// place, as large as the public values.
struct StoredAnswerFacts {
	double event_projection = 1.0, unseen_points_mass = 1.0;
	std::size_t other_bin_cap_count = 0;  // 0, or one per axis
	const double *other_bin_caps = nullptr;
	std::size_t gap_spread_count = 0;  // 0, or one per public value
	const double *gap_spreads = nullptr;
};
// The run's answer facts: the scalars and caps as a JSON object, {"event_projection": x, "unseen_points_mass": x,
// "other_bin_caps": [...]} (numbers in the shortest form that reads back as the same double), and the spreads;
// allocated with allocate. Without public or private rows, the facts of a model that has none.
struct RunAnswerFacts {
	char *json;
	std::size_t gap_spread_count;
	double *gap_spreads;
};
RunAnswerFacts ComputeAnswerFacts(const CatalogLayout &layout, std::int64_t public_rows, std::int64_t private_rows,
                                  double beta, Allocate allocate);

// The public facts of a run that an answer's bound reads: the release's beta and public rows, and the chosen
// mechanism's parts of its plan (pap.plan's projection_error, outside_mass_error, noise_error), which the run
// stores in its details. Set once after LoadReleaseModel; known = false for a release whose run stored none.
struct ReleaseErrorFacts {
	bool known = false;
	double beta = 0;
	std::int64_t public_rows = 0;
	double projection = 0, outside_mass = 0, noise = 0;  // fractions of n
	// The run's answer mode is "refine" (its details' answer_mode): on a release of marginals or stumps over a full
	// grid, its mechanism measured every cell and projection above is the part of answers from a query's own cells.
	bool refine_mode = false;
	// The answer facts the run stored; answers_stored = false for a release run by a library that stored none,
	// whose facts this library computes when it loads the release.
	bool answers_stored = false;
	StoredAnswerFacts answers;
};
// Sets the facts; with known and answers_stored, Error(Internal) when the stored answer facts do not fit the layout
// (caps not one per axis, spreads not one per public value, or a value that is not finite, negative, or above 1
// for a cap or a spread), leaving the model as it was. interrupted: polled while facts are computed for a release
// that stored none (Error(Cancelled)).
void ModelSetErrorFacts(ReleaseModel *model, const ReleaseErrorFacts &facts, InterruptCheck interrupted = nullptr);
// An answer with its (1 - beta) error bound, fractions of n: the true answer lies in [lower, upper] for every query
// of the class at once with probability at least 1 - beta (under the error model's assumption). error_bound is
// max(estimate - lower, upper - estimate); projection + outside_mass + noise is the half-width before [lower, upper]
// is clipped to [0, 1]. unseen_category: literal unseen_literal is a category the public table never showed, or one a
// folded release keeps in its "other" bin (lower is 0 then): by projection it is answered by the empty public
// labeling's cover query (folded: the bin's cover query where public rows hold it); read from its own cells, which
// are its "other" bin's, the estimate is half their weight and upper the whole weight plus the half-width (folded:
// both capped by what one value of the bin can hold).
struct AnswerBound {
	double estimate, lower, upper, error_bound;
	double projection, outside_mass, noise;
	bool unseen_category;
	std::size_t unseen_literal;
};
// Error(InvalidParameter) when the model's facts are not known (the hint says to run a new release), or for a query
// with IN lists (a sum of queries: the hint says to bound each).
AnswerBound ModelAnswerBound(const ReleaseModel *model, const ParsedQuery *query, const double *numbers,
                             const char *const *texts, bool refine, InterruptCheck interrupted = nullptr);
// Whether a categorical literal of the query names a category the public table never showed (the first such
// literal's index in *literal): it is answered from the "other" bin, with every other unseen category.
bool ModelUnseenCategory(const ReleaseModel *model, const ParsedQuery *query, const char *const *texts,
                         std::size_t *literal);
// Whether the column of that literal had its rare categories folded into its "other" bin to fit
// pap_release.max_cells (its "other" bin holds public rows): the category may be one the public table shows, rarely.
bool ModelFoldedCategory(const ReleaseModel *model, const ParsedQuery *query, std::size_t literal);

// Whether a marginals query projects onto a cover query no public row satisfies: the cover holds one query per
// public labeling, so every such query is answered by one and the same cover query (docs/reference.md, pap.answer).
// False for a query with IN lists.
bool ModelMarginalWithoutPublicRow(const ReleaseModel *model, const ParsedQuery *query, const double *numbers,
                                   const char *const *texts);
// Whether the query's answer in the given mode reads its own cells (marginals and stumps on a full grid, with refine;
// "col IS NULL" only where the run measured every cell): such an answer is an estimate of its own even where no
// public row has the query's values, and a value the public table never showed is answered with half its "other"
// bin's cells (docs/mechanisms.md §10, "The answer mode").
bool ModelAnswersFromOwnCells(const ReleaseModel *model, const ParsedQuery *query, bool refine);
// The public categories of a categorical column of the release (byte order), for the glue's check of equality
// under the column's own type and collation; 0 and nullptr for a column that is not a categorical axis.
std::size_t ModelColumnCategoryCount(const ReleaseModel *model, const char *column);
const char *ModelColumnCategory(const ReleaseModel *model, const char *column, std::size_t k);

// A float8 as PostgreSQL prints it, written to buf (at least 32 bytes); quoted for NaN and infinities.
void FormatFloat8Into(double value, char *buf, std::size_t size);

}  // namespace pap::core

#include "core/base/core_only.hpp"
