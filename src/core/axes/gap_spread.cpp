#include "core/axes/gap_spread.hpp"

#include <algorithm>
#include <cmath>

namespace pap::core {

double
AxisValueStep(ValueType type)
{
	return type == ValueType::Date ? kDateAxisStep : 0.0;
}

std::optional<double>
StepFloor(double x, double step, bool inclusive)
{
	constexpr double kExactLimit = 4503599627370496.0;  // 2^52: whole numbers up to a step beyond it are doubles
	if (!(step > 0.0) || !std::isfinite(step) || !std::isfinite(x) || !(std::fabs(x) <= kExactLimit))
		return std::nullopt;
	// fmod is exact and has the sign of x: x - r is the multiple of step nearest 0 from x, a whole number below
	// 2^52 (exact) for the integer and date steps.
	const double r = std::fmod(x, step);
	double floor = x - r;
	if (r < 0.0)
		floor -= step;
	if (!inclusive && floor == x)
		floor -= step;
	return floor;
}

bool
NoValueBetween(double lower, double upper, double step)
{
	if (!(step > 0.0) || !std::isfinite(step) || !std::isfinite(lower) || !std::isfinite(upper))
		return false;
	// fmod is exact: both ends are whole multiples of step exactly when it leaves 0. Their difference is then k step
	// for a whole k, and for k >= 2 it rounds to at least 2 step (a multiple of a double by 2 is exact), never to
	// step: so upper - lower <= step holds exactly when k <= 1.
	return std::fmod(lower, step) == 0.0 && std::fmod(upper, step) == 0.0 && upper - lower <= step;
}

double
GapSpreadBelow(double lower, double upper, double x, double step, bool inclusive)
{
	const double width = upper - lower;
	if (!std::isfinite(lower) || !std::isfinite(upper) || !std::isfinite(width) || !(width > 0.0))
		return 0.0;
	if (std::isnan(x))  // NaN sorts above every value
		return 1.0;
	if (step > 0.0) {
		const double values = std::round(width / step);
		if (values >= 1.0 && std::fabs(values * step - width) <= 1e-9 * width) {
			const double offset = (x - lower) / step;
			const double below = inclusive ? std::floor(offset) : std::ceil(offset) - 1.0;
			return std::clamp(below / values, 0.0, 1.0);
		}
	}
	return std::clamp((x - lower) / width, 0.0, 1.0);
}

double
SpreadRowsBelow(const std::vector<double> &values, const std::vector<double> &spread, std::size_t index,
                std::int64_t rows_below, double x, double step, bool inclusive)
{
	const double rows = double(rows_below);
	if (index == 0 || index >= values.size() || index >= spread.size())
		return rows;
	return rows +
	       std::clamp(spread[index], 0.0, 1.0) * GapSpreadBelow(values[index - 1], values[index], x, step, inclusive);
}

}  // namespace pap::core
