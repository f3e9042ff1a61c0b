// The private step of a labelling (docs/mechanisms.md §17): the sparse vector on the vote margins against its exact
// distribution, the delta bound of its threshold, the chunk assignment and the vote tally.
#include "core/labels/stable_labels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "chi_squared.hpp"
#include "core/base/errors.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::ChiSquared;

double
LaplaceCdf(double x, double b)  // P[X <= x], x an integer
{
	const double q = std::exp(-1.0 / b);
	return x < 0 ? std::exp(x / b) / (1.0 + q) : 1.0 - std::exp(-(x + 1.0) / b) / (1.0 + q);
}

LabellingPlan
SmallPlan(std::int64_t cutoff, std::int64_t sensitivity = 2)
{
	LabellingRequest r;
	r.private_rows = 1000;
	r.public_rows = 2;
	r.cutoff = cutoff;
	r.epsilon = 2.0;
	r.delta = 0.2;  // a small threshold, so that both outcomes are frequent
	r.margin_sensitivity = sensitivity;
	return PlanLabelling(r);
}

// Two rows, cut-off 1: the outcomes (stable, stable), (stable, unstable), (unstable, not reached) against their exact
// probabilities, which share the threshold noise rho.
TEST(StableLabels, TwoRowsMatchTheirExactDistribution)
{
	const LabellingPlan plan = SmallPlan(1);
	const std::vector<VoteTally> tallies = {{1, plan.threshold + 1}, {0, plan.threshold - 2}};
	std::vector<double> observed(3, 0.0), expected(3, 0.0);
	SeededRandomSource rng(7);
	const int runs = 200000;
	for (int i = 0; i < runs; i++) {
		const StableLabelsResult r = StableLabels(tallies, plan, rng);
		ASSERT_EQ(r.reached, r.labels[0] >= 0 ? 2 : 1);
		if (r.labels[0] < 0)
			observed[2]++;
		else if (r.labels[1] < 0)
			observed[1]++;
		else
			observed[0]++;
		if (r.labels[0] >= 0) {
			ASSERT_EQ(r.labels[0], 1);
		}
	}
	// Stable iff nu <= margin - w - 1 + rho.
	const double b1 = plan.threshold_scale, b2 = plan.compare_scale;
	for (std::int64_t rho = -400; rho <= 400; rho++) {
		const double pr = DiscreteLaplacePmf(rho, b1);
		const double s0 = LaplaceCdf(double(tallies[0].margin - plan.threshold - 1 + rho), b2);
		const double s1 = LaplaceCdf(double(tallies[1].margin - plan.threshold - 1 + rho), b2);
		expected[0] += pr * s0 * s1 * runs;
		expected[1] += pr * s0 * (1 - s1) * runs;
		expected[2] += pr * (1 - s0) * runs;
	}
	const auto fit = ChiSquared(observed, expected);
	EXPECT_GT(fit.p_value, 1e-6) << "chi2 " << fit.statistic;
	// The power check: the same test rejects the run's outcome under noise of half the scale.
	std::vector<double> wrong(3, 0.0);
	for (std::int64_t rho = -400; rho <= 400; rho++) {
		const double pr = DiscreteLaplacePmf(rho, b1 / 2);
		const double s0 = LaplaceCdf(double(tallies[0].margin - plan.threshold - 1 + rho), b2 / 2);
		const double s1 = LaplaceCdf(double(tallies[1].margin - plan.threshold - 1 + rho), b2 / 2);
		wrong[0] += pr * s0 * s1 * runs;
		wrong[1] += pr * s0 * (1 - s1) * runs;
		wrong[2] += pr * (1 - s0) * runs;
	}
	EXPECT_LT(ChiSquared(observed, wrong).p_value, 1e-6);
	EXPECT_NEAR(UnanimousStableProbability(plan, tallies[0].margin), (expected[0] + expected[1]) / runs, 1e-9);
}

TEST(StableLabels, HaltsAfterTheCutoff)
{
	const LabellingPlan plan = SmallPlan(2);
	const std::vector<VoteTally> tallies(50, VoteTally{0, 0});  // every row hopeless: unstable whp
	SeededRandomSource rng(3);
	const StableLabelsResult r = StableLabels(tallies, plan, rng);
	EXPECT_EQ(r.unstable, 2);
	EXPECT_TRUE(r.cutoff_reached);
	EXPECT_LT(r.reached, 50);
	for (std::size_t i = std::size_t(r.reached); i < tallies.size(); i++)
		EXPECT_EQ(r.labels[i], -1);
}

