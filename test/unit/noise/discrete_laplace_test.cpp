// Distribution tests of the exact samplers (docs/audit.md): chi-squared goodness of fit
// against the closed-form pmf, a power check showing the same test rejects wrong scales, Bernoulli(exp(-g))
// frequencies, the uniform primitive, and the rounding of real scales to exact rationals.
#include "core/noise/discrete_laplace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "chi_squared.hpp"
#include "core/base/errors.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::ChiSquared;
using test::ChiSquaredResult;

constexpr std::size_t kLaplaceSamples = 200000;
constexpr double kPValueThreshold = 1e-6;

// P[a <= X <= c] for 1 <= a <= c: sum of q^x (1-q)/(1+q) with q = e^{-1/b}, in closed form.
double
PositiveRangeProbability(std::int64_t a, std::int64_t c, double b)
{
	const double n = double(c - a + 1);
	return std::exp(-double(a) / b) * -std::expm1(-n / b) / (1 + std::exp(-1 / b));
}

// P[X > k] for k >= 0.
double
UpperTailProbability(std::int64_t k, double b)
{
	return std::exp(-double(k + 1) / b) / (1 + std::exp(-1 / b));
}

// P[lo <= X <= hi] for any finite lo <= hi.
double
IntervalProbability(std::int64_t lo, std::int64_t hi, double b)
{
	if (lo >= 1)
		return PositiveRangeProbability(lo, hi, b);
	if (hi <= -1)
		return PositiveRangeProbability(-hi, -lo, b);
	double p = DiscreteLaplacePmf(0, b);
	if (hi >= 1)
		p += PositiveRangeProbability(1, hi, b);
	if (lo <= -1)
		p += PositiveRangeProbability(1, -lo, b);
	return p;
}

// Chi-squared of samples against the discrete Laplace pmf of scale b (binning: chi_squared.hpp).
ChiSquaredResult
LaplaceGoodnessOfFit(const std::vector<std::int64_t> &samples, double b, std::int64_t width, const char *label)
{
	return test::SymmetricGoodnessOfFit(
	    samples, [b](std::int64_t lo, std::int64_t hi) { return IntervalProbability(lo, hi, b); },
	    [b](std::int64_t k) { return UpperTailProbability(k, b); }, {"b", b}, width, label);
}

std::vector<std::int64_t>
DrawLaplace(double b, std::size_t count)
{
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	const RationalScale scale = ScaleAtLeast(b);
	std::vector<std::int64_t> samples(count);
	for (std::int64_t &x : samples)
		x = SampleDiscreteLaplace(rng, scale);
	return samples;
}

void
ExpectLaplaceFits(double b, std::int64_t width)
{
	const ChiSquaredResult r = LaplaceGoodnessOfFit(DrawLaplace(b, kLaplaceSamples), b, width, "fit");
	::testing::Test::RecordProperty("chi2_statistic", std::to_string(r.statistic));
	::testing::Test::RecordProperty("chi2_df", r.df);
	::testing::Test::RecordProperty("chi2_p_value", std::to_string(r.p_value));
	EXPECT_GT(r.p_value, kPValueThreshold) << "b=" << b << " statistic=" << r.statistic << " df=" << r.df;
}

TEST(DiscreteLaplacePmf, SumsToOneAndMatchesClosedForms)
{
	for (double b : {1 / std::log(3.0), 1.0, 10.0, 1000.0}) {
		double sum = DiscreteLaplacePmf(0, b);
		for (std::int64_t x = 1; x <= 200; ++x) {
			EXPECT_DOUBLE_EQ(DiscreteLaplacePmf(x, b), DiscreteLaplacePmf(-x, b));
			sum += 2 * DiscreteLaplacePmf(x, b);
		}
		EXPECT_NEAR(sum + 2 * UpperTailProbability(200, b), 1.0, 1e-12) << "b=" << b;
		EXPECT_NEAR(IntervalProbability(-200, 200, b) + 2 * UpperTailProbability(200, b), 1.0, 1e-12);
		// Direct formula (e^{1/b} - 1)/(e^{1/b} + 1) e^{-|x|/b}, fine at these scales.
		const double e = std::exp(1 / b);
		EXPECT_NEAR(DiscreteLaplacePmf(3, b), (e - 1) / (e + 1) * std::exp(-3 / b), 1e-15);
	}
	// Large scales: no cancellation, mass at 0 ~ 1/(2b).
	EXPECT_NEAR(DiscreteLaplacePmf(0, 1e9) * 2e9, 1.0, 1e-9);
	EXPECT_THROW(DiscreteLaplacePmf(0, 0.0), Error);
}

TEST(DiscreteLaplaceGoodnessOfFit, ScaleOneOverLn3)
{
	ExpectLaplaceFits(1 / std::log(3.0), 1);
}

