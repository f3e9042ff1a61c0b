#include "core/api/release_api.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/axes/gap_spread.hpp"  // AxisValueStep
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/base/progress_scope.hpp"
#include "core/language/value_format.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/mechanisms/prior_bootstrap.hpp"
#include "core/mechanisms/registry.hpp"
#include "core/noise/discrete_gaussian.hpp"  // LargestZcdpRho
#include "core/noise/zcdp_conversion.hpp"
#include "core/release/answer_mode.hpp"
#include "core/release/engine_support.hpp"
#include "core/release/release_layout.hpp"
#include "core/workloads/membership_workload.hpp"
#include "core/workloads/product_workload.hpp"
#include "core/workloads/reference_workload.hpp"

namespace pap::core {

const char *
MechanismName(MechanismChoice m)
{
	if (m == MechanismChoice::Auto)
		return "auto";
	const std::vector<const Mechanism *> &mechanisms = Mechanisms();
	if (std::size_t(m) >= mechanisms.size())
		throw Error(ErrorKind::Internal, "unknown mechanism");
	return mechanisms[std::size_t(m)]->Name();
}

MechanismChoice
ParseMechanism(const char *text)
{
	const std::string m(text);
	if (const std::optional<std::size_t> index = MechanismIndex(m))
		return MechanismChoice(*index);
	if (m == "auto")
		return MechanismChoice::Auto;
	std::string available;
	for (const Mechanism *mechanism : Mechanisms())
		available += std::string(mechanism->Name()) + ", ";
	throw Error(ErrorKind::InvalidParameter, "unknown mechanism \"" + m + "\"", {},
	            "Mechanisms available: " + available + "auto (the smallest predicted error).");
}

bool
ParseUniformPrior(const char *text)
{
	const std::string p(text);
	if (p == "public")
		return false;
	if (p == "uniform")
		return true;
	throw Error(ErrorKind::InvalidParameter, "unknown prior \"" + p + "\"", {},
	            "Priors available: public (the public histogram over the cells), uniform.");
}

namespace {

// A stored release opened for planning or running: its layout, domain and cover, built once.
struct OpenRelease {
	ReleaseLayout layout;
	CellDomain domain;
	std::unique_ptr<Cover> cover;

