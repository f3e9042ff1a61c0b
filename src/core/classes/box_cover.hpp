// The cover H~ of boxes(c1..ck) and orthants(c1..ck) over k Numeric axes, one per class column in class order
// (Algorithm 3, steps 1-4; docs/query-classes.md), and the projection of any query of the class onto it.
//
// A cover query is a product over axes of one per-axis query:
//   - a query of that axis's one-dimensional cover (OrderedAxisCover, interval_cover.hpp): ranges for boxes,
//     thresholds for orthants; its bins exclude the NULL bin, since a comparison with NULL is never true;
//   - or "unconstrained" (the column is absent from the query): no constraint on that axis, NULL bin included.
// Per-axis index i < size of the 1-D cover is that query; i = that size is the unconstrained one. The cover query
// index is the mixed-radix number of the per-axis indexes, axis 0 most significant. Size = prod over axes of
// (1-D size + 1): (M_a(M_a+1)/2 + 2) for boxes, (M_a + 2) for orthants, M_a = cuts of axis a. The size is counted,
// and Project and Render work from the per-axis covers, without the list: Queries() is built when first asked
// for (only PMW and MWEM ask, and they are planned only when the cover fits pap_release.max_cover_queries): 8 + 12 c
// bytes per query, c <= k its constrained axes (product_query.hpp), about 30 MB for 10^6 queries over two axes.
//
// Not deduplicated (a choice, tested), and the public points (CoverInput::public_points) are not used: several
// cover queries may label the distinct public points the same way (any query with an empty component labels
// nothing; a full run and "unconstrained" agree when no public point is NULL on that axis; public points do not
// fill the product grid). Algorithm 3 keeps one query per pattern; keeping a superset costs only a larger
// log|H~| in the mechanism, while the product layout keeps Project exact and O(k log m). At the finest
// granularity every pattern boxes (orthants) realise on the public points is the labeling of some cover query,
// and Project returns a cover query that agrees with the query on every public point.
//
// Projection with coarse cuts: each axis's bounds project as for the one-dimensional class, on that axis's
// public marginal. This minimises the sum over axes of the per-axis public disagreements, an upper bound on the
// box's own (a row the box and its projection label differently is labelled differently on some axis).
// Errors: as Cover::Project; orthants accept only conditions <= and <. A cover of any size is built (max_queries is
// not read): its memory is the per-axis public marginals'.
#pragma once
#include <memory>

#include "core/classes/cover.hpp"

namespace pap::core {

std::unique_ptr<Cover> MakeBoxCover(const CoverInput &input);

}  // namespace pap::core

#include "core/base/core_only.hpp"
