#include "core/classes/axis_granularity.hpp"

#include <cmath>

#include "core/axes/gap_spread.hpp"  // NoValueBetween
#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"

namespace pap::core {

int
MovableEdges(const ClassSpec &spec)
{
	const int k = int(spec.columns.size());
	switch (spec.kind) {
	case ClassKind::Thresholds: return 1;
	case ClassKind::Ranges: return 2;
	case ClassKind::Orthants: return k;
	case ClassKind::Boxes: return 2 * k;
	case ClassKind::Halfspaces: return 1;
	case ClassKind::Marginals:
	case ClassKind::Stumps:
	case ClassKind::Predicates: return 0;
	}
	throw Error(ErrorKind::Internal, "unknown class kind");
}

double
MaxBinRows(const ClassSpec &spec, double alpha, std::int64_t public_rows)
{
	const int s = MovableEdges(spec);
	// alpha <= 0 (or NaN) asks for the finest cover
	if (s == 0 || !(alpha > 0.0) || public_rows <= 0)
		return 0.0;
	return alpha / (4.0 * double(s)) * double(public_rows);
}

std::vector<double>
ChooseCuts(const std::vector<double> &values, const std::vector<std::int64_t> &counts, double max_bin_rows)
{
	if (values.size() != counts.size())
		throw Error(ErrorKind::Internal, "public marginal has not one count per value");
	for (std::size_t i = 0; i < values.size(); i++) {
		if (counts[i] <= 0)
			throw Error(ErrorKind::Internal, "public marginal has a count that is not positive");
		if (i > 0 && !PgFloatLess(values[i - 1], values[i]))
			throw Error(ErrorKind::Internal, "public marginal values are not sorted and distinct");
	}
	if (!(max_bin_rows > 0.0))
		return values;
	std::vector<double> cuts;
	// rows in the open bin, since the previous cut; doubles are exact for any realistic row count
	double rows = 0.0;
	for (std::size_t i = 0; i < values.size(); i++) {
		if (rows > 0.0 && rows + double(counts[i]) > max_bin_rows) {
			cuts.push_back(values[i - 1]);
			rows = 0.0;
		}
		rows += double(counts[i]);
	}
	if (!values.empty())
		cuts.push_back(values.back());
	return cuts;
}

std::optional<WholeValueMarginal>
EveryWholeValue(const std::vector<double> &values, const std::vector<std::int64_t> &counts, double step,
                double max_values)
{
	(void)ChooseCuts(values, counts, 0.0);              // the same checks of the marginal
	constexpr double kExactLimit = 4503599627370496.0;  // 2^52, StepFloor's (gap_spread.hpp)
	if (!(step > 0.0) || !std::isfinite(step) || values.empty())
		return std::nullopt;
	for (double v : values)
		if (!std::isfinite(v) || !(std::fabs(v) <= kExactLimit) || std::fmod(v, step) != 0.0)
			return std::nullopt;
	const double lowest = values.front() / step, highest = values.back() / step;  // whole numbers: exact
	const double count = highest - lowest + 1.0;
	if (!(count <= max_values) || !(count > double(values.size())))
		return std::nullopt;
	WholeValueMarginal out;
	out.values.reserve(std::size_t(count));
	out.counts.reserve(std::size_t(count));
	std::size_t next = 0;
	for (double k = lowest; k <= highest; k += 1.0) {
		const double v = k * step;
		// Each one step above the one before, as NoValueBetween reads it; anything else (a rounding) drops the
		// candidate rather than give a bin that may hold two values.
		if (!out.values.empty() && !NoValueBetween(out.values.back(), v, step))
			return std::nullopt;
		out.values.push_back(v);
		std::int64_t rows = 0;
		if (next < values.size() && values[next] == v)
			rows = counts[next++];
		out.counts.push_back(rows);
	}
	if (next != values.size())
		return std::nullopt;  // a public value off the multiples (cannot happen past the checks above)
	return out;
}

}  // namespace pap::core