TEST(DiscreteLaplaceGoodnessOfFit, Scale1)
{
	ExpectLaplaceFits(1.0, 1);
}

TEST(DiscreteLaplaceGoodnessOfFit, Scale10)
{
	ExpectLaplaceFits(10.0, 1);
}

TEST(DiscreteLaplaceGoodnessOfFit, Scale1000)
{
	ExpectLaplaceFits(1000.0, 1);
}

TEST(DiscreteLaplaceGoodnessOfFit, Scale100000CoarseBins)
{
	ExpectLaplaceFits(1e5, 1001);
}

// Power check of the goodness-of-fit test itself: if it cannot reject samples drawn at 1.3x or 0.7x the scale,
// a passing fit above means nothing. Failing here means the harness is broken, not the sampler.
TEST(DiscreteLaplaceChiSquaredPowerCheck, RejectsSamplesDrawnWithWrongScale)
{
	for (double b : {1.0, 10.0, 1000.0}) {
		for (double factor : {1.3, 0.7}) {
			const std::string label = "power check, drawn at scale x" + std::to_string(factor).substr(0, 3);
			const ChiSquaredResult r =
			    LaplaceGoodnessOfFit(DrawLaplace(factor * b, kLaplaceSamples), b, 1, label.c_str());
			EXPECT_LT(r.p_value, kPValueThreshold) << "b=" << b << " factor=" << factor;
		}
	}
}

TEST(DiscreteLaplace, SeededStreamIsReproducibleAndDoesNotDependOnFractionForm)
{
	SeededRandomSource a(99), b(99);
	for (int i = 0; i < 2000; ++i)
		ASSERT_EQ(SampleDiscreteLaplace(a, RationalScale{7, 3}), SampleDiscreteLaplace(b, RationalScale{28, 12}));
	EXPECT_EQ(a.words_drawn(), b.words_drawn());
}

TEST(DiscreteLaplace, SamplerKeepsTheStreamOfTheFirstImplementation)
{
	// Printed by the sampler as first written (one call per draw, Boost's uniform_int_distribution, commit
	// 79363d7), seed 5: preparing the scale once must not change a single draw or word.
	struct Golden {
		RationalScale scale;
		std::vector<std::int64_t> draws;
		std::uint64_t words;
	};
	const std::vector<Golden> golden = {
	    {{1, 1}, {0, 0, 0, -2, 0, 0, 0, -1, 2, -4, 0, 0}, 60},
	    {{7, 3}, {-1, 0, 8, 0, 6, 1, -5, -2, 2, 2, 9, 0}, 131},
	    {{209715201, 1048576}, {-120, 72, -70, 736, 77, -926, 546, 118, -465, -202, -83, 217}, 102},
	    {{std::uint64_t(1) << 40, 3},
	     {-220665508719, 132871298654, -129710767609, 1349005877028, 142808913276, -1697780132533, 1002361726943,
	      217751614175, -853235284545, -370752224824, -152212257094, 398817627378},
	     102},
	};
	for (const Golden &g : golden) {
		SeededRandomSource a(5), b(5);
		const DiscreteLaplaceSampler sampler(g.scale);
		for (std::size_t i = 0; i < g.draws.size(); ++i) {
			ASSERT_EQ(sampler(a), g.draws[i]) << g.scale.numerator << "/" << g.scale.denominator << " draw " << i;
			ASSERT_EQ(SampleDiscreteLaplace(b, g.scale), g.draws[i]) << g.scale.numerator << " draw " << i;
		}
		EXPECT_EQ(a.words_drawn(), g.words);
		EXPECT_EQ(b.words_drawn(), g.words);
	}
}

TEST(DiscreteLaplace, RejectsInvalidScales)
{
	SeededRandomSource rng(1);
	for (RationalScale bad : {RationalScale{0, 1}, RationalScale{1, 0}}) {
		try {
			SampleDiscreteLaplace(rng, bad);
			FAIL() << "zero in a scale must be rejected";
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::Internal);
		}
	}
	try {
		SampleDiscreteLaplace(rng, RationalScale{(std::uint64_t(1) << 52) + 1, 1});
		FAIL() << "a scale above the exact-sampling limit must be rejected";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	}
	// The largest allowed scale still samples.
	(void)SampleDiscreteLaplace(rng, RationalScale{std::uint64_t(1) << 52, 1});
}

