// The error model's data parts (src/core/mechanisms/error_model.hpp) on inputs whose values are computed by hand
// (or, for a relative-entropy inversion, by an independent bisection of the same equation).
#include "core/mechanisms/error_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

using test::ZipfPopulation;

TEST(ErrorModel, TotalAddsProjectionOutsideAndNoiseButNotThePrior)
{
	ErrorParts parts{0.1, 0.2, 0.3, 0.25};
	EXPECT_DOUBLE_EQ(parts.Total(), 0.6);
	parts.noise = 0.9;
	EXPECT_EQ(parts.Total(), 1.0);
	EXPECT_DOUBLE_EQ(DataPartBeta(0.06), 0.01);
	// Part (a)'s event takes part (b)'s share too where part (b) cannot fail.
	EXPECT_DOUBLE_EQ(ProjectionEventBeta(0.06, false), 0.01);
	EXPECT_DOUBLE_EQ(ProjectionEventBeta(0.06, true), 0.02);
}

TEST(ErrorModel, ShareUpperBoundInvertsTheRelativeEntropy)
{
	// Nothing observed: KL(0 || p) = -ln(1 - p), so p = 1 - exp(-L / m).
	EXPECT_NEAR(ShareUpperBound(0.0, 1000, std::log(20.0)), 1.0 - std::exp(-std::log(20.0) / 1000.0), 1e-14);
	// Half observed: KL(1/2 || p) = -ln(4 p (1 - p)) / 2; with L / m = ln(4/3) / 2, 4 p (1 - p) = 3/4, p = 3/4.
	EXPECT_NEAR(ShareUpperBound(0.5, 2, std::log(4.0 / 3.0)), 0.75, 1e-14);
	// The other direction: KL(1/2 || 1/4) = ln(4/3) / 2, so two rows of a population share 1/4 show at most 1/2.
	EXPECT_NEAR(SampleShareUpperBound(0.25, 2, std::log(4.0 / 3.0)), 0.5, 1e-14);
	EXPECT_EQ(SampleShareUpperBound(0.0, 10, 5.0), 0.0);
	EXPECT_EQ(SampleShareUpperBound(1.0, 10, 5.0), 1.0);
	EXPECT_EQ(ShareUpperBound(1.0, 10, 5.0), 1.0);
	// A log term larger than rows * KL(q || 1) allows: the bound is 1.
	EXPECT_EQ(ShareUpperBound(0.0, 1, 100.0), 1.0);
	// More rows, a tighter bound; never below what was observed.
	EXPECT_LT(ShareUpperBound(0.1, 10000, 3.0), ShareUpperBound(0.1, 100, 3.0));
	EXPECT_GT(ShareUpperBound(0.1, 1e12, 3.0), 0.1);
	EXPECT_PAP_ERROR(ErrorKind::Internal, ShareUpperBound(0.1, 0, 1.0));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SampleShareUpperBound(0.1, 10, NAN));
}

