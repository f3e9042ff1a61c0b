// Tests of the hierarchical mechanism: the trees' shape, the node counts and their sensitivity under replace-one
// by brute force (1-D and 2-D), the least-squares consistency against a dense constrained least-squares solve
// (normal equations with the known total, Gaussian elimination), the run as documented, a distribution as output,
// exactness at a huge epsilon, determinism, cancellation, and the planner.
#include "core/mechanisms/hierarchical_mechanism.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::OutcomeOf;

// The leaf interval [first, last) of every node of a tree, in storage order, built independently of LevelOffset.
std::vector<std::pair<std::int64_t, std::int64_t>>
NodeIntervals(const AxisTree &tree)
{
	std::vector<std::pair<std::int64_t, std::int64_t>> nodes;
	std::int64_t width = tree.leaves;
	for (int level = 0; level <= tree.levels; level++) {
		for (std::int64_t start = 0; start < tree.leaves; start += width)
			nodes.push_back({start, start + width});
		width /= tree.branching;
	}
	return nodes;
}

std::vector<std::int64_t>
RandomCells(std::size_t cells, std::int64_t n, std::uint64_t seed)
{
	std::mt19937_64 gen(seed);
	std::uniform_int_distribution<std::size_t> cell(0, cells - 1);
	std::vector<std::int64_t> h(cells, 0);
	for (std::int64_t r = 0; r < n; r++)
		h[std::min(cell(gen), cell(gen))]++;
	return h;
}

std::int32_t
Second(const std::vector<std::int32_t> &radices)
{
	return radices.size() == 2 ? radices[1] : 1;
}

PlanInput
Input(double epsilon, double delta, std::size_t cells)
{
	return test::HistogramPlanInput(epsilon, delta, cells);
}

using test::AlwaysInterrupted;

