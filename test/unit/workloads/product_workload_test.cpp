// ProductWorkload against brute force: on small random grids (1-4 axes) and random query lists (point, interval,
// full-range, empty, unconstrained), over all three domain kinds, every answer of Evaluate, EvaluateCounts and
// EvaluateOne equals the per-query sum over the cells that satisfy the query, decided here from each cell's
// coordinates (decoded by hand for the dense grid, domain.points() for the sparse ones, the outside cell only in
// TRUE); AddToQueryCells touches exactly those cells. Sparse domains with large radices get hashed group tables.
// Then overflow, malformed queries, and a printed (not asserted) speed figure.
#include "core/workloads/product_workload.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/cells/cell_domain.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

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

// A cell's coordinates, or nothing for the outside cell.
struct TestCell {
	bool outside = false;
	std::vector<std::int32_t> at;
};

std::vector<TestCell>
CellsOf(const CellDomain &domain)
{
	std::vector<TestCell> cells(domain.CellCount());
	const std::size_t d = domain.AxisCount();
	for (std::size_t i = 0; i < cells.size(); i++) {
		if (domain.kind() == DomainKind::Dense)
			cells[i].at = Decode(i, domain.radices());
		else if (domain.HasOutsideCell() && i == domain.OutsideCell())
			cells[i].outside = true;
		else
			cells[i].at.assign(domain.points().begin() + std::ptrdiff_t(i * d),
			                   domain.points().begin() + std::ptrdiff_t(i * d + d));
	}
	return cells;
}

bool
InQuery(const TestCell &cell, const std::vector<AxisConstraint> &query)
{
	if (cell.outside)
		return query.empty();
	for (const AxisConstraint &c : query)
		if (cell.at[c.axis] < c.bins.lo || cell.at[c.axis] > c.bins.hi)
			return false;
	return true;
}

// A random query: a random subset of the axes, each a point, an interval, the full range, or (rarely) empty.
std::vector<AxisConstraint>
RandomQuery(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices)
{
	std::vector<AxisConstraint> query;
	if (gen() % 8 == 0)
		return query;  // TRUE
	for (std::uint32_t a = 0; a < radices.size(); a++) {
		if (gen() % 2)
			continue;
		const std::int32_t r = radices[std::size_t(a)];
		std::int32_t lo = std::int32_t(gen() % std::uint64_t(r)), hi = std::int32_t(gen() % std::uint64_t(r));
		if (lo > hi)
			std::swap(lo, hi);
		switch (gen() % 10) {
		case 0:
			lo = 0;
			hi = r - 1;
			break;                                             // full range
		case 1: lo = hi + 1 + std::int32_t(gen() % 3); break;  // empty, possibly beyond the radix
		case 2:
		case 3:
		case 4: hi = lo; break;  // point
		default: break;          // interval
		}
		query.push_back({a, {lo, hi}});
	}
	return query;
}

// Radices for a dense domain (small) or a sparse one (some axes large: 2^20 < S-subgrid, so hashed tables).
std::vector<std::int32_t>
RandomRadices(std::mt19937_64 &gen, bool large_axes)
{
	std::vector<std::int32_t> radices(1 + gen() % 4);
	for (std::int32_t &r : radices)
		r = large_axes && gen() % 2 ? 1500 + std::int32_t(gen() % 1500) : 1 + std::int32_t(gen() % 5);
	return radices;
}

// Points clustered on a few values per large axis, so that box queries still catch some of them.
std::vector<std::int32_t>
RandomPoints(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices, std::size_t count)
{
	std::vector<std::int32_t> flat;
	for (std::size_t i = 0; i < count; i++)
		for (std::int32_t r : radices)
			flat.push_back(r > 100 ? std::int32_t(gen() % 4) * (r / 4) + std::int32_t(gen() % 3)
			                       : std::int32_t(gen() % std::uint64_t(r)));
	return flat;
}

CellDomain
RandomDomain(std::mt19937_64 &gen, int kind)
{
	if (kind == 0)
		return CellDomain::Dense(RandomRadices(gen, false), kNoLimit);
	const std::vector<std::int32_t> radices = RandomRadices(gen, true);
	const std::vector<std::int32_t> points = RandomPoints(gen, radices, gen() % 40);
	return kind == 1 ? CellDomain::Support(radices, points, kNoLimit) : CellDomain::Explicit(radices, points);
}