TEST(ErrorModel, AxisCutOfFindsTheLargestSideAProjectionMovesOver)
{
	// Bins (-inf, 2], (2, 5], (5, inf). The first holds values 1 and 2 (10 and 20 rows): a bound between them leaves
	// 10 on the smaller side. The second holds 3, 4, 5 (5, 5, 30): between 4 and 5, min(10, 30) = 10. The third
	// holds 7 alone: no bound splits its public rows. Refinement's event: per bin the gap below its first value and
	// the whole bin (2), 4 per split between two values, the part above the last value unless the upper cut is that
	// value: 2 + 4 + 0, 2 + 8 + 0, 2 + 0 + 1 (the last bin is open above).
	const AxisCut cut = AxisCutOf({2, 5}, {1, 2, 3, 4, 5, 7}, {10, 20, 5, 5, 30, 8});
	EXPECT_EQ(cut.largest_side_rows, 10);
	EXPECT_EQ(cut.sides, 19u);
	EXPECT_EQ(cut.bin_splits, (std::vector<std::vector<std::int64_t>>{{0, 10, 30}, {0, 5, 10, 40}, {0, 8}}));
	// The finest cover (a cut at every public value): no bound splits public rows.
	const AxisCut finest = AxisCutOf({1, 2, 3}, {1, 2, 3}, {4, 5, 6});
	EXPECT_EQ(finest.largest_side_rows, 0);
	EXPECT_EQ(finest.sides, 2u + 2 + 2 + 1);  // the gap below each value and its bin; the bin above them all
	// A cut that is no public value leaves a part above the bin's last value; a bin without values, itself.
	EXPECT_EQ(AxisEventCount({2.5}, {1, 2, 3}), (2u + 4 + 1) + (2 + 0 + 1));
	EXPECT_EQ(AxisEventCount({1, 2}, {}), 3u);
	// One coarse bin of four equal values: the middle split, 2 of 4.
	EXPECT_EQ(AxisCutOf({4}, {1, 2, 3, 4}, {1, 1, 1, 1}).largest_side_rows, 2);
	EXPECT_PAP_ERROR(ErrorKind::Internal, AxisCutOf({1}, {2, 1}, {1, 1}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, AxisCutOf({1}, {1}, {1, 1}));
}

// Discrete columns (docs/mechanisms.md §10): an open interval between two whole multiples of the step one step apart
// holds no value of the column.
TEST(ErrorModel, NoValueBetweenConsecutiveMultiplesOfTheStep)
{
	EXPECT_TRUE(NoValueBetween(5, 6, 1));
	EXPECT_TRUE(NoValueBetween(-3, -2, 1));
	EXPECT_FALSE(NoValueBetween(5, 7, 1));    // 6 may lie between
	EXPECT_FALSE(NoValueBetween(5, 6, 0));    // a continuous column
	EXPECT_FALSE(NoValueBetween(5.5, 6, 1));  // not a value of an integer column: nothing is known
	EXPECT_FALSE(NoValueBetween(-INFINITY, 1, 1));
	EXPECT_FALSE(NoValueBetween(1, INFINITY, 1));
	EXPECT_FALSE(NoValueBetween(1, NAN, 1));
	EXPECT_FALSE(NoValueBetween(1, 2, NAN));
	EXPECT_FALSE(NoValueBetween(1, 2, -1));
	const double day = 86400.0 * 1e6;  // a date's step in axis units (microseconds)
	EXPECT_TRUE(NoValueBetween(9000 * day, 9001 * day, day));
	EXPECT_FALSE(NoValueBetween(9000 * day, 9002 * day, day));
	EXPECT_FALSE(NoValueBetween(9000 * day, 9000.5 * day, day));
	// Beyond 2^53 consecutive doubles are more than one apart: a bigint may lie between them, never reported empty.
	const double big = std::ldexp(1.0, 60);
	EXPECT_FALSE(NoValueBetween(big, std::nextafter(big, INFINITY), 1));
}

// The sets a discrete axis leaves empty need no bound: at the finest cuts of consecutive integers only the tails
// (below the lowest and above the highest public value) and the unseen integers can hold private rows.
TEST(ErrorModel, DiscreteAxesBoundOnlyTheSetsThatCanHoldValues)
{
	const std::vector<double> values{1, 2, 3, 5};
	const std::vector<std::int64_t> counts{4, 5, 6, 7};
	// Continuous: per bin the gap below its value and the bin (2 each), the bin above them all (1).
	EXPECT_EQ(AxisEventCount(values, values), 2u * 4 + 1);
	// Integers: the gaps (1, 2) and (2, 3) are empty, so a bound there is exact and their bins need no bound;
	// (-inf, 1), (3, 5) (which holds 4) and (5, inf) are not.
	EXPECT_EQ(AxisEventCount(values, values, 1.0), 2u + 0 + 0 + 2 + 1);
	const AxisCut discrete = AxisCutOf(values, values, counts, 1.0);
	EXPECT_EQ(discrete.sides, 5u);
	EXPECT_EQ(discrete.empty_below, (std::vector<bool>{false, true, true, false, false}));
	EXPECT_EQ(discrete.empty_above, (std::vector<bool>{true, true, true, true, false}));
	// A coarse bin (1, 5] of the integers 2, 3, 5: the part below 2 is empty, the part above 5 too (its cut).
	const AxisCut coarse = AxisCutOf({1, 5}, values, counts, 1.0);
	EXPECT_EQ(coarse.empty_below, (std::vector<bool>{false, true, false}));
	EXPECT_EQ(coarse.sides, AxisEventCount({1, 5}, values) - 2);
	// Fewer events, the same worst set (a tail without public rows): a smaller part, in both answer modes.
	const AxisCut continuous = AxisCutOf(values, values, counts);
	EXPECT_LT(ProjectionError({discrete}, {2}, false, 100, 1000, 0.1),
	          ProjectionError({continuous}, {2}, false, 100, 1000, 0.1));
	EXPECT_LT(RefinementError({discrete}, {2}, false, 100, 1000, 0.1),
	          RefinementError({continuous}, {2}, false, 100, 1000, 0.1));
	// The part is the upper bound of one set without public rows on the smaller event.
	EXPECT_DOUBLE_EQ(RefinementError({discrete}, {1}, false, 100, 1000, 0.1),
	                 PrivateShareInterval(0, 100, 1000, RefinementLogTerm(5, 0.1)).high);
	// A step that no value is a multiple of changes nothing.
	EXPECT_EQ(AxisCutOf({1.5, 2.5}, {1.5, 2.5}, {1, 1}, 1.0).sides, AxisEventCount({1.5, 2.5}, {1.5, 2.5}));
}

TEST(ErrorModel, ProjectionErrorBoundsThePrivateShareOfTheMovedSides)
{
	// One axis, 18 events, beta 0.1: L = ln(18 / 0.1) = ln 180. m = 100 public and n = 1000 private rows, pooled
	// N = 1100. At the finest cover the side holds no public row: the gap after a public row holds g private rows or
	// more when the first g pooled rows hold no public one, C(1000, g) / C(1100, g), which first falls to 1/180 at
	// g = 54, so the share is at most 53 / 1000 (an independent sum of the hypergeometric mass function; Chernoff's
	// bound on the same tail, (1 - 1/11)^k: 0.0544848..., the two-step bound, population then private table:
	// 0.0935...).
	const AxisCut gap{0, 18, {}, {}, {}, 0};
	EXPECT_DOUBLE_EQ(ProjectionError({gap}, {1}, false, 100, 1000, 0.1), 0.053);
	// A side of 10 of 100 public rows: 11 spacings hold g or more when the first g + 10 pooled rows hold at most 10
	// public ones, at most 1/180 from g = 206: 0.205 of n (Chernoff's larger exponent, k KL(10 / k || 1/11) or
	// 100 KL(10 / 100 || k / 1100): 0.235099...; the two-step bound: 0.2916...).
	const AxisCut coarse{10, 18, {}, {}, {}, 0};
	EXPECT_DOUBLE_EQ(ProjectionError({coarse}, {1}, false, 100, 1000, 0.1), 0.205);
	// Two edges (ranges) double it; two axes of boxes add theirs, or take the largest for one threshold per query.
	EXPECT_DOUBLE_EQ(ProjectionError({gap}, {2}, false, 100, 1000, 0.1), 2 * 0.053);
	const double both = ProjectionError({gap, coarse}, {1, 1}, false, 100, 1000, 0.1);
	const double largest = ProjectionError({gap, coarse}, {1, 1}, true, 100, 1000, 0.1);
	EXPECT_GT(both, largest);
	EXPECT_NEAR(both - largest, ProjectionError({gap, gap}, {1, 1}, true, 100, 1000, 0.1), 1e-12);
	// No edge moves (marginals, predicates): 0.
	EXPECT_EQ(ProjectionError({coarse}, {0}, false, 100, 1000, 0.1), 0.0);
	EXPECT_EQ(ProjectionError({}, {}, false, 100, 1000, 0.1), 0.0);
	EXPECT_PAP_ERROR(ErrorKind::Internal, ProjectionError({gap}, {}, false, 100, 1000, 0.1));
}

TEST(ErrorModel, RefinementErrorBoundsTheBinsShareAgainstThePartBelow)
{
	// Two bins of 50 public rows (m = 100, n = 1000, beta 0.1), the first split at 25, 10 events: L = ln(10 / 0.1). A
	// bound with L/B = s of the bin's public rows below errs by at most max(s hi(above) - (1 - s) lo(below),
	// (1 - s) hi(below) - s lo(above)).
	AxisCut halves;
	halves.sides = 10;
	halves.bin_splits = {{0, 25, 50}, {0, 50}};
	const double L = std::log(100.0);
	auto hi = [&](std::int64_t rows) { return PrivateShareInterval(rows, 100, 1000, L).high; };
	auto lo = [&](std::int64_t rows) { return PrivateShareInterval(rows, 100, 1000, L).low; };
	double expected = 0;
	for (std::int64_t below : {0, 25, 50}) {
		const double s = double(below) / 50;
		expected =
		    std::max({expected, s * hi(50 - below) - (1 - s) * lo(below), (1 - s) * hi(below) - s * lo(50 - below)});
	}
	// At 0 and at every public row below, only the gap beside the bound remains; halfway, half the width of a bound
	// (the bounds of 25 rows from the hypergeometric tails: 0.143 and 0.370, an independent sum; Chernoff's bounds
	// on the same tails: 0.117169... and 0.408179...).
	EXPECT_DOUBLE_EQ(lo(25), 0.143);
	EXPECT_DOUBLE_EQ(hi(25), 0.370);
	EXPECT_NEAR(expected, std::max(hi(0), 0.5 * (hi(25) - lo(25))), 1e-15);
	EXPECT_NEAR(RefinementError({halves}, {1}, false, 100, 1000, 0.1), expected, 1e-12);
	EXPECT_NEAR(RefinementError({halves}, {2}, false, 100, 1000, 0.1), 2 * expected, 1e-12);
	// A bin without public rows answers as the projection does: a gap's bound, one event.
	AxisCut empty;
	empty.sides = 1;
	empty.bin_splits = {{0}};
	EXPECT_NEAR(RefinementError({empty}, {1}, false, 100, 1000, 0.1),
	            PrivateShareInterval(0, 100, 1000, std::log(10.0)).high, 1e-12);
	// Two axes add, or the largest counts alone; no edge, no error.
	EXPECT_GT(RefinementError({halves, empty}, {1, 1}, false, 100, 1000, 0.1),
	          RefinementError({halves, empty}, {1, 1}, true, 100, 1000, 0.1));
	EXPECT_EQ(RefinementError({halves}, {0}, false, 100, 1000, 0.1), 0.0);
	EXPECT_PAP_ERROR(ErrorKind::Internal, RefinementError({halves}, {}, false, 100, 1000, 0.1));
	// Over two axes a query may restrict the other one, so the rows of a part that count may be none of them: each
	// edge errs by at most max(s hi(above), (1 - s) hi(below)), the lower bounds dropped (WithinOtherAxesRange).
	// (Both axes' 20 bounds on one event, L = ln(20 / 0.1); one axis's 10 where the other moves no edge.)
	const auto restricted = [&](double log_term) {
		double worst = 0;
		for (std::int64_t below : {0, 25, 50}) {
			const double s = double(below) / 50;
			worst = std::max({worst, s * PrivateShareInterval(50 - below, 100, 1000, log_term).high,
			                  (1 - s) * PrivateShareInterval(below, 100, 1000, log_term).high});
		}
		return worst;
	};
	EXPECT_GT(restricted(L), expected);
	EXPECT_NEAR(RefinementError({halves, halves}, {1, 1}, false, 100, 1000, 0.1), 2 * restricted(std::log(200.0)),
	            1e-12);
	EXPECT_NEAR(RefinementError({halves, halves}, {1, 0}, false, 100, 1000, 0.1), restricted(L), 1e-12);
	EXPECT_EQ(WithinOtherAxesRange(ShareInterval{0.25, 0.5}, true).low, 0.0);
	EXPECT_EQ(WithinOtherAxesRange(ShareInterval{0.25, 0.5}, true).high, 0.5);
	EXPECT_EQ(WithinOtherAxesRange(ShareInterval{0.25, 0.5}, false).low, 0.25);

	// Coarse bins of a large public sample: refinement's error shrinks as 1 / sqrt(rows per bin), the
	// projection's does not; at the finest cover both are a gap's bound on the same event (a tie, which refines).
	std::vector<double> values;
	std::vector<std::int64_t> counts;
	for (int v = 0; v < 20000; v++) {
		values.push_back(v);
		counts.push_back(1);
	}
	std::vector<double> coarse_cuts, finest_cuts;
	for (int v = 999; v < 20000; v += 1000)
		coarse_cuts.push_back(v);
	for (int v = 0; v < 20000; v++)
		finest_cuts.push_back(v);
	const AxisCut coarse = AxisCutOf(coarse_cuts, values, counts), finest = AxisCutOf(finest_cuts, values, counts);
	EXPECT_LT(RefinementError({coarse}, {1}, false, 20000, 1000000, 0.01),
	          ProjectionError({coarse}, {1}, false, 20000, 1000000, 0.01));
	EXPECT_DOUBLE_EQ(RefinementError({finest}, {1}, false, 20000, 1000000, 0.01),
	                 ProjectionError({finest}, {1}, false, 20000, 1000000, 0.01));
}

// The exact tails against the mass function summed term by term in long double (C(a, b) by products): never below
// the exact probability, within rounding of it; 0 on the mode's side, where only a bound of 1 is claimed; minus
// infinity where no draw has that few (that many) public rows.
TEST(ErrorModel, HypergeometricTailBoundSumsTheTail)
{
	const auto choose = [](int a, int b) {
		long double c = 1.0L;
		for (int i = 1; i <= b; i++)
			c = c * (long double)(a - b + i) / (long double)i;
		return c;
	};
	const int m = 30, N = 200;
	for (int k : {5, 40, 120, 190})
		for (int hits = 0; hits <= std::min(m, k); hits++)
			for (bool at_most : {true, false}) {
				long double tail = 0.0L;
				for (int x = 0; x <= std::min(m, k); x++)
					if (k - x <= N - m && (at_most ? x <= hits : x >= hits))
						tail += choose(m, x) * choose(N - m, k - x) / choose(N, k);
				const double bound = LogHypergeometricTailBound(hits, k, m, N, at_most);
				if (tail == 0.0L) {
					EXPECT_EQ(bound, -INFINITY);
					continue;
				}
				const double mode = std::floor(double(m + 1) * double(k + 1) / double(N + 2));
				if (at_most ? hits >= mode : hits <= mode) {
					EXPECT_EQ(bound, 0.0);
					continue;
				}
				EXPECT_GE(bound, double(std::log(tail)) - 1e-12) << k << " " << hits << " " << at_most;
				EXPECT_NEAR(bound, double(std::log(tail)), 1e-9) << k << " " << hits << " " << at_most;
			}
	EXPECT_EQ(LogHypergeometricTailBound(2, 190, m, N, true), -INFINITY);  // 190 draws hold 20 public rows or more
	EXPECT_EQ(LogHypergeometricTailBound(6, 5, m, N, false), -INFINITY);
	EXPECT_PAP_ERROR(ErrorKind::Internal, LogHypergeometricTailBound(1, 201, m, N, true));
	// Far in the tail of a large population: finite, and below Chernoff's bound on it.
	const double deep = LogHypergeometricTailBound(0, 5000, 1000, 100000, true);
	EXPECT_TRUE(std::isfinite(deep));
	EXPECT_LT(deep, 5000.0 * std::log(1.0 - 0.01));
}

// A population with atoms (integers) and a density, m + n pooled draws split at random into m public and n private
// rows (the model's assumption): the private rows, the public values with their counts, and every fifth value (cuts of
// a coarser layout).
struct RandomSplit {
	std::vector<double> priv, values, every_fifth;
	std::vector<std::int64_t> counts;
};
RandomSplit
RandomSplitOfOnePopulation(std::mt19937_64 &rng, std::int64_t m, std::int64_t n)
{
	std::uniform_real_distribution<double> uniform(0.0, 20.0);
	std::bernoulli_distribution atom(0.4);
	std::vector<double> pooled;
	for (std::int64_t i = 0; i < m + n; i++)
		pooled.push_back(atom(rng) ? std::floor(uniform(rng)) : uniform(rng));
	std::shuffle(pooled.begin(), pooled.end(), rng);
	RandomSplit out;
	out.priv.assign(pooled.begin() + m, pooled.end());
	std::vector<double> sorted(pooled.begin(), pooled.begin() + m);
	std::sort(sorted.begin(), sorted.end());
	for (double v : sorted) {
		if (out.values.empty() || out.values.back() < v) {
			out.values.push_back(v);
			out.counts.push_back(0);
		}
		out.counts.back()++;
	}
	for (std::size_t i = 4; i < out.values.size(); i += 5)
		out.every_fifth.push_back(out.values[i]);
	return out;
}

// The private share of (lo, hi), the upper end open or closed.
double
PrivateShareOf(const std::vector<double> &priv, double lo, double hi, bool hi_closed)
{
	const auto inside = [&](double v) { return v > lo && (hi_closed ? v <= hi : v < hi); };
	return double(std::count_if(priv.begin(), priv.end(), inside)) / double(priv.size());
}

// Every split i of every bin j of an axis (AxisCutOf over the cuts and the public values): the part below a bound
// between the i-th and the next public value of the bin, (lo, next) (closed at the bin's upper cut at i = B), and the
// part above it, (from, hi], with their public rows.
struct SplitParts {
	std::size_t j, i, inside;
	double lo, next, from, hi;
	std::int64_t below_rows, above_rows;
};
template <typename Visit>
void
ForEachSplit(const AxisCut &axis, const std::vector<double> &cuts, const std::vector<double> &values, Visit visit)
{
	std::size_t value = 0;
	for (std::size_t j = 0; j < axis.bin_splits.size(); j++) {
		const double lo = j == 0 ? -INFINITY : cuts[j - 1], hi = j < cuts.size() ? cuts[j] : INFINITY;
		const std::vector<std::int64_t> &splits = axis.bin_splits[j];
		const std::size_t inside = splits.size() - 1;
		for (std::size_t i = 0; i <= inside; i++)
			visit(SplitParts{j, i, inside, lo, i < inside ? values[value + i] : hi, i == 0 ? lo : values[value + i - 1],
			                 hi, splits[i], splits.back() - splits[i]});
		value += inside;
	}
}

// The pooled bound against the truth: a population with atoms (integers) and a density, pooled samples split at
// random into m public and n private rows (the model's assumption), and every set refinement's event bounds (the
// parts of every bin below and above every split point) checked against its private rows. At most a beta share of
// the splits may break some bound; a bound too tight (a spacing left out of a set, the wrong tail) breaks many.
TEST(ErrorModel, PrivateShareIntervalHoldsOnRandomSplitsOfOnePopulation)
{
	const std::int64_t m = 100, n = 1100;
	const double beta = 0.2;
	const int trials = 200;
	std::mt19937_64 rng(20261125);
	int broken = 0;
	for (int t = 0; t < trials; t++) {
		const RandomSplit split = RandomSplitOfOnePopulation(rng, m, n);
		const std::vector<double> &priv = split.priv, &values = split.values, &every_fifth = split.every_fifth;
		const std::vector<std::int64_t> &counts = split.counts;
		bool holds = true;
		for (const std::vector<double> &cuts : {values, every_fifth}) {
			const AxisCut axis = AxisCutOf(cuts, values, counts);
			const double log_term = RefinementLogTerm(double(axis.sides), DataPartBeta(6 * beta));
			auto within = [&](double x, std::int64_t rows) {
				const ShareInterval bound = PrivateShareInterval(rows, m, n, log_term);
				return bound.low <= x && x <= bound.high;
			};
			ForEachSplit(axis, cuts, values, [&](const SplitParts &p) {
				holds = holds && within(PrivateShareOf(priv, p.lo, p.next, p.i == p.inside), p.below_rows);
				holds = holds && within(PrivateShareOf(priv, p.from, p.hi, true), p.above_rows);
			});
		}
		broken += holds ? 0 : 1;
	}
	EXPECT_LE(broken, int(beta * trials));
	// Tighter than bounding the population's share first and the private table's from it, at the same log term.
	EXPECT_LT(PrivateShareInterval(0, 100, 1100, std::log(1000.0)).high,
	          PrivateShareBound(0.0, 100, 1100, std::log(1000.0)));
	EXPECT_LT(PrivateShareInterval(30, 100, 1100, std::log(1000.0)).high,
	          PrivateShareBound(0.3, 100, 1100, std::log(1000.0)));
	// No public row: no lower bound; all of them: the private share's upper bound is 1 at most.
	EXPECT_EQ(PrivateShareInterval(0, 100, 1100, 5.0).low, 0.0);
	EXPECT_EQ(PrivateShareInterval(1, 100, 1100, 5.0).low, 0.0);
	EXPECT_LE(PrivateShareInterval(100, 100, 1100, 5.0).high, 1.0);
	EXPECT_GT(PrivateShareInterval(100, 100, 1100, 5.0).low, 0.5);
	EXPECT_PAP_ERROR(ErrorKind::Internal, PrivateShareInterval(1, 0, 1100, 5.0));
	EXPECT_PAP_ERROR(ErrorKind::Internal, PrivateShareInterval(1, 100, 1100, NAN));
}

// The plan's part of a class over two or more axes reads upper bounds only (the projection's sides, and refined
// edges without the lower bounds), so its event counts those alone: per bin the gap below the first value and, but
// in the lowest bin, the whole bin (a bound at the top of that gap, where answers spread the first value's row,
// weighs it), both parts at every split between two values, the part above the last value (none when the upper cut
// is that value), a bin without public rows its own; a step's empty gap none (and no spread there).
TEST(ErrorModel, UpperBoundsEventCountsOnlyTheUpperBoundsTwoAxesRead)
{
	// Bin (-inf, 2.5] holds 1 and 2: 1 + 2 + 1; bin (2.5, inf) holds 3: its gap, the whole bin (a refined answer
	// spreads 3's row over the gap below it, the lowest bin's first value has none), 0 splits, the part above (open).
	EXPECT_EQ(AxisUpperEventCount({2.5}, {1, 2, 3}), (1u + 2 + 1) + (1 + 1 + 0 + 1));
	EXPECT_EQ(AxisEventCount({2.5}, {1, 2, 3}), (2u + 4 + 1) + (2 + 0 + 1));
	EXPECT_EQ(AxisUpperEventCount({1, 2}, {}), 3u);
	// The finest cuts of an integer column: the gaps between consecutive whole numbers are empty.
	const std::vector<double> values{1, 2, 3, 4};
	EXPECT_EQ(AxisUpperEventCount(values, values, 1.0), 1u + 0 + 0 + 0 + 1);
	EXPECT_EQ(AxisCutOf({2.5}, {1, 2, 3}, {1, 1, 1}).upper_sides, AxisUpperEventCount({2.5}, {1, 2, 3}));
	// Over two axes the part on the smaller event is below the part on every bound's, and is the per-axis worst of
	// max(f hi(above), (1 - f) hi(below)) at ln(upper_sides / beta); one axis refuses it (its edges subtract the lower
	// bounds, which the event does not hold).
	const AxisCut x = AxisCutOf({10, 20}, {1, 4, 6, 12, 15, 18, 25}, {3, 2, 1, 4, 4, 1, 2});
	const AxisCut y = AxisCutOf({5}, {1, 2, 7, 9}, {2, 5, 5, 1});
	const double all = RefinementError({x, y}, {2, 2}, false, 24, 2400, 0.5);
	const double upper = RefinementError({x, y}, {2, 2}, false, 24, 2400, 0.5, true);
	EXPECT_LT(upper, all);
	const double log_term = RefinementLogTerm(double(x.upper_sides + y.upper_sides), 0.5);
	double expected = 0;
	for (const AxisCut *axis : {&x, &y}) {
		double worst = 0;
		for (const std::vector<std::int64_t> &splits : axis->bin_splits) {
			const std::int64_t bin = splits.back();
			for (std::int64_t below : splits) {
				const double f = bin > 0 ? double(below) / double(bin) : 0.0;
				worst =
				    std::max(worst, bin > 0 ? std::max(f * PrivateShareInterval(bin - below, 24, 2400, log_term).high,
				                                       (1 - f) * PrivateShareInterval(below, 24, 2400, log_term).high)
				                            : PrivateShareInterval(0, 24, 2400, log_term).high);
			}
		}
		expected += 2 * worst;
	}
	EXPECT_NEAR(upper, std::min(1.0, expected), 1e-12);
	EXPECT_LT(ProjectionError({x, y}, {1, 1}, false, 240, 24000, 0.5, true),
	          ProjectionError({x, y}, {1, 1}, false, 240, 24000, 0.5));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RefinementError({x}, {2}, false, 24, 2400, 0.5, true));
}