	// A stored release's cover is built whole: its size was checked at definition (a stored size that disagrees is a
	// damaged catalog); a layout granularity auto plans is built under the definition's limit (LimitExceeded).
	explicit OpenRelease(ReleaseLayout opened, std::size_t max_queries = std::numeric_limits<std::size_t>::max())
	    : layout(std::move(opened)), domain(layout.MakeDomain()), cover(layout.MakeReleaseCover(max_queries))
	{
	}
};

// The release's public shape, from its layout alone.
ReleaseShape
ShapeOf(const ReleaseLayout &layout)
{
	ReleaseShape shape;
	shape.full_grid = layout.domain_kind == DomainKind::Dense;
	shape.radices = layout.Radices();
	for (const ReleaseAxis &axis : layout.axes)
		shape.ordered.push_back(axis.Ordered());
	const ClassKind kind = layout.spec.kind;
	shape.marginal_order = kind == ClassKind::Marginals                                 ? layout.spec.k
	                       : kind == ClassKind::Stumps || kind == ClassKind::Predicates ? 1
	                                                                                    : 0;
	return shape;
}

// The error model's data parts that depend on the release alone (mechanisms/error_model.hpp), from the public
// table's marginals and grid points: part (a) at its median (PlanProjectionEventBeta), part (b) at a sixth of the
// request's beta. The projection part is the answer mode's that answers use by default (answer_mode.hpp).
void
SetDataParts(const PlanRequest &r, const ReleaseLayout &layout, PlanContext &context, AnswerModeErrors &modes)
{
	// A declared domain's cuts are its declared values: a query at the declared resolution is its own cover query,
	// answered by projection.
	modes = r.declared_domain
	            ? AnswerModeErrors{}
	            : AnswerModeErrorsOf(layout, r.public_rows, r.private_rows, PlanProjectionEventBeta(), true);
	context.projection_error = modes.Chosen();
	context.cells_answerable = !r.declared_domain && CellsAnswerable(layout);
	context.own_cells_error = modes.own_cells;
	context.outside_mass_error = OutsideMassError(layout.public_point_counts, layout.domain_kind == DomainKind::Dense,
	                                              r.public_rows, r.private_rows, DataPartBeta(r.beta));
}

// The rho a run on a zCDP budget may spend: epsilon^2 / 2, the cost of a pure plan at epsilon, rounded down (one
// step below the rounded product is below the exact one), so that no plan spends more than the ledger charges.
double
ZcdpRequestRho(double epsilon, double delta)
{
	if (!(delta > 0 && delta < 1))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1) on a zCDP budget");
	const double rho = std::nextafter(epsilon * epsilon / 2, 0.0);
	if (!std::isfinite(rho) || !(rho > 0))
		throw Error(ErrorKind::InvalidParameter, "epsilon is out of range for a zCDP budget",
		            "Its rho, epsilon^2 / 2, must be a positive finite double.");
	return rho;
}

// Everything the mechanisms' planners read, all public: sizes, privacy parameters, the prior's kind, and the
// release's shape, cells and cover (how many cells a cover query spans; the public histogram on demand).
PlanContext
ContextFor(const PlanRequest &r, const OpenRelease &release, AnswerModeErrors &modes)
{
	const std::size_t cells = release.domain.CellCount();
	if (std::int64_t(cells) != r.cell_count || std::int64_t(release.cover->QueryCount()) != r.cover_size)
		throw Error(ErrorKind::Internal, "stored release does not match its class");
	PlanContext context;
	PlanInput &in = context.input;
	in.private_rows = r.private_rows;
	in.public_rows = r.public_rows;
	in.cover_size = std::size_t(r.cover_size);
	in.cells = cells;
	in.vc_dimension = r.vc_dimension;
	in.epsilon = r.epsilon;
	in.delta = r.delta;
	if (r.zcdp_budget)
		in.rho = ZcdpRequestRho(r.epsilon, r.delta);
	in.alpha = r.alpha;
	in.beta = r.beta;
	// A declared domain has no public sample: its "public" histogram is the uniform one over the declared points.
	in.uniform_prior = ParseUniformPrior(r.prior) || r.declared_domain;
	ValidatePlanInput(in);  // the request's numbers, before anything is derived from them
	// Half of beta for the mechanisms' noise, half for the error model's data parts (error_model.hpp); at beta's
	// smallest the noise keeps the smallest the planners take.
	in.request_beta = r.beta;
	in.beta = std::max(r.beta / 2.0, kMinBeta);
	in.cdf_count = release.layout.spec.kind == ClassKind::Thresholds ? 1
	               : release.layout.spec.kind == ClassKind::Ranges   ? 2
	                                                                 : 0;
	// A cover over the limit is never listed (docs/query-classes.md, "Covers too large to list"): the mechanisms
	// that read every cover query do not apply, and the widest cover queries stand for all of them.
	const bool listed = in.cover_size <= r.max_cover_queries;
	if (listed)
		context.cover = &release.cover->Queries();
	// Cells per cover query: the counts on a histogram of ones (one grouped pass; public shape only), on the cells a
	// row can hold when the cover is listed. The widest queries of a cover too large to list stand for the others
	// by their size in all cells, which bounds every query's open cells.
	context.closed_cells = release.layout.ClosedCells(release.domain);
	std::vector<std::int64_t> ones(cells, 1);
	for (std::size_t i = 0; listed && i < context.closed_cells.size(); i++)
		if (context.closed_cells[i])
			ones[i] = 0;
	const ProductQueryList widest = listed ? ProductQueryList() : release.cover->Widest();
	const ProductWorkload workload(release.domain, listed ? *context.cover : widest);
	std::vector<std::int64_t> sizes;
	workload.EvaluateCounts(ones, sizes);
	for (std::int64_t q : sizes)
		context.max_query_cells = std::max(context.max_query_cells, std::size_t(q));
	if (listed)
		context.cover_query_cells = sizes;
	context.shape = ShapeOf(release.layout);
	context.domain = &release.domain;
	context.public_histogram = [&release] { return release.layout.PublicHistogram(release.domain); };
	// The public prior stands on the public rows in the open cells (a public row in a closed cell is no private row's,
	// and the prior is conditioned away from it): their count, and their sampling error, once for every planner that
	// starts from it.
	const bool closed_any =
	    std::find(context.closed_cells.begin(), context.closed_cells.end(), true) != context.closed_cells.end();
	if (!in.uniform_prior && (listed || closed_any)) {
		std::vector<std::int64_t> open_rows = context.public_histogram();
		std::int64_t kept = 0;
		for (std::size_t i = 0; i < open_rows.size(); i++) {
			if (closed_any && context.closed_cells[i])
				open_rows[i] = 0;
			kept += open_rows[i];
		}
		if (closed_any)
			in.prior_public_rows = kept;
		if (listed && kept > 0)
			in.prior_sampling_estimate =
			    BootstrapPriorSamplingError(open_rows, workload, r.private_rows, DataPartBeta(r.beta));
	}
	SetDataParts(r, release.layout, context, modes);
	return context;
}

// The refusal of a requested mechanism that cannot run on the release (reason: a sentence without its period).
Error
DoesNotApply(MechanismChoice requested, const char *reason)
{
	return Error(ErrorKind::InvalidParameter,
	             std::string("mechanism \"") + MechanismName(requested) + "\" does not apply to this release",
	             std::string(reason != nullptr ? reason : "It was not planned") + ".",
	             "Use mechanism => 'auto', or another mechanism.");
}

// The position of a mechanism the summary names (pap.plan's columns and the run's details are PMW's and MWEM's).
std::size_t
RegisteredIndex(const char *name)
{
	if (const std::optional<std::size_t> index = MechanismIndex(name))
		return *index;
	throw Error(ErrorKind::Internal, std::string("mechanism \"") + name + "\" is not registered");
}

// The chosen plan's zCDP cost (docs/mechanisms.md, "zCDP budgets"). A zCDP plan's noise is calibrated to at most
// the request's rho, rounded up, so its exact rho is within the request, and the reported value (rounded up by
// its margins) is capped there as ReportedZcdpDelta caps delta. On a zCDP budget, a zCDP plan is reported as the
// tight conversion of that rho at the budget's delta.
// The caps would hide a plan above its request: RequireSpendWithinRequest refuses one first.
void
SetZcdpCost(const PlanRequest &r, const PrivacyUsed &used, PlanSummary &s)
{
	RequireSpendWithinRequest(used, r.epsilon,
	                          used.rho == 0   ? 0.0
	                          : r.zcdp_budget ? ZcdpRequestRho(r.epsilon, r.delta)
	                                          : LargestZcdpRho(r.epsilon, r.delta));
	if (used.rho == 0) {  // pure: epsilon-DP implies epsilon^2 / 2-zCDP (Bun & Steinke 2016, Proposition 1.4)
		s.rho_used = used.epsilon * used.epsilon / 2 * (1 + 1e-15);
		if (r.zcdp_budget)
			s.rho_used = std::min(s.rho_used, ZcdpRequestRho(r.epsilon, r.delta));
		return;
	}
	s.rho_used = r.zcdp_budget ? std::min(used.rho, ZcdpRequestRho(r.epsilon, r.delta)) : used.rho;
	if (r.zcdp_budget) {
		s.epsilon_used = ZcdpEpsilon(s.rho_used, r.delta);
		s.delta_used = r.delta;
	}
}

// PMW's part of the summary: pap.plan's columns describe PMW's plan (the paper's mechanism, with the book's
// guarantee beside it) whatever is chosen. PMW's plan is always there, also when a cover too large to list keeps
// it from applying.
void
DescribePmw(const std::vector<MechanismPlan> &plans, PlanSummary &s)
{
	const MechanismPlan &pmw = plans.at(RegisteredIndex("pmw"));
	const PmwPlan plan = pmw.parameters.As<PmwPlan>();
	// The public table alone answers a query of the class by its cover query too: the same projection part, plus
	// its own sampling error on the cover.
	s.public_only_error = std::min(1.0, pmw.parts.projection + plan.public_only_error);
	s.converges = plan.converges;
	s.book_private_rows = plan.book_private_rows;
	s.book_public_rows = plan.book_public_rows;
	s.book_cutoff = plan.book_cutoff;
	s.cutoff = plan.parameters.cutoff;
	s.threshold = plan.parameters.threshold;
	s.approximate_accounting = plan.parameters.accounting != SparseVectorAccounting::Pure;
	s.pmw_accounting = plan.used.accounting;
	s.epsilon_split[0] = plan.epsilon_threshold;
	s.epsilon_split[1] = plan.epsilon_compare;
	s.noise_scales[0] = plan.parameters.threshold_noise.value();
	s.noise_scales[1] = plan.parameters.compare_noise.value();
	s.first_pass_factor = plan.parameters.first_pass_factor;
	s.max_passes = plan.parameters.max_passes;
	s.pmw_guards_prior = plan.guards_prior;
}

// What the same request would predict without the public table (docs/mechanisms.md §14): the mechanisms that start
// from nothing, over the release's cells taken as a declared domain. Such a release answers a query of the class at
// the declared values, by projection (no public marginal to refine with), so it pays the same grid's projection
// part (grid_projection, estimated on the public table; 0 for a release over a declared domain) beside its noise.
double
PrivateOnlyError(const std::vector<MechanismPlan> &plans, double grid_projection)
{
	double best = std::numeric_limits<double>::quiet_NaN();
	for (const char *name : {"identity", "hierarchical"}) {
		const MechanismPlan &p = plans.at(RegisteredIndex(name));
		if (p.applies && !(p.parts.noise >= best))
			best = std::min(1.0, p.parts.noise);
	}
	return std::isnan(best) ? best : std::min(1.0, best + grid_projection);
}

PlanSummary
Summarise(const PlanRequest &r, const std::vector<MechanismPlan> &plans, const AnswerModeErrors &modes)
{
	PlanSummary s{};
	DescribePmw(plans, s);
	s.planned_rows = r.private_rows;
	s.uniform_prior = ParseUniformPrior(r.prior) || r.declared_domain;
	s.private_only_error = PrivateOnlyError(plans, modes.projection);
	for (std::size_t m = 0; m < plans.size(); m++) {
		const MechanismPlan &p = plans[m];
		s.predictions[m] = p.applies
		                       ? MechanismPrediction{true,    p.predicted_error,       "", p.detail, p.detail_value,
		                                             p.parts, p.rests_on_public_sample}
		                       : MechanismPrediction{false, 0.0, p.reason, nullptr, 0, ErrorParts{}, false};
	}
	// The run's details show MWEM's rounds (src/pg).
	const std::size_t mwem = RegisteredIndex("mwem");
	if (plans.at(mwem).applies)
		s.mwem_rounds = int(plans[mwem].detail_value);

	const MechanismChoice requested = ParseMechanism(r.mechanism);
	if (requested == MechanismChoice::Auto) {
		s.chosen = MechanismChoice(AutoChoice(Mechanisms(), plans));
	} else {
		const MechanismPrediction &p = s.predictions[std::size_t(requested)];
		if (!p.applies)
			throw DoesNotApply(requested, p.reason);
		s.chosen = requested;
	}
	const MechanismPlan &chosen = plans[std::size_t(s.chosen)];
	s.predicted_error = chosen.predicted_error;
	s.parts = chosen.parts;
	s.epsilon_used = chosen.used.epsilon;
	s.delta_used = chosen.used.delta;
	s.accounting = chosen.used.accounting;
	SetZcdpCost(r, chosen.used, s);
	s.parameters = chosen.parameters;
	return s;
}

// The plan of an opened release (MakePlan's, also for a layout not yet stored).
PlanSummary
PlanOpened(const PlanRequest &r, const OpenRelease &release)
{  // Every registered mechanism, planned in the registry's order (pmw first: its validation of the inputs comes
	// before any other planner's).
	AnswerModeErrors modes;
	const PlanContext context = ContextFor(r, release, modes);
	const std::vector<MechanismPlan> plans = PlanEvery(Mechanisms(), context);
	PlanSummary summary = Summarise(r, plans, modes);
	// The chosen mechanism's mode: reading the query's own cells when it measures every cell of a cells-answerable
	// release (its data part 0, never above the projection's), else the release's (answer_mode.hpp).
	summary.answer_mode = plans[std::size_t(summary.chosen)].answers_from_cells ? "refine" : modes.Name();
	return summary;
}

}  // namespace

