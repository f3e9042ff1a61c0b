// A differentially private quantile over a finite ordered domain (docs/mechanisms.md §16): the exponential
// mechanism over the domain's values with the rank distance as utility, the interior-point step of Bun, Nissim,
// Stemmer and Vadhan. With q = 1/2 and n >= (4 / epsilon) ln(|X| / beta) rows its output lies between the smallest
// and the largest private value with probability at least 1 - beta.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/interrupt_scope.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {

// The candidates are the domain's values x_0 < ... < x_{K-1}; counts[i] is the number of private rows equal to x_i
// (a row between two values counted at the one above it, a row below x_0 at x_0, one above x_{K-1} or NaN at
// x_{K-1}: release/private_quantile_run.cpp), rows_above the NULL rows, which rank above every candidate (as
// +infinity). n = the sum, t = min(max(ceil(q n), 1), n), the target rank. The
// rank distance of x_i is how many rows must change for x_i to be a t-th smallest row:
//   d_i = max(0, below_i - (t - 1), t - at_most_i), below_i = sum_{j < i} counts[j], at_most_i = below_i + counts[i],
// and its score n - d_i (>= 0). Changing one row (replace-one) moves below_i and at_most_i by at most 1 each, so
// every score by at most 1: sensitivity 1. Error(InvalidParameter) for q outside [0, 1] or NaN, a negative count
// or no candidate; n = 0 gives every candidate score 0.
std::vector<std::uint64_t> QuantileScores(const std::vector<std::int64_t> &counts, std::int64_t rows_above, double q);

// The exponential mechanism on those scores at epsilon: P[i] proportional to exp(epsilon' (score_i) / 2), with
// epsilon' <= epsilon the largest rational with a 30-bit numerator (RationalAtMost), sampled exactly
// (SelectExponential: a uniform proposal accepted with an exact Bernoulli(exp(-.)) coin). epsilon-DP.
// Error(InvalidParameter) for epsilon not finite or below 2^-32; Error(Cancelled) when interrupted.
std::size_t SamplePrivateQuantile(const std::vector<std::int64_t> &counts, std::int64_t rows_above, double q,
                                  double epsilon, RandomBitSource &rng, InterruptCheck interrupted = nullptr);

// P[SamplePrivateQuantile returns i] at epsilon' (double precision): for tests and predictions only.
std::vector<double> PrivateQuantileProbabilities(const std::vector<std::uint64_t> &scores, double epsilon);

// The rows the interior-point guarantee needs: (4 / epsilon) ln(domain_size / beta).
double InteriorPointRows(double domain_size, double epsilon, double beta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
