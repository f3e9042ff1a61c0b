#include "core/release_engine.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/engine_support.hpp"
#include "core/errors.hpp"
#include "core/interval_cover.hpp"  // NumericLiteralValue, FormatFloat8: no cover type is named here
#include "core/pmw_plan.hpp"
#include "core/product_workload.hpp"
#include "core/release_layout.hpp"

namespace pap::core {

MechanismChoice
ParseMechanism(const char *text)
{
	const std::string m(text);
	if (m == "pmw" || m == "auto")
		return MechanismChoice::Pmw;
	throw Error(ErrorKind::InvalidParameter, "unknown mechanism \"" + m + "\"", {},
	            "Mechanisms available: pmw, auto (auto chooses pmw).");
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

void
ValidatePrivacyParameters(double epsilon, double delta)
{
	if (!(std::isfinite(epsilon) && epsilon > 0.0))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be finite and positive, got " + FormatFloat8(epsilon));
	if (!(std::isfinite(delta) && delta >= 0.0 && delta < 1.0))
		throw Error(ErrorKind::InvalidParameter, "delta must be in [0, 1), got " + FormatFloat8(delta));
}

PlanSummary
MakePlan(const PlanRequest &r)
{
	ParseMechanism(r.mechanism);
	ValidatePrivacyParameters(r.epsilon, r.delta);
	PmwPlanInput in;
	in.private_rows = r.private_rows;
	in.public_rows = r.public_rows;
	in.cover_size = std::size_t(r.cover_size);
	in.cells = std::size_t(r.cell_count);
	in.vc_dimension = r.vc_dimension;
	in.epsilon = r.epsilon;
	in.delta = r.delta;
	in.alpha = r.alpha;
	in.beta = r.beta;
	in.uniform_prior = ParseUniformPrior(r.prior);
	const PmwPlan plan = PlanPmw(in);
	PlanSummary s{};
	s.predicted_error = plan.predicted_error;
	s.public_only_error = plan.public_only_error;
	s.converges = plan.converges;
	s.book_private_rows = plan.book_private_rows;
	s.book_public_rows = plan.book_public_rows;
	s.book_cutoff = plan.book_cutoff;
	s.cutoff = plan.parameters.cutoff;
	s.threshold = plan.parameters.threshold;
	s.approximate_accounting = plan.parameters.accounting == SparseVectorAccounting::Approximate;
	s.epsilon_split[0] = plan.epsilon_threshold;
	s.epsilon_split[1] = plan.epsilon_compare;
	s.noise_scales[0] = plan.parameters.threshold_noise.value();
	s.noise_scales[1] = plan.parameters.compare_noise.value();
	s.first_pass_factor = plan.parameters.first_pass_factor;
	s.max_passes = plan.parameters.max_passes;
	return s;
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
RunRelease(const RunRequest &r, Allocate allocate)
{
	const ReleaseLayout layout = LayoutFromCatalog(*r.layout);
	const CellDomain domain = layout.MakeDomain();
	// No limit here: the limit applied at definition; a stored size that disagrees is a damaged catalog.
	const std::unique_ptr<Cover> cover = layout.MakeReleaseCover(std::numeric_limits<std::size_t>::max());
	const std::size_t cells = domain.CellCount();
	if (std::int64_t(cells) != r.plan.cell_count || std::int64_t(cover->QueryCount()) != r.plan.cover_size)
		throw Error(ErrorKind::Internal, "stored release does not match its class");

	// The private rows enter only as the exact counts of the cover queries (and n), computed from their own grid
	// points by groups: on a public-support domain a row outside the support still counts in every true answer.
	const std::size_t d = layout.axes.size();
	const std::vector<std::int32_t> points(r.private_points, r.private_points + r.private_point_count * d);
	const CellDomain private_domain = CellDomain::Explicit(layout.Radices(), points);
	std::vector<std::int64_t> private_cells(private_domain.CellCount(), 0);
	std::int64_t n = 0;
	for (std::size_t i = 0; i < r.private_point_count; i++) {
		const std::int64_t rows = r.private_rows[i];
		if (rows < 0)
			throw Error(ErrorKind::Internal, "negative private row count");
		const std::size_t at = private_domain.CellOf(points.data() + i * d);  // Internal outside the axes
		if (at >= private_cells.size())
			throw Error(ErrorKind::Internal, "a private grid point has no cell");
		private_cells[at] += rows;
		n += rows;
	}
	std::vector<std::int64_t> truth;
	ProductWorkload(private_domain, cover->Queries()).EvaluateCounts(private_cells, truth);

	PlanRequest plan_request = r.plan;
	plan_request.private_rows = n;
	RunSummary out{};
	out.plan = MakePlan(plan_request);
	out.private_rows = n;

	// Rebuild the exact parameters the plan chose (MakePlan reports them as numbers; PlanPmw is deterministic).
	PmwPlanInput in;
	in.private_rows = n;
	in.public_rows = r.plan.public_rows;
	in.cover_size = cover->QueryCount();
	in.cells = cells;
	in.vc_dimension = r.plan.vc_dimension;
	in.epsilon = r.plan.epsilon;
	in.delta = r.plan.delta;
	in.alpha = r.plan.alpha;
	in.beta = r.plan.beta;
	in.uniform_prior = ParseUniformPrior(r.plan.prior);
	const PmwPlan plan = PlanPmw(in);

	const std::vector<double> prior = in.uniform_prior ? UniformPrior(cells) : PublicPrior(layout.PublicHistogram(domain));
	std::unique_ptr<RandomBitSource> rng;
	if (r.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(r.seed));
	else
		rng = std::make_unique<SecureRandomSource>(r.fill_secure, nullptr);
	const ProductWorkload workload(domain, cover->Queries());
	const PmwResult result = RunPmwOnCounts(workload, truth, n, prior, plan.parameters, *rng, r.interrupted);

	out.synthetic = AllocateArray<double>(allocate, cells);
	std::copy(result.synthetic.begin(), result.synthetic.end(), out.synthetic);
	out.updates = result.updates;
	out.comparisons = result.comparisons;
	out.passes = result.passes;
	out.cutoff_reached = result.cutoff_reached;
	return out;
}


void
FormatFloat8Into(double value, char *buf, std::size_t size)
{
	const std::string s = FormatFloat8(value);
	std::snprintf(buf, size, "%s", s.c_str());
}

}  // namespace pap::core
