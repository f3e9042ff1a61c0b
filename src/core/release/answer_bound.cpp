#include "core/release/answer_bound.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/axes/gap_spread.hpp"
#include "core/axes/numeric_axis.hpp"  // PgFloatLess
#include "core/base/errors.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {

namespace {

// The number of sorted values below x, or at most x, in float8 order (NaN above every number).
std::size_t
CountBelow(const std::vector<double> &sorted, double x)
{
	return std::size_t(std::lower_bound(sorted.begin(), sorted.end(), x, PgFloatLess) - sorted.begin());
}

std::size_t
CountAtMost(const std::vector<double> &sorted, double x)
{
	return std::size_t(std::upper_bound(sorted.begin(), sorted.end(), x, PgFloatLess) - sorted.begin());
}

bool
IsCut(const std::vector<double> &cuts, double x)
{
	return CountAtMost(cuts, x) != CountBelow(cuts, x);
}

// Whether the query bounds a column other than axis a's (a bound, or IS NOT NULL): then the rows of a's bins it
// counts are only those in its range on that column.
bool
OtherAxisMentioned(const std::vector<ColumnBounds> &bounds, std::size_t a)
{
	for (std::size_t b = 0; b < bounds.size(); b++)
		if (b != a && bounds[b].mentioned)
			return true;
	return false;
}

}  // namespace

EdgeSplit
SplitOfEdge(const ReleaseAxis &axis, const std::vector<double> &spread, const ValueBound &bound, bool upper)
{
	if (axis.public_values.size() != axis.public_counts.size())
		throw Error(ErrorKind::Internal, "answer bound: public values and counts differ in number");
	EdgeSplit split;
	if (!bound.present)
		return split;
	double v = bound.value;
	// "col <= v" and "col > v" put the rows equal to v below the edge.
	bool v_below_edge = upper == bound.inclusive;
	// On a discrete axis the bound selects the values of the one at the largest multiple of the step at most v
	// (below v) that keeps them below: a query is the same query with its edges there (docs/mechanisms.md §10).
	if (const std::optional<double> floor = StepFloor(v, axis.value_step, v_below_edge)) {
		v = *floor;
		v_below_edge = true;
	}
	// "col <= b_j" and "col > b_j" keep the cover's own edge; "col < b_j" and "col >= b_j" differ from it by the
	// rows equal to b_j.
	if (v_below_edge && IsCut(axis.cuts, v)) {
		split.exact = true;
		split.cut = CountBelow(axis.cuts, v);
		return split;
	}
	// The edge lies in the bin (b_{j-1}, b_j] with j the cuts below v (the top bin j = M above the highest cut),
	// and splits the public values at p: those the query keeps below it and those above.
	const std::size_t j = CountBelow(axis.cuts, v);
	const std::size_t begin = j == 0 ? 0 : CountAtMost(axis.public_values, axis.cuts[j - 1]);
	const std::size_t end =
	    j == axis.cuts.size() ? axis.public_values.size() : CountAtMost(axis.public_values, axis.cuts[j]);
	const std::size_t p =
	    std::clamp(v_below_edge ? CountAtMost(axis.public_values, v) : CountBelow(axis.public_values, v), begin,
	               std::max(begin, end));
	std::int64_t rows_before_bin = 0;
	for (std::size_t i = 0; i < begin; i++)
		rows_before_bin += axis.public_counts[i];
	for (std::size_t i = begin; i < end; i++)
		(i < p ? split.below : split.above) += axis.public_counts[i];
	split.split = p;
	const std::int64_t bin_rows = split.below + split.above;
	if (bin_rows > 0)
		split.interpolated = (SpreadRowsBelow(axis.public_values, spread, p, rows_before_bin + split.below, v,
		                                      axis.value_step, v_below_edge) -
		                      double(rows_before_bin)) /
		                     double(bin_rows);
	return split;
}

std::size_t
AxisSideCount(const ReleaseAxis &axis)
{
	return AxisEventCount(axis.cuts, axis.public_values, axis.value_step);
}

// The public values the bins [lo, hi] of an ordered axis hold: [first, last).
static void
PublicRangeOfBins(const ReleaseAxis &axis, const CellInterval &bins, std::size_t *first, std::size_t *last)
{
	const std::size_t M = axis.cuts.size();
	*first = bins.lo <= 0 ? 0 : CountAtMost(axis.public_values, axis.cuts[std::size_t(bins.lo) - 1]);
	*last = std::size_t(bins.hi) >= M ? axis.public_values.size()
	                                  : CountAtMost(axis.public_values, axis.cuts[std::size_t(bins.hi)]);
}

// The side of its bin an edge moved over, from the cover query's edge on that axis (boundary: the public values
// below it): up over the rows above the split, or down over those below. At the split itself the cover's edge is
// a bin boundary, and the side it moved over holds no public row.
static std::int64_t
MovedSide(const EdgeSplit &split, std::size_t boundary)
{
	if (boundary == split.split)
		return std::min(split.below, split.above);
	return boundary > split.split ? split.above : split.below;
}

