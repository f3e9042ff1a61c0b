// MWEM (mwem.hpp): the two private selections and the measurement follow their exact distributions (chi-squared
// goodness of fit, with a power check: the same test rejects a doubled epsilon or scale); the mechanism's output is
// a distribution, deterministic for a seed, converges at huge epsilon, moves boundedly at tiny epsilon, and can be
// cancelled; the planner's accounting adds up exactly (rational arithmetic) and its choices are sane.
#include "core/mechanisms/mwem.hpp"

#include <gtest/gtest.h>

#include <algorithm>
// boost::rational's normalize() trips a false -Wmaybe-uninitialized in GCC 12 at -O2 (inside Boost).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "chi_squared.hpp"
#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/base/progress_scope.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {
namespace {

using test::ChiSquared;
using test::ChiSquaredResult;
using Rational = boost::multiprecision::cpp_rational;

constexpr std::size_t kSelectionSamples = 100000;
constexpr double kPValueThreshold = 1e-6;

// ---- (1) Selection samplers against their exact distributions.

// Acceptance probability of a score: exp(-epsilon (top - s) / 2).
std::vector<double>
AcceptProbabilities(const std::vector<std::uint64_t> &scores, double epsilon)
{
	const std::uint64_t top = *std::max_element(scores.begin(), scores.end());
	std::vector<double> p;
	for (std::uint64_t s : scores)
		p.push_back(std::exp(-epsilon * double(top - s) / 2.0));
	return p;
}

// Permute-and-flip's exact distribution, by enumerating every order (small score vectors only).
std::vector<double>
PermuteAndFlipDistribution(const std::vector<std::uint64_t> &scores, double epsilon)
{
	const std::vector<double> accept = AcceptProbabilities(scores, epsilon);
	std::vector<std::size_t> order(scores.size());
	std::iota(order.begin(), order.end(), std::size_t(0));
	std::vector<double> dist(scores.size(), 0.0);
	double orders = 0;
	do {
		double reach = 1.0;
		for (std::size_t q : order) {
			dist[q] += reach * accept[q];
			reach *= 1.0 - accept[q];
		}
		orders += 1;
	} while (std::next_permutation(order.begin(), order.end()));
	for (double &d : dist)
		d /= orders;
	return dist;
}

std::vector<double>
ExponentialDistribution(const std::vector<std::uint64_t> &scores, double epsilon)
{
	std::vector<double> dist = AcceptProbabilities(scores, epsilon);
	const double sum = std::accumulate(dist.begin(), dist.end(), 0.0);
	for (double &d : dist)
		d /= sum;
	return dist;
}

template <typename Select>
std::vector<double>
SelectionCounts(Select select, const std::vector<std::uint64_t> &scores, std::uint64_t num, std::uint64_t den)
{
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	std::vector<double> counts(scores.size(), 0.0);
	for (std::size_t i = 0; i < kSelectionSamples; i++)
		counts[select(scores, num, den, rng, nullptr)] += 1;
	return counts;
}

ChiSquaredResult
FitSelection(const std::vector<double> &counts, const std::vector<double> &dist, const char *label)
{
	std::vector<double> expected;
	for (double d : dist)
		expected.push_back(d * double(kSelectionSamples));
	for (double e : expected)
		EXPECT_GE(e, test::kMinExpectedCount);
	const ChiSquaredResult r = ChiSquared(counts, expected);
	std::printf("[ chi2     ] %s: statistic=%.2f df=%d p=%.4g\n", label, r.statistic, r.df, r.p_value);
	return r;
}

const std::vector<std::uint64_t> kScores = {0, 1, 2, 4, 4, 3};

TEST(SelectPermuteAndFlip, FollowsItsExactDistributionAndRejectsDoubledEpsilon)
{
	const std::vector<double> counts = SelectionCounts(SelectPermuteAndFlip, kScores, 1, 1);
	EXPECT_GT(FitSelection(counts, PermuteAndFlipDistribution(kScores, 1.0), "pf eps=1").p_value, kPValueThreshold);
	EXPECT_LT(FitSelection(counts, PermuteAndFlipDistribution(kScores, 2.0), "pf vs eps=2").p_value, kPValueThreshold);
	// Permute-and-flip is not the exponential mechanism: the same test tells them apart.
	EXPECT_LT(FitSelection(counts, ExponentialDistribution(kScores, 1.0), "pf vs em").p_value, kPValueThreshold);
}

TEST(SelectPermuteAndFlip, RationalEpsilonAndWideProducts)
{
	// epsilon = 3/2 as 3 2^61 / 2^62: every coin's numerator exceeds 64 bits (the 128-bit path).
	const std::uint64_t den = std::uint64_t(1) << 62;
	const std::vector<double> counts = SelectionCounts(SelectPermuteAndFlip, kScores, 3 * (den / 4), den / 2);
	EXPECT_GT(FitSelection(counts, PermuteAndFlipDistribution(kScores, 1.5), "pf eps=3/2 wide").p_value,
	          kPValueThreshold);
	EXPECT_LT(FitSelection(counts, PermuteAndFlipDistribution(kScores, 3.0), "pf wide vs eps=3").p_value,
	          kPValueThreshold);
	// Huge gaps at huge epsilon: only the best is ever chosen, no overflow.
	SeededRandomSource rng(3);
	const std::vector<std::uint64_t> far = {0, std::uint64_t(1) << 62, 5};
	for (int i = 0; i < 100; i++) {
		EXPECT_EQ(SelectPermuteAndFlip(far, ~std::uint64_t(0), 1, rng), 1u);
		EXPECT_EQ(SelectExponential(far, ~std::uint64_t(0), 1, rng), 1u);
	}
}

TEST(SelectExponential, FollowsItsExactDistributionAndRejectsDoubledEpsilon)
{
	const std::vector<double> counts = SelectionCounts(SelectExponential, kScores, 1, 1);
	EXPECT_GT(FitSelection(counts, ExponentialDistribution(kScores, 1.0), "em eps=1").p_value, kPValueThreshold);
	EXPECT_LT(FitSelection(counts, ExponentialDistribution(kScores, 2.0), "em vs eps=2").p_value, kPValueThreshold);
	const std::vector<double> half = SelectionCounts(SelectExponential, kScores, 1, 2);
	EXPECT_GT(FitSelection(half, ExponentialDistribution(kScores, 0.5), "em eps=1/2").p_value, kPValueThreshold);
	EXPECT_LT(FitSelection(half, ExponentialDistribution(kScores, 1.0), "em 1/2 vs eps=1").p_value, kPValueThreshold);
}

TEST(Select, RejectsBadInput)
{
	SeededRandomSource rng(1);
	EXPECT_PAP_ERROR(ErrorKind::Internal, SelectPermuteAndFlip({}, 1, 1, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SelectExponential({}, 1, 1, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SelectPermuteAndFlip({1, 2}, 0, 1, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SelectExponential({1, 2}, 1, 0, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SelectExponential({1, 2}, 1, (std::uint64_t(1) << 62) + 1, rng));
	EXPECT_EQ(SelectPermuteAndFlip({7}, 1, 1, rng), 0u);
}

// ---- Measurement noise has the planned scale.

std::vector<std::int64_t>
DrawMeasurements(const MwemParameters &p, std::size_t count)
{
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	std::vector<std::int64_t> noise(count);
	for (std::int64_t &x : noise)
		x = MeasureCount(1000, p, rng) - 1000;
	return noise;
}

// Goodness of fit of symmetric integer noise against a pmf, tails summed numerically.
template <typename Pmf>
ChiSquaredResult
FitNoise(const std::vector<std::int64_t> &samples, Pmf pmf, double parameter, std::int64_t far, const char *label)
{
	auto range = [&](std::int64_t a, std::int64_t c) {
		double s = 0;
		for (std::int64_t x = a; x <= c; x++)
			s += pmf(x);
		return s;
	};
	auto upper = [&](std::int64_t k) { return range(k + 1, far); };
	return test::SymmetricGoodnessOfFit(samples, range, upper, {"parameter", parameter}, 1, label);
}

TEST(MeasureCount, PureNoiseHasThePlannedLaplaceScale)
{
	const MwemParameters p = MwemNoiseFor(MwemAccounting::Pure, 2, 1.0, 0.0);
	const double b = p.measure_scale.value();
	EXPECT_NEAR(b, 4.0, 1e-6);  // per round epsilon 1/2, half of it for the measurement
	const std::vector<std::int64_t> noise = DrawMeasurements(p, kSelectionSamples);
	auto pmf = [](double scale) { return [scale](std::int64_t x) { return DiscreteLaplacePmf(x, scale); }; };
	EXPECT_GT(FitNoise(noise, pmf(b), b, 2000, "laplace planned").p_value, kPValueThreshold);
	EXPECT_LT(FitNoise(noise, pmf(2 * b), 2 * b, 2000, "laplace vs 2b").p_value, kPValueThreshold);
}

TEST(MeasureCount, ZcdpNoiseHasThePlannedGaussianVariance)
{
	const MwemParameters p = MwemNoiseFor(MwemAccounting::Zcdp, 1, 1.0, 1e-6);
	const double s2 = p.measure_variance.value();
	EXPECT_NEAR(s2, 1.0 / LargestZcdpRho(1.0, 1e-6), 1e-4 * s2);  // half of rho: 1 / (2 s2) = rho / 2
	const std::vector<std::int64_t> noise = DrawMeasurements(p, kSelectionSamples);
	auto pmf = [](double v) { return [v](std::int64_t x) { return DiscreteGaussianPmf(x, v); }; };
	EXPECT_GT(FitNoise(noise, pmf(s2), s2, 3000, "gaussian planned").p_value, kPValueThreshold);
	EXPECT_LT(FitNoise(noise, pmf(2 * s2), 2 * s2, 3000, "gaussian vs 2 s2").p_value, kPValueThreshold);
}

// ---- (2) The mechanism.

IntervalWorkload
ThresholdWorkload(std::size_t cells)
{
	std::vector<CellInterval> intervals;
	for (std::int32_t hi = 0; hi < std::int32_t(cells); hi++)
		intervals.push_back({0, hi});
	for (std::int32_t lo = 1; lo < std::int32_t(cells); lo += 3)
		intervals.push_back({lo, std::int32_t(cells) - 1});
	return IntervalWorkload(std::move(intervals), cells);
}

std::vector<std::int64_t>
TrueCounts(const Workload &w, const std::vector<std::int64_t> &histogram)
{
	std::vector<std::int64_t> truth;
	w.EvaluateCounts(histogram, truth);
	return truth;
}

double
MaxError(const Workload &w, const std::vector<std::int64_t> &truth, std::int64_t n, const std::vector<double> &syn)
{
	std::vector<double> answers;
	w.Evaluate(syn, answers);
	double worst = 0;
	for (std::size_t q = 0; q < truth.size(); q++)
		worst = std::max(worst, std::fabs(answers[q] - double(truth[q]) / double(n)));
	return worst;
}

void
ExpectDistribution(const std::vector<double> &syn, std::size_t cells)
{
	ASSERT_EQ(syn.size(), cells);
	double sum = 0;
	for (double w : syn) {
		EXPECT_GE(w, 0.0);
		sum += w;
	}
	EXPECT_NEAR(sum, 1.0, 1e-9);
}

// A skewed histogram the uniform prior gets badly wrong.
std::vector<std::int64_t>
SkewedHistogram(std::size_t cells, std::mt19937_64 &gen)
{
	std::vector<std::int64_t> h(cells);
	for (std::size_t i = 0; i < cells; i++)
		h[i] = std::int64_t(gen() % 50) + (i < cells / 4 ? 400 : 0);
	return h;
}

TEST(RunMwemOnCounts, OutputIsADistributionAndDeterministicForASeed)
{
	std::mt19937_64 gen(7);
	for (MwemAccounting accounting : {MwemAccounting::Pure, MwemAccounting::Zcdp}) {
		for (int trial = 0; trial < 10; trial++) {
			const std::size_t cells = 2 + gen() % 40;
			const IntervalWorkload w = ThresholdWorkload(cells);
			const std::vector<std::int64_t> h = SkewedHistogram(cells, gen);
			const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
			const MwemParameters p = MwemNoiseFor(accounting, 1 + int(gen() % 12), 0.5, 1e-6);
			SeededRandomSource a(trial), b(trial);
			const MwemResult ra = RunMwemOnCounts(w, TrueCounts(w, h), n, UniformPrior(cells), p, a);
			const MwemResult rb = RunMwemOnCounts(w, TrueCounts(w, h), n, UniformPrior(cells), p, b);
			ExpectDistribution(ra.synthetic, cells);
			EXPECT_EQ(ra.synthetic, rb.synthetic);
			EXPECT_EQ(ra.rounds, p.rounds);
		}
	}
}

// The progress hook hears every round, 1 .. the plan's rounds (public), in order.
void
RecordRound(void *context, const PassProgress &progress)
{
	EXPECT_EQ(progress.kind, PassKind::MwemRound);
	static_cast<std::vector<std::pair<int, int>> *>(context)->emplace_back(progress.number, progress.limit);
}

TEST(RunMwemOnCounts, ReportsEveryRound)
{
	std::mt19937_64 gen(9);
	const std::size_t cells = 12;
	const IntervalWorkload w = ThresholdWorkload(cells);
	const std::vector<std::int64_t> h = SkewedHistogram(cells, gen);
	const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
	const MwemParameters p = MwemNoiseFor(MwemAccounting::Pure, 7, 0.5, 0.0);
	SeededRandomSource rng(3);
	std::vector<std::pair<int, int>> heard;
	const ProgressScope scope(RecordRound, &heard);
	const MwemResult r = RunMwemOnCounts(w, TrueCounts(w, h), n, UniformPrior(cells), p, rng);
	ASSERT_EQ(heard.size(), std::size_t(r.rounds));
	for (int round = 1; round <= r.rounds; round++)
		EXPECT_EQ(heard[std::size_t(round - 1)], std::make_pair(round, 7));
}

TEST(RunMwemOnCounts, HugeEpsilonConvergesNearTheTruth)
{
	std::mt19937_64 gen(11);
	const std::size_t cells = 24;
	const IntervalWorkload w = ThresholdWorkload(cells);
	const std::vector<std::int64_t> h = SkewedHistogram(cells, gen);
	const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
	const std::vector<std::int64_t> truth = TrueCounts(w, h);
	const double start = MaxError(w, truth, n, UniformPrior(cells));
	for (MwemAccounting accounting : {MwemAccounting::Pure, MwemAccounting::Zcdp}) {
		const MwemParameters p = MwemNoiseFor(accounting, 60, 1e7, 1e-6);
		SeededRandomSource rng(5);
		const MwemResult r = RunMwemOnCounts(w, truth, n, UniformPrior(cells), p, rng);
		const double end = MaxError(w, truth, n, r.synthetic);
		EXPECT_GT(start, 0.2);
		EXPECT_LT(end, 0.01) << "start " << start;
	}
}

// A prior weight of 0 (a cell no row can hold, ConditionedOnOpenCells) stays 0 through every round and replay, whatever
// the true counts put there; at a huge epsilon the open cells still come near the truth where it holds no closed row.
TEST(RunMwemOnCounts, ZeroPriorCellsStayEmpty)
{
	std::mt19937_64 gen(13);
	for (MwemAccounting accounting : {MwemAccounting::Pure, MwemAccounting::Zcdp})
		for (int trial = 0; trial < 10; trial++) {
			const std::size_t cells = 4 + gen() % 30;
			const IntervalWorkload w = ThresholdWorkload(cells);
			std::vector<std::int64_t> h = SkewedHistogram(cells, gen);
			std::vector<bool> closed(cells, false);
			for (std::size_t i = 1; i < cells; i++)
				closed[i] = gen() % 4 == 0;
			const bool rows_in_closed = trial % 2 == 0;
			for (std::size_t i = 0; i < cells; i++)
				if (closed[i] && !rows_in_closed)
					h[i] = 0;
			const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
			const std::vector<std::int64_t> truth = TrueCounts(w, h);
			SeededRandomSource rng(gen());
			const MwemResult r = RunMwemOnCounts(w, truth, n, ConditionedOnOpenCells(UniformPrior(cells), closed),
			                                     MwemNoiseFor(accounting, 60, 1e7, 1e-6), rng);
			ExpectDistribution(r.synthetic, cells);
			for (std::size_t i = 0; i < cells; i++)
				if (closed[i]) {
					EXPECT_EQ(r.synthetic[i], 0.0) << trial << " " << i;
				}
			if (!rows_in_closed) {
				EXPECT_LT(MaxError(w, truth, n, r.synthetic), 0.02) << trial;
			}
		}
}

TEST(RunMwemOnCounts, TinyEpsilonMovesTheSyntheticBoundedlyAwayFromThePrior)
{
	// Each MW step multiplies some cells by exp((m - a) / 2) with m, a in [0, 1]: at most e^(1/2) relative to the
	// rest. One round makes 1 + kMwemReplaySweeps steps (the new measurement and its replay), whatever the noise,
	// so every cell stays within exp((1 + sweeps) / 2) of its prior weight.
	std::mt19937_64 gen(13);
	const std::size_t cells = 30;
	const IntervalWorkload w = ThresholdWorkload(cells);
	const std::vector<std::int64_t> h = SkewedHistogram(cells, gen);
	const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
	std::vector<double> prior(cells);
	for (std::size_t i = 0; i < cells; i++)
		prior[i] = double(i + 1);
	const double total = std::accumulate(prior.begin(), prior.end(), 0.0);
	for (double &x : prior)
		x /= total;
	for (int seed = 0; seed < 20; seed++) {
		SeededRandomSource rng(seed);
		const MwemResult r =
		    RunMwemOnCounts(w, TrueCounts(w, h), n, prior, MwemNoiseFor(MwemAccounting::Pure, 1, 1e-4, 0), rng);
		const double bound = (1.0 + kMwemReplaySweeps) / 2.0;
		double moved = 0;
		for (std::size_t i = 0; i < cells; i++) {
			EXPECT_LE(r.synthetic[i], prior[i] * std::exp(bound) * (1 + 1e-12));
			EXPECT_GE(r.synthetic[i], prior[i] * std::exp(-bound) * (1 - 1e-12));
			moved = std::max(moved, std::fabs(std::log(r.synthetic[i] / prior[i])));
		}
		EXPECT_GT(moved, 0.0);  // it did update
	}
}

TEST(RunMwemOnCounts, PerfectPriorWithoutNoiseStaysPut)
{
	const std::size_t cells = 12;
	const IntervalWorkload w = ThresholdWorkload(cells);
	std::vector<std::int64_t> h(cells, 10);
	const std::int64_t n = 10 * std::int64_t(cells);
	SeededRandomSource rng(2);
	const MwemResult r = RunMwemOnCounts(w, TrueCounts(w, h), n, UniformPrior(cells),
	                                     MwemNoiseFor(MwemAccounting::Pure, 5, 1e9, 0), rng);
	for (double x : r.synthetic)
		EXPECT_NEAR(x, 1.0 / double(cells), 1e-12);
}

int g_interrupt_calls = 0;
int g_interrupt_after = 0;
bool
InterruptAfter()
{
	return ++g_interrupt_calls > g_interrupt_after;
}

TEST(RunMwemOnCounts, InterruptThrowsCancelled)
{
	const std::size_t cells = 20;
	const IntervalWorkload w = ThresholdWorkload(cells);
	const std::vector<std::int64_t> h(cells, 3);
	const MwemParameters p = MwemNoiseFor(MwemAccounting::Pure, 10, 1.0, 0);
	for (int after : {0, 3, 7}) {
		g_interrupt_calls = 0;
		g_interrupt_after = after;
		SeededRandomSource rng(1);
		EXPECT_PAP_ERROR(ErrorKind::Cancelled,
		                 RunMwemOnCounts(w, TrueCounts(w, h), 60, UniformPrior(cells), p, rng, InterruptAfter));
		EXPECT_EQ(g_interrupt_calls, after + 1);
	}
	// Never interrupted: polled at least once per round.
	g_interrupt_calls = 0;
	g_interrupt_after = 1 << 30;
	SeededRandomSource rng(1);
	EXPECT_NO_THROW(RunMwemOnCounts(w, TrueCounts(w, h), 60, UniformPrior(cells), p, rng, InterruptAfter));
	EXPECT_GE(g_interrupt_calls, p.rounds);
}

TEST(RunMwemOnCounts, RejectsInconsistentInput)
{
	const IntervalWorkload w({{0, 1}, {1, 2}}, 3);
	const MwemParameters p = MwemNoiseFor(MwemAccounting::Pure, 2, 1.0, 0);
	SeededRandomSource rng(1);
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1}, 3, UniformPrior(3), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, UniformPrior(2), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 4}, 3, UniformPrior(3), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {-1, 2}, 3, UniformPrior(3), p, rng));
	// A prior weight may be 0 (a closed cell), but not negative, not finite, or 0 everywhere.
	EXPECT_NO_THROW(RunMwemOnCounts(w, {1, 2}, 3, {0.5, 0.5, 0.0}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, {0.0, 0.0, 0.0}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, {-0.1, 0.6, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, {test::kNaN, 0.5, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, {INFINITY, 0.5, 0.5}, p, rng));
	EXPECT_PAP_ERROR(ErrorKind::DataException, RunMwemOnCounts(w, {0, 0}, 0, UniformPrior(3), p, rng));
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {0, 0}, std::int64_t(1) << 62, UniformPrior(3), p, rng));
	MwemParameters bad = p;
	bad.rounds = 0;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, UniformPrior(3), bad, rng));
	bad = p;
	bad.select_numerator = 0;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, UniformPrior(3), bad, rng));
	bad = p;
	bad.replay_sweeps = -1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunMwemOnCounts(w, {1, 2}, 3, UniformPrior(3), bad, rng));
}

