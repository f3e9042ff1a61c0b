// Tests of the noise and the simplex projection shared by the data-independent mechanisms: the noise chosen for a
// sensitivity and budget (Laplace scale l1/epsilon, Gaussian variance l2^2/(2 rho)), chi-squared fits of the noise
// a plan draws against the planned distribution (with a power check: a wrong scale or variance is rejected), and
// the projection against a brute force over supports and the KKT conditions.
#include "core/mechanisms/noisy_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "chi_squared.hpp"
#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/mechanisms/hierarchical_mechanism.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::ChiSquaredResult;

constexpr std::size_t kSamples = 200000;
constexpr double kPValueThreshold = 1e-6;

// The largest rho with rho + 2 sqrt(rho ln(1/delta)) <= epsilon, solved as a quadratic in sqrt(rho).
double
ClosedFormRho(double epsilon, double delta)
{
	// The tight conversion's budget (tested against a high-precision evaluation in discrete_gaussian_test.cpp).
	return LargestZcdpRho(epsilon, delta);
}

// A symmetric integer distribution given by its pmf, with the range and tail sums the binning needs.
template <typename Pmf>
ChiSquaredResult
FitSymmetric(const std::vector<std::int64_t> &samples, Pmf pmf, const char *name, double parameter)
{
	auto range = [&](std::int64_t a, std::int64_t c) {
		double p = 0;
		for (std::int64_t x = a; x <= c; x++)
			p += pmf(x);
		return p;
	};
	auto upper_tail = [&](std::int64_t k) {
		double p = 0;
		for (std::int64_t x = k + 1;; x++) {
			const double term = pmf(x);
			p += term;
			if (term <= 1e-18 * p || term == 0)
				return p;
		}
	};
	return test::SymmetricGoodnessOfFit(samples, range, upper_tail, {name, parameter}, 1, "plan noise");
}

std::vector<std::int64_t>
Draw(const HistogramNoise &noise, std::uint64_t seed)
{
	SeededRandomSource rng(seed);
	std::vector<std::int64_t> samples(kSamples);
	for (std::int64_t &x : samples)
		x = noise.Sample(rng);
	return samples;
}

PlanInput
Input(double epsilon, double delta)
{
	PlanInput in;
	in.private_rows = 10000;
	in.public_rows = 1000;
	in.cover_size = 100;
	in.cells = 100;
	in.epsilon = epsilon;
	in.delta = delta;
	return in;
}

TEST(HistogramNoiseFor, PureIsLaplaceWithScaleL1OverEpsilon)
{
	for (double l1 : {2.0, 6.0, 40.0})
		for (double epsilon : {0.01, 0.5, 3.0}) {
			const HistogramNoise noise = HistogramNoiseFor(l1, l1, epsilon, 0.0);
			EXPECT_FALSE(noise.gaussian);
			EXPECT_GE(noise.laplace.value(), l1 / epsilon);
			EXPECT_LE(noise.laplace.value(), l1 / epsilon * (1 + 1e-6));
			const double q = std::exp(-1.0 / noise.laplace.value());
			EXPECT_NEAR(noise.Variance(), 2 * q / ((1 - q) * (1 - q)), 1e-9 * noise.Variance());
		}
}