TEST(AxisTree, ShapeAndOffsets)
{
	struct Case {
		std::int32_t radix;
		int branching, levels;
		std::int64_t leaves, nodes;
	};
	for (const Case &c : {Case{1, 2, 0, 1, 1}, Case{2, 2, 1, 2, 3}, Case{5, 2, 3, 8, 15}, Case{9, 3, 2, 9, 13},
	                      Case{10, 3, 3, 27, 40}, Case{4096, 16, 3, 4096, 4369}, Case{17, 16, 2, 256, 273}}) {
		const AxisTree t = AxisTreeFor(c.radix, c.branching);
		EXPECT_EQ(t.levels, c.levels) << c.radix << " " << c.branching;
		EXPECT_EQ(t.leaves, c.leaves);
		EXPECT_EQ(t.nodes, c.nodes);
		EXPECT_EQ(t.LevelOffset(t.levels), t.nodes - t.leaves);
		EXPECT_EQ(std::int64_t(NodeIntervals(t).size()), t.nodes);
	}
	EXPECT_EQ(OutcomeOf([] { AxisTreeFor(0, 2); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { AxisTreeFor(5, 1); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { AxisTreeFor(5, kMaxBranching + 1); }), "Internal");
}

// Every node pair's count is the number of rows in its box, and replacing one row changes the node-pair vector
// by exactly l1 = l2^2 = 2 * HierarchicalNodeSets at most (attained when the two cells differ on every level).
TEST(ProductTreeCounts, BoxSumsAndReplaceOneSensitivityByBruteForce)
{
	struct Case {
		std::vector<std::int32_t> radices;
		int branching;
	};
	for (const Case &c : {Case{{13}, 3}, Case{{8}, 2}, Case{{1}, 2}, Case{{5, 7}, 2}, Case{{4, 9}, 3}, Case{{1, 6}, 2},
	                      Case{{6, 1}, 4}}) {
		const AxisTree a = AxisTreeFor(c.radices[0], c.branching), b = AxisTreeFor(Second(c.radices), c.branching);
		const std::int64_t r1 = Second(c.radices);
		const std::size_t cells = std::size_t(c.radices[0] * r1);
		const std::vector<std::int64_t> h = RandomCells(cells, 3 * cells, cells);
		const std::vector<std::int64_t> counts = ProductTreeCounts(h, c.radices, a, b);
		const auto ia = NodeIntervals(a), ib = NodeIntervals(b);
		ASSERT_EQ(counts.size(), ia.size() * ib.size());
		for (std::size_t u = 0; u < ia.size(); u++)
			for (std::size_t v = 0; v < ib.size(); v++) {
				std::int64_t box = 0;
				for (std::int64_t i = ia[u].first; i < std::min<std::int64_t>(ia[u].second, c.radices[0]); i++)
					for (std::int64_t j = ib[v].first; j < std::min<std::int64_t>(ib[v].second, r1); j++)
						box += h[std::size_t(i * r1 + j)];
				EXPECT_EQ(counts[u * ib.size() + v], box);
			}
		std::vector<int> levels = {a.levels};
		if (c.radices.size() == 2)
			levels.push_back(b.levels);
		const double sets = HierarchicalNodeSets(levels);
		EXPECT_EQ(sets, (a.levels + 1) * (b.levels + 1) - 1);
		double max_l1 = 0, max_l2 = 0;
		for (std::size_t from = 0; from < cells; from++)
			for (std::size_t to = 0; to < cells; to++) {
				if (h[from] == 0)
					continue;
				std::vector<std::int64_t> g = h;
				g[from]--;
				g[to]++;
				const std::vector<std::int64_t> moved = ProductTreeCounts(g, c.radices, a, b);
				EXPECT_EQ(moved[0], counts[0]) << "the root pair is n";
				double l1 = 0, l2 = 0;
				for (std::size_t k = 1; k < counts.size(); k++) {
					const double d = double(moved[k] - counts[k]);
					l1 += std::abs(d);
					l2 += d * d;
				}
				max_l1 = std::max(max_l1, l1);
				max_l2 = std::max(max_l2, l2);
			}
		EXPECT_EQ(max_l1, 2 * sets) << "radices " << c.radices[0] << "x" << r1;
		EXPECT_EQ(max_l2, 2 * sets) << "radices " << c.radices[0] << "x" << r1;
	}
}

// Solves M z = r by Gaussian elimination with partial pivoting (M square, non-singular).
std::vector<double>
Solve(std::vector<std::vector<double>> m, std::vector<double> r)
{
	const std::size_t n = r.size();
	for (std::size_t col = 0; col < n; col++) {
		std::size_t pivot = col;
		for (std::size_t row = col + 1; row < n; row++)
			if (std::abs(m[row][col]) > std::abs(m[pivot][col]))
				pivot = row;
		std::swap(m[col], m[pivot]);
		std::swap(r[col], r[pivot]);
		for (std::size_t row = 0; row < n; row++) {
			if (row == col)
				continue;
			const double f = m[row][col] / m[col][col];
			for (std::size_t k = col; k < n; k++)
				m[row][k] -= f * m[col][k];
			r[row] -= f * r[col];
		}
	}
	for (std::size_t i = 0; i < n; i++)
		r[i] /= m[i][i];
	return r;
}

// min ||A x - y||^2 subject to sum x = n, A the node-pair/leaf-pair incidence without the root pair: the KKT system
// [A^T A, 1; 1^T, 0] [x; lambda] = [A^T y; n], dense.
std::vector<double>
BruteForceLeastSquares(const std::vector<double> &y, const AxisTree &a, const AxisTree &b, double n)
{
	const auto ia = NodeIntervals(a), ib = NodeIntervals(b);
	const std::size_t leaves = std::size_t(a.leaves * b.leaves);
	std::vector<std::vector<double>> m(leaves + 1, std::vector<double>(leaves + 1, 0.0));
	std::vector<double> r(leaves + 1, 0.0);
	for (std::size_t u = 0; u < ia.size(); u++)
		for (std::size_t v = 0; v < ib.size(); v++) {
			if (u == 0 && v == 0)
				continue;
			std::vector<std::size_t> row;
			for (std::int64_t i = ia[u].first; i < ia[u].second; i++)
				for (std::int64_t j = ib[v].first; j < ib[v].second; j++)
					row.push_back(std::size_t(i * b.leaves + j));
			for (std::size_t p : row) {
				r[p] += y[u * ib.size() + v];
				for (std::size_t q : row)
					m[p][q] += 1;
			}
		}
	for (std::size_t p = 0; p < leaves; p++) {
		m[p][leaves] = 1;
		m[leaves][p] = 1;
	}
	r[leaves] = n;
	std::vector<double> x = Solve(m, r);
	x.pop_back();
	return x;
}

TEST(ProductTreeLeastSquares, MatchesDenseConstrainedLeastSquares)
{
	struct Case {
		std::int32_t r0, r1;
		int branching;
	};
	std::mt19937_64 gen(21);
	std::normal_distribution<double> noise(0.0, 3.0);
	for (const Case &c : {Case{8, 1, 2}, Case{9, 1, 3}, Case{27, 1, 3}, Case{4, 1, 4}, Case{16, 1, 4}, Case{2, 1, 2},
	                      Case{4, 2, 2}, Case{9, 3, 3}, Case{4, 4, 2}, Case{3, 8, 2}, Case{1, 8, 2}, Case{5, 3, 2}}) {
		const AxisTree a = AxisTreeFor(c.r0, c.branching), b = AxisTreeFor(c.r1, c.branching);
		std::vector<std::int32_t> radices = {c.r0};
		if (c.r1 > 1)
			radices.push_back(c.r1);
		for (int trial = 0; trial < 5; trial++) {
			const std::vector<std::int64_t> h = RandomCells(std::size_t(c.r0 * c.r1), 50, std::uint64_t(trial));
			const std::vector<std::int64_t> counts = ProductTreeCounts(h, radices, a, b);
			std::vector<double> y(counts.size());
			for (std::size_t k = 0; k < y.size(); k++)
				y[k] = double(counts[k]) + noise(gen);
			y[0] = 12345;  // ignored: the root pair is n
			const std::vector<double> x = ProductTreeLeastSquares(y, a, b, 50.0);
			const std::vector<double> expected = BruteForceLeastSquares(y, a, b, 50.0);
			ASSERT_EQ(x.size(), expected.size());
			double sum = 0;
			for (std::size_t p = 0; p < x.size(); p++) {
				EXPECT_NEAR(x[p], expected[p], 1e-9) << c.r0 << "x" << c.r1 << " b " << c.branching << " leaf " << p;
				sum += x[p];
			}
			EXPECT_NEAR(sum, 50.0, 1e-9);
		}
	}
}

// The prefix variance the plan takes, against the run's own estimator: by linearity each node draw's coefficient in
// the prefix of the first k bins is that prefix of ProductTreeLeastSquares on the draw alone (the root known, n = 0),
// and the variance the sum of their squares. Every coefficient stays below 1, as MaxErrorOverCover's tail needs.
TEST(LeastSquaresPrefixDraws, IsTheVarianceOfTheRunsPrefixEstimate)
{
	struct Case {
		std::int32_t radix;
		int branching;
	};
	// {3, 8} and {9, 8} pad past twice their bins (no plan does): there the largest prefix of the tree lies in the
	// padding (variance 2 and 3.53 against 1.5 and 2.19), and {3, 8}'s prefix of all its bins is above the others
	// (1.875), so a maximum over k < leaves or k <= radix shows.
	for (const Case &c : {Case{2, 2}, Case{37, 2}, Case{27, 3}, Case{20, 5}, Case{100, 10}, Case{200, 16}, Case{64, 64},
	                      Case{33, 4}, Case{3, 8}, Case{9, 8}}) {
		const AxisTree tree = AxisTreeFor(c.radix, c.branching), single = AxisTreeFor(1, c.branching);
		std::vector<double> variance(std::size_t(c.radix), 0.0);
		double largest_coefficient = 0;
		for (std::int64_t v = 1; v < tree.nodes; v++) {
			std::vector<double> draw(std::size_t(tree.nodes), 0.0);
			draw[std::size_t(v)] = 1.0;
			const std::vector<double> leaves = ProductTreeLeastSquares(draw, tree, single, 0.0);
			double prefix = 0;
			for (std::int32_t k = 1; k < c.radix; k++) {
				prefix += leaves[std::size_t(k - 1)];
				variance[std::size_t(k)] += prefix * prefix;
				largest_coefficient = std::max(largest_coefficient, std::abs(prefix));
			}
		}
		const double worst = *std::max_element(variance.begin(), variance.end());
		EXPECT_NEAR(LeastSquaresPrefixDraws(tree, c.radix), worst, 1e-9 * std::max(1.0, worst))
		    << c.radix << " bins, branching " << c.branching;
		EXPECT_LT(largest_coefficient, 1.0) << c.radix << " bins, branching " << c.branching;
		// Below the nodes a prefix reads (b - 1 per level), which the plan took before (Gauss-Markov).
		if (c.radix > 1) {
			EXPECT_LT(worst, double(c.branching - 1) * double(tree.levels)) << c.radix << " bins";
		}
	}
	EXPECT_EQ(LeastSquaresPrefixDraws(AxisTreeFor(1, 2), 1), 0.0);
	EXPECT_EQ(LeastSquaresPrefixDrawsBound(AxisTreeFor(1, 2)), 0.0);
	EXPECT_EQ(OutcomeOf([] { LeastSquaresPrefixDraws(AxisTreeFor(4, 2), 5); }), "Internal");
}

// The closed form the plan takes above 2^16 bins bounds the exact largest prefix variance from above, within 12% on
// every tree a plan may take (at most twice the bins as leaves) over 10 bins or more, and the prediction does not
// jump at the cut-over.
TEST(LeastSquaresPrefixDraws, TheClosedFormBoundIsAboveItAndClose)
{
	for (std::int32_t radix : {2, 3, 10, 37, 100, 256, 1000, 4097, 1 << 16}) {
		for (int b = 2; b <= kMaxBranching; b++) {
			const AxisTree tree = AxisTreeFor(radix, b);
			if (tree.leaves > 2 * std::int64_t(radix))
				continue;
			const double exact = LeastSquaresPrefixDraws(tree, radix), bound = LeastSquaresPrefixDrawsBound(tree);
			EXPECT_GE(bound, exact * (1 - 1e-12)) << radix << " bins, branching " << b;
			if (radix >= 10) {  // a few bins: up to 1.2 times (2 bins, branching 4: 1 against 0.84)
				EXPECT_LE(bound, 1.12 * exact) << radix << " bins, branching " << b;
			}
		}
	}
	PlanInput in = test::HistogramPlanInput(1.0, 0.0, 1 << 16);
	in.cdf_count = 1;
	const double below = PlanHierarchical(in, {1 << 16}).predicted_error;
	in.cells = in.cover_size = (1 << 16) + 1;
	const double above = PlanHierarchical(in, {(1 << 16) + 1}).predicted_error;
	EXPECT_LE(above, 1.1 * below);
	EXPECT_GE(above, below);
}

HierarchicalPlan
PlanFor(const std::vector<std::int32_t> &radices, double epsilon, double delta)
{
	std::size_t cells = 1;
	for (std::int32_t r : radices)
		cells *= std::size_t(r);
	return PlanHierarchical(Input(epsilon, delta, cells), radices);
}

TEST(RunHierarchical, IsLeastSquaresOfOneDrawPerNodeThenProjection)
{
	for (const std::vector<std::int32_t> &radices : {std::vector<std::int32_t>{37}, {6, 11}}) {
		const std::size_t cells = std::size_t(radices[0] * Second(radices));
		const std::vector<std::int64_t> h = RandomCells(cells, 400, 5);
		const HierarchicalPlan plan = PlanFor(radices, 0.7, 0.0);
		SeededRandomSource rng(3), replay(3);
		const std::vector<double> x = RunHierarchical(h, radices, 400, plan, rng);
		const AxisTree a = AxisTreeFor(radices[0], plan.branching), b = AxisTreeFor(Second(radices), plan.branching);
		const std::vector<std::int64_t> counts = ProductTreeCounts(h, radices, a, b);
		std::vector<double> y(counts.size());
		for (std::size_t k = 1; k < y.size(); k++)
			y[k] = double(counts[k]) + double(plan.noise.Sample(replay));
		const std::vector<double> leaves = ProductTreeLeastSquares(y, a, b, 400.0);
		std::vector<double> kept;
		for (std::int64_t i = 0; i < radices[0]; i++)
			for (std::int64_t j = 0; j < Second(radices); j++)
				kept.push_back(leaves[std::size_t(i * b.leaves + j)]);
		const std::vector<double> expected = ProjectOntoSimplex(kept, 400.0);
		ASSERT_EQ(x.size(), cells);
		for (std::size_t i = 0; i < cells; i++)
			EXPECT_DOUBLE_EQ(x[i], expected[i] / 400.0);
		EXPECT_EQ(rng.words_drawn(), replay.words_drawn());
	}
}

// With a mask of closed bins, the run is the run on the open subgrid (the same seed, the same draws, bit for bit),
// embedded with every closed cell at 0. Rows in a closed cell are not read: the run still releases a distribution
// with the closed cells at 0, n (public) its root. A plan sized for the open bins does not fit the whole grid.
TEST(RunHierarchical, OnTheOpenSubgridWithTheClosedCellsAtZero)
{
	const std::vector<std::int32_t> radices{9, 7};
	std::vector<bool> closed(63, false);
	for (std::size_t cell = 0; cell < 63; cell++)
		closed[cell] = cell / 7 == 8 || cell % 7 == 6;  // the last bin of each axis, as a NULL bin
	const std::vector<std::int64_t> open_h = RandomCells(48, 5000, 3);
	std::vector<std::int64_t> h(63, 0);
	for (std::size_t cell = 0, k = 0; cell < 63; cell++)
		if (!closed[cell])
			h[cell] = open_h[k++];
	PlanInput in = Input(1.0, 0.0, 48);
	in.private_rows = 5000;
	const HierarchicalPlan plan = PlanHierarchical(in, {8, 6});
	SeededRandomSource a(4), b(4);
	const std::vector<double> masked = RunHierarchical(h, radices, 5000, plan, a, nullptr, &closed);
	const std::vector<double> alone = RunHierarchical(open_h, {8, 6}, 5000, plan, b);
	for (std::size_t cell = 0, k = 0; cell < 63; cell++)
		EXPECT_EQ(masked[cell], closed[cell] ? 0.0 : alone[k++]) << cell;
	std::vector<std::int64_t> leaked = h;
	leaked[62] += 100;  // rows in a closed cell
	SeededRandomSource c(4);
	const std::vector<double> out = RunHierarchical(leaked, radices, 5100, plan, c, nullptr, &closed);
	double sum = 0;
	for (std::size_t cell = 0; cell < 63; cell++) {
		if (closed[cell]) {
			EXPECT_EQ(out[cell], 0.0) << cell;
		}
		sum += out[cell];
	}
	EXPECT_NEAR(sum, 1.0, 1e-12);
	EXPECT_EQ(OutcomeOf([&] {
		          SeededRandomSource d(4);
		          RunHierarchical(h, radices, 5000, plan, d);
	          }),
	          "Internal");
}

TEST(RunHierarchical, OutputIsADistributionAndDeterministicForASeed)
{
	for (const std::vector<std::int32_t> &radices :
	     {std::vector<std::int32_t>{1}, {2}, {100}, {1000}, {1, 5}, {20, 30}, {64, 64}})
		for (double epsilon : {0.01, 1.0})
			for (double delta : {0.0, 1e-6}) {
				const std::size_t cells = std::size_t(radices[0] * Second(radices));
				const std::vector<std::int64_t> h = RandomCells(cells, 1000, 7);
				const HierarchicalPlan plan = PlanFor(radices, epsilon, delta);
				SeededRandomSource a(4), b(4);
				const std::vector<double> x = RunHierarchical(h, radices, 1000, plan, a);
				EXPECT_EQ(x, RunHierarchical(h, radices, 1000, plan, b));
				ASSERT_EQ(x.size(), cells);
				double sum = 0;
				for (double v : x) {
					EXPECT_GE(v, 0.0);
					sum += v;
				}
				EXPECT_NEAR(sum, 1.0, 1e-12);
			}
}

TEST(RunHierarchical, HugeEpsilonGivesTheTruth)
{
	for (const std::vector<std::int32_t> &radices : {std::vector<std::int32_t>{300}, {17, 23}}) {
		const std::size_t cells = std::size_t(radices[0] * Second(radices));
		const std::vector<std::int64_t> h = RandomCells(cells, 5000, 8);
		const HierarchicalPlan plan = PlanFor(radices, 1e6, 0.0);
		SeededRandomSource rng(5);
		const std::vector<double> x = RunHierarchical(h, radices, 5000, plan, rng);
		for (std::size_t i = 0; i < cells; i++)
			EXPECT_NEAR(x[i], double(h[i]) / 5000.0, 1e-12);
	}
}

TEST(RunHierarchical, InterruptThrowsCancelled)
{
	const std::vector<std::int32_t> radices = {300, 300};
	std::vector<std::int64_t> h(90000, 0);
	h[17] = 10;
	const HierarchicalPlan plan = PlanFor(radices, 1.0, 0.0);
	SeededRandomSource rng(1);
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, radices, 10, plan, rng, AlwaysInterrupted); }), "Cancelled");
}