PlanSummary
MakePlan(const PlanRequest &r)
{
	ParseMechanism(r.mechanism);
	ValidatePrivacyParameters(r.epsilon, r.delta);
	if (r.layout == nullptr)
		throw Error(ErrorKind::Internal, "a plan needs the release's layout");
	const InterruptScope scope(r.interrupted);
	const OpenRelease release(LayoutFromCatalog(*r.layout));
	return PlanOpened(r, release);
}

PlanSummary
PlanLayout(PlanRequest r, ReleaseLayout layout)
{
	std::optional<OpenRelease> opened;
	try {
		opened.emplace(std::move(layout), r.max_cover_queries);
	} catch (const Error &e) {
		if (e.kind() == ErrorKind::LimitExceeded)
			throw CoverLimitExceeded(e);
		throw;
	}
	const OpenRelease &release = *opened;
	r.vc_dimension = release.cover->VcDimension();
	r.cover_size = std::int64_t(release.cover->QueryCount());
	r.cell_count = std::int64_t(release.domain.CellCount());
	return PlanOpened(r, release);
}

void
RequireMechanismApplies(const CatalogLayout &layout, const char *mechanism)
{
	const MechanismChoice requested = ParseMechanism(mechanism);
	if (requested == MechanismChoice::Auto)
		return;
	if (const char *refusal = Mechanisms()[std::size_t(requested)]->ShapeRefusal(ShapeOf(LayoutFromCatalog(layout))))
		throw DoesNotApply(requested, refusal);
}