// The upper bounds' event against the truth, as the test above does for every bound: the sets AxisUpperEventCount
// counts, each bounded above at ln(upper_sides / beta), on random splits of one population; at most a beta share of
// the splits may break one.
TEST(ErrorModel, UpperBoundsEventHoldsOnRandomSplitsOfOnePopulation)
{
	const std::int64_t m = 100, n = 1100;
	const double beta = 0.2;
	const int trials = 200;
	std::mt19937_64 rng(20261207);
	int broken = 0;
	for (int t = 0; t < trials; t++) {
		const RandomSplit split = RandomSplitOfOnePopulation(rng, m, n);
		const std::vector<double> &priv = split.priv, &values = split.values, &every_fifth = split.every_fifth;
		const std::vector<std::int64_t> &counts = split.counts;
		bool holds = true;
		for (const std::vector<double> &cuts : {values, every_fifth}) {
			const AxisCut axis = AxisCutOf(cuts, values, counts);
			const double log_term = RefinementLogTerm(double(axis.upper_sides), beta);
			auto below_high = [&](double x, std::int64_t rows) {
				return x <= PrivateShareInterval(rows, m, n, log_term).high;
			};
			ForEachSplit(axis, cuts, values, [&](const SplitParts &p) {
				if (p.i < p.inside || p.inside == 0)  // the part below (the whole bin only for a bin without rows)
					holds = holds && below_high(PrivateShareOf(priv, p.lo, p.next, p.i == p.inside), p.below_rows);
				// The part above; at i = 0 the whole bin, which a refined answer's spread reads above the lowest bin
				// unless a step empties the gap.
				if (p.i > 0 || (p.inside > 0 && p.j > 0 && !axis.empty_below[p.j]))
					holds = holds && below_high(PrivateShareOf(priv, p.from, p.hi, true), p.above_rows);
			});
		}
		broken += holds ? 0 : 1;
	}
	EXPECT_LE(broken, int(beta * trials));
}

