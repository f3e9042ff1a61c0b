#include "core/noise/discrete_laplace.hpp"

#include <cmath>
#include <limits>
#include <numeric>

#include "core/base/errors.hpp"
#include "core/noise/grid_round_up.hpp"
#include "core/noise/uniform_below.hpp"

namespace pap::core {

namespace {

// Scales are numerator / 2^20 (before reduction). The numerator bound keeps t * v in geometric_exp_fast far
// from 2^64: overflow would need a Geometric(1 - e^{-1}) draw v >= 2^12, probability e^{-4096}.
constexpr int kScaleDenominatorBits = 20;
constexpr std::uint64_t kMaxScaleNumerator = std::uint64_t(1) << 52;

[[noreturn]] __attribute__((cold, noinline)) void
Overflow()
{
	throw Error(ErrorKind::Internal, "integer overflow in the discrete Laplace sampler");
}

std::uint64_t
CheckedAdd(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	if (__builtin_expect(__builtin_add_overflow(a, b, &r), 0))
		Overflow();
	return r;
}

std::uint64_t
CheckedMul(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	if (__builtin_expect(__builtin_mul_overflow(a, b, &r), 0))
		Overflow();
	return r;
}

// Boost's bucket floor(2^64 / k) (uniform_below.hpp) for the small k of the CKS20 loops (k > 8 has probability
// below 1/8! = 1/40320), computed once.
struct SmallBuckets {
	std::uint64_t bucket[17];
	constexpr SmallBuckets() : bucket{}
	{
		const std::uint64_t all = ~std::uint64_t(0);
		for (std::uint64_t k = 1; k <= 16; k++)
			bucket[k] = all / k + (all % k == k - 1 ? 1 : 0);
	}
};
constexpr SmallBuckets kSmall;

// Bernoulli(1/k), k >= 1: UniformBelow(k).Below(rng, 1) with the bucket of small k prepared.
inline bool
OneIn(RandomBitSource &rng, std::uint64_t k)
{
	if (k == 1)
		return true;  // no word drawn, as in Boost
	if (k > 16)
		return UniformBelow(k).Below(rng, 1);
	const std::uint64_t bucket = kSmall.bucket[k];
	const unsigned __int128 accept_below = static_cast<unsigned __int128>(bucket) * k;
	for (;;) {
		const std::uint64_t w = rng();
		if (w < accept_below)
			return w < bucket;
	}
}

// Bernoulli(exp(-n/d)) for 0 <= n/d <= 1, d the bound of below_d (CKS20 Algorithm 1). The trial "Bernoulli(g/k)"
// is drawn as Bernoulli(g) AND Bernoulli(1/k), independent: same probability, and no product d * k that could
// overflow.
inline bool
BernoulliExp1(RandomBitSource &rng, std::uint64_t n, const UniformBelow &below_d)
{
	std::uint64_t k = 1;
	while (below_d.Below(rng, n) && OneIn(rng, k))
		k = CheckedAdd(k, 1);
	return (k & 1) == 1;
}

// Bernoulli(exp(-1)): BernoulliExp1 with n = d = 1, whose Bernoulli(1) trials are true without drawing.
inline bool
BernoulliExpMinusOne(RandomBitSource &rng)
{
	std::uint64_t k = 1;
	while (OneIn(rng, k))
		k = CheckedAdd(k, 1);
	return (k & 1) == 1;
}

// Geometric with P[k] = (1 - e^{-1}) e^{-k}, k >= 0.
std::uint64_t
GeometricExpSlow(RandomBitSource &rng)
{
	std::uint64_t k = 0;
	while (BernoulliExpMinusOne(rng))
		k = CheckedAdd(k, 1);
	return k;
}

// The scale b = t/s in lowest terms (the rate of the geometric is s/t): lowest terms only make sampling cheaper.
RationalScale
LowestTerms(RationalScale scale)
{
	if (scale.numerator == 0 || scale.denominator == 0)
		throw Error(ErrorKind::Internal, "discrete Laplace scale must be a positive fraction");
	const std::uint64_t g = std::gcd(scale.numerator, scale.denominator);
	if (scale.numerator / g > kMaxScaleNumerator)
		throw Error(ErrorKind::LimitExceeded, "noise scale is too large to sample exactly");
	return RationalScale{scale.numerator / g, scale.denominator / g};
}

}  // namespace

std::uint64_t
SampleUniformBelow(RandomBitSource &rng, std::uint64_t m)
{
	return UniformBelow(m)(rng);
}

bool
SampleBernoulliExp(RandomBitSource &rng, std::uint64_t numerator, std::uint64_t denominator)
{
	if (denominator == 0)
		throw Error(ErrorKind::Internal, "Bernoulli(exp(-g)) requested with a zero denominator");
	// Peel off whole units: e^{-g} = e^{-1} * e^{-(g-1)}, each factor an independent trial.
	while (numerator > denominator) {
		if (!BernoulliExpMinusOne(rng))
			return false;
		numerator -= denominator;
	}
	return BernoulliExp1(rng, numerator, UniformBelow(denominator));
}

DiscreteLaplaceSampler::DiscreteLaplaceSampler(RationalScale scale) : DiscreteLaplaceSampler(LowestTerms(scale), 0) {}

DiscreteLaplaceSampler::DiscreteLaplaceSampler(RationalScale lowest, int)
    : t_(lowest.numerator), s_(lowest.denominator), below_t_(lowest.numerator)
{
}

// Geometric with P[k] = (1 - e^{-s/t}) e^{-k s/t}, k >= 0 (CKS20 Algorithm 2, first part): u + t*v is geometric
// with rate 1/t, and flooring by s turns the rate into s/t.
std::uint64_t
DiscreteLaplaceSampler::Geometric(RandomBitSource &rng) const
{
	std::uint64_t u;
	do
		u = below_t_(rng);
	while (!BernoulliExp1(rng, u, below_t_));
	const std::uint64_t v = GeometricExpSlow(rng);
	return CheckedAdd(u, CheckedMul(t_, v)) / s_;
}

std::int64_t
DiscreteLaplaceSampler::operator()(RandomBitSource &rng) const
{
	for (;;) {
		const bool negative = OneIn(rng, 2);
		const std::uint64_t magnitude = Geometric(rng);
		// -0 and +0 are the same value: dropping one of them gives 0 its correct, single share of mass.
		if (negative && magnitude == 0)
			continue;
		if (magnitude > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
			Overflow();
		const auto value = static_cast<std::int64_t>(magnitude);
		return negative ? -value : value;
	}
}

std::int64_t
SampleDiscreteLaplace(RandomBitSource &rng, RationalScale scale)
{
	return DiscreteLaplaceSampler(scale)(rng);
}

RationalScale
ScaleAtLeast(double b)
{
	if (!(b > 0) || !std::isfinite(b))
		throw Error(ErrorKind::InvalidParameter, "noise scale must be finite and positive");
	const GridFraction f =
	    RoundUpOnGrid(b, kScaleDenominatorBits, kMaxScaleNumerator, "noise scale is too large to sample exactly",
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