// An edge on a cut selects whole bins, but the cover query that answers it need not end there on that side: a
// ranges run to the highest cut also takes the top bin (classes/interval_cover.hpp), so "col <= b_max" is answered
// with the rows above b_max, and "col > b_max", which holds no public value, by the empty query. The bins between
// the edge and the cover query's end are moved over whole: each adds the upper bound of its private share, a bound
// AxisEventCount counts (a whole bin's, or the top bin's own). bins: the cover query's bins on the axis. A bin of
// one whole value (0 public rows, layout_choice.hpp) is never moved over, which its event count relies on: the
// projection takes it exactly when the query selects its value (OrderedAxisCover::Project).
static double
ExactEdgeMovedOver(const ReleaseAxis &axis, std::size_t cut, bool upper, const CellInterval &bins,
                   std::int64_t public_rows, std::int64_t private_rows, double log_term)
{
	const std::int64_t top = std::int64_t(axis.cuts.size());  // the top bin, above the highest cut
	std::int64_t from = 0, to = -1;                           // the bins moved over
	if (bins.empty()) {
		// The query holds no public value on this axis. Only the top bin holds none, so the query's own rows lie in
		// it when its lower edge is the highest cut; otherwise its other edge lies inside a bin and bounds them.
		if (!upper && std::int64_t(cut) + 1 == top)
			from = to = top;
	} else if (upper) {
		from = std::min<std::int64_t>(std::int64_t(cut), bins.hi) + 1;
		to = std::max<std::int64_t>(std::int64_t(cut), bins.hi);
	} else {
		from = std::min<std::int64_t>(std::int64_t(cut) + 1, bins.lo);
		to = std::max<std::int64_t>(std::int64_t(cut) + 1, bins.lo) - 1;
	}
	double sum = 0.0;
	for (std::int64_t b = from; b <= to; b++) {
		std::size_t first = 0, last = 0;
		PublicRangeOfBins(axis, CellInterval{std::int32_t(b), std::int32_t(b)}, &first, &last);
		std::int64_t rows = 0;
		for (std::size_t i = first; i < last; i++)
			rows += axis.public_counts[i];
		sum += PrivateShareInterval(rows, public_rows, private_rows, log_term).high;
	}
	return sum;
}

double
QueryProjectionBound(const std::vector<ReleaseAxis> &axes, const std::vector<std::vector<double>> &spread,
                     const std::vector<ColumnBounds> &bounds, const CellInterval *projected, std::int64_t public_rows,
                     std::int64_t private_rows, double event_beta)
{
	if (axes.size() != bounds.size())
		throw Error(ErrorKind::Internal, "answer bound: one column's bounds per axis");
	double sides = 0;
	for (const ReleaseAxis &axis : axes)
		sides += double(AxisSideCount(axis));
	// One event for every answer, refined or not (docs/mechanisms.md §18): every bound refinement's event takes on
	// every ordered axis at once (AxisSideCount).
	const double log_term = RefinementLogTerm(sides, event_beta);
	double sum = 0.0;
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (!bounds[a].mentioned)
			continue;
		std::size_t first = 0, last = 0;
		const bool empty = projected != nullptr && projected[a].empty();
		if (projected != nullptr && !empty)
			PublicRangeOfBins(axes[a], projected[a], &first, &last);
		for (bool upper : {false, true}) {
			const ValueBound &b = upper ? bounds[a].upper : bounds[a].lower;
			if (!b.present)
				continue;
			static const std::vector<double> kNoSpread;
			const EdgeSplit split = SplitOfEdge(axes[a], a < spread.size() ? spread[a] : kNoSpread, b, upper);
			if (split.exact) {
				// A refined answer reads the cells up to the edge; a projection, its cover query's bins.
				if (projected != nullptr)
					sum += ExactEdgeMovedOver(axes[a], split.cut, upper, projected[a], public_rows, private_rows,
					                          log_term);
				continue;
			}
			if (projected == nullptr) {
				// A query that restricts another axis counts only some of the rows of the bin's parts here.
				const bool others_restricted = OtherAxisMentioned(bounds, a);
				sum += RefinedEdgeError(
				    split.below, split.above, split.interpolated,
				    WithinOtherAxesRange(PrivateShareInterval(split.below, public_rows, private_rows, log_term),
				                         others_restricted),
				    WithinOtherAxesRange(PrivateShareInterval(split.above, public_rows, private_rows, log_term),
				                         others_restricted));
				continue;
			}
			std::int64_t side;
			if (empty)
				side = upper ? split.below : split.above;  // the rows the query keeps next to this edge
			else
				side = MovedSide(split, upper ? last : first);
			sum += PrivateShareInterval(side, public_rows, private_rows, log_term).high;
		}
	}
	return std::min(1.0, sum);
}

}  // namespace pap::core
