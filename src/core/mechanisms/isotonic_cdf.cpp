#include "core/mechanisms/isotonic_cdf.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"

namespace pap::core {

std::vector<double>
IsotonicRegression(const std::vector<double> &y)
{
	// Blocks on a stack, each its sum and length; a new value merges with the blocks above it while their mean is
	// not below its own (Barlow et al. 1972; Best & Chakravarti 1990).
	std::vector<double> sums;
	std::vector<std::size_t> lengths;
	for (double v : y) {
		if (!std::isfinite(v))
			throw Error(ErrorKind::Internal, "isotonic regression of a non-finite value");
		double sum = v;
		std::size_t length = 1;
		while (!sums.empty() && sums.back() * double(length) >= sum * double(lengths.back())) {
			sum += sums.back();
			length += lengths.back();
			sums.pop_back();
			lengths.pop_back();
		}
		sums.push_back(sum);
		lengths.push_back(length);
	}
	std::vector<double> out;
	out.reserve(y.size());
	for (std::size_t b = 0; b < sums.size(); b++)
		out.insert(out.end(), lengths[b], sums[b] / double(lengths[b]));
	// Block means are increasing in exact arithmetic; a rounding may not keep them so.
	for (std::size_t i = 1; i < out.size(); i++)
		out[i] = std::max(out[i], out[i - 1]);
	return out;
}

std::vector<double>
MonotoneCdfCells(const std::vector<double> &cells, double total)
{
	if (cells.empty() || !std::isfinite(total) || !(total > 0))
		throw Error(ErrorKind::Internal, "monotone CDF needs cells and a positive total");
	// The prefix sums at every bin but the last (whose prefix is the known total).
	std::vector<double> prefix(cells.size() - 1);
	double running = 0;
	for (std::size_t i = 0; i + 1 < cells.size(); i++) {
		running += cells[i];
		prefix[i] = running;
	}
	std::vector<double> cdf = IsotonicRegression(prefix);
	std::vector<double> out(cells.size());
	double below = 0;
	for (std::size_t i = 0; i < cdf.size(); i++) {
		const double at = std::clamp(cdf[i], below, total);
		out[i] = at - below;
		below = at;
	}
	out.back() = total - below;
	return out;
}

}  // namespace pap::core
