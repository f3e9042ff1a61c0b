// A private-only release's declared domain (declared_domain.hpp).
#include "core/release/declared_domain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/base/interrupt_scope.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

std::string
Number(double value)
{
	return FormatFloat8(value);
}

// The digits after the decimal point of the shortest text that reads back as value ("0.1": 1, "5": 0), or -1 when
// that text has an exponent or more digits than float8 resolves (the grid then keeps its float8 arithmetic).
int
DecimalPlaces(double value)
{
	const std::string text = FormatFloat8(value);
	if (text.find_first_of("eE") != std::string::npos)
		return -1;
	const std::size_t point = text.find('.');
	const int places = point == std::string::npos ? 0 : int(text.size() - point - 1);
	return places <= 15 ? places : -1;
}

// low + k step in float8 drifts from the decimal value a curator declared (0 + 3 * 0.1 is 0.30000000000000004, not
// the double nearest 0.3, which a column's 0.3 reads as). With low and step written in `places` decimals, every
// value of the grid has at most that many: snap it to the double nearest its decimal text.
double
SnapToDecimals(double value, int places)
{
	if (places < 0)
		return value;
	char text[64];
	std::snprintf(text, sizeof text, "%.*f", places, value);
	return std::strtod(text, nullptr);
}

}  // namespace

std::vector<double>
DeclaredGrid(const std::string &column, double low, double high, double step, std::size_t max_values)
{
	const std::string where = "the declared domain of column \"" + column + "\"";
	if (!std::isfinite(low) || !std::isfinite(high))
		throw UnboundedDomainError(column);
	if (!(std::isfinite(step) && step > 0.0))
		throw Error(ErrorKind::InvalidParameter, where + " needs a positive finite step, got " + Number(step), {},
		            "The step is the resolution of the release: the smallest difference between two values it "
		            "tells apart.");
	if (low > high)
		throw Error(ErrorKind::InvalidParameter, where + " has min " + Number(low) + " above max " + Number(high));
	// (high - low) / step may overflow to infinity for bounds far apart: compare before converting. A ratio within
	// float8's rounding of a whole number is that number (0.3 / 0.1 is 2.9999999999999996: max is a value).
	const double ratio = (high - low) / step, nearest = std::round(ratio);
	const double steps = std::fabs(ratio - nearest) <= 1e-9 * std::max(1.0, nearest) ? nearest : std::floor(ratio);
	if (!(steps < double(max_values)))
		throw Error(ErrorKind::LimitExceeded, where + " has more than " + std::to_string(max_values) + " values",
		            "From " + Number(low) + " to " + Number(high) + " by " + Number(step) + " are " +
		                Number(steps + 1.0) + " values.",
		            "Declare a coarser step or narrower bounds, or have a superuser raise pap_release.max_cells.");
	const int low_places = DecimalPlaces(low), step_places = DecimalPlaces(step);
	const int places = low_places < 0 || step_places < 0 ? -1 : std::max(low_places, step_places);
	std::vector<double> values;
	values.reserve(std::size_t(steps) + 1);
	std::uint64_t polled = 0;
	for (std::size_t k = 0; k <= std::size_t(steps); k++) {
		PollInterrupt(polled);  // up to 2^31 values: a cancel must not wait for them all
		const double v = std::min(high, SnapToDecimals(low + double(k) * step, places));
		if (!values.empty() && !(v > values.back()))
			throw Error(ErrorKind::InvalidParameter,
			            where + " has a step too small to tell its values apart at float8 precision", {},
			            "Declare a coarser step.");
		values.push_back(v);
	}
	return values;
}

Error
UnboundedDomainError(const std::string &column)
{
	return Error(ErrorKind::InvalidParameter,
	             "a release without a public table needs finite declared bounds for column \"" + column + "\"",
	             "Over an unbounded ordered domain no differentially private algorithm can answer every threshold "
	             "query, nor even release a point between the smallest and the largest private value: the private "
	             "rows such a release needs grow with the size of the domain, without bound. A public table (whose "
	             "values give the axis) or declared bounds and a step (a finite domain) is what makes the release "
	             "possible.",
	             "Declare the column as {\"" + column +
	                 "\": {\"min\": ..., \"max\": ..., \"step\": ...}}, or define the release over a public table "
	                 "with pap.define_release.");
}

void
RequireDeclarableClass(ClassKind kind)
{
	if (kind == ClassKind::Halfspaces || kind == ClassKind::Predicates)
		throw Error(ErrorKind::InvalidParameter,
		            std::string("a release without a public table cannot be defined for class ") + ClassKindName(kind),
		            "Its axes are learned from the public rows (a direction's values, a predicate's labels), which a "
		            "declared domain does not give.",
		            "Declare a thresholds, ranges, boxes, orthants, marginals or stumps class, or use "
		            "pap.define_release with a public table.");
}

}  // namespace pap::core