// ---- (3) The planner.

PlanInput
Input(double epsilon, double delta, bool uniform, std::size_t cover = 500, std::size_t cells = 400,
      std::int64_t n = 20000)
{
	PlanInput in;
	in.private_rows = n;
	in.public_rows = 2000;
	in.cover_size = cover;
	in.cells = cells;
	in.epsilon = epsilon;
	in.delta = delta;
	in.uniform_prior = uniform;
	return in;
}

Rational
Exact(double x)
{
	// Every finite double is a dyadic rational: x = mantissa 2^e.
	int e;
	const double f = std::frexp(x, &e);
	const std::int64_t mantissa = std::int64_t(std::ldexp(f, 53));
	Rational r(mantissa);
	e -= 53;
	if (e >= 0)
		r *= Rational(boost::multiprecision::cpp_int(1) << e);
	else
		r /= Rational(boost::multiprecision::cpp_int(1) << -e);
	return r;
}

// The smallest double >= r.
double
RoundUp(const Rational &r)
{
	double d = r.convert_to<double>();
	while (Exact(d) < r)
		d = std::nextafter(d, INFINITY);
	return d;
}

// Exactly what the parameters spend: epsilon (Pure) or rho (Zcdp), from the rationals the samplers use.
Rational
Spent(const MwemParameters &p)
{
	const Rational select(p.select_numerator, p.select_denominator);
	if (p.accounting == MwemAccounting::Pure)
		return p.rounds * (select + Rational(p.measure_scale.denominator, p.measure_scale.numerator));
	return p.rounds *
	       (select * select / 8 + Rational(p.measure_variance.denominator, 2 * p.measure_variance.numerator));
}