int interrupt_polls = 0;
bool
CountingInterrupt()
{
	interrupt_polls++;
	return false;
}

TEST(ProductTreeLeastSquares, PollsAndHonoursInterrupts)
{
	const AxisTree a = AxisTreeFor(300, 2), b = AxisTreeFor(300, 2);
	const std::vector<double> y(std::size_t(a.nodes * b.nodes), 1.0);
	EXPECT_EQ(OutcomeOf([&] { ProductTreeLeastSquares(y, a, b, 10.0, AlwaysInterrupted); }), "Cancelled");
	interrupt_polls = 0;
	ProductTreeLeastSquares(y, a, b, 10.0, CountingInterrupt);
	// About one poll per 2^16 node values read in each of the two passes.
	EXPECT_GE(interrupt_polls, int(a.nodes * b.nodes / 65536));
}

TEST(RunHierarchical, RejectsInconsistentInput)
{
	const HierarchicalPlan plan = PlanFor({10}, 1.0, 0.0);
	SeededRandomSource rng(1);
	const std::vector<std::int64_t> h(10, 1);
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {10}, 10, plan, rng); }), "no error");
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {10}, 11, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {2, 5}, 10, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {9}, 10, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {1000}, 10, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunHierarchical(h, {10}, 0, plan, rng); }), "DataException");
}