TEST(HistogramNoiseFor, ApproximatePicksTheSmallerVarianceOfGaussianAndLaplace)
{
	const double epsilon = 1.0, delta = 1e-6;
	const double rho = ClosedFormRho(epsilon, delta);
	EXPECT_LE(ZcdpDelta(rho * (1 - 1e-9), epsilon), delta);
	EXPECT_GT(ZcdpDelta(rho * (1 + 1e-6), epsilon), delta);
	EXPECT_GT(rho, 1.2 * SimpleZcdpRho(epsilon, delta));  // the tight conversion: 1.2x the simple one or more
	bool saw_gaussian = false, saw_laplace = false;
	for (double sets : {1.0, 2.0, 4.0, 8.0, 16.0, 64.0}) {
		const double l1 = 2 * sets, l2_squared = 2 * sets;
		const HistogramNoise noise = HistogramNoiseFor(l1, l2_squared, epsilon, delta);
		const HistogramNoise laplace = HistogramNoiseFor(l1, l2_squared, epsilon, 0.0);
		const double gaussian_variance = l2_squared / (2 * rho);
		if (noise.gaussian) {
			saw_gaussian = true;
			EXPECT_GE(noise.variance.value(), gaussian_variance * (1 - 1e-9));
			EXPECT_LE(noise.variance.value(), gaussian_variance * (1 + 1e-6));
			EXPECT_LE(noise.Variance(), laplace.Variance());
		} else {
			saw_laplace = true;
			EXPECT_EQ(noise.laplace.numerator, laplace.laplace.numerator);
			EXPECT_EQ(noise.laplace.denominator, laplace.laplace.denominator);
			EXPECT_LE(noise.Variance(), gaussian_variance * (1 + 1e-6));
		}
	}
	// Laplace wins for small sensitivities at this budget, Gaussian for large ones (crossing near 8 node sets).
	EXPECT_TRUE(saw_gaussian);
	EXPECT_TRUE(saw_laplace);
}

TEST(HistogramNoiseFor, RejectsInvalidParameters)
{
	using test::OutcomeOf;
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, 0.0, 0.0); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, NAN, 0.0); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, INFINITY, 0.0); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, 1.0, 1.0); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, 1.0, -1e-9); }), "InvalidParameter");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(0, 2, 1.0, 0.0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 0, 1.0, 1e-6); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(2, 2, 1e-13, 0.0); }), "InvalidParameter");  // below kMinEpsilon
	EXPECT_EQ(OutcomeOf([] { HistogramNoiseFor(1e4, 1e4, 1e-6, 0.0); }), "LimitExceeded");  // scale 1e10
}

// The noise an identity plan draws is the discrete Laplace with scale 2 / epsilon; the same test rejects samples
// drawn with the scale 1.3 or 0.7 times as large.
TEST(PlanNoiseGoodnessOfFit, IdentityPureIsLaplaceTwoOverEpsilon)
{
	const double epsilon = 0.5, b = 2.0 / epsilon;
	const IdentityPlan plan = PlanIdentity(Input(epsilon, 0.0), 10);
	ASSERT_FALSE(plan.noise.gaussian);
	const auto pmf = [](double scale) { return [scale](std::int64_t x) { return DiscreteLaplacePmf(x, scale); }; };
	const ChiSquaredResult fit = FitSymmetric(Draw(plan.noise, 1), pmf(b), "b", b);
	EXPECT_GT(fit.p_value, kPValueThreshold);
	for (double factor : {1.3, 0.7}) {
		HistogramNoise wrong = plan.noise;
		wrong.laplace = ScaleAtLeast(b * factor);
		const ChiSquaredResult r = FitSymmetric(Draw(wrong, 2), pmf(b), "b", b);
		EXPECT_LT(r.p_value, kPValueThreshold) << "scale " << factor << " b not rejected";
	}
}

// The noise a hierarchical plan draws over 256 x 256 bins at (1, 1e-6) is the discrete Gaussian with variance
// l2^2 / (2 rho), l2^2 = 2 (level pairs but the root pair); variances 1.69 or 0.49 times as large are rejected.
TEST(PlanNoiseGoodnessOfFit, HierarchicalApproximateIsGaussianOfThePlannedVariance)
{
	const double epsilon = 1.0, delta = 1e-6;
	PlanInput in = Input(epsilon, delta);
	in.cells = 256 * 256;
	const HierarchicalPlan plan = PlanHierarchical(in, {256, 256});
	ASSERT_TRUE(plan.noise.gaussian) << "branching " << plan.branching;
	ASSERT_EQ(plan.levels.size(), 2u);
	const double level_pairs = (plan.levels[0] + 1) * (plan.levels[1] + 1) - 1;
	const double sigma2 = 2.0 * level_pairs / (2 * ClosedFormRho(epsilon, delta));
	const auto pmf = [](double s2) {
		const double p0 = DiscreteGaussianPmf(0, s2);
		return [s2, p0](std::int64_t x) { return p0 * std::exp(-double(x) * double(x) / (2 * s2)); };
	};
	const ChiSquaredResult fit = FitSymmetric(Draw(plan.noise, 3), pmf(sigma2), "sigma2", sigma2);
	EXPECT_GT(fit.p_value, kPValueThreshold);
	for (double factor : {1.69, 0.49}) {
		HistogramNoise wrong = plan.noise;
		wrong.variance = VarianceAtLeast(sigma2 * factor);
		const ChiSquaredResult r = FitSymmetric(Draw(wrong, 4), pmf(sigma2), "sigma2", sigma2);
		EXPECT_LT(r.p_value, kPValueThreshold) << "variance " << factor << " sigma2 not rejected";
	}
}