void
ExpectWithinBudget(const MwemParameters &p, double epsilon, double delta)
{
	const Rational spent = Spent(p);
	if (p.accounting == MwemAccounting::Pure) {
		EXPECT_LE(spent, Exact(epsilon)) << "T=" << p.rounds << " eps=" << epsilon;
		EXPECT_GT(spent, Exact(epsilon) * Rational(999, 1000));  // and wastes little
	} else {
		EXPECT_LE(ZcdpDelta(RoundUp(spent), epsilon), delta) << "T=" << p.rounds << " eps=" << epsilon;
		EXPECT_GT(spent, Exact(LargestZcdpRho(epsilon, delta)) * Rational(999, 1000));
	}
}

TEST(PlanMwem, AccountingAddsUpExactly)
{
	for (double epsilon : {0.01, 0.1, 0.3, 1.0, 2.0, 7.5})
		for (double delta : {0.0, 1e-9, 1e-6, 1e-3}) {
			for (bool uniform : {false, true}) {
				const MwemPlan plan = PlanMwem(Input(epsilon, delta, uniform));
				ExpectWithinBudget(plan.parameters, epsilon, delta);
				if (delta == 0.0) {
					EXPECT_EQ(plan.parameters.accounting, MwemAccounting::Pure);
					EXPECT_EQ(plan.rho, 0.0);
				}
				if (plan.parameters.accounting == MwemAccounting::Zcdp) {
					EXPECT_NEAR(plan.rho, Spent(plan.parameters).convert_to<double>(), 1e-12 * plan.rho);
				}
			}
			for (int T : {1, 2, 3, 17, 100, kMwemMaxRounds}) {
				ExpectWithinBudget(MwemNoiseFor(MwemAccounting::Pure, T, epsilon, 0), epsilon, 0);
				if (delta > 0)
					ExpectWithinBudget(MwemNoiseFor(MwemAccounting::Zcdp, T, epsilon, delta), epsilon, delta);
			}
		}
}