// The threshold's promise: a fragile row (margin <= the sensitivity) is answered stable with probability at most
// delta / 2 (rho's part) + delta / (2m) per row.
TEST(PlanLabelling, FragileRowsAreRarelyStable)
{
	for (double epsilon : {0.1, 1.0, 8.0})
		for (std::int64_t cutoff : {1, 10, 100}) {
			LabellingRequest r;
			r.private_rows = 100000;
			r.public_rows = 1000;
			r.cutoff = cutoff;
			r.epsilon = epsilon;
			r.delta = 1e-6;
			const LabellingPlan p = PlanLabelling(r);
			const double b1 = p.threshold_scale, b2 = p.compare_scale;
			const double q1 = std::exp(-1.0 / b1), q2 = std::exp(-1.0 / b2);
			// t1 + t2 = w - s: P[rho >= t1] + m P[nu <= -t2] <= delta for the split the plan uses.
			const double tail1 = std::pow(q1, std::ceil(b1 * std::log(2.0 / r.delta) * (1 + 1e-9))) / (1 + q1);
			const double tail2 =
			    std::pow(q2, double(p.threshold - 2) - std::ceil(b1 * std::log(2.0 / r.delta) * (1 + 1e-9))) / (1 + q2);
			EXPECT_LE(tail1 + double(r.public_rows) * tail2, r.delta * (1 + 1e-6)) << epsilon << " " << cutoff;
			EXPECT_GE(p.chunks_needed, p.threshold - 2 * std::int64_t(b2));
			EXPECT_NEAR(p.epsilon_threshold + p.epsilon_compare, epsilon, 1e-12);
		}
}

TEST(PlanLabelling, SensitivityTwoNeedsMoreNoiseThanOne)
{
	const LabellingPlan two = SmallPlan(5, 2), one = SmallPlan(5, 1);
	EXPECT_NEAR(two.compare_scale, 2 * one.compare_scale, 1e-5);
	EXPECT_NEAR(two.threshold_scale, 2 * one.threshold_scale, 1e-5);
	EXPECT_GT(two.threshold, one.threshold);
}

TEST(PlanLabelling, RefusesBadParameters)
{
	LabellingRequest r;
	r.private_rows = 100;
	r.public_rows = 10;
	r.cutoff = 1;
	r.epsilon = 1;
	r.delta = 0;
	EXPECT_THROW(PlanLabelling(r), Error);  // delta = 0: no pure labelling
	r.delta = 1e-6;
	for (double e : {0.0, -1.0, double(NAN), double(INFINITY)}) {
		r.epsilon = e;
		EXPECT_THROW(PlanLabelling(r), Error);
	}
	r.epsilon = 1;
	r.cutoff = 0;
	EXPECT_THROW(PlanLabelling(r), Error);
	r.cutoff = 1;
	r.chunks = 101;
	EXPECT_THROW(PlanLabelling(r), Error);
	r.chunks = 0;
	const LabellingPlan p = PlanLabelling(r);
	EXPECT_GE(p.chunks, 1);
	EXPECT_LE(p.chunks, 10);           // at least kMinChunkRows rows per chunk
	r.cutoff = std::int64_t(1) << 30;  // the largest cut-off: noise too large to sample exactly, refused
	EXPECT_THROW(PlanLabelling(r), Error);
	r.cutoff = 100000;  // far above m: its prediction stays cheap (m + 1 states)
	EXPECT_GE(PlanLabelling(r).labelled_share_if_unanimous, 0.0);
}

TEST(AssignChunks, BalancedAndUniform)
{
	SeededRandomSource rng(11);
	const auto chunks = AssignChunks(103, 10, rng);
	std::vector<int> sizes(10, 0);
	for (std::int32_t c : chunks)
		sizes[std::size_t(c)]++;
	for (int s : sizes)
		EXPECT_TRUE(s == 10 || s == 11);
	// Row 0's chunk is uniform over the 10 chunks (of 100 rows).
	std::vector<double> observed(10, 0.0), expected(10, 20000.0);
	for (int i = 0; i < 200000; i++)
		observed[std::size_t(AssignChunks(100, 10, rng)[0])]++;
	EXPECT_GT(ChiSquared(observed, expected).p_value, 1e-6);
}

TEST(TallyVotes, TopAndMargin)
{
	EXPECT_EQ(TallyVotes({3, 7, 2}).top, 1);
	EXPECT_EQ(TallyVotes({3, 7, 2}).margin, 4);
	EXPECT_EQ(TallyVotes({5, 5}).top, 0);  // ties to the lowest class
	EXPECT_EQ(TallyVotes({5, 5}).margin, 0);
	EXPECT_EQ(TallyVotes({9}).margin, 9);
}

}  // namespace
}  // namespace pap::core
