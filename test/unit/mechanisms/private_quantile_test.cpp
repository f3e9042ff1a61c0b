// The private quantile (private_quantile.hpp): the rank-distance scores (worked examples, sensitivity 1 over every
// replace-one neighbour of small data sets), the sampler against its exact distribution (chi-squared goodness of
// fit, with a power check: the same test rejects a doubled epsilon), and the interior-point guarantee at the n of
// its bound.
#include "core/mechanisms/private_quantile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "chi_squared.hpp"
#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::ChiSquared;

TEST(QuantileScores, RankDistanceOfEachCandidate)
{
	// Rows at 1, 1, 3 and one above the domain (n = 4); the median's target rank t = 2: x_1 holds the 1st and 2nd.
	const std::vector<std::uint64_t> s = QuantileScores({0, 2, 0, 1, 0}, 1, 0.5);
	// d = (2, 0, 1, 1, 2): x_0 needs 2 rows moved to or below it; x_2 has 2 rows below it, one too many.
	EXPECT_EQ(s, (std::vector<std::uint64_t>{2, 4, 3, 3, 2}));
	// q = 0 targets the smallest row (t = 1), q = 1 the largest (t = n, above the domain here).
	EXPECT_EQ(QuantileScores({0, 2, 0, 1, 0}, 1, 0.0), (std::vector<std::uint64_t>{3, 4, 2, 2, 1}));
	EXPECT_EQ(QuantileScores({0, 2, 0, 1, 0}, 1, 1.0), (std::vector<std::uint64_t>{0, 2, 2, 3, 3}));
	// No row: every score 0 (the uniform choice).
	EXPECT_EQ(QuantileScores({0, 0, 0}, 0, 0.5), (std::vector<std::uint64_t>{0, 0, 0}));
}

TEST(QuantileScores, SensitivityOneOverEveryReplaceOneNeighbour)
{
	// Every data set of 4 rows over 3 values plus "above", and every way of moving one row: no score moves by more
	// than 1, at every q on a grid.
	const int values = 4;  // 3 candidates and the bin above
	for (int a = 0; a < values; a++)
		for (int b = a; b < values; b++)
			for (int c = b; c < values; c++)
				for (int d = c; d < values; d++) {
					std::vector<std::int64_t> counts(values, 0);
					for (int v : {a, b, c, d})
						counts[v]++;
					for (int from = 0; from < values; from++)
						for (int to = 0; to < values; to++) {
							if (counts[from] == 0 || from == to)
								continue;
							std::vector<std::int64_t> moved = counts;
							moved[from]--, moved[to]++;
							for (double q = 0.0; q <= 1.0; q += 0.125) {
								const auto s = QuantileScores({counts.begin(), counts.end() - 1}, counts.back(), q);
								const auto t = QuantileScores({moved.begin(), moved.end() - 1}, moved.back(), q);
								for (std::size_t i = 0; i < s.size(); i++)
									ASSERT_LE(std::llabs(std::int64_t(s[i]) - std::int64_t(t[i])), 1);
							}
						}
				}
}

TEST(QuantileScores, RefusesWhatItCannotScore)
{
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({1}, 0, std::nan("")));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({1}, 0, 1.5));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({1}, 0, -0.1));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({}, 3, 0.5));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({1, -1}, 0, 0.5));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, QuantileScores({1}, -1, 0.5));
	SeededRandomSource rng(1);
	for (const double bad : std::vector<double>{0.0, -1.0, std::nan(""), HUGE_VAL, 1e-12})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, SamplePrivateQuantile({1, 2}, 0, 0.5, bad, rng));
}

constexpr std::size_t kSamples = 100000;
constexpr double kPValueThreshold = 1e-6;

double
FitPValue(const std::vector<double> &counts, const std::vector<double> &p, const char *label)
{
	std::vector<double> expected;
	for (double x : p)
		expected.push_back(x * double(kSamples));
	const test::ChiSquaredResult r = ChiSquared(counts, expected);
	std::printf("[ chi2     ] %s: statistic=%.2f df=%d p=%.4g\n", label, r.statistic, r.df, r.p_value);
	return r.p_value;
}

TEST(SamplePrivateQuantile, FollowsTheExponentialMechanismExactly)
{
	// Six candidates, ten rows: scores spread over a few units so that every candidate is drawn often enough.
	const std::vector<std::int64_t> counts = {1, 2, 0, 3, 1, 2};
	const std::int64_t above = 1;
	const double epsilon = 0.75;
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	std::vector<double> drawn(counts.size(), 0.0);
	for (std::size_t i = 0; i < kSamples; i++)
		drawn[SamplePrivateQuantile(counts, above, 0.5, epsilon, rng)] += 1;
	const std::vector<std::uint64_t> scores = QuantileScores(counts, above, 0.5);
	const std::vector<double> p = PrivateQuantileProbabilities(scores, epsilon);
	for (double x : p)
		ASSERT_GE(x * double(kSamples), test::kMinExpectedCount);
	EXPECT_GT(FitPValue(drawn, p, "em quantile eps=0.75"), kPValueThreshold);
	// Power: the distribution at twice the epsilon (the factor 1/2 of the mechanism forgotten) is rejected.
	EXPECT_LT(FitPValue(drawn, PrivateQuantileProbabilities(scores, 2 * epsilon), "em quantile vs eps=1.5"),
	          kPValueThreshold);
}

TEST(SamplePrivateQuantile, InteriorPointAtTheRowsOfItsBound)
{
	// |X| = 1000, epsilon 1, beta 0.05: the bound asks for n >= 4 ln(20000) = 39.6 rows. The rows at the ends of
	// a narrow interval in the middle of the domain; the output must lie between them in at least 1 - beta of
	// the runs (it does far more often: the bound is a union bound over every outside candidate).
	const std::size_t domain = 1000;
	const double epsilon = 1.0, beta = 0.05;
	const auto n = std::int64_t(std::ceil(InteriorPointRows(double(domain), epsilon, beta)));
	EXPECT_EQ(n, 40);
	std::vector<std::int64_t> counts(domain, 0);
	counts[500] = n / 2, counts[510] = n - n / 2;  // min 500, max 510
	SeededRandomSource rng(17);
	int inside = 0;
	const int runs = 2000;
	for (int i = 0; i < runs; i++) {
		const std::size_t chosen = SamplePrivateQuantile(counts, 0, 0.5, epsilon, rng);
		inside += chosen >= 500 && chosen <= 510;
	}
	EXPECT_GE(double(inside) / runs, 1.0 - beta);
	// Far below the bound (4 rows) the guarantee is gone: most of the mass is outside.
	std::vector<std::int64_t> few(domain, 0);
	few[500] = 2, few[510] = 2;
	inside = 0;
	for (int i = 0; i < runs; i++) {
		const std::size_t chosen = SamplePrivateQuantile(few, 0, 0.5, epsilon, rng);
		inside += chosen >= 500 && chosen <= 510;
	}
	EXPECT_LT(double(inside) / runs, 0.5);
}

}  // namespace
}  // namespace pap::core
