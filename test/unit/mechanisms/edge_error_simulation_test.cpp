// The plan's simulated part (a) on ordered axes (docs/mechanisms.md §10, "Confidence"): against the
// median and the 90th percentile of the largest error over real splits of a population into a public and a private
// table, below the answers' bound, exact where a step leaves no value between public ones, deterministic, and its
// errors.
#include "core/mechanisms/edge_error_simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {
namespace {

// A population of `population` distinct values 0, 1, ...; per trial a uniformly random `public_rows` of them are
// public, the others private; cuts at every `per_bin`-th public value. The largest error of one bound, in private
// rows, over every bin and every bound between two public rows (both ends of the gap), in each answer mode.
struct Measured {
	double projection = 0, refinement = 0;
};

Measured
LargestErrorOfOneSplit(const std::vector<double> &public_values, const std::vector<double> &private_values,
                       std::size_t per_bin)
{
	Measured worst;
	const auto private_below = [&](double v, bool inclusive) {  // private rows < v (<= v when inclusive)
		return double(inclusive
		                  ? std::upper_bound(private_values.begin(), private_values.end(), v) - private_values.begin()
		                  : std::lower_bound(private_values.begin(), private_values.end(), v) - private_values.begin());
	};
	const std::size_t m = public_values.size();
	for (std::size_t first = 0; first <= m; first += per_bin) {
		// The bin (public_values[first - 1], public_values[last - 1]]: public rows first .. last - 1 (the last bin,
		// above the last cut, holds none).
		const std::size_t last = std::min(m, first + per_bin);
		const double lower = first == 0 ? -INFINITY : public_values[first - 1];
		const double upper = last == first ? INFINITY : public_values[last - 1];
		const double base = first == 0 ? 0.0 : private_below(lower, true);
		const double total = (upper == INFINITY ? double(private_values.size()) : private_below(upper, true)) - base;
		const double bin = double(last - first);
		if (last == first) {
			worst.projection = std::max(worst.projection, total);
			worst.refinement = std::max(worst.refinement, total);
			continue;
		}
		for (std::size_t split = 0; split <= last - first; split++) {
			// A bound between public rows first + split - 1 and first + split: its private rows below run from
			// those <= the first of them to those < the second (the bin's upper cut at the end).
			const double low = split == 0 ? 0.0 : private_below(public_values[first + split - 1], true) - base;
			const double high =
			    (split == last - first ? total : private_below(public_values[first + split], false) - base);
			const double answer = double(split) / bin * total;
			worst.refinement = std::max({worst.refinement, std::abs(answer - low), std::abs(answer - high)});
			worst.projection = std::max(worst.projection, 2.0 * double(split) <= bin ? high : total - low);
		}
	}
	return worst;
}

TEST(SimulatedEdgeErrors, MatchRealSplitsAtTheMedianAndTheNinetiethPercentile)
{
	const std::int64_t population = 40000, m = 400;
	const std::size_t per_bin = 10;
	constexpr int kTrials = 63;
	std::mt19937_64 generator(11);
	std::vector<double> projection, refinement;
	std::vector<double> first_public;
	for (int trial = 0; trial < kTrials; trial++) {
		std::vector<double> values(static_cast<std::size_t>(population));
		for (std::int64_t v = 0; v < population; v++)
			values[std::size_t(v)] = double(v);
		std::shuffle(values.begin(), values.end(), generator);
		std::vector<double> pub(values.begin(), values.begin() + m), priv(values.begin() + m, values.end());
		std::sort(pub.begin(), pub.end());
		std::sort(priv.begin(), priv.end());
		const Measured worst = LargestErrorOfOneSplit(pub, priv, per_bin);
		projection.push_back(worst.projection / double(priv.size()));
		refinement.push_back(worst.refinement / double(priv.size()));
		if (trial == 0)
			first_public = pub;
	}
	std::sort(projection.begin(), projection.end());
	std::sort(refinement.begin(), refinement.end());
	// Every trial has the same bins (ten public rows each), so one trial's cuts describe them all.
	std::vector<double> cuts;
	for (std::size_t i = per_bin - 1; i < first_public.size(); i += per_bin)
		cuts.push_back(first_public[i]);
	const AxisCut axis = AxisCutOf(cuts, first_public, std::vector<std::int64_t>(first_public.size(), 1));
	// The model's gaps are independent geometric draws where the real ones are exchangeable: within a quarter, at
	// the median and at the plan's quantile (the order statistics ceil(q 63) of the real trials).
	for (double quantile : {0.5, kPlanEdgeErrorQuantile}) {
		SCOPED_TRACE(quantile);
		const std::size_t rank = std::size_t(std::ceil(quantile * kTrials)) - 1;
		const EdgeErrors simulated = SimulatedAxisEdgeErrors(axis, m, population - m, quantile);
		EXPECT_NEAR(simulated.refinement / refinement[rank], 1.0, 0.25)
		    << simulated.refinement << " simulated, " << refinement[rank] << " measured";
		EXPECT_NEAR(simulated.projection / projection[rank], 1.0, 0.25)
		    << simulated.projection << " simulated, " << projection[rank] << " measured";
		// Below the answers' bound on the same axis at beta 0.05 (a union over every bound at its tail).
		EXPECT_LT(simulated.refinement, RefinementError({axis}, {1}, false, m, population - m, 0.05));
		EXPECT_LT(simulated.projection, ProjectionError({axis}, {1}, false, m, population - m, 0.05));
		// Refinement splits the bins where projection moves a bound to a cut.
		EXPECT_LT(simulated.refinement, simulated.projection);
	}
	EXPECT_LT(SimulatedAxisEdgeErrors(axis, m, population - m, 0.5).refinement,
	          SimulatedAxisEdgeErrors(axis, m, population - m, 0.9).refinement);
}

TEST(SimulatedEdgeErrors, ExactWhereAStepLeavesNoValueBetweenPublicOnes)
{
	// The integers 0 .. 99 each public, every one a cut, step 1: no value lies inside a bin but its public one, so
	// every bound is exact but for the open bins below 0 and above 99, which hold their gap.
	std::vector<double> values;
	for (int v = 0; v < 100; v++)
		values.push_back(v);
	const AxisCut axis = AxisCutOf(values, values, std::vector<std::int64_t>(values.size(), 3), 1.0);
	const EdgeErrors inner = SimulatedAxisEdgeErrors(axis, 300, 30000, 0.9);
	EXPECT_GT(inner.refinement, 0.0);  // the two tails
	EXPECT_LT(inner.refinement, 0.1);
	// Without the tails (nothing below the lowest value, no bin above the highest), every bound is exact.
	AxisCut closed = axis;
	closed.empty_below.front() = true;
	closed.bin_splits.pop_back();
	closed.empty_below.pop_back();
	closed.empty_above.pop_back();
	const EdgeErrors exact = SimulatedAxisEdgeErrors(closed, 300, 30000, 0.9);
	EXPECT_EQ(exact.refinement, 0.0);
	EXPECT_EQ(exact.projection, 0.0);
}

TEST(SimulatedEdgeErrors, DeterministicAndCombinedOverAxes)
{
	std::vector<double> values;
	for (int v = 0; v < 1000; v++)
		values.push_back(v * 0.5);
	std::vector<double> cuts;
	for (int v = 49; v < 1000; v += 50)
		cuts.push_back(v * 0.5);
	const AxisCut axis = AxisCutOf(cuts, values, std::vector<std::int64_t>(values.size(), 1));
	const EdgeErrors one = SimulatedAxisEdgeErrors(axis, 1000, 100000, 0.9);
	const EdgeErrors again = SimulatedAxisEdgeErrors(axis, 1000, 100000, 0.9);
	EXPECT_EQ(one.refinement, again.refinement);
	EXPECT_EQ(one.projection, again.projection);
	// Two edges on one axis: twice its largest error, run by run.
	EXPECT_DOUBLE_EQ(SimulatedEdgeErrors({axis}, {2}, false, 1000, 100000, 0.9).refinement, 2 * one.refinement);
	// Two axes of independent tables: the quantile of the sum is at most the sum of the quantiles, and at least
	// either axis's.
	const EdgeErrors two = SimulatedEdgeErrors({axis, axis}, {1, 1}, false, 1000, 100000, 0.9);
	EXPECT_LE(two.refinement, 2 * one.refinement);
	EXPECT_GT(two.refinement, one.refinement);
	const EdgeErrors largest = SimulatedEdgeErrors({axis, axis}, {1, 1}, true, 1000, 100000, 0.9);
	EXPECT_GE(largest.refinement, one.refinement);
	EXPECT_LT(largest.refinement, two.refinement);
	// An axis no query moves adds nothing.
	EXPECT_DOUBLE_EQ(SimulatedEdgeErrors({axis, axis}, {1, 0}, false, 1000, 100000, 0.9).projection, one.projection);
}

TEST(SimulatedEdgeErrors, RefusesTablesWithoutRows)
{
	const AxisCut axis = AxisCutOf({1.0}, {1.0, 2.0}, {1, 1});
	EXPECT_PAP_ERROR(ErrorKind::Internal, SimulatedAxisEdgeErrors(axis, 0, 10, 0.9));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SimulatedAxisEdgeErrors(axis, 10, 0, 0.9));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SimulatedAxisEdgeErrors(axis, 10, 10, 0.0));
	EXPECT_PAP_ERROR(ErrorKind::Internal, SimulatedEdgeErrors({axis}, {1, 1}, false, 10, 10, 0.9));
}

}  // namespace
}  // namespace pap::core
