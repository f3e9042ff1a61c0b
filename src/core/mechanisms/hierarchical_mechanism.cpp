#include "core/mechanisms/hierarchical_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/cells/open_subgrid.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/mechanisms/isotonic_cdf.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/workloads/product_workload.hpp"

namespace pap::core {

namespace {

// The second axis of a one-axis grid: a single bin, whose tree is its root alone.
std::int32_t
SecondRadix(const std::vector<std::int32_t> &radices)
{
	return radices.size() == 2 ? radices[1] : 1;
}

// Hay et al. 2010 (Theorem 3 and its two passes) on one complete tree whose nodes all carry noise of the same
// variance, the root included: y holds one value per node (level order), leaves receives the least-squares
// estimate of every leaf. Bottom-up, z_v = ((b^i - b^{i-1}) y_v + (b^{i-1} - 1) sum_children z) / (b^i - 1) at
// height i (leaves: i = 1, z = y); top-down, x_root = z_root and x_v = z_v + (x_parent - sum_siblings z) / b.
// z and x are scratch of tree.nodes entries.
void
TreeLeastSquares(const AxisTree &tree, const double *y, double *leaves, std::vector<double> &z, std::vector<double> &x)
{
	const int h = tree.levels;
	const std::int64_t b = tree.branching;
	const std::int64_t leaf_offset = tree.LevelOffset(h);
	for (std::int64_t v = leaf_offset; v < tree.nodes; v++)
		z[v] = y[v];
	double bi1 = double(b);  // b^{i-1} for the height i of the level being computed (leaves' parents: i = 2)
	for (int level = h - 1; level >= 0; level--) {
		const double bi = bi1 * double(b);
		const std::int64_t offset = tree.LevelOffset(level), child_offset = tree.LevelOffset(level + 1);
		for (std::int64_t k = 0; k < child_offset - offset; k++) {
			double children = 0;
			for (std::int64_t c = 0; c < b; c++)
				children += z[child_offset + k * b + c];
			z[offset + k] = ((bi - bi1) * y[offset + k] + (bi1 - 1.0) * children) / (bi - 1.0);
		}
		bi1 = bi;
	}
	x[0] = z[0];
	for (int level = 0; level < h; level++) {
		const std::int64_t offset = tree.LevelOffset(level), child_offset = tree.LevelOffset(level + 1);
		for (std::int64_t k = 0; k < child_offset - offset; k++) {
			double children = 0;
			for (std::int64_t c = 0; c < b; c++)
				children += z[child_offset + k * b + c];
			const double share = (x[offset + k] - children) / double(b);
			for (std::int64_t c = 0; c < b; c++)
				x[child_offset + k * b + c] = z[child_offset + k * b + c] + share;
		}
	}
	std::copy(x.begin() + leaf_offset, x.begin() + tree.nodes, leaves);
}

// Nodes a range over `radix` bins needs at most: 2(b - 1) per level, b - 1 on the level below the (known) root,
// and never more than the bins themselves (leaves alone answer any range).
double
RangeNodes(const AxisTree &tree, std::int32_t radix)
{
	if (tree.levels == 0)
		return 1.0;
	return std::min(double(tree.branching - 1) * double(2 * tree.levels - 1), double(radix));
}

// Per level j of a tree (0: the root), s_j, the leaves under one of its nodes, and lambda_j = s_j + ... + s_h, the
// eigenvalue of A^T A on E_j (docs/mechanisms.md §9, "The variance of a prefix").
struct TreeSpectrum {
	explicit TreeSpectrum(const AxisTree &tree)
	    : size(std::size_t(tree.levels) + 1), lambda(std::size_t(tree.levels) + 1)
	{
		for (std::size_t j = size.size(); j-- > 0;) {
			const bool leaf = j + 1 == size.size();
			size[j] = leaf ? 1.0 : size[j + 1] * double(tree.branching);
			lambda[j] = size[j] + (leaf ? 0.0 : lambda[j + 1]);
		}
	}
	std::vector<double> size, lambda;
};

// Above this many bins a plan bounds a prefix's variance in closed form (LeastSquaresPrefixDrawsBound, O(levels))
// instead of computing it for every prefix (LeastSquaresPrefixDraws, O(bins x levels) for each branching tried).
constexpr std::int32_t kExactPrefixVarianceBins = 1 << 16;

// The draws a prefix's noise is bounded by: LeastSquaresPrefixDraws up to kExactPrefixVarianceBins bins, else
// LeastSquaresPrefixDrawsBound (the same coefficients, each at most 1; squares summing to at most it).
double
PrefixDraws(const AxisTree &tree, std::int32_t radix)
{
	return radix <= kExactPrefixVarianceBins ? LeastSquaresPrefixDraws(tree, radix)
	                                         : LeastSquaresPrefixDrawsBound(tree);
}

}  // namespace

double
LeastSquaresPrefixDraws(const AxisTree &tree, std::int32_t radix)
{
	if (radix < 1 || tree.leaves < radix)
		throw Error(ErrorKind::Internal, "a tree with fewer leaves than its bins");
	const int h = tree.levels;
	const TreeSpectrum spectrum(tree);
	const std::vector<double> &size = spectrum.size, &lambda = spectrum.lambda;
	double worst = 0.0;
	std::uint64_t steps = 0;
	for (std::int64_t k = 1; k < radix; k++) {
		PollInterrupt(steps, std::uint64_t(h));
		// ||M_j q||^2 for the prefix q of k leaves: its full blocks of level j, and the square of the part over the
		// block's size; the variance adds (||M_j q||^2 - ||M_{j-1} q||^2) / lambda_j over the levels below the root.
		double variance = 0.0, coarser = 0.0;
		for (int j = 0; j <= h; j++) {
			const double s = size[std::size_t(j)], full = std::floor(double(k) / s), part = double(k) - full * s;
			const double norm = full * s + part * part / s;
			if (j > 0)
				variance += (norm - coarser) / lambda[std::size_t(j)];
			coarser = norm;
		}
		worst = std::max(worst, variance);
	}
	return worst;
}

double
LeastSquaresPrefixDrawsBound(const AxisTree &tree)
{
	const int h = tree.levels;
	if (h == 0)
		return 0.0;
	const TreeSpectrum spectrum(tree);
	const std::vector<double> &size = spectrum.size, &lambda = spectrum.lambda;
	// With r_j = k mod s_j and g_j = r_j (s_j - r_j) / s_j in [0, s_j / 4] (g_h = 0), ||M_j q||^2 = k - g_j, so the
	// variance is the sum over j >= 1 of (g_{j-1} - g_j) / lambda_j = g_0 / lambda_1 + the sum over 1 <= j < h of
	// g_j (1 / lambda_{j+1} - 1 / lambda_j), every weight positive: at most each g_j at s_j / 4.
	double bound = size[0] / 4.0 / lambda[1];
	for (int j = 1; j < h; j++)
		bound += size[std::size_t(j)] / 4.0 * (1.0 / lambda[std::size_t(j) + 1] - 1.0 / lambda[std::size_t(j)]);
	return bound;
}

std::int64_t
AxisTree::LevelOffset(int level) const
{
	std::int64_t offset = 0, width = 1;
	for (int l = 0; l < level; l++) {
		offset += width;
		width *= branching;
	}
	return offset;
}

AxisTree
AxisTreeFor(std::int32_t radix, int branching)
{
	if (radix < 1 || branching < 2 || branching > kMaxBranching)
		throw Error(ErrorKind::Internal,
		            "invalid axis tree: radix " + std::to_string(radix) + ", branching " + std::to_string(branching));
	AxisTree tree;
	tree.branching = branching;
	while (tree.leaves < radix) {
		tree.leaves *= branching;
		tree.nodes += tree.leaves;
		tree.levels++;
	}
	return tree;
}

int
HierarchicalNodeSets(const std::vector<int> &levels)
{
	int pairs = 1;
	for (int h : levels)
		pairs *= h + 1;
	return pairs - 1;
}

std::vector<std::int64_t>
ProductTreeCounts(const std::vector<std::int64_t> &cells, const std::vector<std::int32_t> &radices,
                  const AxisTree &first, const AxisTree &second, InterruptCheck interrupted)
{
	if (radices.empty() || radices.size() > 2 || radices[0] < 1 || SecondRadix(radices) < 1)
		throw Error(ErrorKind::Internal, "hierarchical grid needs one or two axes");
	const std::int64_t r0 = radices[0], r1 = SecondRadix(radices);
	if (std::int64_t(cells.size()) != r0 * r1 || first.leaves < r0 || second.leaves < r1)
		throw Error(ErrorKind::Internal, "cell histogram and trees disagree in size");
	const std::int64_t width = second.nodes;
	if (first.nodes > std::int64_t(1) << 40 || width > (std::int64_t(1) << 40) / first.nodes)
		throw Error(ErrorKind::LimitExceeded, "hierarchical tree has too many nodes");
	std::vector<std::int64_t> counts(std::size_t(first.nodes * width), 0);
	std::uint64_t steps = 0;
	const std::int64_t leaf0 = first.LevelOffset(first.levels), leaf1 = second.LevelOffset(second.levels);
	// Leaves, then sums along the second axis in every leaf row of the first (padded rows stay zero) ...
	for (std::int64_t i = 0; i < r0; i++) {
		CountSteps(interrupted, steps, std::uint64_t(r1));
		std::int64_t *row = &counts[std::size_t((leaf0 + i) * width)];
		for (std::int64_t j = 0; j < r1; j++)
			row[leaf1 + j] = cells[std::size_t(i * r1 + j)];
		for (int level = second.levels - 1; level >= 0; level--) {
			const std::int64_t offset = second.LevelOffset(level), child = second.LevelOffset(level + 1);
			for (std::int64_t k = 0; k < child - offset; k++) {
				CountSteps(interrupted, steps);
				std::int64_t sum = 0;
				for (std::int64_t c = 0; c < second.branching; c++)
					sum += row[child + k * second.branching + c];
				row[offset + k] = sum;
			}
		}
	}
	// ... then sums along the first axis in every column.
	for (int level = first.levels - 1; level >= 0; level--) {
		const std::int64_t offset = first.LevelOffset(level), child = first.LevelOffset(level + 1);
		for (std::int64_t k = 0; k < child - offset; k++)
			for (std::int64_t col = 0; col < width; col++) {
				CountSteps(interrupted, steps);
				std::int64_t sum = 0;
				for (std::int64_t c = 0; c < first.branching; c++)
					sum += counts[std::size_t((child + k * first.branching + c) * width + col)];
				counts[std::size_t((offset + k) * width + col)] = sum;
			}
	}
	return counts;
}

std::vector<double>
ProductTreeLeastSquares(const std::vector<double> &nodes, const AxisTree &first, const AxisTree &second, double n,
                        InterruptCheck interrupted)
{
	const std::int64_t width = second.nodes;
	if (std::int64_t(nodes.size()) != first.nodes * width)
		throw Error(ErrorKind::Internal, "node values and trees disagree in size");
	// With the root pair observed as n like any other node, the system is (A1 x A2) x = y, whose least-squares
	// solution is (pinv(A1) x pinv(A2)) y: the 1-D estimator along the first axis in every column, then along the
	// second in every row. Treating n as exact instead adds the constraint sum x = n; since (A^T A)^{-1} 1 is a
	// constant vector (pinv(A) of the root indicator, the same for every leaf by symmetry), the constrained
	// solution is the unconstrained one shifted equally in every leaf until the sum is n.
	std::vector<double> column(std::size_t(first.nodes)), leaves(std::size_t(first.leaves));
	std::vector<double> z(std::size_t(std::max(first.nodes, second.nodes))), x(z.size());
	std::vector<double> half(std::size_t(first.leaves * width));
	std::uint64_t steps = 0;
	for (std::int64_t col = 0; col < width; col++) {
		for (std::int64_t v = 0; v < first.nodes; v++) {
			CountSteps(interrupted, steps);
			column[v] = nodes[std::size_t(v * width + col)];
		}
		if (col == 0)
			column[0] = n;
		TreeLeastSquares(first, column.data(), leaves.data(), z, x);
		for (std::int64_t i = 0; i < first.leaves; i++)
			half[std::size_t(i * width + col)] = leaves[i];
	}
	std::vector<double> result(std::size_t(first.leaves * second.leaves));
	double sum = 0;
	for (std::int64_t i = 0; i < first.leaves; i++) {
		CountSteps(interrupted, steps, std::uint64_t(width + second.leaves));
		TreeLeastSquares(second, &half[std::size_t(i * width)], &result[std::size_t(i * second.leaves)], z, x);
		for (std::int64_t j = 0; j < second.leaves; j++)
			sum += result[std::size_t(i * second.leaves + j)];
	}
	const double shift = (n - sum) / double(result.size());
	for (double &v : result)
		v += shift;
	return result;
}

HierarchicalPlan
PlanHierarchical(const PlanInput &input, const std::vector<std::int32_t> &radices)
{
	if (radices.empty() || radices.size() > 2)
		throw Error(ErrorKind::InvalidParameter, "hierarchical applies to one or two ordered axes",
		            "The class has " + std::to_string(radices.size()) + " ordered axes.",
		            "Use mechanism pmw or identity for this class.");
	ValidatePlanInput(input);
	for (std::int32_t r : radices)
		if (r < 1)
			throw Error(ErrorKind::Internal, "an axis has no bins");

	// Every branching is tried; the lowest prediction wins (the smaller branching on ties). Qardaji, Yang & Li 2013
	// find b about 16 optimal for 1-D ranges with Laplace noise; the same trade-off (fewer levels against more
	// nodes per level) decides here, with the noise and the cover size of this release.
	// One axis under a class whose queries read one or two CDF values: the run makes the CDF monotone (no bias), and
	// a query's error is at most cdf_count times the largest prefix error of the least-squares estimate.
	const bool monotone_cdf = radices.size() == 1 && (input.cdf_count == 1 || input.cdf_count == 2);
	std::optional<HierarchicalPlan> best;
	double best_error = INFINITY;
	std::optional<Error> limit;
	for (int b = 2; b <= kMaxBranching; b++) {
		HierarchicalPlan plan;
		plan.branching = b;
		plan.monotone_cdf = monotone_cdf;
		double nodes_per_query = 1;
		bool padded_too_much = false;
		for (std::int32_t r : radices) {
			const AxisTree tree = AxisTreeFor(r, b);
			// Padding beyond twice the bins would multiply the memory and time by up to b per axis.
			padded_too_much = padded_too_much || tree.leaves > 2 * std::int64_t(r);
			plan.levels.push_back(tree.levels);
			nodes_per_query *= RangeNodes(tree, r);
		}
		if (padded_too_much)
			continue;
		const int node_sets = HierarchicalNodeSets(plan.levels);
		if (node_sets == 0) {
			// A single cell: it holds all n rows, no noise is drawn.
			plan.predicted_error = 0;
			plan.used.accounting = "none (a single cell: nothing private is released)";
			return plan;
		}
		try {
			plan.noise = HistogramNoiseFor(2.0 * node_sets, 2.0 * node_sets, input.epsilon, input.delta, input.rho);
			plan.used = HistogramNoiseUsed(plan.noise, 2.0 * node_sets, 2.0 * node_sets, input.epsilon, input.delta);
		} catch (const Error &e) {
			if (e.kind() != ErrorKind::LimitExceeded)
				throw;
			limit = e;
			continue;
		}
		// One axis: a prefix's least-squares estimate is a combination of the node draws with coefficients below 1
		// whose squares sum to LeastSquaresPrefixDraws (exact, docs/mechanisms.md §9; PrefixDraws). Otherwise the
		// least-squares answer has at most the variance of any unbiased linear estimate (Gauss-Markov), in particular
		// of the sum of the nodes that decompose the query: nodes_per_query draws. Its tail is taken as that sum's
		// (coefficients 1): the least-squares answer spreads no more variance over more nodes.
		const double error =
		    (monotone_cdf ? double(input.cdf_count) *
		                        MaxErrorOverCover(plan.noise, PrefixDraws(AxisTreeFor(radices[0], b), radices[0]),
		                                          std::size_t(std::max(1, radices[0] - 1)), input.beta)
		                  : MaxErrorOverCover(plan.noise, nodes_per_query, input.cover_size, input.beta)) /
		    double(input.private_rows);
		if (error < best_error) {
			best_error = error;
			plan.predicted_error = std::min(1.0, error);
			best = plan;
		}
	}
	if (!best)
		throw limit ? *limit : Error(ErrorKind::Internal, "no branching fits the grid");
	return *best;
}

namespace {

// RunHierarchical on a grid every cell of which is open; the open cells' counts sum to at most n (rows in closed
// cells are not read).
std::vector<double>
RunOnOpenGrid(const std::vector<std::int64_t> &cell_histogram, const std::vector<std::int32_t> &radices, std::int64_t n,
              const HierarchicalPlan &plan, RandomBitSource &rng, InterruptCheck interrupted)
{
	if (radices.empty() || radices.size() > 2 || plan.levels.size() != radices.size())
		throw Error(ErrorKind::Internal, "hierarchical plan and grid disagree on the axes");
	const AxisTree first = AxisTreeFor(radices[0], plan.branching);
	const AxisTree second = AxisTreeFor(SecondRadix(radices), plan.branching);
	if (first.levels != plan.levels[0] || (radices.size() == 2 && second.levels != plan.levels[1]))
		throw Error(ErrorKind::Internal, "hierarchical plan and grid disagree on the tree levels");

	const std::vector<std::int64_t> counts = ProductTreeCounts(cell_histogram, radices, first, second, interrupted);
	// One draw per node pair in storage order, the root pair (n, public) excepted.
	std::vector<double> noisy(counts.size());
	noisy[0] = double(n);
	std::uint64_t steps = 0;
	for (std::size_t v = 1; v < counts.size(); v++) {
		CountSteps(interrupted, steps);
		noisy[v] = double(counts[v]) + double(plan.noise.Sample(rng));
	}
	const std::vector<double> leaves = ProductTreeLeastSquares(noisy, first, second, double(n), interrupted);
	const std::int64_t r0 = radices[0], r1 = SecondRadix(radices);
	std::vector<double> cells(std::size_t(r0 * r1));
	for (std::int64_t i = 0; i < r0; i++)
		for (std::int64_t j = 0; j < r1; j++)
			cells[std::size_t(i * r1 + j)] = leaves[std::size_t(i * second.leaves + j)];
	std::vector<double> synthetic =
	    plan.monotone_cdf ? MonotoneCdfCells(cells, double(n)) : ProjectOntoSimplex(cells, double(n));
	for (double &x : synthetic)
		x /= double(n);
	return synthetic;
}

}  // namespace

std::vector<double>
RunHierarchical(const std::vector<std::int64_t> &cell_histogram, const std::vector<std::int32_t> &radices,
                std::int64_t n, const HierarchicalPlan &plan, RandomBitSource &rng, InterruptCheck interrupted,
                const std::vector<bool> *closed)
{
	RequireHistogramOfRows(cell_histogram, n);
	if (closed == nullptr || closed->empty())
		return RunOnOpenGrid(cell_histogram, radices, n, plan, rng, interrupted);
	// Only the open cells are read: replacing a row changes their histogram by at most what it changes the whole
	// one, so every node set keeps its sensitivity; n (public) stays the root.
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());  // OpenSubgrid polls
	const OpenSubgrid open(radices, *closed);
	return open.Embed(RunOnOpenGrid(open.Restrict(cell_histogram), open.radices(), n, plan, rng, interrupted));
}