// Brute force: the projection keeps the coordinates of some support S and sets the rest to 0; on S it is the
// projection onto the hyperplane (v_S - (sum v_S - total) / |S|). The nearest feasible such point is the answer.
std::vector<double>
BruteForceProjection(const std::vector<double> &v, double total)
{
	const std::size_t n = v.size();
	std::vector<double> best;
	double best_distance = INFINITY;
	for (std::uint32_t mask = 1; mask < (1u << n); mask++) {
		double sum = 0;
		int size = 0;
		for (std::size_t i = 0; i < n; i++)
			if (mask >> i & 1) {
				sum += v[i];
				size++;
			}
		const double shift = (sum - total) / size;
		std::vector<double> x(n, 0.0);
		bool feasible = true;
		double distance = 0;
		for (std::size_t i = 0; i < n; i++) {
			if (mask >> i & 1) {
				x[i] = v[i] - shift;
				feasible = feasible && x[i] >= -1e-12;
			}
			distance += (x[i] - v[i]) * (x[i] - v[i]);
		}
		if (feasible && distance < best_distance) {
			best_distance = distance;
			best = x;
		}
	}
	return best;
}

TEST(ProjectOntoSimplex, MatchesBruteForceAndKkt)
{
	std::mt19937_64 gen(11);
	std::uniform_real_distribution<double> value(-5.0, 5.0);
	for (int trial = 0; trial < 2000; trial++) {
		const std::size_t n = 1 + trial % 7;
		std::vector<double> v(n);
		for (double &x : v)
			x = value(gen);
		if (trial % 5 == 0)
			v[n - 1] = v[0];  // ties
		const double total = trial % 9 == 0 ? 0.0 : std::abs(value(gen)) * 2;
		const std::vector<double> x = ProjectOntoSimplex(v, total);
		const std::vector<double> expected = BruteForceProjection(v, total);
		ASSERT_EQ(x.size(), n);
		double sum = 0;
		for (std::size_t i = 0; i < n; i++) {
			EXPECT_GE(x[i], 0.0);
			EXPECT_NEAR(x[i], expected[i], 1e-9) << "trial " << trial << " i " << i;
			sum += x[i];
		}
		EXPECT_NEAR(sum, total, 1e-9);
		// KKT: one theta with x_i = v_i - theta where x_i > 0 and v_i <= theta where x_i = 0.
		if (total > 0) {
			double theta = NAN;
			for (std::size_t i = 0; i < n; i++)
				if (x[i] > 0) {
					if (std::isnan(theta))
						theta = v[i] - x[i];
					EXPECT_NEAR(v[i] - x[i], theta, 1e-9);
				}
			for (std::size_t i = 0; i < n; i++) {
				if (x[i] == 0) {
					EXPECT_LE(v[i], theta + 1e-9);
				}
			}
		}
	}
}