// How far refined answers may spread the gap below each public value: as far as keeps a bound at the gap's top
// (f = (L + theta) / B) within the axis's worst refined error at f = L/B, the plan's part, which is what it was;
// one-row values at the finest granularity spread less than their whole row (a row seen once may be a point), a
// value seen often spreads all of its first row, and the lowest value none.
TEST(ErrorModel, GapSpreadSharesKeepTheRefinementPart)
{
	std::vector<double> values;
	std::vector<std::int64_t> counts;
	for (int v = 0; v < 400; v++) {
		values.push_back(v);
		counts.push_back(v % 50 == 7 ? 40 : 1);
	}
	std::int64_t m = 0;
	for (std::int64_t c : counts)
		m += c;
	const std::int64_t n = 100000;
	const double beta = 0.01;
	std::vector<double> every_tenth;
	for (int v = 9; v < 400; v += 10)
		every_tenth.push_back(v);
	// One axis, and two (where a query may restrict the other axis: each edge's error without the lower bounds).
	for (const std::vector<double> &cuts : {values, every_tenth})
		for (std::size_t axes : {1, 2}) {
			const AxisCut axis = AxisCutOf(cuts, values, counts);
			const std::vector<AxisCut> both(axes, axis);
			const std::vector<int> edges(axes, 1);
			const double part = RefinementError(both, edges, false, m, n, beta) / double(axes);
			const std::vector<std::vector<double>> theta = GapSpreadShares(both, edges, m, n, beta);
			ASSERT_EQ(theta.size(), axes);
			ASSERT_EQ(theta[0].size(), values.size());
			EXPECT_EQ(theta[0][0], 0.0);
			// Every bound at the top of every gap, with the sets' bounds at refinement's log term.
			const double log_term = RefinementLogTerm(double(axes * axis.sides), beta);
			const bool restricted = axes > 1;
			std::size_t value = 0;
			for (const std::vector<std::int64_t> &splits : axis.bin_splits) {
				const std::int64_t bin = splits.back();
				for (std::size_t i = 0; i + 1 < splits.size(); i++, value++) {
					const std::int64_t below = splits[i];
					const double top = RefinedEdgeError(
					    below, bin - below, (double(below) + theta[0][value]) / double(bin),
					    WithinOtherAxesRange(PrivateShareInterval(below, m, n, log_term), restricted),
					    WithinOtherAxesRange(PrivateShareInterval(bin - below, m, n, log_term), restricted));
					EXPECT_LE(top, part * (1 + 1e-12)) << value;
					// Each gap spreads its whole row, or up to the bound.
					if (value > 0 && theta[0][value] < 1.0) {
						EXPECT_NEAR(top, part, 1e-12) << value;
					}
				}
			}
		}
	const std::vector<std::vector<double>> finest =
	    GapSpreadShares({AxisCutOf(values, values, counts)}, {1}, m, n, beta);
	EXPECT_GT(finest[0][1], 0.5);
	EXPECT_LT(finest[0][1], 1.0);
	EXPECT_EQ(finest[0][7], 1.0);
	// An axis no edge moves spreads nothing; no axis, no shares.
	EXPECT_TRUE(GapSpreadShares({AxisCutOf(values, values, counts)}, {0}, m, n, beta)[0].empty());
	EXPECT_TRUE(GapSpreadShares({}, {}, m, n, beta).empty());
	EXPECT_PAP_ERROR(ErrorKind::Internal, GapSpreadShares({AxisCutOf(values, values, counts)}, {}, m, n, beta));
}

