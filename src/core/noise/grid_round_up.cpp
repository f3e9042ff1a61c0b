#include "core/noise/grid_round_up.hpp"

#include <cmath>
#include <numeric>

#include "core/base/errors.hpp"

namespace pap::core {

GridFraction
RoundUpOnGrid(double x, int denominator_bits, std::uint64_t max_numerator, const char *too_large_message,
              const char *too_large_detail)
{
	// x * 2^bits is exact (a power-of-two scaling of a finite double; overflow to inf fails the test below).
	// The rounding of the product with the margin (~1e-16 relative) is far inside the margin, so
	// ceil(y) >= scaled holds.
	const double scaled = std::ldexp(x, denominator_bits);
	const double y = std::ceil(scaled * (1.0 + 1e-12));
	if (!(y <= double(max_numerator)))
		throw Error(ErrorKind::LimitExceeded, too_large_message, too_large_detail);
	// y is an integer <= max_numerator <= 2^62, so the conversion and the comparison below are exact.
	std::uint64_t numerator = static_cast<std::uint64_t>(y);
	if (numerator == 0)
		numerator = 1;
	if (static_cast<double>(numerator) < scaled)
		throw Error(ErrorKind::Internal, "a noise parameter rounded below the requested value");
	const std::uint64_t denominator = std::uint64_t(1) << denominator_bits;
	const std::uint64_t g = std::gcd(numerator, denominator);
	return GridFraction{numerator / g, denominator / g};
}

}  // namespace pap::core