TEST(PlanHierarchical, MoreEpsilonNeverPredictsMoreError)
{
	for (const std::vector<std::int32_t> &radices : {std::vector<std::int32_t>{50}, {4096}, {30, 40}})
		for (double delta : {0.0, 1e-9, 1e-5}) {
			double previous = INFINITY;
			for (double epsilon = 0.001; epsilon < 50; epsilon *= 1.3) {
				const double e = PlanFor(radices, epsilon, delta).predicted_error;
				EXPECT_LE(e, previous) << "epsilon " << epsilon << " delta " << delta;
				EXPECT_GE(e, 0.0);
				EXPECT_LE(e, 1.0);
				previous = e;
			}
		}
}

TEST(PlanHierarchical, BranchingLevelsAndSensitivity)
{
	for (const std::vector<std::int32_t> &radices : {std::vector<std::int32_t>{4096}, {1000}, {256, 256}, {7, 3}})
		for (double delta : {0.0, 1e-6}) {
			const HierarchicalPlan plan = PlanFor(radices, 1.0, delta);
			ASSERT_EQ(plan.levels.size(), radices.size());
			std::vector<int> levels;
			for (std::size_t a = 0; a < radices.size(); a++) {
				const AxisTree t = AxisTreeFor(radices[a], plan.branching);
				EXPECT_EQ(plan.levels[a], t.levels);
				EXPECT_LE(t.leaves, 2 * std::int64_t(radices[a]));
				levels.push_back(t.levels);
			}
			const double sets = HierarchicalNodeSets(levels);
			const HistogramNoise expected = HistogramNoiseFor(2 * sets, 2 * sets, 1.0, delta);
			EXPECT_EQ(plan.noise.gaussian, expected.gaussian);
			EXPECT_DOUBLE_EQ(plan.noise.Variance(), expected.Variance());
			std::printf("[ hier     ] bins %d", radices[0]);
			if (radices.size() == 2)
				std::printf("x%d", radices[1]);
			std::printf(" delta %g: branching %d, levels", delta, plan.branching);
			for (int l : plan.levels)
				std::printf(" %d", l);
			std::printf(", %s, predicted %.5f\n", plan.noise.gaussian ? "gaussian" : "laplace", plan.predicted_error);
		}
	const HierarchicalPlan single = PlanFor({1}, 1.0, 0.0);
	EXPECT_EQ(single.predicted_error, 0.0);
}