TEST(PlanMwem, ZcdpRhoIsTheLargestThatConverts)
{
	for (double epsilon : {0.01, 1.0, 10.0})
		for (double delta : {1e-12, 1e-6, 0.1}) {
			const double rho = LargestZcdpRho(epsilon, delta);
			EXPECT_LE(ZcdpDelta(rho, epsilon), delta);
			EXPECT_GT(ZcdpDelta(rho * (1 + 1e-6), epsilon), delta);
			EXPECT_GE(rho, SimpleZcdpRho(epsilon, delta));
		}
}

TEST(PlanMwem, RoundsWithinBoundsAndDeterministic)
{
	for (std::size_t cover : {1, 2, 10, 500, 100000})
		for (double epsilon : {0.01, 1.0, 100.0})
			for (bool uniform : {false, true}) {
				const PlanInput in = Input(epsilon, 1e-6, uniform, cover, 1000, 1000000);
				const MwemPlan plan = PlanMwem(in);
				EXPECT_GE(plan.parameters.rounds, 1);
				EXPECT_LE(plan.parameters.rounds, int(std::min<std::size_t>(cover, kMwemMaxRounds)));
				EXPECT_EQ(plan.parameters.replay_sweeps, kMwemReplaySweeps);
				EXPECT_GT(plan.predicted_error, 0.0);
				EXPECT_LE(plan.predicted_error, 1.0);
				// The rounds are planned for the prior's error: 1/2 for the uniform prior, the public table's
				// sampling error otherwise.
				EXPECT_EQ(plan.prior_error, PriorError(in));
				EXPECT_EQ(plan.prior_error == 0.5, uniform);
				const MwemPlan again = PlanMwem(in);
				EXPECT_EQ(again.parameters.rounds, plan.parameters.rounds);
				EXPECT_EQ(again.predicted_error, plan.predicted_error);
			}
	// More private rows and budget: more rounds pay off.
	EXPECT_GT(PlanMwem(Input(10.0, 0, true, 100000, 1000, 1000000)).parameters.rounds,
	          PlanMwem(Input(0.1, 0, true, 100000, 1000, 1000)).parameters.rounds);
}

