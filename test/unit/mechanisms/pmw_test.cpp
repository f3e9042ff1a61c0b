// Invariants of Private Multiplicative Weights (docs/mechanisms.md §3) with seeded noise: the output is a
// distribution, the cut-off is honoured, updates happen only through the sparse vector, the private histogram is
// seen only through query answers, PMW converges when the noise is negligible, and the public helpers (pass
// order, public prior, interrupts) behave as documented.
#include "core/mechanisms/pmw.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/base/progress_scope.hpp"
#include "core/classes/interval_cover.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {
namespace {

// The workload of thresholds(x) or ranges(x) over an axis of `cuts` cut points (bins 0..cuts, then NULL): the
// shapes the one-dimensional covers produce, built here so the mechanism is tested apart from any cover.
IntervalWorkload
OneAxisWorkload(bool ranges, std::size_t cuts)
{
	std::vector<CellInterval> intervals{{1, 0}};  // the empty query
	const std::int32_t m = std::int32_t(cuts);
	for (std::int32_t lo = 0; lo <= (ranges ? m - 1 : 0); lo++)
		for (std::int32_t hi = lo; hi <= m; hi++)
			if (ranges || hi < m)
				intervals.push_back({lo, hi});
	return IntervalWorkload(intervals, cuts + 2);
}

std::size_t
DistinctCount(std::vector<double> values)
{
	std::sort(values.begin(), values.end());
	return std::size_t(std::unique(values.begin(), values.end()) - values.begin());
}

PmwParameters
Params(std::int64_t cutoff, double threshold, double threshold_scale, double compare_scale, int max_passes = 1,
       double first_pass_factor = 1.0, bool resample = false)
{
	PmwParameters p;
	p.accounting = resample ? SparseVectorAccounting::Zcdp : SparseVectorAccounting::Pure;
	p.cutoff = cutoff;
	p.threshold = threshold;
	p.threshold_noise = ScaleAtLeast(threshold_scale);
	p.compare_noise = ScaleAtLeast(compare_scale);
	p.max_passes = max_passes;
	p.first_pass_factor = first_pass_factor;
	p.resample_threshold = resample;
	return p;
}

// Random intervals over random many cells (the workload interface is all PMW sees).
IntervalWorkload
RandomWorkload(std::mt19937_64 &gen, std::size_t cells, std::size_t queries)
{
	std::vector<CellInterval> intervals;
	std::uniform_int_distribution<std::int32_t> cell(0, std::int32_t(cells) - 1);
	for (std::size_t q = 0; q < queries; q++) {
		std::int32_t a = cell(gen), b = cell(gen);
		if (gen() % 10 == 0)
			intervals.push_back({1, 0});  // an empty query now and then
		else
			intervals.push_back({std::min(a, b), std::max(a, b)});
	}
	return IntervalWorkload(std::move(intervals), cells);
}

std::vector<std::int64_t>
RandomHistogram(std::mt19937_64 &gen, std::size_t cells, std::int64_t max_count)
{
	std::vector<std::int64_t> h(cells);
	for (std::int64_t &c : h)
		c = std::int64_t(gen() % std::uint64_t(max_count + 1));
	if (std::accumulate(h.begin(), h.end(), std::int64_t(0)) == 0)
		h[gen() % cells] = 1;
	return h;
}

std::vector<double>
RandomPrior(std::mt19937_64 &gen, std::size_t cells)
{
	std::uniform_real_distribution<double> u(0.01, 1.0);
	std::vector<double> p(cells);
	double sum = 0;
	for (double &x : p)
		sum += x = u(gen);
	for (double &x : p)
		x /= sum;
	return p;
}

void
ExpectDistribution(const std::vector<double> &y, std::size_t cells)
{
	ASSERT_EQ(y.size(), cells);
	double sum = 0.0;
	for (double w : y) {
		EXPECT_TRUE(std::isfinite(w));
		EXPECT_GE(w, 0.0);
		sum += w;
	}
	EXPECT_NEAR(sum, 1.0, 1e-9);
}

// Parameters drawn to make every regime appear: few or many updates, cut-off reached or not, both accountings.
PmwParameters
RandomParams(std::mt19937_64 &gen, std::int64_t n)
{
	std::uniform_real_distribution<double> u(0.0, 1.0);
	const double scale = std::exp(u(gen) * std::log(double(n))) * 0.05 + 0.1;
	return Params(1 + std::int64_t(gen() % 40), u(gen) * u(gen) * double(n) * 0.3, scale, 2 * scale, 1 + int(gen() % 8),
	              1.0 + 7.0 * u(gen), gen() % 2 == 0);
}

// (a) and (b): a distribution, never more updates than the cut-off, cutoff_reached exactly at the cut-off.
TEST(RunPmw, OutputIsADistributionAndCutoffIsHonoured)
{
	std::mt19937_64 gen(1);
	int reached = 0, not_reached = 0, with_updates = 0;
	for (int trial = 0; trial < 300; trial++) {
		const std::size_t cells = 2 + gen() % 40;
		const IntervalWorkload workload = RandomWorkload(gen, cells, 1 + gen() % 60);
		const std::vector<std::int64_t> histogram = RandomHistogram(gen, cells, gen() % 2 ? 10 : 100000);
		const std::int64_t n = std::accumulate(histogram.begin(), histogram.end(), std::int64_t(0));
		const std::vector<double> prior = gen() % 2 ? UniformPrior(cells) : RandomPrior(gen, cells);
		const PmwParameters p = RandomParams(gen, n);
		SeededRandomSource rng(gen());
		const PmwResult r = RunPmw(workload, histogram, prior, p, rng);
		ExpectDistribution(r.synthetic, cells);
		EXPECT_GE(r.updates, 0);
		EXPECT_LE(r.updates, p.cutoff);
		EXPECT_EQ(r.cutoff_reached, r.updates == p.cutoff) << "updates " << r.updates << ", cutoff " << p.cutoff;
		EXPECT_GE(r.passes, 1);
		EXPECT_LE(r.passes, p.max_passes);
		// One or two sparse-vector comparisons per query visited.
		EXPECT_LE(r.comparisons, std::int64_t(2 * workload.QueryCount()) * r.passes);
		EXPECT_GE(r.comparisons, r.updates);
		reached += r.cutoff_reached;
		not_reached += !r.cutoff_reached;
		with_updates += r.updates > 0;
	}
	// The random regimes did exercise both outcomes.
	EXPECT_GT(reached, 20);
	EXPECT_GT(not_reached, 20);
	EXPECT_GT(with_updates, 100);
}

// The progress hook hears passes 1, 2, ... up to the passes the result (and so the run's details) reports, each
// with the plan's max_passes: nothing more than what the release publishes (docs/security.md, "Progress").
void
RecordPass(void *context, const PassProgress &progress)
{
	EXPECT_EQ(progress.kind, PassKind::PmwPass);
	static_cast<std::vector<std::pair<int, int>> *>(context)->emplace_back(progress.number, progress.limit);
}

TEST(RunPmw, ReportsEachPassItMakesAndNoOther)
{
	std::mt19937_64 gen(4);
	int several = 0;
	for (int trial = 0; trial < 100; trial++) {
		const std::size_t cells = 2 + gen() % 40;
		const IntervalWorkload workload = RandomWorkload(gen, cells, 1 + gen() % 60);
		const std::vector<std::int64_t> histogram = RandomHistogram(gen, cells, gen() % 2 ? 10 : 100000);
		const std::int64_t n = std::accumulate(histogram.begin(), histogram.end(), std::int64_t(0));
		const PmwParameters p = RandomParams(gen, n);
		SeededRandomSource rng(gen());
		std::vector<std::pair<int, int>> heard;
		const ProgressScope scope(RecordPass, &heard);
		const PmwResult r = RunPmw(workload, histogram, UniformPrior(cells), p, rng);
		ASSERT_EQ(heard.size(), std::size_t(r.passes));
		for (int pass = 1; pass <= r.passes; pass++)
			EXPECT_EQ(heard[std::size_t(pass - 1)], std::make_pair(pass, p.max_passes));
		several += r.passes > 1;
	}
	EXPECT_GT(several, 10);  // the trials did make several passes
}

TEST(RunPmw, CutoffOfOneStopsAfterTheFirstUpdate)
{
	std::mt19937_64 gen(2);
	const IntervalWorkload workload = OneAxisWorkload(true, 8);
	std::vector<std::int64_t> histogram(workload.CellCount(), 0);
	histogram[0] = 10000;  // all mass in one cell, far from the uniform prior
	SeededRandomSource rng(3);
	const PmwResult r = RunPmw(workload, histogram, UniformPrior(workload.CellCount()), Params(1, 10, 1, 2, 8), rng);
	EXPECT_EQ(r.updates, 1);
	EXPECT_TRUE(r.cutoff_reached);
	EXPECT_EQ(r.passes, 1);
	ExpectDistribution(r.synthetic, workload.CellCount());
}

// (c) With an unreachable threshold nothing is updated and the prior comes back.
TEST(RunPmw, HugeThresholdReturnsThePrior)
{
	std::mt19937_64 gen(4);
	for (int trial = 0; trial < 30; trial++) {
		const std::size_t cells = 2 + gen() % 30;
		const IntervalWorkload workload = RandomWorkload(gen, cells, 1 + gen() % 40);
		const std::vector<std::int64_t> histogram = RandomHistogram(gen, cells, 1000);
		const std::vector<double> prior = RandomPrior(gen, cells);
		SeededRandomSource rng(gen());
		const PmwResult r = RunPmw(workload, histogram, prior, Params(50, 1e12, 100, 200, 4, 1.0), rng);
		EXPECT_EQ(r.updates, 0);
		EXPECT_FALSE(r.cutoff_reached);
		EXPECT_EQ(r.passes, 1);  // a pass at the final threshold without an update ends the run
		EXPECT_EQ(r.comparisons, std::int64_t(2 * workload.QueryCount()));
		ASSERT_EQ(r.synthetic.size(), cells);
		for (std::size_t i = 0; i < cells; i++)
			EXPECT_NEAR(r.synthetic[i], prior[i], 1e-15 * std::max(1.0, prior[i] * 10)) << "cell " << i;
	}
}

// (c) A perfect prior (histogram = n * prior) and a threshold far above the noise: no update.
TEST(RunPmw, PerfectPriorMakesNoUpdates)
{
	std::mt19937_64 gen(5);
	for (int trial = 0; trial < 30; trial++) {
		const std::size_t cells = 2 + gen() % 30;
		const IntervalWorkload workload = RandomWorkload(gen, cells, 1 + gen() % 60);
		std::vector<std::int64_t> public_counts(cells);
		for (std::int64_t &c : public_counts)
			c = 1 + std::int64_t(gen() % 50);
		const std::int64_t m = std::accumulate(public_counts.begin(), public_counts.end(), std::int64_t(0));
		std::vector<double> prior(cells);
		std::vector<std::int64_t> histogram(cells);
		for (std::size_t i = 0; i < cells; i++) {
			prior[i] = double(public_counts[i]) / double(m);
			histogram[i] = public_counts[i] * 1000;  // n = 1000 m: exactly n * prior
		}
		PmwParameters p = Params(100, 0, 2, 4, 8, 4.0);
		// The (1 - 1e-9) quantile of all comparisons, then several times over.
		p.threshold = 5.0 * PmwThreshold(p, workload.QueryCount(), 1e-9);
		SeededRandomSource rng(gen());
		const PmwResult r = RunPmw(workload, histogram, prior, p, rng);
		EXPECT_EQ(r.updates, 0);
		// Thresholds 4 tau, 2 tau, tau: the run ends after the first pass at the final threshold without update.
		EXPECT_EQ(r.passes, 3);
		ExpectDistribution(r.synthetic, cells);
	}
}

// (d) Replacing one row between two cells that no query separates changes nothing, bit for bit.
TEST(RunPmw, RowsMovedBetweenUnseparatedCellsGiveIdenticalOutput)
{
	// Cells 2 and 3 are in exactly the same queries: no interval starts at 3 or ends at 2.
	const IntervalWorkload workload({{0, 3}, {2, 5}, {2, 3}, {0, 1}, {4, 5}, {1, 4}, {0, 5}, {0, 0}, {5, 5}, {4, 4}},
	                                6);
	std::mt19937_64 gen(6);
	int runs_with_updates = 0;
	for (int trial = 0; trial < 40; trial++) {
		std::vector<std::int64_t> a = RandomHistogram(gen, 6, 500);
		a[2] += 1;
		std::vector<std::int64_t> b = a;
		b[2] -= 1;
		b[3] += 1;
		const PmwParameters p = Params(1 + std::int64_t(gen() % 30), double(gen() % 40), 1.0 + double(gen() % 10),
		                               2.0 + double(gen() % 20), 1 + int(gen() % 8), 4.0, gen() % 2 == 0);
		const std::vector<double> prior = RandomPrior(gen, 6);
		const std::uint64_t seed = gen();
		SeededRandomSource rng_a(seed), rng_b(seed);
		const PmwResult ra = RunPmw(workload, a, prior, p, rng_a);
		const PmwResult rb = RunPmw(workload, b, prior, p, rng_b);
		ASSERT_EQ(ra.synthetic.size(), rb.synthetic.size());
		EXPECT_EQ(std::memcmp(ra.synthetic.data(), rb.synthetic.data(), ra.synthetic.size() * sizeof(double)), 0);
		EXPECT_EQ(ra.updates, rb.updates);
		EXPECT_EQ(ra.comparisons, rb.comparisons);
		EXPECT_EQ(ra.passes, rb.passes);
		EXPECT_EQ(rng_a.words_drawn(), rng_b.words_drawn());
		runs_with_updates += ra.updates > 0;
	}
	EXPECT_GT(runs_with_updates, 10);
}

// Pure accounting draws the threshold noise once; Dwork & Roth's Sparse (the zCDP accounting's AboveThreshold
// instances) redraws it after every update. Observable with a perfect prior, threshold 0 (updates then move nothing)
// and negligible comparison noise: every query's gap is 0, so each decision is "threshold noise <= 0". Drawn once, all
// queries fire or none does; redrawn, a pass stops firing at the first positive draw.
TEST(RunPmw, ThresholdNoiseRedrawnOnlyWhenResampling)
{
	std::mt19937_64 gen(10);
	const std::size_t K = 20;
	const IntervalWorkload workload = RandomWorkload(gen, 4, K);
	const std::vector<std::int64_t> histogram(4, 1000);
	int partial_with_resampling = 0;
	for (std::uint64_t seed = 0; seed < 60; seed++) {
		for (bool resample : {false, true}) {
			const PmwParameters p = Params(std::int64_t(K) + 1, 0.0, 10.0, 1e-9, 1, 1.0, resample);
			SeededRandomSource rng(seed);
			const PmwResult r = RunPmw(workload, histogram, UniformPrior(4), p, rng);
			if (!resample)
				EXPECT_TRUE(r.updates == 0 || r.updates == std::int64_t(K)) << "seed " << seed << ": " << r.updates;
			else
				partial_with_resampling += r.updates > 0 && r.updates < std::int64_t(K);
		}
	}
	EXPECT_GT(partial_with_resampling, 20);
}

// The same input and seed give the same output; the output depends on the seed. (The update moves the synthetic
// answer by half the threshold, so the noise shows only through which comparisons fire: noise comparable to the
// threshold makes some seeds decide differently.)
TEST(RunPmw, DeterministicForASeed)
{
	std::mt19937_64 gen(7);
	const IntervalWorkload workload = RandomWorkload(gen, 20, 40);
	const std::vector<std::int64_t> histogram = RandomHistogram(gen, 20, 1000);
	const PmwParameters p = Params(30, 20, 10, 20, 8, 4.0);
	SeededRandomSource r1(99), r2(99);
	const PmwResult a = RunPmw(workload, histogram, UniformPrior(20), p, r1);
	const PmwResult b = RunPmw(workload, histogram, UniformPrior(20), p, r2);
	EXPECT_GT(a.updates, 0);
	EXPECT_EQ(a.synthetic, b.synthetic);
	EXPECT_EQ(a.comparisons, b.comparisons);
	int differ = 0;
	for (std::uint64_t seed = 100; seed < 110; seed++) {
		SeededRandomSource r(seed);
		differ += RunPmw(workload, histogram, UniformPrior(20), p, r).synthetic != a.synthetic;
	}
	EXPECT_GE(differ, 5);
}

// (e) With negligible noise PMW runs until no query is off by the threshold: every cover query ends within the
// threshold (plus the rounding to whole counts) of the truth.
TEST(RunPmw, ConvergesWithNegligibleNoise)
{
	std::mt19937_64 gen(8);
	for (bool ranges : {false, true})
		for (int trial = 0; trial < 6; trial++) {
			std::vector<double> public_values;
			for (int i = 0; i < 12; i++)
				public_values.push_back(double(gen() % 100));
			const IntervalWorkload workload = OneAxisWorkload(ranges, DistinctCount(public_values));
			const std::size_t cells = workload.CellCount();
			std::vector<std::int64_t> histogram = RandomHistogram(gen, cells, 300);
			histogram[cells - 1] = 0;  // no NULLs: the NULL cell is in no query
			histogram[0] += 1;
			const std::int64_t n = std::accumulate(histogram.begin(), histogram.end(), std::int64_t(0));
			const double tau = 4.0;
			const PmwParameters p = Params(1000000, tau, 1e-6, 1e-6, 5000, 512.0);
			SeededRandomSource rng(gen());
			const PmwResult r = RunPmw(workload, histogram, UniformPrior(cells), p, rng);
			ASSERT_FALSE(r.cutoff_reached);
			ASSERT_LT(r.passes, p.max_passes) << "did not converge";
			EXPECT_GT(r.updates, 0);
			ExpectDistribution(r.synthetic, cells);
			std::vector<double> synthetic;
			std::vector<std::int64_t> truth;
			workload.Evaluate(r.synthetic, synthetic);
			workload.EvaluateCounts(histogram, truth);
			for (std::size_t q = 0; q < workload.QueryCount(); q++)
				EXPECT_LE(std::fabs(synthetic[q] - double(truth[q]) / double(n)), (tau + 1.0) / double(n) + 1e-12)
				    << "query " << q << ": synthetic " << synthetic[q] * double(n) << ", truth " << truth[q];
		}
}

// A prior weight of 0 (a cell no row can hold, ConditionedOnOpenCells) stays 0 through every update, whatever the
// true counts put there, and the other cells still converge to the truth on the queries that read only them.
TEST(RunPmw, ZeroPriorCellsStayEmpty)
{
	std::mt19937_64 gen(31);
	for (int trial = 0; trial < 20; trial++) {
		const std::size_t cells = 4 + gen() % 30;
		const IntervalWorkload workload = RandomWorkload(gen, cells, 5 + gen() % 60);
		std::vector<std::int64_t> histogram = RandomHistogram(gen, cells, 200);
		std::vector<bool> closed(cells, false);
		for (std::size_t i = 0; i < cells; i++)
			closed[i] = gen() % 4 == 0;
		closed[gen() % cells] = false;
		const std::vector<double> prior = ConditionedOnOpenCells(RandomPrior(gen, cells), closed);
		SeededRandomSource rng(gen());
		const PmwResult r = RunPmw(workload, histogram, prior, Params(1000, 2.0, 1e-3, 1e-3, 50, 4.0), rng);
		ExpectDistribution(r.synthetic, cells);
		for (std::size_t i = 0; i < cells; i++)
			if (closed[i]) {
				EXPECT_EQ(r.synthetic[i], 0.0) << trial << " " << i;
			}
		EXPECT_GT(r.updates, 0) << trial;
	}
}

// (f) The pass order.
TEST(PassOrder, IsAPermutation)
{
	for (std::size_t count = 0; count <= 600; count++) {
		std::vector<std::size_t> order = PassOrder(count);
		ASSERT_EQ(order.size(), count);
		std::sort(order.begin(), order.end());
		for (std::size_t i = 0; i < count; i++)
			ASSERT_EQ(order[i], i) << "count " << count;
	}
}

TEST(PassOrder, BitReversalForPowersOfTwo)
{
	EXPECT_EQ(PassOrder(1), std::vector<std::size_t>({0}));
	EXPECT_EQ(PassOrder(2), std::vector<std::size_t>({0, 1}));
	EXPECT_EQ(PassOrder(8), std::vector<std::size_t>({0, 4, 2, 6, 1, 5, 3, 7}));
	for (std::size_t n = 4; n <= (std::size_t(1) << 14); n *= 2) {
		const std::vector<std::size_t> order = PassOrder(n);
		ASSERT_GE(order.size(), 4u);
		EXPECT_EQ(order[0], 0u);
		EXPECT_EQ(order[1], n / 2);
		EXPECT_EQ(order[2], n / 4);
		EXPECT_EQ(order[3], 3 * n / 4);
	}
	// Not a power of two: the bit-reversal order with the out-of-range entries dropped.
	EXPECT_EQ(PassOrder(5), std::vector<std::size_t>({0, 4, 2, 1, 3}));
	// Against the bit-by-bit reversal, at every size up to 3000.
	for (std::size_t count = 0; count <= 3000; count++) {
		std::size_t bits = 0;
		while ((std::size_t(1) << bits) < count)
			bits++;
		std::vector<std::size_t> expected;
		for (std::size_t i = 0; i < (std::size_t(1) << bits); i++) {
			std::size_t r = 0;
			for (std::size_t b = 0; b < bits; b++)
				if (i & (std::size_t(1) << b))
					r |= std::size_t(1) << (bits - 1 - b);
			if (r < count)
				expected.push_back(r);
		}
		ASSERT_EQ(PassOrder(count), expected) << "count " << count;
	}
}

// (g) The public prior.
TEST(PublicPrior, PositiveNormalisedAndProportionalToCountPlusPerks)
{
	std::mt19937_64 gen(9);
	for (int trial = 0; trial < 200; trial++) {
		const std::size_t cells = 1 + gen() % 50;
		std::vector<std::int64_t> counts(cells);
		for (std::int64_t &c : counts)
			c = gen() % 3 == 0 ? 0 : std::int64_t(gen() % 100000);
		const std::vector<double> prior = PublicPrior(counts);
		ASSERT_EQ(prior.size(), cells);
		double sum = 0;
		for (double p : prior) {
			EXPECT_GT(p, 0.0);
			sum += p;
		}
		EXPECT_NEAR(sum, 1.0, 1e-12);
		const double ratio0 = prior[0] / (double(counts[0]) + 1.0 / double(cells));
		for (std::size_t i = 0; i < cells; i++)
			EXPECT_NEAR(prior[i] / (double(counts[i]) + 1.0 / double(cells)), ratio0, 1e-12 * ratio0);
	}
	// All-zero public histogram: uniform.
	const std::vector<double> zero = PublicPrior(std::vector<std::int64_t>(4, 0));
	for (double p : zero)
		EXPECT_DOUBLE_EQ(p, 0.25);
	const std::vector<double> uniform = UniformPrior(7);
	ASSERT_EQ(uniform.size(), 7u);
	for (double p : uniform)
		EXPECT_DOUBLE_EQ(p, 1.0 / 7.0);
}

// The prior on the open cells: 0 on each closed cell, the open weights in proportion, summing to 1; no mask leaves the
// prior as it is; a mask of another size, or one that leaves no weight, is refused.
TEST(ConditionedOnOpenCells, ZeroesTheClosedCellsAndRenormalisesTheOpenOnes)
{
	std::mt19937_64 gen(12);
	for (int trial = 0; trial < 100; trial++) {
		const std::size_t cells = 2 + gen() % 40;
		const std::vector<double> prior = RandomPrior(gen, cells);
		std::vector<bool> closed(cells);
		for (std::size_t i = 0; i < cells; i++)
			closed[i] = gen() % 3 == 0;
		const std::size_t open = gen() % cells;
		closed[open] = false;
		const std::vector<double> conditioned = ConditionedOnOpenCells(prior, closed);
		ASSERT_EQ(conditioned.size(), cells);
		double sum = 0;
		for (std::size_t i = 0; i < cells; i++) {
			sum += conditioned[i];
			if (closed[i])
				EXPECT_EQ(conditioned[i], 0.0);
			else
				EXPECT_NEAR(conditioned[i] / prior[i], conditioned[open] / prior[open], 1e-12 * conditioned[open]);
		}
		EXPECT_NEAR(sum, 1.0, 1e-12);
		EXPECT_EQ(ConditionedOnOpenCells(prior, {}), prior);
	}
	EXPECT_PAP_ERROR(ErrorKind::Internal, ConditionedOnOpenCells(UniformPrior(3), {true, false}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ConditionedOnOpenCells(UniformPrior(2), {true, true}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ConditionedOnOpenCells({0.0, 1.0}, {false, true}));
}

// (h) Cancellation.
int g_interrupt_calls = 0;
bool
AlwaysInterrupted()
{
	++g_interrupt_calls;
	return true;
}
bool
NeverInterrupted()
{
	++g_interrupt_calls;
	return false;
}

TEST(RunPmw, InterruptThrowsCancelled)
{
	std::vector<double> values;
	for (int i = 0; i < 600; i++)
		values.push_back(double(i));
	const IntervalWorkload workload = OneAxisWorkload(false, values.size());
	std::vector<std::int64_t> histogram(workload.CellCount(), 1);
	histogram.back() = 0;
	const PmwParameters p = Params(10, 1e9, 1, 2, 2);
	g_interrupt_calls = 0;
	SeededRandomSource rng(1);
	EXPECT_PAP_ERROR(ErrorKind::Cancelled,
	                 RunPmw(workload, histogram, UniformPrior(workload.CellCount()), p, rng, AlwaysInterrupted));
	EXPECT_EQ(g_interrupt_calls, 1);
	g_interrupt_calls = 0;
	SeededRandomSource rng2(1);
	EXPECT_NO_THROW(RunPmw(workload, histogram, UniformPrior(workload.CellCount()), p, rng2, NeverInterrupted));
	EXPECT_GE(g_interrupt_calls, 1);
}

TEST(RunPmw, RejectsInconsistentInput)
{
	const IntervalWorkload workload({{0, 1}, {1, 2}}, 3);
	const PmwParameters p = Params(5, 1, 1, 2);
	SeededRandomSource rng(1);
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2}, UniformPrior(3), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, UniformPrior(2), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, -1, 3}, UniformPrior(3), p, rng));
	// A prior weight may be 0 (a closed cell), but not negative, not finite, or 0 everywhere.
	EXPECT_NO_THROW(RunPmw(workload, {1, 2, 3}, {0.5, 0.5, 0.0}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, {0.0, 0.0, 0.0}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, {-0.1, 0.6, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, {test::kNaN, 0.5, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, {INFINITY, 0.5, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::DataException, RunPmw(workload, {0, 0, 0}, UniformPrior(3), p, rng));
	PmwParameters bad = p;
	bad.cutoff = 0;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, UniformPrior(3), bad, rng));
	bad = p;
	bad.threshold = -1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, UniformPrior(3), bad, rng));
	bad.threshold = test::kNaN;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunPmw(workload, {1, 2, 3}, UniformPrior(3), bad, rng));
}

}  // namespace
}  // namespace pap::core