TEST(ErrorModel, OutsideMassIsGoodTuringPlusItsDeviations)
{
	// 10000 public rows, 200 of them on points seen once: 0.02, plus sqrt(2 L / m) + sqrt(3 L / m) with
	// L = ln(3 / 0.3) = ln 10: 0.0677422..., then a million private rows: 0.0682822... (bisection).
	std::vector<std::int64_t> counts(200, 1);
	counts.push_back(9800);
	EXPECT_NEAR(OutsideMassError(counts, false, 10000, 1000000, 0.3), 0.06828221997834881, 1e-9);
	EXPECT_EQ(OutsideMassError(counts, true, 10000, 1000000, 0.3), 0.0);
	// More singletons, more mass outside; a bound is never above 1.
	std::vector<std::int64_t> sparse(5000, 1);
	sparse.push_back(5000);
	EXPECT_GT(OutsideMassError(sparse, false, 10000, 1000000, 0.3), 0.5);
	EXPECT_EQ(OutsideMassError(std::vector<std::int64_t>(10, 1), false, 10, 10, 0.3), 1.0);
}

TEST(ErrorModel, PriorSamplingErrorIsHoeffdingOverTheCoverOrDkw)
{
	// m = 1000, n = 10^6, 100 cover queries, beta 0.04: the union's ln(4 * 100 / 0.04) = ln 10^4 gives
	// sqrt(ln 10^4 / 2000) + sqrt(ln 10^4 / (2 10^6)) = 0.0700074...; DKW's ln(4 / 0.04) = ln 100 gives 0.0495027...
	EXPECT_NEAR(PriorSamplingError(1000, 1000000, 100, 0, 0.04), 0.07000737027044046, 1e-12);
	EXPECT_NEAR(PriorSamplingError(1000, 1000000, 100, 1, 0.04), 0.04950268625126596, 1e-12);
	// Two CDF values (ranges) would be 0.099: the union over 100 queries is smaller here.
	EXPECT_NEAR(PriorSamplingError(1000, 1000000, 100, 2, 0.04), 0.07000737027044046, 1e-12);
	// A larger public sample, a smaller error.
	EXPECT_LT(PriorSamplingError(100000, 1000000, 100, 0, 0.04), PriorSamplingError(1000, 1000000, 100, 0, 0.04));
	EXPECT_EQ(PriorSamplingError(1, 1, 1000000, 0, 1e-9), 1.0);
}

