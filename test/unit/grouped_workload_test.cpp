// The grouped workloads (DESIGN.md §2, last paragraph): CellGrid's index <-> coordinates, BoxWorkload (one
// summed-area table, inclusion-exclusion per query) and MarginalWorkload (one marginal table per attribute set),
// each checked against brute force: per-query sums over the cells that satisfy the query's definition, decided
// from coordinates decoded by hand here. Then RunPmw on both, and a printed (not asserted) speed figure.
#include "core/box_workload.hpp"
#include "core/cell_grid.hpp"
#include "core/marginal_workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "core/pmw.hpp"
#include "core/pmw_plan.hpp"
#include "core/random_source.hpp"
#include "test_support.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::vector<std::int32_t>
RandomRadices(std::mt19937_64 &gen)
{
	std::vector<std::int32_t> radices(2 + gen() % 3);
	for (std::int32_t &r : radices)
		r = 1 + std::int32_t(gen() % 6);
	return radices;
}

// Row-major decoding written out independently: the last axis varies fastest.
std::vector<std::int32_t>
Decode(std::size_t index, const std::vector<std::int32_t> &radices)
{
	std::vector<std::int32_t> c(radices.size());
	for (std::size_t a = radices.size(); a-- > 0;) {
		c[a] = std::int32_t(index % std::size_t(radices[a]));
		index /= std::size_t(radices[a]);
	}
	return c;
}

std::vector<std::vector<std::int32_t>>
AllCoordinates(const std::vector<std::int32_t> &radices)
{
	std::size_t n = 1;
	for (std::int32_t r : radices)
		n *= std::size_t(r);
	std::vector<std::vector<std::int32_t>> cells;
	for (std::size_t i = 0; i < n; i++)
		cells.push_back(Decode(i, radices));
	return cells;
}

std::vector<double>
RandomDistribution(std::mt19937_64 &gen, std::size_t n)
{
	std::uniform_real_distribution<double> u(0.0, 1.0);
	std::vector<double> w(n);
	double sum = 0.0;
	for (double &x : w)
		sum += (x = u(gen) * u(gen));
	for (double &x : w)
		x /= sum;
	return w;
}

// Counts large enough that doubles could not add them exactly.
std::vector<std::int64_t>
RandomHistogram(std::mt19937_64 &gen, std::size_t n)
{
	std::vector<std::int64_t> h(n);
	for (std::int64_t &x : h)
		x = gen() % 4 == 0 ? 0 : std::int64_t(gen() % 1000000000000000ULL) + 1;
	return h;
}

std::vector<std::vector<CellInterval>>
RandomBoxes(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices, std::size_t count)
{
	std::vector<std::vector<CellInterval>> boxes(count);
	for (std::vector<CellInterval> &box : boxes) {
		for (std::int32_t r : radices) {
			const int kind = int(gen() % 10);
			if (kind < 3) {
				box.push_back(BoxWorkload::All(r));
			} else if (kind < 5) {
				box.push_back({0, std::int32_t(gen() % std::uint64_t(r))});  // a prefix: orthants
			} else {
				std::int32_t a = std::int32_t(gen() % std::uint64_t(r)), b = std::int32_t(gen() % std::uint64_t(r));
				box.push_back({std::min(a, b), std::max(a, b)});
			}
		}
		if (gen() % 12 == 0)
			box[gen() % box.size()] = {3, 2};  // empty now and then
	}
	return boxes;
}

bool
InBox(const std::vector<std::int32_t> &c, const std::vector<CellInterval> &box)
{
	for (std::size_t a = 0; a < c.size(); a++)
		if (c[a] < box[a].lo || c[a] > box[a].hi)
			return false;
	return true;
}

bool
InMarginal(const std::vector<std::int32_t> &c, const MarginalQuery &q)
{
	for (std::size_t j = 0; j < q.axes.size(); j++)
		if (c[q.axes[j]] != q.values[j])
			return false;
	return true;
}

