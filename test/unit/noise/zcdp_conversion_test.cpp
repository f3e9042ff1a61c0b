// The tight conversion from rho-zCDP to (epsilon, delta)-DP (docs/mechanisms.md, "zCDP budgets"): known values
// computed independently (a 50-digit golden-section search over alpha), the inverse relation with ZcdpDelta, the
// classic bound it improves on, monotonicity, and the extremes of rho and delta.
#include "core/noise/zcdp_conversion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/base/errors.hpp"
#include "core/noise/discrete_gaussian.hpp"

namespace pap::core {
namespace {

// rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, Proposition 1.3): the conversion is never above it.
double
ClassicBound(double rho, double delta)
{
	return rho + 2 * std::sqrt(rho * std::log(1 / delta));
}

TEST(ZcdpEpsilonTest, MatchesIndependentHighPrecisionValues)
{
	// From mpmath at 50 digits: golden-section search of the bound over ln(alpha - 1) in [-200, 200].
	struct Known {
		double rho, delta, epsilon;
	};
	const Known known[] = {
	    {0.5, 1e-6, 5.2215344445301690534}, {0.01, 1e-5, 0.54572554827400240256},   {1, 1e-9, 9.5214636717922322352},
	    {2, 0.5, 2.4371681683540925609},    {1e-6, 1e-6, 0.0044964939806486115982}, {100, 1e-6, 172.17755147589940844},
	};
	for (const Known &k : known) {
		const double epsilon = ZcdpEpsilon(k.rho, k.delta);
		EXPECT_GE(epsilon, k.epsilon * (1 - 1e-15)) << k.rho << " " << k.delta;  // never below the infimum
		EXPECT_NEAR(epsilon, k.epsilon, 1e-10 * k.epsilon) << k.rho << " " << k.delta;
	}
}

TEST(ZcdpEpsilonTest, IsTheInverseOfTheDeltaConversion)
{
	for (double rho : {1e-8, 1e-4, 0.05, 0.5, 3.0, 50.0}) {
		for (double delta : {1e-12, 1e-6, 1e-3, 0.1}) {
			const double epsilon = ZcdpEpsilon(rho, delta);
			if (epsilon == 0)
				continue;
			// At epsilon the tight delta is delta (CKS20 Corollary 13 solved for epsilon); a little below it, more.
			EXPECT_LE(ZcdpDelta(rho, epsilon), delta * (1 + 1e-6)) << rho << " " << delta;
			EXPECT_GT(ZcdpDelta(rho, epsilon * (1 - 1e-6)), delta) << rho << " " << delta;
			EXPECT_LE(epsilon, ClassicBound(rho, delta)) << rho << " " << delta;
		}
	}
}

TEST(ZcdpEpsilonTest, IncreasesWithRhoAndDecreasesWithDelta)
{
	double previous = 0;
	for (double rho = 1e-14; rho < 1e6; rho *= 1.7) {
		const double epsilon = ZcdpEpsilon(rho, 1e-6);
		// Strictly once positive: below about delta^2 the bound is negative and epsilon is 0.
		if (previous > 0)
			EXPECT_GT(epsilon, previous) << rho;
		else
			EXPECT_GE(epsilon, previous) << rho;
		previous = epsilon;
	}
	EXPECT_GT(previous, 0);
	previous = std::numeric_limits<double>::infinity();
	for (double delta = 1e-300; delta < 0.9; delta *= 7.3) {
		const double epsilon = ZcdpEpsilon(0.5, delta);
		EXPECT_LT(epsilon, previous) << delta;
		previous = epsilon;
	}
}

TEST(ZcdpEpsilonTest, Extremes)
{
	EXPECT_EQ(ZcdpEpsilon(0, 1e-6), 0);
	EXPECT_EQ(ZcdpEpsilon(std::numeric_limits<double>::infinity(), 1e-6), std::numeric_limits<double>::infinity());
	// Tiny rho: (0, delta)-DP, as the tight delta at epsilon 0 (the total variation distance) confirms.
	EXPECT_EQ(ZcdpEpsilon(std::numeric_limits<double>::denorm_min(), 1e-6), 0);
	EXPECT_EQ(ZcdpEpsilon(1e-12, 1e-6), 0);
	EXPECT_LE(ZcdpDelta(1e-12, 0), 1e-6);
	EXPECT_GT(ZcdpEpsilon(1e-10, 1e-6), 0);
	// Huge rho: epsilon about rho.
	EXPECT_NEAR(ZcdpEpsilon(1e300, 1e-6) / 1e300, 1.0, 1e-11);
	EXPECT_TRUE(std::isfinite(ZcdpEpsilon(1e300, 1e-300)));
	// delta near 1: a small rho is (0, delta)-DP.
	EXPECT_EQ(ZcdpEpsilon(1e-12, 0.9999999), 0);
	EXPECT_GE(ZcdpEpsilon(1, 1 - 1e-16), 0);
	EXPECT_LE(ZcdpEpsilon(1, 1 - 1e-16), 1.0);
	// delta at the smallest double: finite.
	const double smallest = ZcdpEpsilon(0.5, std::numeric_limits<double>::denorm_min());
	EXPECT_TRUE(std::isfinite(smallest));
	EXPECT_LE(smallest, ClassicBound(0.5, std::numeric_limits<double>::denorm_min()));
}

TEST(ZcdpEpsilonTest, RefusesInvalidParameters)
{
	const double nan = std::numeric_limits<double>::quiet_NaN();
	for (double rho : {-1e-300, -1.0, nan})
		EXPECT_THROW(ZcdpEpsilon(rho, 1e-6), Error) << rho;
	for (double delta : {0.0, 1.0, -0.5, 2.0, nan, std::numeric_limits<double>::infinity()})
		EXPECT_THROW(ZcdpEpsilon(0.5, delta), Error) << delta;
}

TEST(ZcdpEpsilonTest, TheOrderSolvesItsEquation)
{
	for (double rho : {1e-6, 0.5, 1e4}) {
		const double x = ZcdpEpsilonOrderMinusOne(rho, 1e-6);
		EXPECT_NEAR(rho * x * x + std::log1p(x), -std::log(1e-6), 1e-9 * -std::log(1e-6)) << rho;
	}
}

}  // namespace
}  // namespace pap::core
