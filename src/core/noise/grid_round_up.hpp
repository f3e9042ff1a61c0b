// The one rule by which a real-valued noise parameter (a Laplace scale, a Gaussian variance) becomes an exact
// rational for the samplers: round up, never down, so the noise is at least what the privacy analysis asks for.
#pragma once
#include <cstdint>

namespace pap::core {

struct GridFraction {
	std::uint64_t numerator;
	std::uint64_t denominator;
};

// The smallest multiple of 2^-denominator_bits that is >= x * (1 + 1e-12), in lowest terms. The relative
// margin absorbs the rounding of the double computation that produced x (a few ulps, ~1e-16 each).
// x must be finite and > 0 (checked by the caller, who knows what x means); Error(LimitExceeded) with
// too_large_message / too_large_detail when the numerator would exceed max_numerator.
GridFraction RoundUpOnGrid(double x, int denominator_bits, std::uint64_t max_numerator, const char *too_large_message,
                           const char *too_large_detail);

}  // namespace pap::core

#include "core/base/core_only.hpp"