// One public sample of `rows` rows from the population: the shares of the values it misses and the counts of those
// it shows.
struct PublicSample {
	std::vector<double> unseen_shares;
	std::vector<std::int64_t> seen_counts;
};

PublicSample
DrawSample(ZipfPopulation &population, int rows, std::mt19937_64 &rng)
{
	const std::vector<double> &shares = population.shares();
	const std::vector<std::int64_t> counts = population.Counts(rows, rng);
	PublicSample sample;
	for (std::size_t i = 0; i < counts.size(); i++) {
		if (counts[i] == 0)
			sample.unseen_shares.push_back(shares[i]);
		else
			sample.seen_counts.push_back(counts[i]);
	}
	return sample;
}

TEST(ErrorModel, RareValuePrivateShareBoundSolvesItsEquation)
{
	// At the bound c* = share n: ln((m + n) / c*) - c* KL(t / c* || m / (m + n)) = -L.
	const double n = 50000, L = std::log(4.0 / 0.01);
	for (double m : {50.0, 488.0, 10000.0})
		for (std::int64_t t : {0, 3}) {
			const double c = RareValuePrivateShareBound(t, m, n, L) * n, pi = m / (m + n), x = double(t) / c;
			const double kl = (t > 0 ? x * std::log(x / pi) : 0.0) + (1.0 - x) * std::log((1.0 - x) / (1.0 - pi));
			EXPECT_NEAR(std::log((m + n) / c) - c * kl, -L, 1e-6) << m << " " << t;
		}
	// More public rows, a smaller bound; a higher threshold, a larger one; nothing excluded, 1.
	EXPECT_GT(RareValuePrivateShareBound(0, 100, n, 5.0), RareValuePrivateShareBound(0, 1000, n, 5.0));
	EXPECT_LT(RareValuePrivateShareBound(0, 1000, n, 5.0), RareValuePrivateShareBound(3, 1000, n, 5.0));
	EXPECT_EQ(RareValuePrivateShareBound(0, 1, 10, 5.0), 1.0);
	EXPECT_EQ(RareValuePrivateShareBound(10, 10, n, 5.0), 1.0);  // every value shows at most m times
	// A private table far smaller than the public one (m / (m + n) rounds to 1): still a bound, not 0.
	EXPECT_EQ(RareValuePrivateShareBound(0, 1e17, 1, 3.0), 1.0);
	EXPECT_THROW(RareValuePrivateShareBound(0, 0, n, 5.0), Error);
	EXPECT_THROW(RareValuePrivateShareBound(-1, 100, n, 5.0), Error);
}