TEST(ProjectOntoSimplex, FeasiblePointsAreFixedAndErrorsAreInternal)
{
	const std::vector<double> inside = {0.25, 0.0, 0.5, 0.25};
	EXPECT_EQ(ProjectOntoSimplex(inside, 1.0), inside);
	EXPECT_EQ(ProjectOntoSimplex({-3.0, 7.0}, 2.0), (std::vector<double>{0.0, 2.0}));
	using test::OutcomeOf;
	EXPECT_EQ(OutcomeOf([] { ProjectOntoSimplex({}, 1.0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { ProjectOntoSimplex({1.0}, -1.0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { ProjectOntoSimplex({NAN}, 1.0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { ProjectOntoSimplex({1.0}, INFINITY); }), "Internal");
}

int polls = 0;
bool
CountPoll()
{
	polls++;
	return false;
}

bool
Interrupted()
{
	return true;
}

TEST(CountSteps, PollsOncePerMultipleOf65536Crossed)
{
	std::uint64_t steps = 0;
	for (int i = 0; i < 65535; i++)
		CountSteps(CountPoll, steps);
	EXPECT_EQ(polls, 0);
	CountSteps(CountPoll, steps);
	EXPECT_EQ(polls, 1);
	CountSteps(CountPoll, steps, 1000);  // large steps cannot skip over a multiple
	for (int i = 0; i < 200; i++)
		CountSteps(CountPoll, steps, 6553);
	EXPECT_EQ(polls, 1 + int(steps / 65536) - 1);
	CountSteps(nullptr, steps, 1u << 20);
	std::uint64_t fresh = 65535;
	EXPECT_EQ(test::OutcomeOf([&] { CountSteps(Interrupted, fresh); }), "Cancelled");
}

TEST(MaxErrorOverCover, IsTheTwoSidedNormalQuantileForBetaOverTheCover)
{
	// P[|Z| > 1.959964] = 0.05; P[|Z| > 3.290527] = 0.001.
	EXPECT_NEAR(MaxErrorOverCover(1.0, 1, 0.05), 1.959964, 1e-5);
	EXPECT_NEAR(MaxErrorOverCover(4.0, 50, 0.05), 2 * 3.290527, 1e-5);
}

HistogramNoise
LaplaceNoise(double b)
{
	HistogramNoise noise;
	noise.laplace = ScaleAtLeast(b);
	return noise;
}

// The exact distribution of the sum of `draws` discrete Laplace draws of parameter q, on [-reach, reach] (the mass
// beyond is below double's precision for the reach the test uses): a convolution.
std::vector<double>
DiscreteLaplaceSum(double q, int draws, int reach)
{
	std::vector<double> one(std::size_t(2 * reach + 1)), sum(one.size(), 0.0);
	for (int x = -reach; x <= reach; x++)
		one[std::size_t(x + reach)] = (1 - q) / (1 + q) * std::pow(q, std::abs(x));
	sum[std::size_t(reach)] = 1.0;
	for (int d = 0; d < draws; d++) {
		std::vector<double> next(one.size(), 0.0);
		for (int x = -reach; x <= reach; x++)
			for (int y = -reach; y <= reach; y++)
				if (std::abs(x + y) <= reach)
					next[std::size_t(x + y + reach)] += sum[std::size_t(x + reach)] * one[std::size_t(y + reach)];
		sum.swap(next);
	}
	return sum;
}

// P[|S| > t] from the distribution on [-reach, reach].
double
TwoSidedTail(const std::vector<double> &distribution, double t)
{
	const int reach = int(distribution.size() / 2);
	double tail = 0.0;
	for (int x = -reach; x <= reach; x++)
		if (std::abs(double(x)) > t)
			tail += distribution[std::size_t(x + reach)];
	return tail;
}

TEST(MaxErrorOverCover, LaplaceTailOfOneDrawIsNeverBelowTheExactTailAndNotFarAbove)
{
	for (double b : {0.3, 1.0, 3.0, 20.0, 320.0})
		for (std::size_t cover : {std::size_t(1), std::size_t(10), std::size_t(3000), std::size_t(1) << 20})
			for (double beta : {0.05, 0.5, 1e-6}) {
				const HistogramNoise noise = LaplaceNoise(b);
				const double q = std::exp(-1.0 / noise.laplace.value()), p = beta / double(cover);
				const double t = MaxErrorOverCover(noise, 1.0, cover, beta);
				// Closed form: P[|X| > t] = P[|X| >= floor(t) + 1] = 2 q^(floor(t) + 1) / (1 + q).
				EXPECT_LE(2.0 * std::pow(q, std::floor(t) + 1.0) / (1.0 + q), p) << b << " " << cover << " " << beta;
				// The Chernoff bound's minimum is near b (L + ln(L / 2) + 1), L = ln(2 / p), where the exact quantile
				// of the continuous Laplace is b ln(1 / p): a slack logarithmic in L.
				const double L = std::log(2.0 / p);
				EXPECT_LE(t, noise.laplace.value() * (L + std::log(L) + 1.5) + 1.0) << b << " " << cover;
			}
}

TEST(MaxErrorOverCover, LaplaceTailOfFewDrawsIsNeverBelowTheConvolution)
{
	for (double b : {1.0, 4.0})
		for (int draws : {2, 3, 5}) {
			const HistogramNoise noise = LaplaceNoise(b);
			const std::vector<double> sum =
			    DiscreteLaplaceSum(std::exp(-1.0 / noise.laplace.value()), draws, int(60 * b * draws));
			for (std::size_t cover : {std::size_t(1), std::size_t(100), std::size_t(100000)}) {
				const double t = MaxErrorOverCover(noise, double(draws), cover, 0.05);
				EXPECT_LE(TwoSidedTail(sum, t), 0.05 / double(cover)) << b << " " << draws << " " << cover;
				// A fraction of a draw lies between the whole numbers around it.
				EXPECT_LT(MaxErrorOverCover(noise, draws - 0.5, cover, 0.05), t);
				EXPECT_GT(MaxErrorOverCover(noise, draws - 0.5, cover, 0.05),
				          MaxErrorOverCover(noise, draws - 1.0, cover, 0.05));
			}
		}
}

TEST(MaxErrorOverCover, LaplaceTailIsHeavierThanTheNormalForOneDrawAndNearItForMany)
{
	const HistogramNoise noise = LaplaceNoise(10.0);
	// One cell of 3,000, beta 0.05: the exact quantile b ln(K / beta) is 1.8x the normal one of the same variance.
	const double one = MaxErrorOverCover(noise, 1.0, 3000, 0.05);
	EXPECT_GT(one / MaxErrorOverCover(noise.Variance(), 3000, 0.05), 1.5);
	// 10,000 draws: close to normal, the Chernoff bound a little above the normal quantile.
	const double many = MaxErrorOverCover(noise, 10000.0, 3000, 0.05);
	const double normal = MaxErrorOverCover(10000.0 * noise.Variance(), 3000, 0.05);
	EXPECT_GE(many, normal);
	EXPECT_LT(many, 1.15 * normal);
	// A normal part adds to the tail; none and no draw is no error.
	EXPECT_GT(MaxErrorOverCover(noise, 1.0, 3000, 0.05, 100.0), one);
	EXPECT_EQ(MaxErrorOverCover(noise, 0.0, 3000, 0.05), 0.0);
	EXPECT_NEAR(MaxErrorOverCover(noise, 0.0, 3000, 0.05, 4.0), MaxErrorOverCover(4.0, 3000, 0.05), 1e-12);
}

TEST(MaxErrorOverCover, AFractionalDrawIsOneDrawOfTheSmallerScale)
{
	// draws = a^2 < 1 is one draw of scale a b (every coefficient of such a combination is at most a): its bound
	// is a times one draw's, in the tail and in MaxErrorOverCells' bisection alike. A search for lambda below 1 / b
	// only left it about 3x above at a = 1/4.
	const HistogramNoise noise = LaplaceNoise(20.0);
	for (double a : {0.25, 0.5, 0.9}) {
		const double one = MaxErrorOverCover(noise, 1.0, 5000, 0.05);
		EXPECT_NEAR(MaxErrorOverCover(noise, a * a, 5000, 0.05), a * one, 1e-6 * one) << a;
		const double cells = MaxErrorOverCells(noise, {NoiseGroup{5000.0, a * a, 0.0, 0.0}}, 0.05);
		EXPECT_NEAR(cells, a * one, 1e-3 * one) << a;
	}
}

TEST(MaxErrorOverCover, GaussianNoiseKeepsTheNormalQuantileOfTheTotalVariance)
{
	HistogramNoise noise;
	noise.gaussian = true;
	noise.variance = VarianceAtLeast(25.0);
	EXPECT_NEAR(MaxErrorOverCover(noise, 3.0, 50, 0.05, 5.0), MaxErrorOverCover(3.0 * noise.Variance() + 5.0, 50, 0.05),
	            1e-9);
}

TEST(MaxErrorOverCells, OneGroupIsTheCoverBoundAndGroupsLieBetween)
{
	HistogramNoise gaussian;
	gaussian.gaussian = true;
	gaussian.variance = VarianceAtLeast(9.0);
	for (const HistogramNoise &noise : {LaplaceNoise(5.0), gaussian}) {
		const double one = MaxErrorOverCover(noise, 1.0, 1000, 0.05, 4.0);
		EXPECT_NEAR(MaxErrorOverCells(noise, {{1000, 1.0, 4.0, 0.0}}, 0.05), one, 1e-4 * one);
		// Half the cells with a quarter of the noise: below every cell at the worst, above the worst half alone.
		const double mixed = MaxErrorOverCells(noise, {{500, 1.0, 4.0, 0.0}, {500, 0.25, 1.0, 0.0}}, 0.05);
		EXPECT_LT(mixed, one);
		EXPECT_GT(mixed, MaxErrorOverCover(noise, 1.0, 500, 0.05, 4.0));
		// An offset adds at most itself.
		const double offset = MaxErrorOverCells(noise, {{1000, 1.0, 4.0, 7.0}}, 0.05);
		EXPECT_NEAR(offset, one + 7.0, 1e-4 * one);
	}
	// No noise at all: the offset alone.
	EXPECT_NEAR(MaxErrorOverCells(LaplaceNoise(5.0), {{10, 0.0, 0.0, 3.0}}, 0.05), 3.0, 1e-9);
}

TEST(MaxErrorOverCells, RejectsBadGroups)
{
	const HistogramNoise noise = LaplaceNoise(1.0);
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {}, 0.05); }), "Internal");
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {{0, 1.0, 0.0, 0.0}}, 0.05); }), "Internal");
	for (double bad : {-1.0, std::nan(""), HUGE_VAL}) {
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {{bad, 1.0, 0.0, 0.0}}, 0.05); }), "Internal");
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {{1, bad, 0.0, 0.0}}, 0.05); }), "Internal");
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {{1, 1.0, bad, 0.0}}, 0.05); }), "Internal");
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCells(noise, {{1, 1.0, 0.0, bad}}, 0.05); }), "Internal");
	}
}

