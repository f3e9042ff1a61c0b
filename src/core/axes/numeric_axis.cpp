#include "core/axes/numeric_axis.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"

namespace pap::core {

std::size_t
CountBelowSorted(const double *cuts, std::size_t count, double x) noexcept
{
	return std::size_t(std::lower_bound(cuts, cuts + count, x, PgFloatLess) - cuts);
}

static bool
PgFloatEqual(double a, double b)
{
	return !PgFloatLess(a, b) && !PgFloatLess(b, a);
}

NumericAxis
NumericAxis::FromPublicValues(std::vector<double> values)
{
	if (values.empty())
		throw Error(ErrorKind::DataException, "public table has no usable rows",
		            "Every value of the release column in the public table is NULL, so no cover can be built.",
		            "Use a public table with non-NULL values in the release column.");
	std::sort(values.begin(), values.end(), PgFloatLess);
	values.erase(std::unique(values.begin(), values.end(), PgFloatEqual), values.end());
	// -0.0 and 0.0 are one value to PostgreSQL; keep +0.0 so a stored cut prints as 0.
	for (double &v : values)
		if (v == 0.0)
			v = 0.0;
	return NumericAxis(std::move(values));
}

NumericAxis
NumericAxis::FromCuts(std::vector<double> cuts)
{
	for (std::size_t i = 1; i < cuts.size(); i++)
		if (!PgFloatLess(cuts[i - 1], cuts[i]))
			throw Error(ErrorKind::Internal, "stored axis cut points are not strictly increasing");
	if (cuts.empty())
		throw Error(ErrorKind::Internal, "stored axis has no cut points");
	return NumericAxis(std::move(cuts));
}

std::int32_t
NumericAxis::BinOf(double x) const
{
	return std::int32_t(CountBelowSorted(cuts_.data(), cuts_.size(), x));
}

std::size_t
NumericAxis::CountAtMost(double c) const
{
	return std::size_t(std::upper_bound(cuts_.begin(), cuts_.end(), c, PgFloatLess) - cuts_.begin());
}

std::size_t
NumericAxis::CountBelow(double c) const
{
	return CountBelowSorted(cuts_.data(), cuts_.size(), c);
}

}  // namespace pap::core