// Interval queries on large axes: near the clustered points so that answers are not all zero.
std::vector<AxisConstraint>
RandomQueryNearPoints(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices)
{
	std::vector<AxisConstraint> query = RandomQuery(gen, radices);
	for (AxisConstraint &c : query) {
		const std::int32_t r = radices[c.axis];
		if (r <= 100 || c.bins.empty() || c.bins.hi - c.bins.lo + 1 == r)
			continue;
		const std::int32_t lo = std::int32_t(gen() % 4) * (r / 4) + std::int32_t(gen() % 3);
		c.bins = {lo, c.bins.lo == c.bins.hi ? lo : std::min(r - 1, lo + std::int32_t(gen() % (r / 2)))};
	}
	return query;
}

TEST(ProductWorkload, MatchesBruteForceOnEveryDomainKind)
{
	std::mt19937_64 gen(21);
	std::uniform_real_distribution<double> u(0.0, 1.0);
	for (int trial = 0; trial < 600; trial++) {
		const int kind = trial % 3;
		const CellDomain domain = RandomDomain(gen, kind);
		const std::size_t n = domain.CellCount();
		const std::vector<TestCell> cells = CellsOf(domain);
		std::vector<std::vector<AxisConstraint>> list;
		ProductQueryList queries;
		std::set<std::vector<std::uint32_t>> groups;
		const std::size_t query_count = gen() % 30;
		for (std::size_t q = 0; q < query_count; q++) {
			list.push_back(RandomQueryNearPoints(gen, domain.radices()));
			queries.Add(list.back());
			std::vector<std::uint32_t> axes;
			bool empty = false;
			for (const AxisConstraint &c : list.back()) {
				axes.push_back(c.axis);
				empty = empty || c.bins.empty();
			}
			if (!axes.empty() && !empty)
				groups.insert(axes);
		}
		const ProductWorkload workload(domain, queries);
		ASSERT_EQ(workload.QueryCount(), query_count);
		ASSERT_EQ(workload.CellCount(), n);
		ASSERT_EQ(workload.GroupCount(), groups.size());

		std::vector<double> weights(n);
		std::vector<std::int64_t> histogram(n);
		for (std::size_t i = 0; i < n; i++) {
			weights[i] = u(gen);
			// Counts too large for doubles to add exactly, but whose total fits an int64.
			histogram[i] =
			    gen() % 2 ? std::int64_t(gen() % 1000) : std::int64_t(gen() % (std::uint64_t(kMax) / (2 * n))) + 1;
		}
		std::vector<double> answers;
		std::vector<std::int64_t> counts;
		workload.Evaluate(weights, answers);
		workload.EvaluateCounts(histogram, counts);
		ASSERT_EQ(answers.size(), query_count);
		ASSERT_EQ(counts.size(), query_count);
		for (std::size_t q = 0; q < query_count; q++) {
			double expected = 0.0;
			std::int64_t expected_count = 0;
			std::vector<double> log_weights(n, 0.0);
			workload.AddToQueryCells(q, 1.0, log_weights);
			for (std::size_t i = 0; i < n; i++) {
				const bool in = InQuery(cells[i], list[q]);
				ASSERT_EQ(log_weights[i], in ? 1.0 : 0.0) << "trial " << trial << " query " << q << " cell " << i;
				if (in) {
					expected += weights[i];
					expected_count += histogram[i];
				}
			}
			ASSERT_NEAR(answers[q], expected, 1e-9) << "trial " << trial << " query " << q;
			ASSERT_EQ(counts[q], expected_count) << "trial " << trial << " query " << q;
			ASSERT_NEAR(workload.EvaluateOne(q, weights), expected, 1e-9);
		}
	}
}

