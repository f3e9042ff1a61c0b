// A distribution over one ordered axis from noisy cell estimates, through its CDF: the prefix sums made
// non-decreasing by isotonic regression (least squares, the pool-adjacent-violators algorithm), held within
// [0, total], and differenced back into cells (docs/mechanisms.md §9, "One ordered axis: a monotone CDF").
// Both steps are 1-Lipschitz in the sup norm and leave a true CDF unchanged, so no CDF value of the result is
// further from the truth than the largest error of the noisy prefix sums: unlike the nearest non-negative histogram
// (noisy_histogram.hpp, ProjectOntoSimplex), it adds no bias where most cells are empty.
#pragma once
#include <vector>

#include "core/base/core_only.hpp"

namespace pap::core {

// The non-decreasing sequence nearest to y in least squares (equal weights): each block of adjacent violators
// replaced by its mean. O(size) time and memory. Values must be finite.
std::vector<double> IsotonicRegression(const std::vector<double> &y);

// cells: estimates of the counts of consecutive bins (any sign); total: their known sum (> 0). Returns non-negative
// cells summing to total whose prefix sums are the isotonic regression of cells' prefix sums (every bin but the
// last, whose prefix is total), each held within [0, total]. Error(Internal) for an empty or non-finite input.
std::vector<double> MonotoneCdfCells(const std::vector<double> &cells, double total);

}  // namespace pap::core
