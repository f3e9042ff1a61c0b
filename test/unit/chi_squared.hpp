// Chi-squared goodness of fit shared by the sampler distribution tests (discrete_laplace_test.cpp,
// discrete_gaussian_test.cpp): the statistic and its p-value, and the binning of integer samples of a distribution
// symmetric around 0 into a centre bin, bins of a given width on both sides and one pooled tail per side.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace pap::core::test {

// Every bin, tails included, must expect at least this many samples.
constexpr double kMinExpectedCount = 5.0;

struct ChiSquaredResult {
	double statistic;
	int df;
	double p_value;
};

inline ChiSquaredResult
ChiSquared(const std::vector<double> &observed, const std::vector<double> &expected)
{
	double statistic = 0;
	for (std::size_t i = 0; i < observed.size(); ++i)
		statistic += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
	const int df = int(observed.size()) - 1;
	// Upper tail of chi-squared(df) = Q(df/2, statistic/2), the regularized upper incomplete gamma.
	return {statistic, df, boost::math::gamma_q(df / 2.0, statistic / 2.0)};
}

// What the printed line says about the distribution fitted against, e.g. {"b", 10.0} -> "b=10".
struct FitParameter {
	const char *name;
	double value;
};

// Chi-squared of integer samples against a distribution symmetric around 0, given by range(a, c) = P[a <= X <= c]
// (any finite a <= c) and upper_tail(k) = P[X > k] (k >= 0). Bins of `width` integers: a centre bin around 0, then
// bins outwards on both sides while each still expects >= kMinExpectedCount samples and the pooled tail beyond it
// does too; everything further out is pooled into one tail bin per side. Prints one "[ chi2     ]" line.
template <typename Range, typename UpperTail>
ChiSquaredResult
SymmetricGoodnessOfFit(const std::vector<std::int64_t> &samples, const Range &range, const UpperTail &upper_tail,
                       FitParameter parameter, std::int64_t width, const char *label)
{
	const double n = double(samples.size());
	const std::int64_t half = (width - 1) / 2;
	std::int64_t k = half;  // positive bins cover half+1 .. k
	std::vector<double> positive_probs;
	for (;;) {
		const double bin = range(k + 1, k + width);
		if (n * bin < kMinExpectedCount || n * upper_tail(k + width) < kMinExpectedCount)
			break;
		positive_probs.push_back(bin);
		k += width;
	}
	const double tail = upper_tail(k);
	const double centre = range(-half, half);
	EXPECT_GE(n * tail, kMinExpectedCount);
	EXPECT_GE(n * centre, kMinExpectedCount);

	// Bin i has lower edge lower[i]; order: negative tail, negative bins, centre, positive bins, positive tail.
	std::vector<std::int64_t> lower;
	std::vector<double> probs;
	lower.push_back(std::numeric_limits<std::int64_t>::min());
	probs.push_back(tail);
	for (std::size_t i = positive_probs.size(); i-- > 0;) {
		lower.push_back(-(half + std::int64_t(i + 1) * width));
		probs.push_back(positive_probs[i]);
	}
	lower.push_back(-half);
	probs.push_back(centre);
	for (std::size_t i = 0; i < positive_probs.size(); ++i) {
		lower.push_back(half + 1 + std::int64_t(i) * width);
		probs.push_back(positive_probs[i]);
	}
	lower.push_back(k + 1);
	probs.push_back(tail);

	std::vector<double> observed(lower.size(), 0), expected(lower.size());
	for (std::int64_t x : samples)
		observed[std::size_t(std::upper_bound(lower.begin(), lower.end(), x) - lower.begin()) - 1] += 1;
	double total_prob = 0;
	for (std::size_t i = 0; i < probs.size(); ++i) {
		expected[i] = n * probs[i];
		total_prob += probs[i];
	}
	EXPECT_NEAR(total_prob, 1.0, 1e-9) << "bins must partition the integers";

	const ChiSquaredResult r = ChiSquared(observed, expected);
	std::printf("[ chi2     ] %s: %s=%.6g width=%lld samples=%zu bins=%zu statistic=%.2f df=%d p=%.4g\n", label,
	            parameter.name, parameter.value, (long long)width, samples.size(), lower.size(), r.statistic, r.df,
	            r.p_value);
	return r;
}

}  // namespace pap::core::test