char *
PlanPredictionsJson(const PlanSummary &plan, Allocate allocate)
{
	std::string json = "{";
	for (std::size_t m = 0; m < Mechanisms().size(); m++) {
		const MechanismPrediction &p = plan.predictions[m];
		json += std::string(m == 0 ? "" : ", ") + "\"" + MechanismName(MechanismChoice(m)) + "\": {";
		if (p.applies) {
			json += "\"predicted_error\": " + FormatFloat8(p.predicted_error);
			json += ", \"projection_error\": " + FormatFloat8(p.parts.projection);
			json += ", \"outside_mass_error\": " + FormatFloat8(p.parts.outside_mass);
			json += ", \"noise_error\": " + FormatFloat8(p.parts.noise);
			json += ", \"prior_error\": " + FormatFloat8(p.parts.prior);
			json += std::string(", \"rests_on_public_sample\": ") + (p.rests_on_public_sample ? "true" : "false");
			if (p.detail != nullptr)
				json += ", \"" + std::string(p.detail) + "\": " + std::to_string(p.detail_value);
		} else {
			json += "\"applies\": false, \"reason\": \"" + std::string(p.reason) + "\"";
		}
		json += "}";
	}
	json += "}";
	return CopyString(allocate, json);
}

ReleaseLayout
LayoutFromCatalog(const CatalogLayout &c)
{
	ReleaseLayout layout;
	layout.spec = ParseClassSpec(c.query_class);
	std::size_t cut = 0, category = 0, value = 0;
	for (std::size_t a = 0; a < c.axis_count; a++) {
		ReleaseAxis axis;
		axis.kind = AxisKindFromName(c.axis_kinds[a]);
		axis.value_type = ValueTypeFromName(c.axis_value_types[a]);
		// A release stored without steps keeps how it answered: its value type's (a date's day, an integer's 0).
		axis.value_step = c.axis_value_steps != nullptr ? c.axis_value_steps[a] : AxisValueStep(axis.value_type);
		if (!(axis.value_step >= 0.0) || !std::isfinite(axis.value_step))
			throw Error(ErrorKind::Internal, "a value step in the release catalog is negative or not finite");
		if (axis.value_type == ValueType::Enum && axis.kind != AxisKind::Categorical)
			throw Error(ErrorKind::Internal, "an enum value type on an axis that is not categorical");
		axis.check_list = c.axis_check_lists != nullptr && c.axis_check_lists[a];
		axis.not_null = c.axis_not_null != nullptr && c.axis_not_null[a] &&
		                (axis.kind == AxisKind::Numeric || axis.kind == AxisKind::Categorical);
		if (axis.check_list && (axis.kind != AxisKind::Categorical ||
		                        (axis.value_type != ValueType::Number && axis.value_type != ValueType::Text)))
			throw Error(ErrorKind::Internal, "a CHECK list on an axis that is not a categorical number or text one");
		axis.label = c.axis_labels[a];
		axis.cuts.assign(c.cuts + cut, c.cuts + cut + c.cut_counts[a]);
		cut += std::size_t(c.cut_counts[a]);
		for (std::int32_t i = 0; i < c.category_counts[a]; i++)
			axis.categories.emplace_back(c.categories[category++]);
		axis.public_values.assign(c.public_values + value, c.public_values + value + c.public_value_counts[a]);
		axis.public_counts.assign(c.public_value_rows + value, c.public_value_rows + value + c.public_value_counts[a]);
		value += std::size_t(c.public_value_counts[a]);
		layout.axes.push_back(std::move(axis));
	}
	layout.predicate_axis.assign(c.predicate_axis, c.predicate_axis + c.predicate_count);
	layout.public_points.assign(c.public_points, c.public_points + c.public_point_count * c.axis_count);
	layout.public_point_counts.assign(c.public_point_rows, c.public_point_rows + c.public_point_count);
	const std::string domain(c.domain);
	if (domain == "full grid")
		layout.domain_kind = DomainKind::Dense;
	else if (domain == "public support")
		layout.domain_kind = DomainKind::Support;
	else
		throw Error(ErrorKind::Internal, "unknown domain \"" + domain + "\" in the release catalog");
	return layout;
}

