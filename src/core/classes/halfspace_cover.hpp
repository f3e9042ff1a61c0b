// The cover H~ of halfspaces(c1..ck; w_1, ..., w_D) (docs/architecture.md step 2, Algorithm 3 steps 1-4): fixed
// directions w_d, varying offset. Axes: one Linear axis per direction, in the class's order (axis d = the derived
// value w_d.x, NULL when a column is NULL; cuts chosen from its public values, public_values/public_counts its
// finest public marginal, label its canonical text LinearAxisLabel).
//
// Cover: for each direction the thresholds cover on its axis, query (d, j) = "w_d.x <= cut_j" = bins [0, j-1]
// (j = 0..M_d; j = 0 is the empty query), then ONE query per distinct public labeling across directions
// (Algorithm 3): the labeling of (d, j) is the set of distinct public points with bin < j on axis d; the first
// query of a labeling in (direction, j) order is kept and cover queries are listed in that order. Equal labelings
// are found by Zobrist hashing (a fixed-seed random 64-bit key per public point, XOR-accumulated along each
// direction's order) and verified exactly on a hash match (a running maximum per pair of directions), so the work
// is O(D (m + M) + matched pairs * m) rather than O(Q m), memory O(D M + m).
//
// Project: one condition, either linear ("1*x + 2*y <= 3.5", coefficients summed per column, missing columns 0)
// or plain ("x <= 3", coefficient 1). With <= or < it is a threshold of direction w_d when its coefficient vector
// v = lambda * w_d for some lambda > 0 (relative tolerance 1e-12; the first such direction); the bound becomes
// t / lambda. "v.x >= t" (or >) is "(-v).x <= -t" (or <): in the class only when -v is a multiple of a listed
// direction. The query's public labeling on axis d is the public values <= t (< t); with the finest cuts exactly
// one cover query has it; with coarse cuts the neighbouring cut with the fewest public rows in disagreement
// (public_counts) is chosen, ties to the lower one. Error(UndefinedColumn) for a column outside the class,
// Error(QueryOutsideClass) (listing the directions) for anything else.
// Render: "1*x + 2*y <= 3.5"; the empty query "1*x + 2*y < <lowest cut>" ("< '-Infinity'" without cuts).
// Errors at construction: Error(LimitExceeded) beyond input.max_queries, Error(Internal) for axes or points that
// do not match the class.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/classes/cover.hpp"

namespace pap::core {

std::unique_ptr<Cover> MakeHalfspaceCover(const CoverInput &input);

// The canonical text of w.x over the class's columns, as a query's left-hand side: "1*x + 2*y", "1*x - 0.5*y";
// zero weights are left out ("2*y"). Error(Internal) when sizes differ or every weight is zero.
// Error(InvalidParameter) when a direction of spec is a positive multiple of another (PositiveMultiple): the
// same half-spaces twice, which would list one query under two directions. Every pair is checked both ways, as a
// query's coefficients are matched (O(D^2) pairs). Opposite directions are distinct.
void RequireDistinctDirections(const ClassSpec &spec);

std::string LinearAxisLabel(const std::vector<std::string> &columns, const std::vector<double> &weights);

}  // namespace pap::core

#include "core/base/core_only.hpp"
