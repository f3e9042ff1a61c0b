// Cover granularity driven by alpha (docs/query-classes.md derives it). With cut points at every
// distinct public value the cover is the paper's (Algorithm 3): every query has a cover query that agrees with it
// on every public row. A coarser cover keeps only some public values as cuts; a query then projects to the cover
// query whose cuts are nearest in public mass, and disagrees with it on at most s bins' worth of public rows,
// s = the number of bin edges of one query that can move: thresholds 1, ranges 2, orthants(c1..ck) k,
// boxes(c1..ck) 2k, halfspaces 1 (one threshold on one derived axis). Each bin holding at most a fraction
// alpha / (4 s) of the public rows keeps every query within alpha/4 of its projection on the public sample:
// the cover stays an alpha/4-cover empirically, which is what Lemma 11 asks of the finest cover.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/language/class_spec.hpp"

namespace pap::core {

// s above for the ordered classes; 0 for classes without ordered axes (marginals, stumps, predicates: no
// coarsening). Error(Internal) never: every ClassSpec has an answer.
int MovableEdges(const ClassSpec &spec);

// The largest public row count a bin may hold: alpha / (4 s) * public_rows (a real number; the caller compares
// integer bin masses against it). 0 when s = 0 or finest is requested.
double MaxBinRows(const ClassSpec &spec, double alpha, std::int64_t public_rows);

// Cut points chosen from the public marginal (values sorted and distinct in PostgreSQL float8 order, counts > 0):
// a greedy pass from the lowest value puts a cut at a value when adding the next distinct value would push the
// rows since the previous cut above max_bin_rows; the highest value is always a cut. A value whose own count
// exceeds the limit is a bin by itself. max_bin_rows <= 0 (or below every count) keeps every distinct value: the
// finest cover. Result: a sorted subset of values. Error(Internal) for unsorted values or bad counts.
std::vector<double> ChooseCuts(const std::vector<double> &values, const std::vector<std::int64_t> &counts,
                               double max_bin_rows);

// A discrete axis's public marginal with every whole value between its lowest and highest public value: each
// multiple of `step` (ReleaseAxis::value_step: 1 for an integer column, a day for a date) from values.front() to
// values.back() once, with its public rows (0 where the public table shows none). Cut at each of them, a bin
// (v - step, v] holds the one value v, so no query edge falls inside it (docs/mechanisms.md §20, "Every whole
// value"). nullopt when it does not apply or is not worth a candidate: step not > 0, a public value that is not a
// finite multiple of step or lies beyond 2^52 in magnitude (where StepFloor no longer moves a bound: an edge
// between two values would not be known to select what a cut selects), no whole value missing between the public
// ones (the finest cuts are already these), or more than max_values of them. values sorted and distinct in float8
// order, counts > 0 (Error(Internal) otherwise, as ChooseCuts).
struct WholeValueMarginal {
	std::vector<double> values;
	std::vector<std::int64_t> counts;
};
std::optional<WholeValueMarginal> EveryWholeValue(const std::vector<double> &values,
                                                  const std::vector<std::int64_t> &counts, double step,
                                                  double max_values);

}  // namespace pap::core

#include "core/base/core_only.hpp"
