// Where a refined answer places the public rows inside a bin (docs/mechanisms.md §10, "The answer mode"): each
// public value after the lowest spreads a share theta of one of its rows uniformly over the gap below it,
// (v_{k-1}, v_k), and keeps the rest at v_k itself. A sample of a population with a density shows every value once,
// so a value's first row stands for the mass between it and its neighbour; a value seen again shows mass at the
// value itself (an integer, a rating, a price point), where a bound just below it must not count it. theta is the
// most the refined answers' error bound allows (error_model.hpp, GapSpreadShares); 0 answers by public row counts.
// Public information only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/axes/release_axis.hpp"

namespace pap::core {

// The distance between consecutive values of an axis whose values are discrete: a date's axis position is in
// microseconds, whole days apart (USECS_PER_DAY, as the glue places it); 0 for the others, spread continuously.
double AxisValueStep(ValueType type);

// A bound of a column whose values are whole multiples of `step` (an integer column's 1, a date's day), in the form
// that keeps the values equal to it below: "c <= x" (inclusive) is "c <= v" and "c < x" is "c <= v" for v the largest
// multiple at most x (below x), and so are the lower bounds "c > x" and "c >= x" as "c > v". Both select the same
// values of the column, so a query is the same query with its bounds moved so (docs/mechanisms.md §10, "Discrete
// columns"). Empty when there is nothing to move: step 0, x not finite, or beyond 2^52 in magnitude, where whole
// multiples (and one step below them) are no longer exact doubles.
std::optional<double> StepFloor(double x, double step, bool inclusive);

// Whether the open interval (lower, upper) can hold no value of a column whose values are whole multiples of
// `step` (an integer column: 1; a date: a day in axis units; 0: any value may lie anywhere): lower and upper are
// finite multiples of step at most one step apart (docs/mechanisms.md §10, "Discrete columns"). Exact in floating
// point (fmod is exact, and two multiples two or more steps apart never round to one step); false for step 0. A bin
// (lower, upper] of such cuts holds the one value upper: a query's bound inside it selects what a cut selects.
bool NoValueBetween(double lower, double upper, double step);

// The share of the spread row of the public value `upper` (its gap (lower, upper), lower the public value below
// it) that lies below a bound x with lower <= x <= upper, the values equal to x counted below it when `inclusive`.
// Continuous (step 0): (x - lower) / (upper - lower), strict or not alike, as the spread has no atom. Discrete
// (step > 0): uniform over the values lower + step, ..., upper, so "c < upper" leaves the last of them out and a
// bound between two values counts as the value below it, as SQL compares a date with a timestamp. Clamped to
// [0, 1]; 0 when the gap is not a finite, positive interval (an infinity or NaN at either end, a width that
// overflows): such a value keeps all its rows at itself.
double GapSpreadBelow(double lower, double upper, double x, double step, bool inclusive);

// The public rows below a bound, spread rows counted by their share: `index` is the number of public values the
// bound leaves below it (every value < x, or <= x when `inclusive`), rows_below their rows. The value at `index`,
// if any and not the lowest, adds its theta (spread[index]; none when spread is empty) times GapSpreadBelow of its
// gap. values: sorted and distinct in float8 order; spread: empty or one theta per value.
double SpreadRowsBelow(const std::vector<double> &values, const std::vector<double> &spread, std::size_t index,
                       std::int64_t rows_below, double x, double step, bool inclusive);

}  // namespace pap::core

#include "core/base/core_only.hpp"
