// Uniform integers in {0, ..., m - 1} drawn exactly as Boost.Random's uniform_int_distribution<uint64_t>(0, m - 1)
// draws them from a full 64-bit engine, with the division Boost does on every call done once per bound. Boost maps
// a word w to w / bucket with bucket = floor(2^64 / m) and rejects the word when that is >= m; it recomputes the
// bucket (a 64-bit division) and divides again for every draw, which was the larger part of a discrete Laplace
// draw. Same words, same values, same number of words: test/unit/uniform_below_test.cpp checks it against Boost.
#pragma once
#include <cstdint>

#include "core/noise/random_source.hpp"

namespace pap::core {

class UniformBelow {
public:
	// m >= 1; Error(Internal) for 0.
	explicit UniformBelow(std::uint64_t m);

	// A value in {0, ..., m - 1}. For m == 1 no word is drawn (as in Boost).
	std::uint64_t
	operator()(RandomBitSource &rng) const
	{
		if (m_ == 1)
			return 0;
		for (;;) {
			const std::uint64_t w = rng();
			if (w < accept_below_)
				return w / bucket_;
		}
	}

	// Bernoulli(n / m) for n <= m, as "operator()(rng) < n" (the same words), without the division:
	// w / bucket < n exactly when w < n * bucket.
	bool
	Below(RandomBitSource &rng, std::uint64_t n) const
	{
		if (m_ == 1)
			return n >= 1;
		const unsigned __int128 true_below = static_cast<unsigned __int128>(n) * bucket_;
		for (;;) {
			const std::uint64_t w = rng();
			if (w < accept_below_)
				return w < true_below;
		}
	}

private:
	std::uint64_t m_;
	std::uint64_t bucket_;            // floor(2^64 / m)
	unsigned __int128 accept_below_;  // m * bucket <= 2^64: w is accepted when w / bucket < m
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
