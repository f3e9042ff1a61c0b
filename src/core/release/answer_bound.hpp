// The error bound of one answer (docs/mechanisms.md §18, "Error bounds of answers"): the chosen mechanism's
// noise and outside-mass parts as the plan predicted them, and the projection part computed for the edges the
// query itself moves, from the public marginal of each ordered axis. Pure functions of public numbers.
#pragma once
#include <cstdint>
#include <vector>

#include "core/axes/release_axis.hpp"
#include "core/cells/cell_grid.hpp"         // CellInterval
#include "core/classes/interval_cover.hpp"  // ValueBound, ColumnBounds

namespace pap::core {

// Where one bound of a query (its lower or upper edge) falls on an ordered axis: the bin (b_{j-1}, b_j] of the
// cut points that holds the edge and the public rows of that bin on either side of it (the two sides the
// projection may move the edge over, docs/mechanisms.md §10 (a)). exact: the edge is a cut point itself
// ("col <= b_j" or "col > b_j"), so the cover query's edge is the query's and no row can disagree there.
struct EdgeSplit {
	bool exact = false;
	std::int64_t below = 0, above = 0;
	std::size_t split = 0;  // the public values below the edge (indexes into axis.public_values)
	std::size_t cut = 0;    // exact: the index of the cut the edge is on (the query keeps bins <= cut below it)
	// The share of the bin's public rows a refined answer places below the edge: below / (below + above) plus the
	// share of the spread row of the value above the edge that lies below it (axes/gap_spread.hpp); 0 in a bin
	// without public rows.
	double interpolated = 0.0;
};
// spread: the axis's GapSpreadShares (one theta per public value), or empty when refined answers do not spread.
EdgeSplit SplitOfEdge(const ReleaseAxis &axis, const std::vector<double> &spread, const ValueBound &bound, bool upper);

// The bounds refinement's event takes on an ordered axis (AxisEventCount, AxisCutOf's count): the union bound of
// the projection part runs over them.
std::size_t AxisSideCount(const ReleaseAxis &axis);

// The projection part of one query of an ordered class (thresholds, ranges, boxes, orthants): for every edge
// that is not exact, the private share of the side of its bin that the answer may miss, bounded from that side's
// public rows (PrivateShareInterval) at the plan's union over the events of every ordered axis of the release and
// event_beta, part (a)'s (answer_mode.hpp, ProjectionEventBetaOf). bounds: one per axis, as CollectColumnBounds gives
// them. projected: the bins of the cover query answered, one interval per axis (an empty one: the empty query), whose
// edges show the side each edge moved over; nullptr for a refined answer, whose error at each edge is RefinedEdgeError
// at the share of the bin it places below the edge (spread: per axis, the gap spreads the answers use, or empty),
// without the lower bounds when the query also bounds another column (WithinOtherAxesRange). At most 1.
double QueryProjectionBound(const std::vector<ReleaseAxis> &axes, const std::vector<std::vector<double>> &spread,
                            const std::vector<ColumnBounds> &bounds, const CellInterval *projected,
                            std::int64_t public_rows, std::int64_t private_rows, double event_beta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