// Random attribute sets (few, so groups hold many queries); values usually taken from a domain cell (so that
// sparse domains get non-empty answers), sometimes uniform over the radix.
std::vector<MarginalQuery>
RandomMarginals(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices,
                const std::vector<std::vector<std::int32_t>> &cells, std::size_t count)
{
	const std::size_t d = radices.size();
	std::vector<std::vector<std::size_t>> sets(1 + gen() % 4);
	for (std::vector<std::size_t> &s : sets)
		for (std::size_t a = 0; a < d; a++)
			if (gen() % 2)
				s.push_back(a);
	std::vector<MarginalQuery> queries(count);
	for (MarginalQuery &q : queries) {
		q.axes = sets[gen() % sets.size()];
		const bool from_cell = !cells.empty() && gen() % 4 != 0;
		const std::vector<std::int32_t> &cell = from_cell ? cells[gen() % cells.size()] : radices;
		for (std::size_t a : q.axes)
			q.values.push_back(from_cell ? cell[a] : std::int32_t(gen() % std::uint64_t(radices[a])));
	}
	return queries;
}

// Evaluate, EvaluateCounts, EvaluateOne and AddToQueryCells of any workload against membership[q][i].
void
ExpectMatchesBruteForce(const Workload &w, const std::vector<std::vector<bool>> &member, std::mt19937_64 &gen)
{
	const std::size_t n = w.CellCount();
	ASSERT_EQ(w.QueryCount(), member.size());
	const std::vector<double> weights = RandomDistribution(gen, n);
	const std::vector<std::int64_t> histogram = RandomHistogram(gen, n);
	std::vector<double> answers;
	std::vector<std::int64_t> counts;
	w.Evaluate(weights, answers);
	w.EvaluateCounts(histogram, counts);
	ASSERT_EQ(answers.size(), member.size());
	ASSERT_EQ(counts.size(), member.size());
	for (std::size_t q = 0; q < member.size(); q++) {
		double expected = 0.0;
		std::int64_t expected_count = 0;
		for (std::size_t i = 0; i < n; i++)
			if (member[q][i]) {
				expected += weights[i];
				expected_count += histogram[i];
			}
		EXPECT_NEAR(answers[q], expected, 1e-12) << "query " << q;
		EXPECT_EQ(counts[q], expected_count) << "query " << q;
		EXPECT_NEAR(w.EvaluateOne(q, weights), expected, 1e-12) << "query " << q;
		// Exactly the query's cells, each once.
		std::vector<double> log_weights(n, 0.0);
		w.AddToQueryCells(q, 1.0, log_weights);
		for (std::size_t i = 0; i < n; i++)
			ASSERT_EQ(log_weights[i], member[q][i] ? 1.0 : 0.0) << "query " << q << ", cell " << i;
	}
}

double
MaxError(const Workload &w, const std::vector<double> &synthetic, const std::vector<std::int64_t> &histogram)
{
	std::vector<double> answers;
	std::vector<std::int64_t> counts;
	w.Evaluate(synthetic, answers);
	w.EvaluateCounts(histogram, counts);
	const double n = double(std::accumulate(histogram.begin(), histogram.end(), std::int64_t(0)));
	double worst = 0.0;
	for (std::size_t q = 0; q < answers.size(); q++)
		worst = std::max(worst, std::fabs(answers[q] - double(counts[q]) / n));
	return worst;
}