// The public sample's estimate of the prior's error leaves the rounds sized for the bound (MWEM makes them whatever
// the answers, so they keep room for a sample off by more than its estimate), and the prediction is what those rounds
// leave of the estimate: each round's measurement is fitted by the replay, a full pin of the error curve, so T rounds
// leave e0 / sqrt(T), KL = e0^2 / 4 (docs/mechanisms.md §8, "Choosing the rounds").
TEST(PlanMwem, RoundsSizedForTheBoundPredictionFromTheEstimate)
{
	for (double epsilon : {0.1, 1.0, 10.0}) {
		SCOPED_TRACE(epsilon);
		PlanInput in = Input(epsilon, 1e-6, false);
		const MwemPlan bound = PlanMwem(in);
		in.prior_sampling_estimate = bound.prior_error / 4.0;
		const MwemPlan estimated = PlanMwem(in);
		EXPECT_EQ(estimated.parameters.rounds, bound.parameters.rounds);
		EXPECT_EQ(estimated.parameters.accounting, bound.parameters.accounting);
		EXPECT_DOUBLE_EQ(estimated.prior_error, bound.prior_error / 4.0);
		const double e0 = estimated.prior_error;
		EXPECT_EQ(estimated.predicted_error, MwemPredictedError(estimated.parameters, in, e0 * e0 / 4.0));
		EXPECT_LT(estimated.predicted_error, bound.predicted_error);
		// Without an estimate, the full pins' prediction of the bound's rounds: below the half steps' that sized them.
		const double e0_bound = bound.prior_error;
		EXPECT_EQ(bound.predicted_error, MwemPredictedError(bound.parameters, in, e0_bound * e0_bound / 4.0));
		EXPECT_LT(bound.predicted_error, MwemPredictedError(bound.parameters, in, e0_bound * e0_bound / 2.0));
	}
}