TEST(MaxErrorOverCover, RejectsBadDraws)
{
	const HistogramNoise noise = LaplaceNoise(1.0);
	for (double bad : {-1.0, std::nan(""), HUGE_VAL}) {
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCover(noise, bad, 10, 0.05); }), "Internal");
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverCover(noise, 1.0, 10, 0.05, bad); }), "Internal");
	}
}

// The exact law of one draw: the smallest t with cover P[|X| >= t] <= beta is the whole number m with cover 2 q^m /
// (1 + q) <= beta < cover 2 q^(m - 1) / (1 + q); Chernoff's bound lies a constant factor of b above it.
TEST(MaxErrorOverSums, OneDrawIsTheExactQuantileBelowChernoff)
{
	for (double b : {1.0, 4.0, 20.0})
		for (double cover : {1.0, 100.0, 100000.0}) {
			const HistogramNoise noise = LaplaceNoise(b);
			const double q = std::exp(-1.0 / noise.laplace.value());
			const double t = MaxErrorOverSums(noise, {{cover, 1, 1.0, 0, 0.0}}, 0.05);
			const double m = std::ceil(t);
			EXPECT_LE(cover * 2.0 * std::pow(q, m) / (1.0 + q), 0.05 * (1.0 + 1e-6)) << b << " " << cover;
			EXPECT_GT(cover * 2.0 * std::pow(q, m - 1.0) / (1.0 + q), 0.05) << b << " " << cover;
			EXPECT_LT(t, MaxErrorOverCover(noise, 1.0, std::size_t(cover), 0.05)) << b << " " << cover;
		}
	// 10^5 queries at beta 0.05, b = 20: the exact quantile is b ln(4 x 10^6 / (1 + q)) = 14.5 b, Chernoff's 18.5 b.
	const HistogramNoise noise = LaplaceNoise(20.0);
	EXPECT_NEAR(MaxErrorOverSums(noise, {{100000, 1, 1.0, 0, 0.0}}, 0.05) / 20.0, 14.5, 0.05);
	EXPECT_NEAR(MaxErrorOverCover(noise, 1.0, 100000, 0.05) / 20.0, 18.45, 0.05);
}