// Over seeded runs of a 1-D plan on histogram h (n rows): the worst error of each run over the proper prefixes, the
// largest of them, and how many runs exceed the plan's prediction.
struct PrefixCalibration {
	double worst = 0;
	int exceeded = 0;
};

PrefixCalibration
CalibrateOnPrefixes(const std::vector<std::int64_t> &h, std::int64_t n, const HierarchicalPlan &plan, int runs)
{
	const auto bins = std::int32_t(h.size());
	SeededRandomSource rng(8);
	PrefixCalibration out;
	for (int run = 0; run < runs; run++) {
		const std::vector<double> x = RunHierarchical(h, {bins}, n, plan, rng);
		double truth = 0, estimate = 0, max_error = 0;
		for (std::int32_t i = 0; i + 1 < bins; i++) {
			truth += double(h[i]) / double(n);
			estimate += x[i];
			max_error = std::max(max_error, std::abs(truth - estimate));
		}
		out.worst = std::max(out.worst, max_error);
		out.exceeded += max_error > plan.predicted_error;
	}
	std::printf("[ hier     ] %s, branching %d, %s: predicted %.5f, worst of %d runs %.5f, exceeded %d\n",
	            plan.monotone_cdf ? "monotone CDF" : "projection", plan.branching,
	            plan.noise.gaussian ? "gaussian" : "laplace", plan.predicted_error, runs, out.worst, out.exceeded);
	return out;
}

