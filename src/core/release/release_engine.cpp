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
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/value_format.hpp"
#include "core/mechanisms/hierarchical_mechanism.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/mechanisms/mwem.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/release/engine_support.hpp"
#include "core/release/release_layout.hpp"
#include "core/workloads/membership_workload.hpp"
#include "core/workloads/product_workload.hpp"
#include "core/workloads/reference_workload.hpp"

namespace pap::core {

const char *
MechanismName(MechanismChoice m)
{
	switch (m) {
	case MechanismChoice::Pmw: return "pmw";
	case MechanismChoice::Mwem: return "mwem";
	case MechanismChoice::Identity: return "identity";
	case MechanismChoice::Hierarchical: return "hierarchical";
	case MechanismChoice::Auto: return "auto";
	}
	throw Error(ErrorKind::Internal, "unknown mechanism");
}

MechanismChoice
ParseMechanism(const char *text)
{
	const std::string m(text);
	for (MechanismChoice c : {MechanismChoice::Pmw, MechanismChoice::Mwem, MechanismChoice::Identity,
	                          MechanismChoice::Hierarchical, MechanismChoice::Auto})
		if (m == MechanismName(c))
			return c;
	throw Error(ErrorKind::InvalidParameter, "unknown mechanism \"" + m + "\"", {},
	            "Mechanisms available: pmw, mwem, identity, hierarchical, auto (the smallest predicted error).");
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

	explicit OpenRelease(const CatalogLayout &catalog)
	    : layout(LayoutFromCatalog(catalog)), domain(layout.MakeDomain()),
	      // No limit here: the limit applied at definition; a stored size that disagrees is a damaged catalog.
	      cover(layout.MakeReleaseCover(std::numeric_limits<std::size_t>::max()))
	{
	}
};

// Everything the mechanisms' planners read, all public: sizes, privacy parameters, the prior's kind, and the
// release's shape (how many cells a cover query spans; the dense grid's radices when hierarchical applies).
struct PlanInputs {
	PmwPlanInput sizes;
	std::size_t max_query_cells = 0;
	bool hierarchical_applies = false;
	std::vector<std::int32_t> radices;
};

constexpr const char *kHierarchicalShape =
    "hierarchical needs a full grid of one or two ordered axes (numeric columns or halfspace directions)";

bool
HierarchicalApplies(const ReleaseLayout &layout)
{
	const auto &axes = layout.axes;
	return layout.domain_kind == DomainKind::Dense && !axes.empty() && axes.size() <= 2 &&
	       std::all_of(axes.begin(), axes.end(),
	                   [](const ReleaseAxis &a) { return a.kind == AxisKind::Numeric || a.kind == AxisKind::Linear; });
}

PlanInputs
PlanInputsFor(const PlanRequest &r, const OpenRelease &release)
{
	const std::size_t cells = release.domain.CellCount();
	if (std::int64_t(cells) != r.cell_count || std::int64_t(release.cover->QueryCount()) != r.cover_size)
		throw Error(ErrorKind::Internal, "stored release does not match its class");
	PlanInputs in;
	in.sizes.private_rows = r.private_rows;
	in.sizes.public_rows = r.public_rows;
	in.sizes.cover_size = std::size_t(r.cover_size);
	in.sizes.cells = cells;
	in.sizes.vc_dimension = r.vc_dimension;
	in.sizes.epsilon = r.epsilon;
	in.sizes.delta = r.delta;
	in.sizes.alpha = r.alpha;
	in.sizes.beta = r.beta;
	in.sizes.uniform_prior = ParseUniformPrior(r.prior);
	// Cells per cover query: the cover's counts on a histogram of ones (one grouped pass; public shape only).
	const ProductWorkload workload(release.domain, release.cover->Queries());
	std::vector<std::int64_t> sizes;
	workload.EvaluateCounts(std::vector<std::int64_t>(cells, 1), sizes);
	for (std::int64_t q : sizes)
		in.max_query_cells = std::max(in.max_query_cells, std::size_t(q));
	in.hierarchical_applies = HierarchicalApplies(release.layout);
	in.radices = release.layout.Radices();
	return in;
}

// The four plans; hierarchical only when it applies. PMW always plans within the validated ranges (its errors
// propagate); another mechanism whose noise cannot be sampled exactly at this epsilon does not apply.
struct MechanismPlans {
	PmwPlan pmw;
	std::optional<MwemPlan> mwem;
	std::optional<IdentityPlan> identity;
	std::optional<HierarchicalPlan> hierarchical;
};

constexpr const char *kNoiseTooLarge = "its noise at this epsilon is too large to sample exactly";

MechanismPlans
PlanAll(const PlanInputs &in, const OpenRelease &release)
{
	MechanismPlans plans;
	plans.pmw = PlanPmw(in.sizes);  // validates the sizes and parameters first
	plans.mwem = UnlessLimitExceeded([&] { return PlanMwem(in.sizes); });
	plans.identity = UnlessLimitExceeded([&] { return PlanIdentity(in.sizes, in.max_query_cells); });
	// Identity's non-negativity step is biased where most cells are (nearly) empty: its predicted error adds that
	// bias, computed on the public histogram (public information) standing in for the private one.
	if (plans.identity) {
		const ProductWorkload workload(release.domain, release.cover->Queries());
		plans.identity->predicted_error =
		    std::min(1.0, plans.identity->predicted_error +
		                      IdentityProjectionBias(PublicPrior(release.layout.PublicHistogram(release.domain)),
		                                             in.sizes.private_rows, plans.identity->noise, workload,
		                                             CurrentInterruptCheck()));
	}
	if (in.hierarchical_applies)
		plans.hierarchical = UnlessLimitExceeded([&] { return PlanHierarchical(in.sizes, in.radices); });
	return plans;
}

PlanSummary
Summarise(const PlanRequest &r, const MechanismPlans &plans, bool in_hierarchical_shape)
{
	const PmwPlan &plan = plans.pmw;
	PlanSummary s{};
	s.public_only_error = plan.public_only_error;
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
	s.planned_rows = r.private_rows;
	s.uniform_prior = ParseUniformPrior(r.prior);
	s.parameters.pmw = plan.parameters;
	s.predictions[std::size_t(MechanismChoice::Pmw)] = {true, plan.predicted_error, ""};
	if (plans.mwem) {
		s.mwem_rounds = plans.mwem->parameters.rounds;
		s.parameters.mwem = plans.mwem->parameters;
		s.predictions[std::size_t(MechanismChoice::Mwem)] = {true, plans.mwem->predicted_error, ""};
	} else {
		s.predictions[std::size_t(MechanismChoice::Mwem)] = {false, 0.0, kNoiseTooLarge};
	}
	if (plans.identity) {
		s.parameters.identity = plans.identity->noise;
		s.predictions[std::size_t(MechanismChoice::Identity)] = {true, plans.identity->predicted_error, ""};
	} else {
		s.predictions[std::size_t(MechanismChoice::Identity)] = {false, 0.0, kNoiseTooLarge};
	}
	if (plans.hierarchical) {
		s.predictions[std::size_t(MechanismChoice::Hierarchical)] = {true, plans.hierarchical->predicted_error, ""};
		s.hierarchical_branching = plans.hierarchical->branching;
		s.parameters.hierarchical = plans.hierarchical->noise;
		s.parameters.hierarchical_axes = plans.hierarchical->levels.size();
		for (std::size_t a = 0; a < plans.hierarchical->levels.size() && a < 2; a++)
			s.parameters.hierarchical_levels[a] = plans.hierarchical->levels[a];
	} else {
		s.predictions[std::size_t(MechanismChoice::Hierarchical)] = {
		    false, 0.0, in_hierarchical_shape ? kNoiseTooLarge : kHierarchicalShape};
	}

	const MechanismChoice requested = ParseMechanism(r.mechanism);
	if (requested == MechanismChoice::Auto) {
		// The smallest prediction; ties go to the earlier mechanism (pmw first: it carries the paper's guarantee).
		s.chosen = MechanismChoice::Pmw;
		for (std::size_t m = 0; m < kMechanismCount; m++)
			if (s.predictions[m].applies &&
			    s.predictions[m].predicted_error < s.predictions[std::size_t(s.chosen)].predicted_error)
				s.chosen = MechanismChoice(m);
	} else {
		const MechanismPrediction &p = s.predictions[std::size_t(requested)];
		if (!p.applies)
			throw Error(ErrorKind::InvalidParameter,
			            std::string("mechanism \"") + MechanismName(requested) + "\" does not apply to this release",
			            std::string(p.reason) + ".", "Use mechanism => 'auto', or another mechanism.");
		s.chosen = requested;
	}
	s.predicted_error = s.predictions[std::size_t(s.chosen)].predicted_error;
	PrivacyUsed used;
	switch (s.chosen) {
	case MechanismChoice::Pmw: used = plan.used; break;
	case MechanismChoice::Mwem: used = plans.mwem->used; break;  // chosen only when it applies
	case MechanismChoice::Identity: used = plans.identity->used; break;
	default: used = plans.hierarchical->used; break;  // chosen only when it applies
	}
	s.epsilon_used = used.epsilon;
	s.delta_used = used.delta;
	s.accounting = used.accounting;
	return s;
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
	const OpenRelease release(*r.layout);
	const PlanInputs inputs = PlanInputsFor(r, release);
	return Summarise(r, PlanAll(inputs, release), inputs.hierarchical_applies);
}

void
RequireMechanismApplies(const CatalogLayout &layout, const char *mechanism)
{
	if (ParseMechanism(mechanism) == MechanismChoice::Hierarchical && !HierarchicalApplies(LayoutFromCatalog(layout)))
		throw Error(ErrorKind::InvalidParameter, "mechanism \"hierarchical\" does not apply to this release",
		            std::string(kHierarchicalShape) + ".", "Use mechanism => 'auto', or another mechanism.");
}

char *
PlanPredictionsJson(const PlanSummary &plan, Allocate allocate)
{
	std::string json = "{";
	for (std::size_t m = 0; m < kMechanismCount; m++) {
		const MechanismPrediction &p = plan.predictions[m];
		json += std::string(m == 0 ? "" : ", ") + "\"" + MechanismName(MechanismChoice(m)) + "\": {";
		if (p.applies) {
			json += "\"predicted_error\": " + FormatFloat8(p.predicted_error);
			if (MechanismChoice(m) == MechanismChoice::Mwem)
				json += ", \"rounds\": " + std::to_string(plan.mwem_rounds);
			if (MechanismChoice(m) == MechanismChoice::Hierarchical)
				json += ", \"branching\": " + std::to_string(plan.hierarchical_branching);
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
	if (kind == AxisKind::Numeric || kind == AxisKind::Linear) {
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
	// The same deterministic construction from the public catalog that the plan made: it cannot fail now.
	const OpenRelease release(*r.layout);
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
	const CellDomain private_domain = CellDomain::Explicit(radices, points);
	std::vector<std::int64_t> private_cells(private_domain.CellCount(), 0);
	std::vector<std::int64_t> domain_histogram(cells, 0);
	std::int64_t n = 0;
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < r.private_point_count; i++) {
		PollInterrupt(steps);
		const std::int64_t rows = std::max<std::int64_t>(r.private_rows[i], 0);
		const std::size_t at = private_domain.CellOf(points.data() + i * d);
		const std::size_t cell = domain.CellOf(points.data() + i * d);
		if (at >= private_cells.size() || cell >= cells)
			throw Error(ErrorKind::Internal, "a private grid point has no cell");
		private_cells[at] += rows;
		domain_histogram[cell] += rows;
		n += rows;
	}

	RunSummary out{};
	out.plan = plan;
	out.private_rows = n;

	std::unique_ptr<RandomBitSource> rng;
	if (r.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(r.seed));
	else
		rng = std::make_unique<SecureRandomSource>(r.fill_secure, nullptr);

	const PlannedParameters &parameters = plan.parameters;
	std::vector<double> synthetic;
	const MechanismChoice chosen = plan.chosen;
	if (std::size_t(chosen) >= kMechanismCount || !plan.predictions[std::size_t(chosen)].applies)
		throw Error(ErrorKind::Internal, "the plan chose a mechanism that does not apply");
	std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
	auto start_clock = [&started] { started = std::chrono::steady_clock::now(); };
	auto prior = [&] { return plan.uniform_prior ? UniformPrior(cells) : PublicPrior(layout.PublicHistogram(domain)); };
	if (n == 0) {
		// No private row: the prior the MW mechanisms start from, a function of public data only.
		synthetic = prior();
	} else if (chosen == MechanismChoice::Pmw || chosen == MechanismChoice::Mwem) {
		std::vector<std::int64_t> truth;
		ProductWorkload(private_domain, cover.Queries()).EvaluateCounts(private_cells, truth);
		const std::vector<double> start = prior();
		// Timed from the workload's construction: a reference's own preparation (cell_lists probes every query)
		// counts against it, as the grouped workload's lazy cell maps count against it.
		start_clock();
		const ProductWorkload grouped(domain, cover.Queries());
		std::unique_ptr<Workload> reference;
		if (r.reference_workload == ReferenceKind::CellLists)
			reference = std::make_unique<ReferenceWorkload>(grouped);
		else if (r.reference_workload == ReferenceKind::Membership)
			reference = std::make_unique<MembershipWorkload>(domain, cover.Queries(), r.interrupted);
		const Workload &workload = reference ? static_cast<const Workload &>(*reference) : grouped;
		if (chosen == MechanismChoice::Pmw) {
			PmwResult result = RunPmwOnCounts(workload, truth, n, start, parameters.pmw, *rng, r.interrupted);
			synthetic = std::move(result.synthetic);
			out.updates = result.updates;
			out.comparisons = result.comparisons;
			out.passes = result.passes;
			out.cutoff_reached = result.cutoff_reached;
		} else {
			MwemResult result = RunMwemOnCounts(workload, truth, n, start, parameters.mwem, *rng, r.interrupted);
			synthetic = std::move(result.synthetic);
			out.updates = result.rounds;
		}
	} else if (chosen == MechanismChoice::Identity) {
		start_clock();
		synthetic = RunIdentity(domain_histogram, n, parameters.identity, *rng, r.interrupted);
	} else {
		HierarchicalPlan hierarchical;
		hierarchical.branching = plan.hierarchical_branching;
		hierarchical.levels.assign(parameters.hierarchical_levels,
		                           parameters.hierarchical_levels +
		                               std::min<std::size_t>(parameters.hierarchical_axes, 2));
		hierarchical.noise = parameters.hierarchical;
		hierarchical.predicted_error = plan.predictions[std::size_t(chosen)].predicted_error;
		start_clock();
		synthetic = RunHierarchical(domain_histogram, radices, n, hierarchical, *rng, r.interrupted);
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
