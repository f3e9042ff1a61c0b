// Exact discrete Laplace noise on integers (Canonne, Kamath, Steinke 2020, Algorithms 1-2), using only
// integer arithmetic and uniform integers from a RandomBitSource: no floating point between the random bits
// and the noise value. P[X = x] = (e^{1/b} - 1)/(e^{1/b} + 1) * e^{-|x|/b} for scale b.
#pragma once
#include <cstdint>

#include "core/noise/random_source.hpp"
#include "core/noise/uniform_below.hpp"

namespace pap::core {

// A noise scale b = numerator / denominator, both positive.
struct RationalScale {
	std::uint64_t numerator;
	std::uint64_t denominator;
	double
	value() const
	{
		return double(numerator) / double(denominator);
	}
};

// The one place where a real-valued scale becomes exact: the smallest representable rational >= b (a relative
// safety margin absorbs the rounding of the double computation that produced b), so noise is never smaller
// than the privacy analysis asks for. Throws Error(InvalidParameter) for b <= 0, NaN or infinite, and
// Error(LimitExceeded) for scales too large to sample exactly.
RationalScale ScaleAtLeast(double b);

// Uniform integer in {0, ..., m - 1}, m >= 1 (Boost.Random's unbiased uniform_int_distribution, as UniformBelow):
// the one primitive all samplers here draw from. Declared for its own distribution tests.
std::uint64_t SampleUniformBelow(RandomBitSource &rng, std::uint64_t m);

// Bernoulli(exp(-numerator/denominator)), exact. denominator > 0.
bool SampleBernoulliExp(RandomBitSource &rng, std::uint64_t numerator, std::uint64_t denominator);

// Draws of the discrete Laplace distribution with one scale. The scale's lowest terms and the uniform draws below
// its numerator are prepared once: a mechanism that draws hundreds of thousands of values (PMW's sparse vector)
// keeps one sampler per scale. Throws as SampleDiscreteLaplace does, at construction.
class DiscreteLaplaceSampler {
public:
	explicit DiscreteLaplaceSampler(RationalScale scale);
	std::int64_t operator()(RandomBitSource &rng) const;

private:
	DiscreteLaplaceSampler(RationalScale lowest_terms, int);
	std::uint64_t Geometric(RandomBitSource &rng) const;

	std::uint64_t t_;  // the scale is t / s in lowest terms
	std::uint64_t s_;
	UniformBelow below_t_;
};

// One draw of the discrete Laplace distribution with the given scale (the same words and value as a
// DiscreteLaplaceSampler of that scale).
std::int64_t SampleDiscreteLaplace(RandomBitSource &rng, RationalScale scale);

// P[X = x] for scale b, in double precision: for tests and for accuracy predictions only.
double DiscreteLaplacePmf(std::int64_t x, double b);

}  // namespace pap::core

#include "core/base/core_only.hpp"