TEST(CellGrid, IndexAndCoordinatesAreInverseFirstAxisMostSignificant)
{
	std::mt19937_64 gen(1);
	for (int trial = 0; trial < 200; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const CellGrid grid(radices, kNoLimit);
		std::size_t n = 1;
		for (std::int32_t r : radices)
			n *= std::size_t(r);
		ASSERT_EQ(grid.CellCount(), n);
		EXPECT_EQ(grid.Stride(radices.size() - 1), 1u);
		for (std::size_t i = 0; i < n; i++) {
			const std::vector<std::int32_t> c = grid.CoordinatesOf(i);
			EXPECT_EQ(c, Decode(i, radices));
			EXPECT_EQ(grid.IndexOf(c), i);
		}
		EXPECT_PAP_ERROR(ErrorKind::Internal, grid.CoordinatesOf(n));
	}
	const CellGrid grid({3, 4, 5}, 60);
	EXPECT_EQ(grid.IndexOf({1, 0, 0}), 20u);
	EXPECT_EQ(grid.IndexOf({0, 1, 0}), 5u);
	EXPECT_EQ(grid.IndexOf({0, 0, 1}), 1u);
	EXPECT_EQ(grid.IndexOf({2, 3, 4}), 59u);
	EXPECT_PAP_ERROR(ErrorKind::Internal, grid.IndexOf({0, 4, 0}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, grid.IndexOf({0, -1, 0}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, grid.IndexOf({0, 0}));
	EXPECT_EQ(CellGrid({}, 1).CellCount(), 1u);
}

TEST(CellGrid, SizeOverTheLimitOrOverflowingIsLimitExceeded)
{
	EXPECT_EQ(CellGrid({10, 10, 10}, 1000).CellCount(), 1000u);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellGrid({10, 10, 10}, 999));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellGrid({65536, 65536, 65536, 65536}, kNoLimit));  // 2^64 wraps to 0
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellGrid(std::vector<std::int32_t>(70, 2), kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellGrid({3, 0, 2}, kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellGrid({3, -1}, kNoLimit));
}

TEST(CellGrid, ForEachCellInBoxVisitsExactlyTheBoxInOrder)
{
	std::mt19937_64 gen(2);
	for (int trial = 0; trial < 300; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const CellGrid grid(radices, kNoLimit);
		for (const std::vector<CellInterval> &box : RandomBoxes(gen, radices, 10)) {
			std::vector<std::size_t> visited, expected;
			grid.ForEachCellInBox(box.data(), [&](std::size_t i) { visited.push_back(i); });
			for (std::size_t i = 0; i < grid.CellCount(); i++)
				if (InBox(Decode(i, radices), box))
					expected.push_back(i);
			EXPECT_EQ(visited, expected);
		}
	}
}

TEST(BoxWorkload, MatchesBruteForceOnRandomGrids)
{
	std::mt19937_64 gen(3);
	for (int trial = 0; trial < 300; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::vector<std::vector<CellInterval>> boxes = RandomBoxes(gen, radices, 1 + gen() % 40);
		const BoxWorkload w(CellGrid(radices, kNoLimit), boxes);
		std::vector<std::vector<bool>> member(boxes.size(), std::vector<bool>(w.CellCount()));
		for (std::size_t q = 0; q < boxes.size(); q++)
			for (std::size_t i = 0; i < w.CellCount(); i++)
				member[q][i] = InBox(Decode(i, radices), boxes[q]);
		ExpectMatchesBruteForce(w, member, gen);
		if (HasFatalFailure())
			return;
	}
}

// Thin boxes on many binary axes take the direct-sum path (fewer cells than corners); same answers.
TEST(BoxWorkload, ThinBoxesOnManyAxesMatchBruteForce)
{
	std::mt19937_64 gen(4);
	const std::vector<std::int32_t> radices(12, 2);
	std::vector<std::vector<CellInterval>> boxes;
	for (int q = 0; q < 50; q++) {
		std::vector<CellInterval> box;
		for (std::int32_t r : radices)
			box.push_back(gen() % 3 == 0 ? BoxWorkload::All(r) : CellInterval{1, 1});
		boxes.push_back(box);
	}
	const BoxWorkload w(CellGrid(radices, kNoLimit), boxes);
	std::vector<std::vector<bool>> member(boxes.size(), std::vector<bool>(w.CellCount()));
	for (std::size_t q = 0; q < boxes.size(); q++)
		for (std::size_t i = 0; i < w.CellCount(); i++)
			member[q][i] = InBox(Decode(i, radices), boxes[q]);
	ExpectMatchesBruteForce(w, member, gen);
}

TEST(BoxWorkload, EmptyQueriesAreZeroAndHaveNoCells)
{
	const std::vector<std::int32_t> radices{3, 4, 2};
	const BoxWorkload w(CellGrid(radices, kNoLimit), {{{0, 2}, {2, 1}, {0, 1}}, {{1, 0}, {0, 3}, {0, 1}},
	                                                 {{0, 2}, {0, 3}, {5, -5}}, {{0, 2}, {0, 3}, {0, 1}}});
	std::vector<double> answers;
	std::vector<std::int64_t> counts;
	w.Evaluate(std::vector<double>(24, 1.0 / 24), answers);
	w.EvaluateCounts(std::vector<std::int64_t>(24, 7), counts);
	ASSERT_EQ(answers.size(), 4u);
	EXPECT_EQ(answers[0], 0.0);
	EXPECT_EQ(answers[1], 0.0);
	EXPECT_EQ(answers[2], 0.0);
	EXPECT_NEAR(answers[3], 1.0, 1e-15);
	EXPECT_EQ(counts, (std::vector<std::int64_t>{0, 0, 0, 168}));
	std::vector<double> log_weights(24, 0.0);
	for (std::size_t q = 0; q < 3; q++) {
		EXPECT_TRUE(w.empty(q));
		w.AddToQueryCells(q, 1.0, log_weights);
		EXPECT_EQ(w.EvaluateOne(q, std::vector<double>(24, 1.0)), 0.0);
	}
	EXPECT_EQ(log_weights, std::vector<double>(24, 0.0));
}

TEST(BoxWorkload, MalformedBoxesAreInternalErrors)
{
	const CellGrid grid({3, 4}, kNoLimit);
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxWorkload(grid, {{{0, 2}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxWorkload(grid, {{{0, 3}, {0, 3}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxWorkload(grid, {{{-1, 2}, {0, 3}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxWorkload(grid, {{{0, 2}, {0, 4}}}));
	const BoxWorkload w(grid, {{{0, 2}, {0, 3}}});
	std::vector<double> answers;
	EXPECT_PAP_ERROR(ErrorKind::Internal, w.Evaluate(std::vector<double>(11, 0.0), answers));
}

TEST(BoxWorkload, CountOverflowIsDetectedAndTheEdgeIsExact)
{
	const CellGrid grid({2, 3}, kNoLimit);
	const BoxWorkload w(grid, {{{1, 1}, {1, 2}}, {{0, 1}, {0, 2}}, {{1, 1}, {2, 2}}});
	std::vector<std::int64_t> counts;
	std::vector<std::int64_t> h(6, 0);
	h[0] = kMax / 2 + 1;
	h[5] = kMax / 2 + 1;
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, w.EvaluateCounts(h, counts));
	// A total of exactly INT64_MAX: every prefix fits, and so does every answer, though the corners' partial sums
	// (upper + lower-left, before the subtractions) would not fit an int64.
	h.assign(6, 0);
	h[5] = kMax - 3;
	h[0] = 1;
	h[1] = 1;
	h[3] = 1;
	ASSERT_NO_THROW(w.EvaluateCounts(h, counts));
	EXPECT_EQ(counts, (std::vector<std::int64_t>{kMax - 3, kMax, kMax - 3}));
}

TEST(MarginalWorkload, DenseGridMatchesBruteForce)
{
	std::mt19937_64 gen(5);
	for (int trial = 0; trial < 300; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::vector<std::vector<std::int32_t>> cells = AllCoordinates(radices);
		const std::vector<MarginalQuery> queries = RandomMarginals(gen, radices, cells, 1 + gen() % 40);
		const MarginalWorkload w(CellGrid(radices, kNoLimit), queries);
		// The same domain given as a list: the scanning path, same answers.
		const MarginalWorkload listed(radices, cells, queries);
		std::vector<std::vector<bool>> member(queries.size(), std::vector<bool>(cells.size()));
		for (std::size_t q = 0; q < queries.size(); q++)
			for (std::size_t i = 0; i < cells.size(); i++)
				member[q][i] = InMarginal(cells[i], queries[q]);
		ExpectMatchesBruteForce(w, member, gen);
		ExpectMatchesBruteForce(listed, member, gen);
		if (HasFatalFailure())
			return;
	}
}

// A random subset of grid points in random order; large radices force the hashed marginal tables.
TEST(MarginalWorkload, SparseDomainMatchesBruteForce)
{
	std::mt19937_64 gen(6);
	for (int trial = 0; trial < 300; trial++) {
		const bool wide = trial % 2 == 1;
		std::vector<std::int32_t> radices = RandomRadices(gen);
		std::vector<std::vector<std::int32_t>> cells;
		if (wide) {
			for (std::int32_t &r : radices)
				r = 1 + std::int32_t(gen() % 100000);
			for (std::size_t i = 0, n = 1 + gen() % 200; i < n; i++) {
				std::vector<std::int32_t> c;
				for (std::int32_t r : radices)
					c.push_back(std::int32_t(gen() % (gen() % 2 ? 3 : std::uint64_t(r))) % r);  // some repeats per axis
				cells.push_back(c);
			}
			std::sort(cells.begin(), cells.end());
			cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
		} else {
			for (const std::vector<std::int32_t> &c : AllCoordinates(radices))
				if (gen() % 3 != 0)
					cells.push_back(c);
			if (cells.empty())
				cells.push_back(std::vector<std::int32_t>(radices.size(), 0));
		}
		std::shuffle(cells.begin(), cells.end(), gen);
		const std::vector<MarginalQuery> queries = RandomMarginals(gen, radices, cells, 1 + gen() % 40);
		const MarginalWorkload w(radices, cells, queries);
		std::vector<std::vector<bool>> member(queries.size(), std::vector<bool>(cells.size()));
		for (std::size_t q = 0; q < queries.size(); q++)
			for (std::size_t i = 0; i < cells.size(); i++)
				member[q][i] = InMarginal(cells[i], queries[q]);
		ExpectMatchesBruteForce(w, member, gen);
		if (HasFatalFailure())
			return;
	}
}

TEST(MarginalWorkload, GroupsByAttributeSetAndUnmatchedQueriesAreZero)
{
	// Domain: 3 of the 12 cells of a 3 x 4 grid. Value (2, 3) exists on the grid but not in the domain.
	const std::vector<std::vector<std::int32_t>> cells{{0, 1}, {2, 1}, {0, 3}};
	const std::vector<MarginalQuery> queries{{{0}, {0}}, {{0}, {1}}, {{0, 1}, {2, 3}}, {{}, {}}, {{0, 1}, {0, 1}},
	                                         {{0}, {2}}, {{1}, {1}}};
	const MarginalWorkload w({3, 4}, cells, queries);
	EXPECT_EQ(w.GroupCount(), 4u);
	std::vector<double> answers;
	std::vector<std::int64_t> counts;
	w.Evaluate({0.5, 0.25, 0.25}, answers);
	w.EvaluateCounts({5, 7, 11}, counts);
	EXPECT_EQ(answers, (std::vector<double>{0.75, 0.0, 0.0, 1.0, 0.5, 0.25, 0.75}));
	EXPECT_EQ(counts, (std::vector<std::int64_t>{16, 0, 0, 23, 5, 7, 12}));
	std::vector<double> log_weights(3, 0.0);
	w.AddToQueryCells(1, 1.0, log_weights);
	w.AddToQueryCells(2, 1.0, log_weights);
	EXPECT_EQ(log_weights, std::vector<double>(3, 0.0));
}

TEST(MarginalWorkload, MalformedInputIsInternalError)
{
	const std::vector<std::vector<std::int32_t>> cells{{0, 1}, {2, 1}};
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, cells, {{{1, 0}, {1, 0}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, cells, {{{0, 0}, {1, 1}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, cells, {{{2}, {0}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, cells, {{{1}, {4}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, cells, {{{1}, {}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, {{0, 4}}, {}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 4}, {{0}}, {}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalWorkload({3, 0}, {}, {}));
}

TEST(MarginalWorkload, CountOverflowIsDetectedOnBothTableKinds)
{
	std::vector<std::int64_t> counts;
	const std::vector<std::int64_t> h{kMax / 2 + 1, kMax / 2 + 1, 0};
	// Dense tables (small radices).
	const MarginalWorkload dense({2, 2}, {{0, 0}, {0, 1}, {1, 1}}, {{{0}, {0}}});
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, dense.EvaluateCounts(h, counts));
	// Hashed tables (radices far above the domain's size).
	const MarginalWorkload hashed({100000, 100000}, {{0, 0}, {0, 1}, {1, 1}}, {{{0}, {0}}, {{0, 1}, {1, 1}}});
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, hashed.EvaluateCounts(h, counts));
	ASSERT_NO_THROW(hashed.EvaluateCounts({kMax - 1, 1, 5}, counts));
	EXPECT_EQ(counts, (std::vector<std::int64_t>{kMax, 5}));
}

// Both workloads through PMW's interface: a distribution comes back, and with many rows it beats the prior.
TEST(GroupedWorkload, RunPmwReturnsADistributionOnBothWorkloads)
{
	std::mt19937_64 gen(7);
	const std::vector<std::int32_t> radices{4, 3, 5};
	const CellGrid grid(radices, kNoLimit);
	const std::vector<std::vector<std::int32_t>> cells = AllCoordinates(radices);
	const BoxWorkload boxes(grid, RandomBoxes(gen, radices, 80));
	std::vector<MarginalQuery> marginals;
	for (std::size_t a = 0; a < 3; a++)
		for (std::size_t b = a + 1; b < 3; b++)
			for (std::int32_t u = 0; u < radices[a]; u++)
				for (std::int32_t v = 0; v < radices[b]; v++)
					marginals.push_back({{a, b}, {u, v}});
	const MarginalWorkload dense(grid, marginals);
	// A sparse domain: 40 of the 60 cells.
	std::vector<std::vector<std::int32_t>> support(cells.begin(), cells.end());
	std::shuffle(support.begin(), support.end(), gen);
	support.resize(40);
	const MarginalWorkload sparse(radices, support, marginals);

	for (const Workload *w : {static_cast<const Workload *>(&boxes), static_cast<const Workload *>(&dense),
	                          static_cast<const Workload *>(&sparse)}) {
		for (SparseVectorAccounting accounting : {SparseVectorAccounting::Pure, SparseVectorAccounting::Approximate}) {
			const std::size_t n = w->CellCount();
			std::vector<std::int64_t> histogram(n);
			for (std::size_t i = 0; i < n; i++)
				histogram[i] = std::int64_t(gen() % 3 == 0 ? 0 : 1 + gen() % 200000);  // about 6e6 rows
			PmwParameters p = PmwNoiseFor(accounting, 30, 0.5, 0.5, 1.0, 1e-6);
			p.threshold = PmwThreshold(p, w->QueryCount(), 0.05);
			SeededRandomSource rng(gen());
			const std::vector<double> prior = UniformPrior(n);
			const PmwResult r = RunPmw(*w, histogram, prior, p, rng);
			ASSERT_EQ(r.synthetic.size(), n);
			double sum = 0.0;
			for (double x : r.synthetic) {
				EXPECT_GT(x, 0.0);
				sum += x;
			}
			EXPECT_NEAR(sum, 1.0, 1e-12);
			EXPECT_LE(r.updates, p.cutoff);
			EXPECT_GT(r.updates, 0);
			EXPECT_LT(MaxError(*w, r.synthetic, histogram), MaxError(*w, prior, histogram));
		}
	}
}

// Printed, not asserted: one summed-area pass against the per-query loop (EvaluateOne on every query).
TEST(GroupedWorkload, SpeedSanityFigure)
{
	std::mt19937_64 gen(8);
	const std::vector<std::int32_t> radices{50, 40, 50};  // 10^5 cells
	std::vector<std::vector<CellInterval>> boxes(10000);
	for (std::vector<CellInterval> &box : boxes)
		for (std::int32_t r : radices) {
			std::int32_t a = std::int32_t(gen() % std::uint64_t(r)), b = std::int32_t(gen() % std::uint64_t(r));
			box.push_back({std::min(a, b), std::max(a, b)});
		}
	const BoxWorkload w(CellGrid(radices, kNoLimit), boxes);
	const std::vector<double> weights = RandomDistribution(gen, w.CellCount());
	using Clock = std::chrono::steady_clock;
	std::vector<double> answers;
	const int repeats = 20;
	const Clock::time_point t0 = Clock::now();
	for (int i = 0; i < repeats; i++)
		w.Evaluate(weights, answers);
	const double grouped = std::chrono::duration<double>(Clock::now() - t0).count() / repeats;
	std::vector<double> direct(boxes.size());
	const Clock::time_point t1 = Clock::now();
	for (std::size_t q = 0; q < boxes.size(); q++)
		direct[q] = w.EvaluateOne(q, weights);
	const double per_query = std::chrono::duration<double>(Clock::now() - t1).count();
	double worst = 0.0;
	for (std::size_t q = 0; q < boxes.size(); q++)
		worst = std::max(worst, std::fabs(answers[q] - direct[q]));
	EXPECT_LT(worst, 1e-12);

	// Marginals on the same grid: every 1- and 2-way marginal (140 + 6,500 queries, 6 groups).
	std::vector<MarginalQuery> marginals;
	for (std::size_t a = 0; a < 3; a++) {
		for (std::int32_t u = 0; u < radices[a]; u++)
			marginals.push_back({{a}, {u}});
		for (std::size_t b = a + 1; b < 3; b++)
			for (std::int32_t u = 0; u < radices[a]; u++)
				for (std::int32_t v = 0; v < radices[b]; v++)
					marginals.push_back({{a, b}, {u, v}});
	}
	const MarginalWorkload m(CellGrid(radices, kNoLimit), marginals);
	const Clock::time_point t2 = Clock::now();
	for (int i = 0; i < repeats; i++)
		m.Evaluate(weights, answers);
	const double marginal = std::chrono::duration<double>(Clock::now() - t2).count() / repeats;
	std::printf("[ speed    ] BoxWorkload 1e5 cells x 3 axes, 1e4 boxes: Evaluate %.3f ms, per-query loop %.1f ms "
	            "(x%.0f); MarginalWorkload %zu queries in %zu groups: Evaluate %.3f ms\n",
	            grouped * 1e3, per_query * 1e3, per_query / grouped, marginals.size(), m.GroupCount(), marginal * 1e3);
}

}  // namespace
}  // namespace pap::core