// Identity after consistency, a query over 3 of 8 cells: 5/8 of a sum of 3 draws minus 3/8 of a sum of 5, on the
// lattice of eighths; its exact law by convolution. The bound is sound and tight to the lattice.
TEST(MaxErrorOverSums, IdentityQueryMatchesTheConvolution)
{
	for (double b : {1.5, 4.0}) {
		const HistogramNoise noise = LaplaceNoise(b);
		const double q = std::exp(-1.0 / noise.laplace.value());
		const int reach = int(60 * b * 5);
		const std::vector<double> first = DiscreteLaplaceSum(q, 3, reach), second = DiscreteLaplaceSum(q, 5, reach);
		// P[|5 A - 3 B| >= 8 t].
		const auto tail = [&](double t) {
			double sum = 0.0;
			for (int a = -reach; a <= reach; a++)
				for (int c = -reach; c <= reach; c++)
					if (std::abs(5.0 * a - 3.0 * c) >= 8.0 * t)
						sum += first[std::size_t(a + reach)] * second[std::size_t(c + reach)];
			return sum;
		};
		for (double count : {1.0, 50.0}) {
			const std::vector<DrawSums> sums = {{count, 3, 5.0 / 8.0, 5, 3.0 / 8.0}};
			const double t = MaxErrorOverSums(noise, sums, 0.05);
			EXPECT_LE(count * tail(t), 0.05) << b << " " << count;
			EXPECT_GT(count * tail(t * (1.0 - 1e-7)), 0.05) << b << " " << count;
			// Chernoff at the worst coefficients: 15/8 draws.
			EXPECT_LT(t, MaxErrorOverCells(noise, {{count, 15.0 / 8.0, 0.0, 0.0}}, 0.05)) << b << " " << count;
		}
	}
}

