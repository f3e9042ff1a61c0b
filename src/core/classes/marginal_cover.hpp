// The cover H~ of marginals(k; c1..cD) and stumps(b1..bD) (docs/architecture.md step 2, Algorithm 3 steps 1-4;
// docs/query-classes.md) over one Categorical axis per class column, in the class's column order
// (release_axis.hpp: categories 0..C-1, "other" at C, NULL at C + 1).
//
// The class: every conjunction of k equalities "c_a = v" on k distinct columns. v is any bin but NULL (SQL's
// "= value" is never true for NULL): a category, or "other" (a value never seen publicly) on a Text or Number
// axis; exactly "false" or "true" on a Boolean axis (categories {"false", "true"}; a boolean has no other value).
// stumps(b1..bD) is k = 1 over Boolean axes: "b = true" and "b = false" for each b.
//
// Dedup (Algorithm 3, literally): T = the distinct public points (CoverInput::public_points; two public rows on
// one grid point agree on every query of the class, which reads bins only). A query's labeling is the set of
// points of T it is true on. The cover holds ONE query per distinct labeling realised by the class, across
// attribute sets too: "a = 1" and "b = 7" are one cover query when exactly the same public points have a = 1 as
// have b = 7. Every query whose value tuple no public point has labels nothing: all of them are one cover query,
// the empty pattern. The representative of a labeling is its FIRST query in the canonical order: attribute sets
// in lexicographic order of their axes, then value tuples in mixed-radix order (last axis fastest); cover queries
// are listed in that order. Queries(): constraint [v, v] on each of the representative's k axes.
// Work O(C(D, k) m k log m) for m distinct public points, memory O(C(D, k) m).
//
// Project: exactly k conditions "column = literal" on distinct class columns, any order; literals[i].text is the
// canonical text of the value (a value not among the categories falls in "other"). Returns the cover query with
// the query's labeling (the paper's unique match). Error(UndefinedColumn) for a column outside the class,
// Error(QueryOutsideClass) for any other shape.
// Render: "age = 37 AND sex = 'M'" (FormatCategoryLiteral). The "other" bin has no literal: it renders as
// "c NOT IN (<every category>)" ("c IS NOT NULL" when there is none), which PostgreSQL reads with the same meaning
// but pap.answer does not accept (it is not a conjunction of equalities). Because the representative is the first
// query of its labeling, "other" shows only when that first query uses it (notably the empty pattern of k = 1,
// "c1 = other", since every category of c1 is seen publicly).
//
// Errors: Error(LimitExceeded) when C(D, k) or the cover exceeds input.max_queries; Error(InvalidParameter) for
// stumps over a non-boolean column; Error(Internal) for axes or points that do not match the class.
#pragma once
#include <memory>

#include "core/classes/cover.hpp"

namespace pap::core {

std::unique_ptr<Cover> MakeMarginalCover(const CoverInput &input);

// An upper bound on the VC dimension of a union of `families` query families each of which realises at most
// s + 1 labelings on any s points (its queries are disjoint sets, as "c = v" for one attribute set, or nested
// ones, as the thresholds of one direction): the largest s with 2^s <= families * (s + 1), at least 1.
int VcDimensionOfUnion(double families);

}  // namespace pap::core

#include "core/base/core_only.hpp"