// Marginal-style groups on sparse domains (every query a point of its axes; a hashed group looks its cells up in
// an index of its points at the first Evaluate, every group uses cell -> query maps from the second): the point
// of every occupied cell, absent points, a group with a duplicate
// point and a group with one wider interval (both keep the tables); Evaluate twice with different weights,
// then EvaluateCounts, against brute force.
TEST(ProductWorkload, PointGroupsOnSparseDomains)
{
	std::mt19937_64 gen(23);
	std::uniform_real_distribution<double> u(0.0, 1.0);
	for (int trial = 0; trial < 60; trial++) {
		const std::vector<std::int32_t> radices = {5, 1 + std::int32_t(gen() % 7), trial % 2 ? 3000 : 9, 4};
		std::vector<std::int32_t> points;
		for (int i = 0; i < 80; i++)
			for (std::int32_t r : radices)
				points.push_back(std::int32_t(gen() % std::uint64_t(r)));
		const CellDomain domain = CellDomain::Support(radices, points, kNoLimit);
		const std::vector<TestCell> cells = CellsOf(domain);
		const std::size_t n = domain.CellCount();
		std::vector<std::vector<AxisConstraint>> list;
		ProductQueryList queries;
		auto add = [&](std::vector<AxisConstraint> q) {
			list.push_back(q);
			queries.Add(q);
		};
		for (std::uint32_t a = 0; a < 4; a++)
			for (std::uint32_t b = a + 1; b < 4; b++) {
				std::set<std::pair<std::int32_t, std::int32_t>> seen;
				for (std::size_t i = 0; i + 1 < n; i++)  // the points of the occupied cells, and a few absent ones
					if (seen.insert({cells[i].at[a], cells[i].at[b]}).second)
						add({{a, {cells[i].at[a], cells[i].at[a]}}, {b, {cells[i].at[b], cells[i].at[b]}}});
				for (int extra = 0; extra < 3; extra++) {
					const std::int32_t x = std::int32_t(gen() % std::uint64_t(radices[a]));
					const std::int32_t y = std::int32_t(gen() % std::uint64_t(radices[b]));
					if (seen.insert({x, y}).second)
						add({{a, {x, x}}, {b, {y, y}}});
				}
			}
		add({{0, {1, 1}}});
		add({{0, {1, 1}}});  // a duplicate point: group {0} keeps its table
		add({{3, {2, 2}}});
		add({{3, {0, 1}}});  // a wider interval: group {3} keeps its table
		add({});
		const ProductWorkload workload(domain, queries);
		for (int call = 0; call < 2; call++) {
			std::vector<double> weights(n);
			std::vector<std::int64_t> histogram(n);
			for (std::size_t i = 0; i < n; i++) {
				weights[i] = u(gen);
				histogram[i] = std::int64_t(gen() % 100);
			}
			std::vector<double> answers;
			std::vector<std::int64_t> counts;
			workload.Evaluate(weights, answers);
			workload.EvaluateCounts(histogram, counts);
			for (std::size_t q = 0; q < list.size(); q++) {
				double expected = 0.0;
				std::int64_t expected_count = 0;
				for (std::size_t i = 0; i < n; i++)
					if (InQuery(cells[i], list[q])) {
						expected += weights[i];
						expected_count += histogram[i];
					}
				ASSERT_NEAR(answers[q], expected, 1e-9) << "trial " << trial << " call " << call << " query " << q;
				ASSERT_EQ(counts[q], expected_count) << "trial " << trial << " call " << call << " query " << q;
			}
		}
	}
}

// A sparse domain whose two-axis group is hashed (3000 x 3000 > 2^20) next to dense one-axis groups, with
// enough points that the hash table probes collide; box and point queries, present and absent points.
TEST(ProductWorkload, HashedGroupsWithManyPoints)
{
	std::mt19937_64 gen(22);
	const std::vector<std::int32_t> radices = {3000, 3000, 2};
	std::vector<std::int32_t> flat;
	for (int i = 0; i < 5000; i++)
		for (std::int32_t r : {60, 60, 2})
			flat.push_back(std::int32_t(gen() % std::uint64_t(r)));
	const CellDomain domain = CellDomain::Support(radices, flat, kNoLimit);
	const std::vector<TestCell> cells = CellsOf(domain);
	std::vector<std::vector<AxisConstraint>> list;
	ProductQueryList queries;
	for (int q = 0; q < 400; q++) {
		const std::int32_t x = std::int32_t(gen() % 70), y = std::int32_t(gen() % 70);
		if (q % 2)
			list.push_back({{0, {x, x}}, {1, {y, y}}});
		else
			list.push_back({{0, {x, x + std::int32_t(gen() % 20)}}, {1, {y, std::int32_t(gen() % 3000)}}});
		if (q % 5 == 0)
			list.back().push_back({2, {q % 10 == 0 ? 0 : 1, 1}});
		if (q % 7 == 0)
			list.back() = {{0, {x, x + 3}}};
		queries.Add(list.back());
	}
	const ProductWorkload workload(domain, queries);
	std::vector<std::int64_t> histogram(domain.CellCount());
	for (std::int64_t &h : histogram)
		h = std::int64_t(gen() % 100);
	std::vector<std::int64_t> counts;
	workload.EvaluateCounts(histogram, counts);
	std::int64_t nonzero = 0;
	for (std::size_t q = 0; q < list.size(); q++) {
		std::int64_t expected = 0;
		for (std::size_t i = 0; i < cells.size(); i++)
			if (InQuery(cells[i], list[q]))
				expected += histogram[i];
		ASSERT_EQ(counts[q], expected) << q;
		nonzero += expected != 0;
	}
	EXPECT_GT(nonzero, 100);  // the test would prove little if every answer were 0
}