// Calibration: all 255 proper prefixes of 256 bins, n = 10000, epsilon = 0.5; the max error exceeds the
// prediction in at most about beta of the runs.
TEST(PlanHierarchical, PredictionHoldsWithProbabilityAboutOneMinusBeta)
{
	const std::int32_t bins = 256;
	const std::int64_t n = 10000;
	PlanInput in = Input(0.5, 0.0, bins);
	in.cover_size = bins - 1;
	in.private_rows = n;
	const HierarchicalPlan plan = PlanHierarchical(in, {bins});
	const int runs = 100;
	const PrefixCalibration c = CalibrateOnPrefixes(RandomCells(bins, n, 6), n, plan, runs);
	EXPECT_LE(c.exceeded, int(runs * in.beta * 2));
	EXPECT_GT(c.worst, plan.predicted_error / 10) << "prediction far too loose";
}

// The same on the monotone CDF's path (one axis under thresholds and ranges), whose prediction takes the exact
// least-squares variance of a prefix (LeastSquaresPrefixDraws): a query reads cdf_count CDF values, each off by at
// most the largest prefix error. Laplace and Gaussian noise; with the nodes a prefix reads (before), the worst run
// stayed below half of the prediction (0.0115 against 0.0285, Laplace both times).
TEST(PlanHierarchical, MonotoneCdfPredictionHoldsWithProbabilityAboutOneMinusBeta)
{
	const std::int32_t bins = 256;
	const std::int64_t n = 10000;
	for (double delta : {0.0, 1e-6}) {
		PlanInput in = Input(0.5, delta, bins);
		in.cdf_count = 1;
		in.cover_size = bins;
		in.private_rows = n;
		const HierarchicalPlan plan = PlanHierarchical(in, {bins});
		ASSERT_TRUE(plan.monotone_cdf);
		const int runs = 100;
		const PrefixCalibration c = CalibrateOnPrefixes(RandomCells(bins, n, 6), n, plan, runs);
		EXPECT_LE(c.exceeded, int(runs * in.beta * 2)) << delta;
		EXPECT_GT(c.worst, plan.predicted_error / 2) << delta << ": prediction far too loose";
	}
}