TEST(ErrorModel, RareValuePrivateShareBoundHoldsOnSimulatedSplits)
{
	// 2,000 values with Zipf shares, a public table of 500 rows and a private one of 20,000, drawn independently: in
	// every one of 200 seeded draws some value the public table never shows holds private rows (a part of 0 fails),
	// and no such value's private share exceeds the bound at beta = 0.05 in more than 5% of them (at threshold 0 and
	// at threshold 3, the values shown at most 3 times); the bound is within 3x of the largest share observed.
	ZipfPopulation population(2000);
	const std::vector<double> &shares = population.shares();
	const int m = 500, n = 20000;
	const double L = std::log(1.0 / 0.05);
	std::mt19937_64 rng(20261128);
	for (std::int64_t t : {0, 3}) {
		const double bound = RareValuePrivateShareBound(t, m, n, L);
		int exceeded = 0;
		double largest = 0;
		for (int run = 0; run < 200; run++) {
			const std::vector<std::int64_t> shown = population.Counts(m, rng), held = population.Counts(n, rng);
			double rare = 0;
			for (std::size_t v = 0; v < shares.size(); v++)
				if (shown[v] <= t)
					rare = std::max(rare, double(held[v]) / n);
			EXPECT_GT(rare, 0.0);
			exceeded += rare > bound;
			largest = std::max(largest, rare);
		}
		EXPECT_LE(exceeded, 10) << t;
		EXPECT_LT(bound, 3.0 * largest) << t;
	}
}