TEST(ProductWorkload, OverflowIsDetected)
{
	const CellDomain dense = CellDomain::Dense({3}, kNoLimit);
	std::vector<std::int64_t> counts;
	ProductQueryList all;
	all.Add({});
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, ProductWorkload(dense, all).EvaluateCounts({kMax, 1, 0}, counts));
	ProductQueryList points;
	points.Add({{0, {0, 0}}});
	points.Add({{0, {1, 1}}});
	EXPECT_PAP_ERROR(
	    ErrorKind::LimitExceeded,
	    ProductWorkload(CellDomain::Dense({2, 2}, kNoLimit), points).EvaluateCounts({kMax, 1, 0, 0}, counts));
	// Corner terms near the int64 limit whose difference fits: exact, no error.
	ProductQueryList interval;
	interval.Add({{0, {1, 2}}});
	ProductWorkload(dense, interval).EvaluateCounts({kMax / 2, kMax / 2, 1}, counts);
	EXPECT_EQ(counts, std::vector<std::int64_t>{kMax / 2 + 1});
	// A hashed group.
	const CellDomain sparse = CellDomain::Explicit({5000, 5000}, {1, 1, 1, 2, 1, 3});
	ProductQueryList box;
	box.Add({{0, {0, 4}}, {1, {0, 4999}}});
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, ProductWorkload(sparse, box).EvaluateCounts({kMax, 0, 1}, counts));
}

TEST(ProductWorkload, MalformedInput)
{
	const CellDomain dense = CellDomain::Dense({3, 4}, kNoLimit);
	const auto make = [&](std::vector<AxisConstraint> query) {
		ProductQueryList list;
		list.Add(query);
		return ProductWorkload(dense, list);
	};
	EXPECT_PAP_ERROR(ErrorKind::Internal, make({{2, {0, 0}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, make({{0, {0, 3}}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, make({{1, {-1, 2}}}));
	// An empty interval may lie anywhere: the query is simply empty.
	const ProductWorkload empty = make({{0, {7, 2}}});
	std::vector<double> answers;
	empty.Evaluate(std::vector<double>(12, 1.0), answers);
	EXPECT_EQ(answers, std::vector<double>{0.0});
	EXPECT_EQ(empty.GroupCount(), 0u);
	EXPECT_PAP_ERROR(ErrorKind::Internal, empty.Evaluate(std::vector<double>(11, 1.0), answers));
	std::vector<std::int64_t> counts;
	EXPECT_PAP_ERROR(ErrorKind::Internal, empty.EvaluateCounts(std::vector<std::int64_t>(13, 1), counts));
}

// Not an assertion: the order of magnitude of Evaluate for boxes(carat, price)-like workloads.
TEST(ProductWorkload, SpeedOfIntervalQueriesOnADenseGrid)
{
	std::mt19937_64 gen(23);
	const CellDomain domain = CellDomain::Dense({300, 300}, kNoLimit);
	ProductQueryList queries;
	const std::size_t count = 1000000;
	queries.Reserve(count, 2 * count);
	for (std::size_t q = 0; q < count; q++) {
		std::int32_t a = std::int32_t(gen() % 300), b = std::int32_t(gen() % 300);
		std::int32_t c = std::int32_t(gen() % 300), e = std::int32_t(gen() % 300);
		queries.Add({{0, {std::min(a, b), std::max(a, b)}}, {1, {std::min(c, e), std::max(c, e)}}});
	}
	const auto t0 = std::chrono::steady_clock::now();
	const ProductWorkload workload(domain, std::move(queries));
	const auto t1 = std::chrono::steady_clock::now();
	std::vector<double> weights(domain.CellCount(), 1.0 / double(domain.CellCount())), answers;
	workload.Evaluate(weights, answers);
	const auto t2 = std::chrono::steady_clock::now();
	const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
	std::printf("[ timing   ] 1e6 interval queries on 300x300: construct %.1f ms, Evaluate %.1f ms\n", ms(t1 - t0),
	            ms(t2 - t1));
	EXPECT_EQ(workload.GroupCount(), 1u);
}

}  // namespace
}  // namespace pap::core