// The same for two axes: all 2-D prefix boxes [0, i) x [0, j) of a 32 x 32 grid, n = 10000, (1, 1e-6).
TEST(PlanHierarchical, PredictionHoldsForBoxesWithProbabilityAboutOneMinusBeta)
{
	const std::int32_t bins = 32;
	const std::int64_t n = 10000;
	PlanInput in = Input(1.0, 1e-6, bins * bins);
	in.cover_size = bins * bins;
	in.private_rows = n;
	const HierarchicalPlan plan = PlanHierarchical(in, {bins, bins});
	const std::vector<std::int64_t> h = RandomCells(bins * bins, n, 9);
	SeededRandomSource rng(10);
	int exceeded = 0;
	const int runs = 60;
	double worst = 0;
	for (int run = 0; run < runs; run++) {
		const std::vector<double> x = RunHierarchical(h, {bins, bins}, n, plan, rng);
		// Prefix sums of the difference over both axes.
		std::vector<double> d(std::size_t((bins + 1) * (bins + 1)), 0.0);
		double max_error = 0;
		for (std::int32_t i = 0; i < bins; i++)
			for (std::int32_t j = 0; j < bins; j++) {
				const std::size_t c = std::size_t(i * bins + j);
				d[std::size_t((i + 1) * (bins + 1) + j + 1)] =
				    x[c] - double(h[c]) / double(n) + d[std::size_t(i * (bins + 1) + j + 1)] +
				    d[std::size_t((i + 1) * (bins + 1) + j)] - d[std::size_t(i * (bins + 1) + j)];
				max_error = std::max(max_error, std::abs(d[std::size_t((i + 1) * (bins + 1) + j + 1)]));
			}
		worst = std::max(worst, max_error);
		exceeded += max_error > plan.predicted_error;
	}
	std::printf("[ hier     ] 32x32 branching %d, %s: predicted %.5f, worst of %d runs %.5f, exceeded %d\n",
	            plan.branching, plan.noise.gaussian ? "gaussian" : "laplace", plan.predicted_error, runs, worst,
	            exceeded);
	EXPECT_LE(exceeded, int(runs * in.beta * 2));
	EXPECT_GT(worst, plan.predicted_error / 10) << "prediction far too loose";
}

