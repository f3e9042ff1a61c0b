// Tests of the exact law of a sum of discrete Laplace draws: its table against a direct convolution of the sampler's
// pmf (DiscreteLaplacePmf) and against the closed form of one draw, its survival bounds never below the exact tails
// and within their margins, and its refusals (a table over the budget, a bad scale or count).
#include "core/noise/laplace_sum_law.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/base/errors.hpp"
#include "core/noise/discrete_laplace.hpp"

namespace pap::core {
namespace {

constexpr double kBudget = 1e9;

// P[S = d] for d in [-reach, reach], S a sum of `draws` draws of scale b: a convolution of DiscreteLaplacePmf.
std::vector<double>
Convolution(double b, int draws, int reach)
{
	std::vector<double> sum(std::size_t(2 * reach + 1), 0.0);
	sum[std::size_t(reach)] = 1.0;
	for (int i = 0; i < draws; i++) {
		std::vector<double> next(sum.size(), 0.0);
		for (int x = -reach; x <= reach; x++)
			for (int y = -reach; y <= reach; y++)
				if (std::abs(x + y) <= reach)
					next[std::size_t(x + y + reach)] += sum[std::size_t(x + reach)] * DiscreteLaplacePmf(y, b);
		sum.swap(next);
	}
	return sum;
}

TEST(LaplaceSumLaw, MatchesTheConvolutionOfTheSamplersPmf)
{
	for (double b : {0.3, 2.0, 7.5})
		for (int draws : {1, 2, 3, 5}) {
			const int reach = int(40 * b * draws) + 10;
			const std::vector<double> exact = Convolution(b, draws, reach);
			const LaplaceSumLaw law(b, draws, kBudget);
			double tail = 0.0;  // P[S >= x], from the top
			for (int x = reach; x >= 1; x--) {
				tail += exact[std::size_t(x + reach)];
				EXPECT_NEAR(law.Pmf(x), exact[std::size_t(x + reach)], 1e-13) << b << " " << draws << " " << x;
				EXPECT_EQ(law.Pmf(-x), law.Pmf(x));
				// Never below the exact tail, and above it by no more than the margins.
				const double upper = law.UpperSurvival(x);
				EXPECT_GE(upper, tail * (1.0 - 1e-12)) << b << " " << draws << " " << x;
				EXPECT_LE(upper, tail * (1.0 + 1e-8) + 1e-14) << b << " " << draws << " " << x;
				// By symmetry, P[S >= 1 - x] = 1 - P[S >= x].
				EXPECT_GE(law.UpperSurvival(1 - x), 1.0 - tail - 1e-12);
			}
			EXPECT_LT(law.Missing(), 1e-14);
		}
}

TEST(LaplaceSumLaw, OneDrawHasTheClosedFormTail)
{
	for (double b : {0.5, 3.0, 40.0}) {
		const LaplaceSumLaw law(b, 1, kBudget);
		const double q = std::exp(-1.0 / b);
		// P[X >= x] = q^x / (1 + q) for x >= 1; the bound adds the margins (relative 1e-9, absolute 1e-15 and the
		// mass left out).
		for (int x : {1, 2, 10, int(20 * b)}) {
			const double exact = std::pow(q, x) / (1.0 + q);
			EXPECT_GE(law.UpperSurvival(x), exact * (1.0 - 1e-12)) << b << " " << x;
			EXPECT_LE(law.UpperSurvival(x), exact * (1.0 + 1e-8) + 1e-14) << b << " " << x;
		}
	}
}

TEST(LaplaceSumLaw, NoDrawIsThePointZero)
{
	const LaplaceSumLaw law(2.0, 0, kBudget);
	EXPECT_EQ(law.Radius(), 0);
	EXPECT_EQ(law.Pmf(0), 1.0);
	EXPECT_LE(law.UpperSurvival(1), 1e-14);
	EXPECT_EQ(law.UpperSurvival(0), 1.0);
	EXPECT_EQ(law.UpperSurvival(std::numeric_limits<std::int64_t>::min()), 1.0);
}

TEST(LaplaceSumLaw, RefusesTablesOverTheBudgetAndBadInput)
{
	// The cost grows as b^2 draws: 100 draws at b = 20 are about 400 times 100 at b = 1.
	const double wide = LaplaceSumLaw::WorkFor(20.0, 100, kBudget);
	EXPECT_GT(wide, 100 * LaplaceSumLaw::WorkFor(1.0, 100, kBudget));
	EXPECT_EQ(LaplaceSumLaw::WorkFor(20.0, 100, wide / 2), std::numeric_limits<double>::infinity());
	// A scale of 2 x 10^9 (epsilon 10^-9) over 10^6 draws: refused at once, nothing allocated.
	EXPECT_EQ(LaplaceSumLaw::WorkFor(2e9, 1000000, kBudget), std::numeric_limits<double>::infinity());
	try {
		LaplaceSumLaw(20.0, 100, wide / 2);
		ADD_FAILURE() << "no LimitExceeded";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	}
	for (double b : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
		try {
			LaplaceSumLaw(b, 3, kBudget);
			ADD_FAILURE() << b;
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::Internal);
		}
	try {
		LaplaceSumLaw(1.0, -1, kBudget);
		ADD_FAILURE() << "negative draws";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::Internal);
	}
}

}  // namespace
}  // namespace pap::core
