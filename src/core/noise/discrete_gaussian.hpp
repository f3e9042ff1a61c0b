// Exact discrete Gaussian noise on integers (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for
// Differential Privacy", Algorithm 3): P[X = x] proportional to exp(-x^2 / (2 sigma^2)), with sigma^2 an exact
// rational. Built on the exact discrete Laplace sampler; the acceptance exponent is an exact big-integer fraction,
// so no floating point lies between the random bits and the noise value. Also the zCDP accounting helpers.
#pragma once
#include <cstdint>

#include "core/noise/random_source.hpp"

namespace pap::core {

// A variance sigma^2 = numerator / denominator, both positive.
struct RationalVariance {
	std::uint64_t numerator;
	std::uint64_t denominator;
	double
	value() const
	{
		return double(numerator) / double(denominator);
	}
};

// The one place where a real-valued variance becomes exact: the smallest rational on the 2^-20 grid that is
// >= sigma2 * (1 + 1e-12) (the margin absorbs the rounding of the double computation that produced sigma2), so
// noise is never smaller than the privacy analysis asks for. Returned in lowest terms. Throws
// Error(InvalidParameter) for sigma2 <= 0, NaN or infinite, and Error(LimitExceeded) above about 4.4e12.
RationalVariance VarianceAtLeast(double sigma2);

// t = floor(sqrt(sigma^2)) + 1, exactly (integer square root of floor(numerator / denominator)): the scale of
// the discrete Laplace proposals. Declared for its own tests.
std::uint64_t DiscreteGaussianLaplaceScale(RationalVariance variance);

// One draw of the discrete Gaussian with the given variance parameter sigma^2 (the actual variance of the
// distribution is slightly below sigma^2). Any positive uint64 fraction is accepted.
std::int64_t SampleDiscreteGaussian(RandomBitSource &rng, RationalVariance variance);

// P[X = x] for variance parameter sigma2, in double precision, normalised by summing the theta series (directly
// for sigma2 <= 1, after Poisson summation above): for tests and for accuracy predictions only.
double DiscreteGaussianPmf(std::int64_t x, double sigma2);

// rho of rho-zCDP for the discrete Gaussian with L2 sensitivity `sensitivity` on integer-valued queries:
// sensitivity^2 / (2 sigma^2), the same as the continuous Gaussian (CKS20 Theorem 14).
double DiscreteGaussianRho(double sensitivity, double sigma2);

// epsilon such that rho-zCDP implies (epsilon, delta)-DP by the simple bound rho + 2 sqrt(rho ln(1/delta))
// (Bun & Steinke 2016, Proposition 1.3). delta in (0, 1].
double ZcdpToApproxEpsilon(double rho, double delta);
// The largest rho whose ZcdpToApproxEpsilon(rho, delta) <= epsilon: the simple bound's zCDP budget, kept as the
// starting point of LargestZcdpRho and for comparisons. epsilon > 0, delta in (0, 1).
double SimpleZcdpRho(double epsilon, double delta);
// The zCDP budget of an (epsilon, delta) charge under the tight conversion: a rho with ZcdpDelta(rho, epsilon) <=
// delta (checked on the value returned, so it is valid however the search went), within a relative 1e-13 of the
// largest such rho; at least SimpleZcdpRho. Error(InvalidParameter) unless epsilon is finite and > 0 and delta in
// (0, 1). The last answer is cached per thread (the planners ask for the same budget once per candidate).
double LargestZcdpRho(double epsilon, double delta);

// delta such that rho-zCDP implies (epsilon, delta)-DP by the tight conversion of CKS20 Corollary 13 (as in
// Steinke's cdp2adp.py cdp_delta and OpenDP): inf over alpha > 1 of
// exp((alpha-1)(alpha rho - epsilon)) / (alpha-1) * (1 - 1/alpha)^alpha, capped at 1. Never below the exact
// infimum: every alpha gives a valid bound, so an imprecise search over alpha only overstates delta; the bound at
// the alpha found is evaluated in long double with a margin above its rounding error, then rounded up by a
// relative 1e-12 (docs/mechanisms.md, "Converting zCDP"). A positive bound below the doubles' range is returned as
// the smallest positive double, never 0; 0 only for rho = 0 or epsilon infinite.
double ZcdpDelta(double rho, double epsilon);

}  // namespace pap::core

#include "core/base/core_only.hpp"