TEST(ErrorModel, UnseenValueShareBoundIsTheSplitSampleBound)
{
	// Four values seen once each in four rows: every A (1 or 2 rows) misses a value of B's with probability |B| / m
	// (the product over its one row), so E[Z] = 4 (|B| / 4) / |B| = 1 for every split: the bound is 1.
	EXPECT_EQ(UnseenValueShareBound({1, 1, 1, 1}, 3.0), 1.0);
	// Two values of 3 rows in 6, A of 3 rows: each is absent with probability C(3, 3) / C(6, 3) = 1/20, so
	// E[Z] = 2 * 3 / 20 / 3 = 0.1; A of 1 row (6 >> 2 and below): each is absent with probability 1/2, E[Z] =
	// 2 * 3 / 2 / 5 = 0.6. The smaller bound is kept.
	EXPECT_NEAR(UnseenValueShareBound({3, 3}, 3.0),
	            std::min(ShareUpperBound(0.1 / 0.75, 3, 3.0), ShareUpperBound(0.6 / 0.75, 5, 3.0)), 1e-9);
	// A value of more rows than B has is never absent: {4, 2} with A of 3 rows gives E[Z] = 2 (4/20) / 3; with A of
	// 1 row (4 + 2 * 2) / 3 / 5.
	EXPECT_NEAR(UnseenValueShareBound({4, 2}, 3.0),
	            std::min(ShareUpperBound(2.0 * 0.2 / 3.0 / 0.75, 3, 3.0), ShareUpperBound(8.0 / 15.0 / 0.75, 5, 3.0)),
	            1e-9);
	// One value only: nothing is ever missing, and the smallest A (1000 >> 4 = 62 rows) leaves B the most rows.
	EXPECT_NEAR(UnseenValueShareBound({1000}, 3.0), ShareUpperBound(0.0, 938, 3.0), 1e-15);
	// A value seen once in 1000 rows: absent from A with probability |B| / 1000, E[Z] = 1/1000 at every split.
	EXPECT_NEAR(UnseenValueShareBound({999, 1}, 3.0), ShareUpperBound(0.001 / 0.75, 938, 3.0), 1e-9);
	EXPECT_EQ(UnseenValueShareBound({1}, 3.0), 1.0);
	EXPECT_THROW(UnseenValueShareBound({5, -1}, 3.0), Error);
}

TEST(ErrorModel, UnseenValueShareBoundHoldsOnSimulatedLongTails)
{
	// 20,000 values with Zipf shares, 2,000 public rows: the mass of the values the sample misses is about 0.2 (the
	// part was 0), and the bound at 4 kUnseenValueSplits exp(-L) = 0.05 holds in at least 95% of 200 seeded samples,
	// within 2x of the missing mass.
	ZipfPopulation population(20000);
	const double L = std::log(4.0 * kUnseenValueSplits / 0.05);
	std::mt19937_64 rng(1125);
	int exceeded = 0;
	double ratio = 0;
	for (int run = 0; run < 200; run++) {
		const PublicSample sample = DrawSample(population, 2000, rng);
		double missing = 0;
		for (double share : sample.unseen_shares)
			missing += share;
		EXPECT_GT(missing, 0.1);
		const double bound = UnseenValueShareBound(sample.seen_counts, L);
		exceeded += missing > bound;
		ratio = std::max(ratio, bound / missing);
	}
	EXPECT_LE(exceeded, 10);
	EXPECT_LT(ratio, 2.0);
}

TEST(ErrorModel, UnseenValuesErrorTakesTheLargestSetAndThePrivateStep)
{
	const double beta = 0.01;
	// No empty pattern (every named cell seen): 0.
	EXPECT_EQ(UnseenValuesError(3, false, {}, 2, 1000, 100000, beta), 0.0);
	// An empty pattern of seen values: a cell's private share at threshold 0, at half of beta (whether the pattern
	// reads an "other" bin is the sample's doing) with a union over the 3 attribute sets' partitions; more sets, a
	// larger bound.
	EXPECT_NEAR(UnseenValuesError(3, true, {}, 2, 1000, 100000, beta),
	            RareValuePrivateShareBound(0, 1000, 100000, std::log(2.0 * 3.0 / beta)), 1e-15);
	EXPECT_LT(UnseenValuesError(3, true, {}, 2, 1000, 100000, beta),
	          UnseenValuesError(20, true, {}, 2, 1000, 100000, beta));
	EXPECT_THROW(UnseenValuesError(0, true, {}, 2, 1000, 100000, beta), Error);
	// An empty pattern in the "other" bin of a column with a long tail: its missing mass (then the private step at a
	// quarter of beta) wins over the cells.
	// Each column's public rows per bin: its categories, its "other" bin (empty: nothing folded) and its NULL bin.
	std::vector<std::int64_t> tail(300, 1);
	tail.insert(tail.end(), {700, 0, 0});
	// (its own "other" bin's bound: the missing mass, at half the column's share, since whether a column folds is the
	// sample's doing: OtherBinShareBound; a union over the 2 open columns, whichever the pattern reads)
	const double open = UnseenValueShareBound(tail, std::log(2.0 * 32.0 * kUnseenValueSplits / beta));
	const double cells = RareValuePrivateShareBound(0, 1000, 100000, std::log(2.0 * 3.0 / beta));
	EXPECT_GT(open, cells);
	EXPECT_NEAR(UnseenValuesError(3, true, {tail}, 2, 1000, 100000, beta),
	            SampleShareUpperBound(open, 100000, std::log(4.0 / beta)), 1e-15);
	// In two columns' "other" bins at once it lies in both: the smaller missing mass bounds it.
	const std::vector<std::int64_t> dense = {500, 500, 0, 0};
	EXPECT_LT(UnseenValuesError(3, true, {tail, dense}, 2, 1000, 100000, beta),
	          UnseenValuesError(3, true, {tail}, 2, 1000, 100000, beta));
	// More bins than open columns is a caller's error.
	EXPECT_THROW(UnseenValuesError(3, true, {tail, dense}, 1, 1000, 100000, beta), Error);
}

}  // namespace
}  // namespace pap::core
