#include "core/axes/gap_spread.hpp"

#include <algorithm>
#include <cmath>

namespace pap::core {

double
GapSpreadBelow(double lower, double upper, double x)
{
	const double width = upper - lower;
	if (!std::isfinite(lower) || !std::isfinite(upper) || !std::isfinite(width) || !(width > 0.0))
		return 0.0;
	if (!(x > lower))  // NaN included: NaN sorts above every value, but never lies inside a finite gap
		return std::isnan(x) ? 1.0 : 0.0;
	return std::min(1.0, (x - lower) / width);
}

double
SpreadRowsBelow(const std::vector<double> &values, const std::vector<double> &spread, std::size_t index,
                std::int64_t rows_below, double x)
{
	const double rows = double(rows_below);
	if (index == 0 || index >= values.size() || index >= spread.size())
		return rows;
	return rows + std::clamp(spread[index], 0.0, 1.0) * GapSpreadBelow(values[index - 1], values[index], x);
}

}  // namespace pap::core
