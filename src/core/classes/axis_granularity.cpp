#include "core/classes/axis_granularity.hpp"

#include <cmath>

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

}  // namespace pap::core