// Bernoulli(exp(-g)): binomial z-test per g, each g also given as a large unreduced fraction to exercise
// denominators near 2^64.
TEST(BernoulliExp, FrequencyMatchesExpMinusG)
{
	struct Case {
		std::uint64_t numerator, denominator;
		double g;
	};
	const Case cases[] = {
	    {0, 1, 0.0}, {1, 7, 1.0 / 7}, {std::uint64_t(1) << 60, std::uint64_t(7) << 60, 1.0 / 7}, {1, 2, 0.5},
	    {1, 1, 1.0}, {5, 2, 2.5},     {std::uint64_t(5) << 61, std::uint64_t(1) << 62, 2.5},     {10, 1, 10.0},
	};
	constexpr int kTrials = 1000000;
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	for (const Case &c : cases) {
		std::int64_t hits = 0;
		for (int i = 0; i < kTrials; ++i)
			hits += SampleBernoulliExp(rng, c.numerator, c.denominator);
		const double p = std::exp(-c.g);
		if (c.g == 0) {
			EXPECT_EQ(hits, kTrials);
			std::printf("[ bernoulli] g=0: %lld/%d true (must be all)\n", (long long)hits, kTrials);
			continue;
		}
		const double z = (double(hits) - kTrials * p) / std::sqrt(kTrials * p * (1 - p));
		std::printf("[ bernoulli] g=%llu/%llu: frequency=%.6f expected=%.6f z=%.3f\n", (unsigned long long)c.numerator,
		            (unsigned long long)c.denominator, double(hits) / kTrials, p, z);
		EXPECT_LT(std::fabs(z), 5.0) << "g=" << c.numerator << "/" << c.denominator;
	}
}

TEST(BernoulliExp, RejectsZeroDenominator)
{
	SeededRandomSource rng(1);
	EXPECT_THROW(SampleBernoulliExp(rng, 1, 0), Error);
}

TEST(UniformBelow, ChiSquaredSmallModuli)
{
	constexpr int kSamples = 300000;
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	for (std::uint64_t m : {3u, 5u, 7u}) {
		std::vector<double> observed(m, 0), expected(m, double(kSamples) / double(m));
		for (int i = 0; i < kSamples; ++i) {
			const std::uint64_t u = SampleUniformBelow(rng, m);
			ASSERT_LT(u, m);
			observed[u] += 1;
		}
		const ChiSquaredResult r = ChiSquared(observed, expected);
		std::printf("[ chi2     ] uniform below %llu: samples=%d statistic=%.3f df=%d p=%.4g\n", (unsigned long long)m,
		            kSamples, r.statistic, r.df, r.p_value);
		EXPECT_GT(r.p_value, kPValueThreshold) << "m=" << m;
	}
}

// z of the frequency of u < threshold among draws, against probability threshold / m.
template <typename Draw>
double
LowRangeZ(Draw draw, std::uint64_t m, std::uint64_t threshold, int samples)
{
	std::int64_t low = 0;
	for (int i = 0; i < samples; ++i)
		low += draw() < threshold;
	const double p = double(threshold) / double(m);
	return (double(low) - samples * p) / std::sqrt(samples * p * (1 - p));
}

TEST(UniformBelow, NoModuloBiasForHugeModuli)
{
	constexpr int kSamples = 200000;
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);

	// m = 2^63 + 1: every bit below the top one is a fair coin, and the top bit is (almost surely) never set.
	const std::uint64_t m1 = (std::uint64_t(1) << 63) + 1;
	std::int64_t ones[64] = {};
	for (int i = 0; i < kSamples; ++i) {
		const std::uint64_t u = SampleUniformBelow(rng, m1);
		for (int bit = 0; bit < 64; ++bit)
			ones[bit] += (u >> bit) & 1;
	}
	EXPECT_EQ(ones[63], 0);
	double worst = 0;
	for (int bit = 0; bit < 63; ++bit) {
		const double z = (double(ones[bit]) - kSamples / 2.0) / std::sqrt(kSamples / 4.0);
		worst = std::max(worst, std::fabs(z));
		EXPECT_LT(std::fabs(z), 5.0) << "bit " << bit;
	}
	std::printf("[ uniform  ] m=2^63+1: bit 62 frequency=%.5f, bit 63 set %lld times, worst |z| over bits 0..62=%.3f\n",
	            double(ones[62]) / kSamples, (long long)ones[63], worst);

	// m = 3 * 2^62: reducing a 64-bit word modulo m would put half the mass, not a third, below 2^62.
	const std::uint64_t m2 = std::uint64_t(3) << 62;
	const std::uint64_t quarter = std::uint64_t(1) << 62;
	const double z = LowRangeZ([&] { return SampleUniformBelow(rng, m2); }, m2, quarter, kSamples);
	std::printf("[ uniform  ] m=3*2^62: z of P[u < 2^62] vs 1/3 = %.3f\n", z);
	EXPECT_LT(std::fabs(z), 5.0);

	// Power check of that test: the naive word % m must be caught.
	const double naive_z = LowRangeZ([&] { return rng() % m2; }, m2, quarter, kSamples);
	std::printf("[ uniform  ] power check, naive word %% m: z=%.1f (must be > 5)\n", naive_z);
	EXPECT_GT(naive_z, 5.0);
}

