#include "core/noise/uniform_below.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

UniformBelow::UniformBelow(std::uint64_t m) : m_(m), bucket_(0), accept_below_(0)
{
	if (m == 0)
		throw Error(ErrorKind::Internal, "uniform sample below zero requested");
	if (m == 1)
		return;
	// Boost's bucket: floor((2^64 - 1) / m), plus one when m divides 2^64 (the remainder is then m - 1).
	const std::uint64_t all = ~std::uint64_t(0);
	bucket_ = all / m + (all % m == m - 1 ? 1 : 0);
	accept_below_ = static_cast<unsigned __int128>(m) * bucket_;
}

}  // namespace pap::core
