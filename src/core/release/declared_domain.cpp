// A private-only release's declared domain (declared_domain.hpp).
#include "core/release/declared_domain.hpp"

#include <cmath>

#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

std::string
Number(double value)
{
	return FormatFloat8(value);
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
	// (high - low) / step may overflow to infinity for bounds far apart: compare before converting.
	const double steps = std::floor((high - low) / step);
	if (!(steps < double(max_values)))
		throw Error(ErrorKind::LimitExceeded, where + " has more than " + std::to_string(max_values) + " values",
		            "From " + Number(low) + " to " + Number(high) + " by " + Number(step) + " are " +
		                Number(steps + 1.0) + " values.",
		            "Declare a coarser step or narrower bounds, or raise pap_release.max_cells.");
	std::vector<double> values;
	values.reserve(std::size_t(steps) + 1);
	for (std::size_t k = 0; k <= std::size_t(steps); k++) {
		const double v = low + double(k) * step;
		if (v > high)
			break;  // rounding may put the last multiple just above high
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
