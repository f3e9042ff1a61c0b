// What the data-independent mechanisms (identity, hierarchical) share: exact integer noise on a vector of counts
// whose sensitivity under replace-one is known, and the consistency post-processing of a noisy histogram.
//   delta = 0: discrete Laplace with scale l1 / epsilon (epsilon-DP).
//   delta > 0: discrete Gaussian with variance l2^2 / (2 rho), rho the zCDP budget of (epsilon, delta) under the
//     tight conversion (LargestZcdpRho); or the discrete Laplace above when its variance is smaller (it is
//     epsilon-DP, hence (epsilon, delta)-DP, and spends no delta): a choice from public numbers only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {

struct HistogramNoise {
	bool gaussian = false;
	RationalScale laplace{1, 1};      // !gaussian
	RationalVariance variance{1, 1};  // gaussian
	double Variance() const;          // of one noise draw, counts^2 (Gaussian: sigma^2, a slight overstatement)
	std::int64_t Sample(RandomBitSource &rng) const;
};

// Error(InvalidParameter) for epsilon/delta as ValidatePrivacyParameters; Error(Internal) for l1 or l2_squared
// not > 0; Error(LimitExceeded) when no noise that fits can be sampled exactly (epsilon far too small). The
// Gaussian's rho is LargestZcdpRho(epsilon, delta), or zcdp_budget when > 0 (a run on a zCDP budget).
HistogramNoise HistogramNoiseFor(double l1, double l2_squared, double epsilon, double delta, double zcdp_budget = 0);

// What the noise spends on a vector of sensitivity (l1, l2^2) at the request (epsilon, delta): Laplace: epsilon
// l1 / b, delta 0. Gaussian: rho = l2^2 / (2 sigma^2) of the exact variance (rounded up), reported as (epsilon,
// min(delta, ZcdpDelta(rho, epsilon))).
PrivacyUsed HistogramNoiseUsed(const HistogramNoise &noise, double l1, double l2_squared, double epsilon, double delta);

// The predicted max error (counts) over cover_size queries whose noise is about normal with the given variance:
// the two-sided normal quantile for beta / cover_size (a union bound over the cover) times the standard deviation.
double MaxErrorOverCover(double variance, std::size_t cover_size, double beta);

// The predicted max error (counts) over cover_size queries whose noise is the noise actually drawn: a linear
// combination of independent draws of `noise` with coefficients at most 1 in absolute value whose squares sum to at
// most `draws` (identity after consistency: k (N - k) / N; a sum of m draws: m), plus an independent normal part of
// variance normal_variance. With probability at least 1 - beta no query's noise exceeds it (a union bound over the
// cover). Gaussian noise: MaxErrorOverCover above on the total variance. Laplace noise: the Chernoff bound with the
// moment generating function of the continuous Laplace of the same scale, which dominates the discrete one's, at
// the worst coefficients (floor(draws) of 1 and one of the rest), minimised over lambda (docs/mechanisms.md §9,
// "Predicted error"). Error(Internal) for draws or normal_variance negative or not finite.
double MaxErrorOverCover(const HistogramNoise &noise, double draws, std::size_t cover_size, double beta,
                         double normal_variance = 0.0);

// A bound on P[|S| >= t] for one cell's noise S as MaxErrorOverCover describes it (draws, normal_variance): the normal
// tail for the Gaussian (and for the normal part alone), Chernoff's min over lambda of 2 exp(-lambda t) E exp(lambda
// S) for the Laplace. 1 for t <= 0.
double NoiseTail(const HistogramNoise &noise, double draws, double normal_variance, double t);

// Cells that share a noise for MaxErrorOverCells: `count` cells, each off by noise as MaxErrorOverCover describes
// (draws, normal_variance) plus at most `offset` (a bias bounded for certain).
struct NoiseGroup {
	double count = 0;
	double draws = 0;
	double normal_variance = 0;
	double offset = 0;
};

// The smallest t (counts) with sum over the groups of count P[|noise| + offset >= t] <= beta, each tail bounded as in
// MaxErrorOverCover: a union bound cell by cell, for cells whose noise differs (MaxErrorOverCover with the worst
// cell's noise for every cell bounds it from above). Error(Internal) for a group with a negative or non-finite
// number, or no cell at all.
double MaxErrorOverCells(const HistogramNoise &noise, const std::vector<NoiseGroup> &groups, double beta);

// `count` cover queries whose noise is first_coefficient times a sum of `first` draws of the noise minus
// second_coefficient times an independent sum of `second` draws (identity after consistency, a query over k of N
// cells: k and N - k draws, coefficients 1 - k/N and k/N; a plain sum of m draws: m, 1, 0, 0). Coefficients in
// [0, 1].
struct DrawSums {
	double count = 0;
	std::int64_t first = 0;
	double first_coefficient = 1;
	std::int64_t second = 0;
	double second_coefficient = 0;
};

// The smallest t (counts) with sum over the groups of count P[|noise| >= t] <= beta (a union bound over the queries).
// Discrete Laplace noise: each query's tail from the exact laws of its two sums (LaplaceSumLaw, conditioning on the
// narrower), when every table fits a budget of 2^24 products (about 20 ms); never above MaxErrorOverCells with
// draws = first_coefficient^2 first + second_coefficient^2 second (in buckets of 1/16 octave of draws, each at its
// largest), which it returns otherwise and for the discrete Gaussian. Error(Internal) for a negative or non-finite
// count or draws, a coefficient outside [0, 1], or no query.
double MaxErrorOverSums(const HistogramNoise &noise, const std::vector<DrawSums> &sums, double beta);

// Counts `count` steps of a loop over cells or nodes; each time the total passes a multiple of 2^16, throws
// Error(Cancelled) when interrupted() returns true.
void CountSteps(InterruptCheck interrupted, std::uint64_t &steps, std::uint64_t count = 1);

// The private cell histogram a data-independent mechanism reads: Error(DataException) for n <= 0 (no rows),
// Error(Internal) unless the counts are non-negative and sum to n.
void RequireHistogramOfRows(const std::vector<std::int64_t> &cell_histogram, std::int64_t n);

// The nearest point (Euclidean) of {x : x_i >= 0, sum x_i = total} to values (Duchi et al. 2008, O(N log N)).
// Error(Internal) for total < 0 or an empty or non-finite input.
std::vector<double> ProjectOntoSimplex(const std::vector<double> &values, double total);

}  // namespace pap::core

#include "core/base/core_only.hpp"