TEST(PlanMwem, RejectsInvalidParameters)
{
	for (double epsilon : {0.0, -1.0, test::kNaN, test::kInf})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, PlanMwem(Input(epsilon, 0, true)));
	for (double delta : {-0.1, 1.0, test::kNaN})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, PlanMwem(Input(1.0, delta, true)));
	EXPECT_PAP_ERROR(ErrorKind::DataException, PlanMwem(Input(1.0, 0, true, 10, 10, 0)));
	EXPECT_PAP_ERROR(ErrorKind::DataException, PlanMwem(Input(1.0, 0, true, 0, 10)));
	EXPECT_PAP_ERROR(ErrorKind::DataException, PlanMwem(Input(1.0, 0, true, 10, 0)));
	PlanInput in = Input(1.0, 0, true);
	in.beta = 0;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, PlanMwem(in));
}

// More epsilon never plans fewer rounds, and never predicts a larger error for the same rounds and accounting. The
// prediction of the planned rounds may still rise a little where the rounds step up: they minimise the sizing model
// (the bound, half steps), not the prediction (docs/mechanisms.md §8, "Search").
TEST(PlanMwem, MoreEpsilonNeverPlansFewerRoundsNorPredictsMoreForThem)
{
	for (double delta : {0.0, 1e-6})
		for (bool uniform : {false, true})
			for (std::int64_t n : {100, 10000, 1000000}) {
				SCOPED_TRACE(testing::Message() << "delta " << delta << " uniform " << uniform << " n " << n);
				MwemPlan previous = PlanMwem(Input(0.001, delta, uniform, 3000, 2000, n));
				for (double epsilon = 0.001 * 1.13; epsilon < 200; epsilon *= 1.13) {
					const PlanInput in = Input(epsilon, delta, uniform, 3000, 2000, n);
					const MwemPlan plan = PlanMwem(in);
					if (plan.parameters.accounting == previous.parameters.accounting) {
						EXPECT_GE(plan.parameters.rounds, previous.parameters.rounds) << "epsilon " << epsilon;
					}
					const MwemParameters same =
					    MwemNoiseFor(previous.parameters.accounting, previous.parameters.rounds, epsilon, delta);
					const double e0 = plan.prior_error;
					EXPECT_LE(MwemPredictedError(same, in, e0 * e0 / 4.0), previous.predicted_error)
					    << "epsilon " << epsilon;
					previous = plan;
				}
			}
}

}  // namespace
}  // namespace pap::core