namespace {

constexpr const char *kHierarchicalShape =
    "hierarchical needs a full grid of one or two ordered axes (numeric columns or halfspace directions)";

// What a hierarchical plan fixes for its run, as plain data (a plan's levels are at most two).
struct HierarchicalParameters {
	int branching = 2;
	int levels[2] = {0, 0};
	std::size_t axes = 0;
	bool monotone_cdf = false;
	HistogramNoise noise;
	double predicted_error = 0;
	// Per axis, the bin the plan's mask closed (an ordered axis's NULL bin, of a NOT NULL column), or -1: the trees
	// were sized for the other bins.
	std::int32_t closed_bin[2] = {-1, -1};
};

// Per axis of a full grid, the one bin a mask ReleaseLayout::ClosedCells makes closes (every cell holding it is
// closed), or -1. An ordered axis closes at most its NULL bin: Error(Internal) for more.
std::vector<std::int32_t>
ClosedBinPerAxis(const std::vector<std::int32_t> &radices, const std::vector<bool> &closed)
{
	std::vector<std::int32_t> bins(radices.size(), -1);
	if (closed.empty())
		return bins;
	const OpenSubgrid open(radices, closed);  // checks the mask is a product of closed bins
	for (std::size_t a = 0; a < radices.size(); a++) {
		if (open.radices()[a] == radices[a])
			continue;
		if (open.radices()[a] != radices[a] - 1)
			throw Error(ErrorKind::Internal, "hierarchical: an ordered axis with more than one closed bin");
		// The closed bin: the one no open cell's coordinate on this axis takes.
		std::size_t stride = 1;
		for (std::size_t b = a + 1; b < radices.size(); b++)
			stride *= std::size_t(radices[b]);
		std::vector<bool> seen(std::size_t(radices[a]), false);
		for (std::size_t cell : open.cells())
			seen[(cell / stride) % std::size_t(radices[a])] = true;
		bins[a] = std::int32_t(std::find(seen.begin(), seen.end(), false) - seen.begin());
	}
	return bins;
}

// The cells a run leaves at 0: those on a bin its plan closed, whose trees span the other bins (empty when none).
// The run's own mask (the glue reads the constraints again in the scan's transaction) is not read, since the trees
// are sized for the plan's open bins: a bin the run's reads close and the plan's did not (a NOT NULL added between
// them) is measured as planned, and one the plan closed and the run's reads open (a NOT NULL dropped) stays closed,
// its rows left out. Either costs accuracy only: privacy does not rest on the mask (docs/mechanisms.md §9, "Cells no
// row can hold").
std::vector<bool>
PlannedMask(const std::vector<std::int32_t> &radices, const std::int32_t *plan_bins)
{
	if (std::none_of(plan_bins, plan_bins + radices.size(), [](std::int32_t b) { return b >= 0; }))
		return {};
	std::size_t cells = 1;
	for (std::int32_t r : radices)
		cells *= std::size_t(r);
	std::vector<bool> mask(cells, false);
	std::uint64_t steps = 0;
	for (std::size_t cell = 0; cell < cells; cell++) {
		PollInterrupt(steps);
		std::size_t rest = cell;
		for (std::size_t a = radices.size(); a-- > 0;) {
			mask[cell] = mask[cell] || std::int32_t(rest % std::size_t(radices[a])) == plan_bins[a];
			rest /= std::size_t(radices[a]);
		}
	}
	return mask;
}

// Hierarchical behind the Mechanism interface (docs/mechanisms.md §9).
class Hierarchical final : public Mechanism {
public:
	const char *
	Name() const override
	{
		return "hierarchical";
	}

