#include "core/discrete_laplace.hpp"

#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/errors.hpp"
#include "core/grid_round_up.hpp"

namespace pap::core {

namespace {

// Scales are numerator / 2^20 (before reduction). The numerator bound keeps t * v in geometric_exp_fast far
// from 2^64: overflow would need a Geometric(1 - e^{-1}) draw v >= 2^12, probability e^{-4096}.
constexpr int kScaleDenominatorBits = 20;
constexpr std::uint64_t kMaxScaleNumerator = std::uint64_t(1) << 52;

std::uint64_t
CheckedAdd(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	if (__builtin_add_overflow(a, b, &r))
		throw Error(ErrorKind::Internal, "integer overflow in the discrete Laplace sampler");
	return r;
}

std::uint64_t
CheckedMul(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		throw Error(ErrorKind::Internal, "integer overflow in the discrete Laplace sampler");
	return r;
}

// Bernoulli(n/d), 0 <= n <= d, d >= 1.
bool
BernoulliRational(RandomBitSource &rng, std::uint64_t n, std::uint64_t d)
{
	return SampleUniformBelow(rng, d) < n;
}

// Bernoulli(exp(-n/d)) for 0 <= n/d <= 1 (CKS20 Algorithm 1). The trial "Bernoulli(g/k)" is drawn as
// Bernoulli(g) AND Bernoulli(1/k), independent: same probability, and no product d * k that could overflow.
bool
BernoulliExp1(RandomBitSource &rng, std::uint64_t n, std::uint64_t d)
{
	std::uint64_t k = 1;
	while (BernoulliRational(rng, n, d) && BernoulliRational(rng, 1, k))
		k = CheckedAdd(k, 1);
	return (k & 1) == 1;
}

// Geometric with P[k] = (1 - e^{-1}) e^{-k}, k >= 0.
std::uint64_t
GeometricExpSlow(RandomBitSource &rng)
{
	std::uint64_t k = 0;
	while (SampleBernoulliExp(rng, 1, 1))
		k = CheckedAdd(k, 1);
	return k;
}

// Geometric with P[k] = (1 - e^{-s/t}) e^{-k s/t}, k >= 0, s, t >= 1 (CKS20 Algorithm 2, first part):
// u + t*v is geometric with rate 1/t, and flooring by s turns the rate into s/t.
std::uint64_t
GeometricExpFast(RandomBitSource &rng, std::uint64_t s, std::uint64_t t)
{
	std::uint64_t u;
	do
		u = SampleUniformBelow(rng, t);
	while (!SampleBernoulliExp(rng, u, t));
	const std::uint64_t v = GeometricExpSlow(rng);
	return CheckedAdd(u, CheckedMul(t, v)) / s;
}

}  // namespace

std::uint64_t
SampleUniformBelow(RandomBitSource &rng, std::uint64_t m)
{
	if (m == 0)
		throw Error(ErrorKind::Internal, "uniform sample below zero requested");
	// Boost's rejection sampling has no modulo bias; for m == 1 it returns 0 without drawing.
	boost::random::uniform_int_distribution<std::uint64_t> dist(0, m - 1);
	return dist(rng);
}

bool
SampleBernoulliExp(RandomBitSource &rng, std::uint64_t numerator, std::uint64_t denominator)
{
	if (denominator == 0)
		throw Error(ErrorKind::Internal, "Bernoulli(exp(-g)) requested with a zero denominator");
	// Peel off whole units: e^{-g} = e^{-1} * e^{-(g-1)}, each factor an independent trial.
	while (numerator > denominator) {
		if (!BernoulliExp1(rng, 1, 1))
			return false;
		numerator -= denominator;
	}
	return BernoulliExp1(rng, numerator, denominator);
}

std::int64_t
SampleDiscreteLaplace(RandomBitSource &rng, RationalScale scale)
{
	if (scale.numerator == 0 || scale.denominator == 0)
		throw Error(ErrorKind::Internal, "discrete Laplace scale must be a positive fraction");
	// Scale b = t/s; the rate of the geometric is s/t. Lowest terms only make sampling cheaper.
	const std::uint64_t g = std::gcd(scale.numerator, scale.denominator);
	const std::uint64_t t = scale.numerator / g;
	const std::uint64_t s = scale.denominator / g;
	if (t > kMaxScaleNumerator)
		throw Error(ErrorKind::LimitExceeded, "noise scale is too large to sample exactly");
	for (;;) {
		const bool negative = BernoulliRational(rng, 1, 2);
		const std::uint64_t magnitude = GeometricExpFast(rng, s, t);
		// -0 and +0 are the same value: dropping one of them gives 0 its correct, single share of mass.
		if (negative && magnitude == 0)
			continue;
		if (magnitude > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
			throw Error(ErrorKind::Internal, "integer overflow in the discrete Laplace sampler");
		const auto value = static_cast<std::int64_t>(magnitude);
		return negative ? -value : value;
	}
}

RationalScale
ScaleAtLeast(double b)
{
	if (!(b > 0) || !std::isfinite(b))
		throw Error(ErrorKind::InvalidParameter, "noise scale must be finite and positive");
	const GridFraction f = RoundUpOnGrid(b, kScaleDenominatorBits, kMaxScaleNumerator,
	                                     "noise scale is too large to sample exactly",
	                                     "The largest supported noise scale is about 4.29e9.");
	return RationalScale{f.numerator, f.denominator};
}

double
DiscreteLaplacePmf(std::int64_t x, double b)
{
	if (!(b > 0) || !std::isfinite(b))
		throw Error(ErrorKind::InvalidParameter, "noise scale must be finite and positive");
	// (e^{1/b} - 1)/(e^{1/b} + 1) = tanh(1/(2b)): no cancellation when b is large.
	const double magnitude = std::fabs(static_cast<double>(x));
	return std::tanh(0.5 / b) * std::exp(-magnitude / b);
}

}  // namespace pap::core