char *
LayoutScanSelectList(const CatalogLayout &layout, Allocate allocate)
{
	return CopyString(allocate, LayoutFromCatalog(layout).ScanSelectList());
}

ScanParameterKind
LayoutScanParameter(const CatalogLayout &c, std::size_t axis, const double **cuts, const char *const **categories,
                    std::size_t *count)
{
	if (axis >= c.axis_count)
		throw Error(ErrorKind::Internal, "scan parameter of an axis out of range");
	const AxisKind kind = AxisKindFromName(c.axis_kinds[axis]);
	std::size_t cut = 0, category = 0;
	for (std::size_t a = 0; a < axis; a++) {
		cut += std::size_t(c.cut_counts[a]);
		category += std::size_t(c.category_counts[a]);
	}
	*count = 0;
	if (OrderedKind(kind)) {
		*cuts = c.cuts + cut;
		*count = std::size_t(c.cut_counts[axis]);
		return ScanParameterKind::Cuts;
	}
	if (kind == AxisKind::Categorical) {
		*categories = c.categories + category;
		*count = std::size_t(c.category_counts[axis]);
		return ScanParameterKind::Categories;
	}
	return ScanParameterKind::None;
}

RunSummary
RunRelease(const RunRequest &r, const PlanSummary &plan, Allocate allocate)
{
	const InterruptScope scope(r.interrupted);
	const ProgressScope progress(r.progress, r.progress_context);
	PollInterruptNow();  // a cancel sent while the rows were read stops the run before any of its work
	// The same deterministic construction from the public catalog that the plan made: it cannot fail now.
	const OpenRelease release(LayoutFromCatalog(*r.layout));
	const ReleaseLayout &layout = release.layout;
	const CellDomain &domain = release.domain;
	const Cover &cover = *release.cover;
	const std::size_t cells = domain.CellCount();
	const std::vector<std::int32_t> radices = layout.Radices();

	// The private rows enter only as their grid points' counts. The MW mechanisms read the exact counts of the
	// cover queries, computed from the points by groups (on a public-support domain a row outside the support
	// still counts in every true answer); identity and hierarchical read the domain histogram (a row outside the
	// support lands in the outside cell). Nothing here may fail on a row: a coordinate outside its axis (the scan
	// never makes one) is clamped onto it and a negative count (neither) counts as none, maps of one row each.
	const std::size_t d = layout.axes.size();
	std::vector<std::int32_t> points(r.private_points, r.private_points + r.private_point_count * d);
	for (std::size_t i = 0; i < points.size(); i++)
		points[i] = std::clamp(points[i], std::int32_t(0), std::max(radices[i % d], std::int32_t(1)) - 1);
	std::vector<std::int64_t> domain_histogram(cells, 0);
	std::int64_t n = 0;
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < r.private_point_count; i++) {
		PollInterrupt(steps);
		const std::int64_t rows = std::max<std::int64_t>(r.private_rows[i], 0);
		const std::size_t cell = domain.CellOf(points.data() + i * d);
		if (cell >= cells)
			throw Error(ErrorKind::Internal, "a private grid point has no cell");
		domain_histogram[cell] += rows;
		n += rows;
	}
	// The cover queries' exact counts, over the private points' own domain (sorted, so that the grouped workload
	// finds each point's queries): built only for the mechanisms that read them, so that the others do no work
	// whose length follows how many distinct points the private rows hold.
	auto cover_counts = [&] {
		const CellDomain private_domain = CellDomain::Explicit(radices, points);
		std::vector<std::int64_t> private_cells(private_domain.CellCount(), 0);
		for (std::size_t i = 0; i < r.private_point_count; i++) {
			PollInterrupt(steps);
			const std::size_t at = private_domain.CellOf(points.data() + i * d);
			if (at >= private_cells.size())
				throw Error(ErrorKind::Internal, "a private grid point has no cell");
			private_cells[at] += std::max<std::int64_t>(r.private_rows[i], 0);
		}
		std::vector<std::int64_t> truth;
		ProductWorkload(private_domain, cover.Queries()).EvaluateCounts(private_cells, truth);
		return truth;
	};

	RunSummary out{};
	out.plan = plan;
	out.private_rows = n;
	out.bound_noise = std::numeric_limits<double>::quiet_NaN();

	std::unique_ptr<RandomBitSource> rng;
	if (r.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(r.seed));
	else
		rng = std::make_unique<SecureRandomSource>(r.fill_secure, nullptr);

	std::vector<double> synthetic;
	const std::vector<const Mechanism *> &mechanisms = Mechanisms();
	const MechanismChoice chosen = plan.chosen;
	if (std::size_t(chosen) >= mechanisms.size() || !plan.predictions[std::size_t(chosen)].applies)
		throw Error(ErrorKind::Internal, "the plan chose a mechanism that does not apply");
	std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
	auto start_clock = [&started] { started = std::chrono::steady_clock::now(); };
	// The prior on the cells a row can hold (docs/mechanisms.md §9, "Cells no row can hold"): the MW mechanisms start
	// from it, marginal tables condition it again on their subgrid (the same weights), and a run without private rows
	// releases it.
	const std::vector<bool> closed_cells = layout.ClosedCells(domain);
	auto prior = [&] {
		return ConditionedOnOpenCells(
		    plan.uniform_prior ? UniformPrior(cells) : PublicPrior(layout.PublicHistogram(domain)), closed_cells);
	};
	if (n == 0) {
		// No private row: the prior the MW mechanisms start from, a function of public data only.
		synthetic = prior();
	} else {
		RunInput in;
		in.rows = n;
		in.cell_histogram = &domain_histogram;
		in.radices = &radices;
		if (!closed_cells.empty())
			in.closed_cells = &closed_cells;
		in.cover_counts = cover_counts;
		in.prior = prior;
		// Timed from the workload's construction: a reference's own preparation (cell_lists probes every query)
		// counts against it, as the grouped workload's lazy cell maps count against it.
		std::unique_ptr<ProductWorkload> grouped;
		std::unique_ptr<Workload> reference;
		in.workload = [&]() -> const Workload & {
			start_clock();
			grouped = std::make_unique<ProductWorkload>(domain, cover.Queries());
			if (r.reference_workload == ReferenceKind::CellLists)
				reference = std::make_unique<ReferenceWorkload>(*grouped);
			else if (r.reference_workload == ReferenceKind::Membership)
				reference = std::make_unique<MembershipWorkload>(domain, cover.Queries(), r.interrupted);
			return reference ? static_cast<const Workload &>(*reference) : *grouped;
		};
		in.rng = rng.get();
		in.interrupted = r.interrupted;
		start_clock();
		MechanismRun run = mechanisms[std::size_t(chosen)]->Run(plan.parameters, in);
		synthetic = std::move(run.synthetic);
		out.updates = run.statistics.updates;
		out.comparisons = run.statistics.comparisons;
		out.passes = run.statistics.passes;
		out.cutoff_reached = run.statistics.cutoff_reached;
		out.bound_noise = run.statistics.bound_noise;
	}
	out.mechanism_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
	if (synthetic.size() != cells)
		throw Error(ErrorKind::Internal, "a mechanism returned the wrong number of cells");

	out.synthetic = AllocateArray<double>(allocate, cells);
	std::copy(synthetic.begin(), synthetic.end(), out.synthetic);
	return out;
}

void
FormatFloat8Into(double value, char *buf, std::size_t size)
{
	const std::string s = FormatFloat8(value);
	std::snprintf(buf, size, "%s", s.c_str());
}

}  // namespace pap::core