	const char *
	ShapeRefusal(const ReleaseShape &shape) const override
	{
		const bool ordered = std::all_of(shape.ordered.begin(), shape.ordered.end(), [](bool o) { return o; });
		return shape.full_grid && !shape.radices.empty() && shape.radices.size() <= 2 && ordered ? nullptr
		                                                                                         : kHierarchicalShape;
	}

	MechanismPlan
	Plan(const PlanContext &context) const override
	{
		// The trees span the open bins alone (a NOT NULL column's NULL bin is closed): the run reads those.
		const std::vector<std::int32_t> closed_bins = ClosedBinPerAxis(context.shape.radices, context.closed_cells);
		std::vector<std::int32_t> open_radices = context.shape.radices;
		for (std::size_t a = 0; a < open_radices.size(); a++)
			open_radices[a] -= closed_bins[a] >= 0 ? 1 : 0;
		const std::optional<HierarchicalPlan> planned =
		    UnlessLimitExceeded([&] { return PlanHierarchical(context.input, open_radices); });
		if (!planned)
			return NotApplicable(kNoiseTooLarge);
		HierarchicalParameters parameters;
		for (std::size_t a = 0; a < closed_bins.size() && a < 2; a++)
			parameters.closed_bin[a] = closed_bins[a];
		parameters.branching = planned->branching;
		parameters.axes = planned->levels.size();
		for (std::size_t a = 0; a < planned->levels.size() && a < 2; a++)
			parameters.levels[a] = planned->levels[a];
		parameters.monotone_cdf = planned->monotone_cdf;
		parameters.noise = planned->noise;
		parameters.predicted_error = planned->predicted_error;
		// Without a monotone CDF the run ends with the same projection onto non-negative weights as identity's,
		// biased where most cells are (nearly) empty: the prediction adds that bias as identity's plan computes it,
		// over the open cells, with the noise of one node standing in for a leaf's (least squares lowers a leaf's
		// variance: the stand-in errs towards more clipping). The monotone CDF adds none.
		const double bias =
		    planned->monotone_cdf ? 0.0 : IdentityProjectionBiasOnCover(context, planned->noise, context.closed_cells);
		MechanismPlan plan;
		plan.applies = true;
		SetErrorParts(plan, context, std::min(1.0, planned->predicted_error + bias), 0.0, false);
		plan.used = planned->used;
		plan.parameters = MechanismParameters::Of(parameters);
		plan.detail = "branching";
		plan.detail_value = planned->branching;
		return plan;
	}

	MechanismRun
	Run(const MechanismParameters &planned, const RunInput &in) const override
	{
		const HierarchicalParameters parameters = planned.As<HierarchicalParameters>();
		HierarchicalPlan plan;
		plan.branching = parameters.branching;
		plan.levels.assign(parameters.levels, parameters.levels + std::min<std::size_t>(parameters.axes, 2));
		plan.monotone_cdf = parameters.monotone_cdf;
		plan.noise = parameters.noise;
		plan.predicted_error = parameters.predicted_error;
		MechanismRun run;
		if (in.radices->size() != parameters.axes)
			throw Error(ErrorKind::Internal, "hierarchical plan and grid disagree on the axes");
		const std::vector<bool> mask = PlannedMask(*in.radices, parameters.closed_bin);
		run.synthetic = RunHierarchical(*in.cell_histogram, *in.radices, in.rows, plan, *in.rng, in.interrupted, &mask);
		return run;
	}
};

}  // namespace

const Mechanism &
HierarchicalMechanism()
{
	static const Hierarchical mechanism;
	return mechanism;
}

}  // namespace pap::core
