// The plan's part (a) on ordered axes, simulated (docs/mechanisms.md §10, "Confidence"): how far a query's bound
// inside a bin moves its answer, in projection (the bound moved to the bin's nearer cut) and in refinement (the bin's
// mass split at the public rows' fraction below the bound), as a quantile over simulated private tables of the
// largest such move over every bound of the class. Reads the axis's cuts and public rows and
// the two tables' sizes alone: public information. The answers' own bounds (answer_bound.hpp) keep the union bound of
// error_model.hpp at their confidence; this is the plan's prediction, not a bound.
#pragma once
#include <cstdint>
#include <vector>

#include "core/mechanisms/error_model.hpp"

namespace pap::core {

// The quantile of the largest error the plan predicts: the level the planner's coverage target reads (the
// prediction at least the measured maximum error in 9 runs of 10), so that part (a) alone covers it that often; the
// noise part, at 1 - beta / 2, adds to it.
constexpr double kPlanEdgeErrorQuantile = 0.9;
// Simulated private tables at most, and at least, and the gaps drawn at most: the runs are the budget's share, so
// that a plan over a large public table stays fast.
constexpr int kEdgeErrorMaxRuns = 63;
constexpr int kEdgeErrorMinRuns = 9;
constexpr double kEdgeErrorDrawBudget = 8.0 * 1024 * 1024;
// The generator's fixed seed (plus the axis's index): the prediction is a function of the public inputs, the same at
// every plan.
constexpr std::uint64_t kEdgeErrorSeed = 0x2545f4914f6cdd1dULL;

// Part (a) in both answer modes, as shares of the private rows.
struct EdgeErrors {
	double projection = 0;
	double refinement = 0;
};

// The largest error of one bound on one axis, at the given quantile over simulated private tables (the order
// statistic ceil(quantile R) of R runs). The model: both tables samples of one population, so in the pooled order each
// row is public with probability q = m / (m + n), and the private rows between two consecutive public rows (a gap)
// are independent draws of the geometric law P(k) = q (1 - q)^k. A bin of B public rows holds B + 1 gaps (below each
// of its public rows, and above the last), those a step leaves empty (AxisCut's empty_below and empty_above) none. A
// bound between public rows L and L + 1 of the bin (with ties, only between two values: the splits of bin_splits)
// has anywhere from S_L to S_{L+1} private rows below it (S_k the rows of the first k gaps); refinement answers L / B
// of the bin's T, off by |L T / B - S|, projection moves the bound to the cut on the side of fewer public rows, off
// by the rows between (S_{L+1} below, T - S_L above). A bin without public rows: its one gap. Error(Internal) for m
// or n not positive or a quantile outside (0, 1]; Error(Cancelled) when interrupted.
EdgeErrors SimulatedAxisEdgeErrors(const AxisCut &axis, std::int64_t public_rows, std::int64_t private_rows,
                                   double quantile);

// A query of the class: edges[a] bounds on axis a, each off by up to the axis's largest error of the run, summed over
// the axes (the largest axis's when a query moves only one axis's edge, max_over_axes), at most 1; the quantile is
// taken over the runs of that total (the axes' tables drawn independently, the same runs for all).
EdgeErrors SimulatedEdgeErrors(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                               std::int64_t public_rows, std::int64_t private_rows, double quantile);

}  // namespace pap::core

#include "core/base/core_only.hpp"