TEST(UniformBelow, EdgeModuli)
{
	SeededRandomSource rng(3);
	EXPECT_EQ(SampleUniformBelow(rng, 1), 0u);
	EXPECT_EQ(rng.words_drawn(), 0u);  // nothing to choose, nothing drawn
	for (int i = 0; i < 100; ++i)
		EXPECT_LT(SampleUniformBelow(rng, 2), 2u);
	(void)SampleUniformBelow(rng, ~std::uint64_t(0));
	try {
		SampleUniformBelow(rng, 0);
		FAIL() << "an empty range must be rejected";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::Internal);
	}
}

void
ExpectScaleAtLeast(double b)
{
	const RationalScale s = ScaleAtLeast(b);
	ASSERT_GT(s.numerator, 0u);
	ASSERT_GT(s.denominator, 0u);
	// Denominator divides 2^20 and the fraction is reduced.
	EXPECT_EQ((std::uint64_t(1) << 20) % s.denominator, 0u) << "b=" << b;
	EXPECT_EQ(std::gcd(s.numerator, s.denominator), 1u) << "b=" << b;
	EXPECT_LE(s.numerator, std::uint64_t(1) << 52);
	// numerator <= 2^52 and a power-of-two denominator: the long double quotient is exact.
	const long double exact = (long double)s.numerator / (long double)s.denominator;
	EXPECT_GE(exact, (long double)b) << "b=" << b;
	// Not wastefully large: at most the margin plus one grid step.
	EXPECT_LE(exact, (long double)b * (1 + 2e-12L) + 1.0L / (1 << 20)) << "b=" << b;
}

TEST(ScaleAtLeast, RoundsUpForRandomScales)
{
	std::mt19937_64 gen(2024);  // test inputs only, not noise
	std::uniform_real_distribution<double> log_scale(std::log(1e-9), std::log(4e9));
	for (int i = 0; i < 100000; ++i)
		ExpectScaleAtLeast(std::exp(log_scale(gen)));
	// Arbitrary bit patterns: every double is either rejected with the right kind or rounded up.
	int rounded = 0, too_large = 0, invalid = 0;
	for (int i = 0; i < 100000; ++i) {
		const std::uint64_t bits = gen();
		double b;
		std::memcpy(&b, &bits, sizeof(b));
		try {
			ExpectScaleAtLeast(b);
			++rounded;
		} catch (const Error &e) {
			if (e.kind() == ErrorKind::LimitExceeded) {
				EXPECT_GT(b, 4e9);
				++too_large;
			} else {
				EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
				EXPECT_FALSE(b > 0 && std::isfinite(b)) << "b=" << b;
				++invalid;
			}
		}
	}
	std::printf("[ scale    ] random bit patterns: %d rounded up, %d too large, %d invalid\n", rounded, too_large,
	            invalid);
	EXPECT_GT(rounded, 0);
}

TEST(ScaleAtLeast, KnownValuesAndSmallScales)
{
	// b = 1: ceil(2^20 (1 + 1e-12)) = 2^20 + 1.
	RationalScale s = ScaleAtLeast(1.0);
	EXPECT_EQ(s.numerator, (std::uint64_t(1) << 20) + 1);
	EXPECT_EQ(s.denominator, std::uint64_t(1) << 20);
	for (double b : {1 / std::log(3.0), 0.1, 10.0, 1000.0, 1e5, 4e9, 1e-300, DBL_MIN, 5e-324})
		ExpectScaleAtLeast(b);
	s = ScaleAtLeast(5e-324);
	EXPECT_EQ(s.numerator, 1u);
	EXPECT_EQ(s.denominator, std::uint64_t(1) << 20);
}

TEST(ScaleAtLeast, RejectsBadInputWithTheRightKind)
{
	const double invalid[] = {0.0,
	                          -0.0,
	                          -1.0,
	                          -DBL_MIN,
	                          std::numeric_limits<double>::quiet_NaN(),
	                          std::numeric_limits<double>::infinity(),
	                          -std::numeric_limits<double>::infinity()};
	for (double b : invalid) {
		try {
			ScaleAtLeast(b);
			FAIL() << "b=" << b << " must be rejected";
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter) << "b=" << b;
			EXPECT_STREQ(e.what(), "noise scale must be finite and positive");
		}
	}
	for (double b : {5e9, 1e300, DBL_MAX}) {
		try {
			ScaleAtLeast(b);
			FAIL() << "b=" << b << " must be rejected";
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded) << "b=" << b;
		}
	}
}

}  // namespace
}  // namespace pap::core