TEST(PlanHierarchical, RejectsOtherShapesAndInvalidInput)
{
	PlanInput in = Input(1.0, 0.0, 1000);
	try {
		PlanHierarchical(in, {10, 10, 10});
		ADD_FAILURE() << "three axes accepted";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
		EXPECT_STREQ(e.what(), "hierarchical applies to one or two ordered axes");
	}
	EXPECT_EQ(OutcomeOf([&] { PlanHierarchical(in, {}); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([&] { PlanHierarchical(in, {0}); }), "Internal");
	const auto plan = [](auto modify) {
		return OutcomeOf([&] {
			PlanInput in = Input(1.0, 0.0, 100);
			modify(in);
			PlanHierarchical(in, {100});
		});
	};
	EXPECT_EQ(plan([](PlanInput &) {}), "no error");
	EXPECT_EQ(plan([](PlanInput &in) { in.epsilon = -1; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.delta = NAN; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.beta = 1.5; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.private_rows = -1; }), "DataException");
	EXPECT_EQ(plan([](PlanInput &in) { in.cells = 0; }), "DataException");
}

}  // namespace
}  // namespace pap::core

namespace pap::core {
namespace {

// One axis under thresholds or ranges: the run makes the CDF monotone, so a fine grid whose bins are nearly all
// empty keeps its CDF within the prediction (the nearest non-negative histogram left a fifth of the mass on the empty
// bins of a 20,003-bin declared domain: docs/mechanisms.md §9, "One ordered axis: a monotone CDF").
TEST(RunHierarchical, AFineSparseAxisKeepsItsCdfWithinThePrediction)
{
	const std::int32_t radix = 20003;
	const std::int64_t n = 48000;
	std::vector<std::int64_t> h(std::size_t(radix), 0);
	std::mt19937_64 gen(9);
	std::lognormal_distribution<double> value(7.0, 1.0);  // a price-like skewed column, cut at 1 per bin
	for (std::int64_t i = 0; i < n; i++)
		h[std::size_t(std::min<double>(radix - 1, std::floor(value(gen))))]++;
	for (int cdf_count : {1, 2}) {
		PlanInput input = Input(1.0, 0.0, std::size_t(radix));
		input.private_rows = n;
		input.cdf_count = cdf_count;
		input.cover_size = cdf_count == 1 ? std::size_t(radix) : std::size_t(radix) * std::size_t(radix + 1) / 2;
		const HierarchicalPlan plan = PlanHierarchical(input, {radix});
		EXPECT_TRUE(plan.monotone_cdf);
		int within = 0;
		for (std::uint64_t seed = 1; seed <= 10; seed++) {
			SeededRandomSource rng(seed);
			const std::vector<double> x = RunHierarchical(h, {radix}, n, plan, rng);
			double released = 0, truth = 0, worst = 0;
			for (std::int32_t i = 0; i < radix; i++) {
				released += x[std::size_t(i)];
				truth += double(h[std::size_t(i)]) / double(n);
				worst = std::max(worst, std::abs(released - truth));
			}
			within += worst * double(cdf_count) <= plan.predicted_error;
			EXPECT_LT(worst, 0.02) << "seed " << seed;  // the simplex projection's was about 0.2 here
		}
		EXPECT_GE(within, 9);
	}
	// Two axes, or a class that reads no CDF value, keep the projection onto the simplex.
	PlanInput input = Input(1.0, 0.0, 100);
	EXPECT_FALSE(PlanHierarchical(input, {10, 10}).monotone_cdf);
	EXPECT_FALSE(PlanHierarchical(input, {100}).monotone_cdf);
	input.cdf_count = 1;
	EXPECT_TRUE(PlanHierarchical(input, {100}).monotone_cdf);
	EXPECT_FALSE(PlanHierarchical(input, {10, 10}).monotone_cdf);
}

}  // namespace
}  // namespace pap::core