TEST(MaxErrorOverSums, FallsBackToChernoffForTheGaussianAndBeyondTheBudget)
{
	HistogramNoise gaussian;
	gaussian.gaussian = true;
	gaussian.variance = VarianceAtLeast(9.0);
	EXPECT_EQ(MaxErrorOverSums(gaussian, {{10, 4, 0.5, 12, 0.25}}, 0.05),
	          MaxErrorOverCells(gaussian, {{10, 0.25 * 4 + 0.0625 * 12, 0.0, 0.0}}, 0.05));
	// 10^5 draws at b = 200: a table of about 10^12 products.
	const HistogramNoise wide = LaplaceNoise(200.0);
	EXPECT_EQ(MaxErrorOverSums(wide, {{10, 100000, 1.0, 0, 0.0}}, 0.05),
	          MaxErrorOverCells(wide, {{10, 100000.0, 0.0, 0.0}}, 0.05));
	// No draw at all, or coefficients 0: no error.
	EXPECT_EQ(MaxErrorOverSums(wide, {{10, 0, 1.0, 0, 0.0}, {5, 7, 0.0, 3, 0.0}}, 0.05), 0.0);
}

TEST(MaxErrorOverSums, RejectsBadSums)
{
	const HistogramNoise noise = LaplaceNoise(1.0);
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {}, 0.05); }), "Internal");
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{0, 1, 1.0, 0, 0.0}}, 0.05); }), "Internal");
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{1, -1, 1.0, 0, 0.0}}, 0.05); }), "Internal");
	EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{1, 1, 1.0, -2, 0.0}}, 0.05); }), "Internal");
	for (double bad : {-1.0, 1.5, std::nan(""), HUGE_VAL}) {
		if (bad != 1.5) {  // a count, unlike a coefficient, may exceed 1
			EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{bad, 1, 1.0, 0, 0.0}}, 0.05); }), "Internal");
		}
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{1, 1, bad, 0, 0.0}}, 0.05); }), "Internal");
		EXPECT_EQ(test::OutcomeOf([&] { MaxErrorOverSums(noise, {{1, 1, 1.0, 1, bad}}, 0.05); }), "Internal");
	}
}

}  // namespace
}  // namespace pap::core
