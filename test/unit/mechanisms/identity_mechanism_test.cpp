// Tests of the identity mechanism: the sensitivity of the cell histogram by brute force, the run as documented
// (one draw per cell, projection, normalisation), a distribution as output, exactness at a huge epsilon,
// determinism, cancellation, and the planner (monotone in epsilon, calibrated, rejecting invalid input).
#include "core/mechanisms/identity_mechanism.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::OutcomeOf;

std::vector<std::int64_t>
RandomHistogram(std::size_t cells, std::int64_t n, std::uint64_t seed)
{
	std::mt19937_64 gen(seed);
	std::vector<std::int64_t> h(cells, 0);
	// Skewed: a few heavy cells, many empty ones.
	std::uniform_int_distribution<std::size_t> cell(0, cells - 1);
	for (std::int64_t r = 0; r < n; r++)
		h[std::min(cell(gen), cell(gen))]++;
	return h;
}

PlanInput
Input(double epsilon, double delta, std::size_t cells)
{
	return test::HistogramPlanInput(epsilon, delta, cells);
}

using test::AlwaysInterrupted;

TEST(IdentitySensitivity, ReplacingOneRowMovesL1TwoAndL2SquaredTwo)
{
	const std::vector<std::int64_t> h = RandomHistogram(7, 40, 1);
	const auto [max_l1, max_l2] = test::LargestMovedRowChange(h, [](const std::vector<std::int64_t> &g) { return g; });
	EXPECT_EQ(max_l1, 2.0);
	EXPECT_EQ(max_l2, 2.0);
}

TEST(RunIdentity, IsProjectionOfOneDrawPerCellNormalised)
{
	const std::vector<std::int64_t> h = RandomHistogram(50, 500, 2);
	const IdentityPlan plan = PlanIdentity(Input(0.5, 0.0, 50), 50);
	SeededRandomSource rng(7), replay(7);
	const std::vector<double> synthetic = RunIdentity(h, 500, plan.noise, rng);
	std::vector<double> noisy(h.size());
	for (std::size_t i = 0; i < h.size(); i++)
		noisy[i] = double(h[i]) + double(plan.noise.Sample(replay));
	std::vector<double> expected = ProjectOntoSimplex(noisy, 500.0);
	ASSERT_EQ(synthetic.size(), expected.size());
	for (std::size_t i = 0; i < h.size(); i++)
		EXPECT_DOUBLE_EQ(synthetic[i], expected[i] / 500.0);
	EXPECT_EQ(rng.words_drawn(), replay.words_drawn());
}

TEST(RunIdentity, OutputIsADistributionAndDeterministicForASeed)
{
	for (double epsilon : {0.01, 0.3, 5.0})
		for (double delta : {0.0, 1e-6}) {
			const std::vector<std::int64_t> h = RandomHistogram(200, 1000, 3);
			const IdentityPlan plan = PlanIdentity(Input(epsilon, delta, 200), 200);
			SeededRandomSource a(9), b(9);
			const std::vector<double> x = RunIdentity(h, 1000, plan.noise, a);
			EXPECT_EQ(x, RunIdentity(h, 1000, plan.noise, b));
			double sum = 0;
			for (double v : x) {
				EXPECT_GE(v, 0.0);
				sum += v;
			}
			EXPECT_NEAR(sum, 1.0, 1e-12);
		}
}

TEST(RunIdentity, HugeEpsilonGivesTheTruth)
{
	const std::vector<std::int64_t> h = RandomHistogram(300, 5000, 4);
	const IdentityPlan plan = PlanIdentity(Input(1e6, 0.0, 300), 300);
	SeededRandomSource rng(5);
	const std::vector<double> x = RunIdentity(h, 5000, plan.noise, rng);
	for (std::size_t i = 0; i < h.size(); i++)
		EXPECT_NEAR(x[i], double(h[i]) / 5000.0, 1e-12);
}

TEST(RunIdentity, InterruptThrowsCancelled)
{
	std::vector<std::int64_t> h(70000, 0);
	h[3] = 10;
	const IdentityPlan plan = PlanIdentity(Input(1.0, 0.0, h.size()), 1);
	SeededRandomSource rng(1);
	EXPECT_EQ(OutcomeOf([&] { RunIdentity(h, 10, plan.noise, rng, AlwaysInterrupted); }), "Cancelled");
}

TEST(RunIdentity, RejectsInconsistentInput)
{
	const IdentityPlan plan = PlanIdentity(Input(1.0, 0.0, 3), 1);
	SeededRandomSource rng(1);
	EXPECT_EQ(OutcomeOf([&] { RunIdentity({1, 2, 3}, 7, plan.noise, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunIdentity({1, -2, 3}, 2, plan.noise, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunIdentity({}, 2, plan.noise, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunIdentity({0, 0}, 0, plan.noise, rng); }), "DataException");
}

// Cells no row can hold (the "other" bin of a closed column): no draw, 0 out whatever their count, and the open
// cells measured exactly as a histogram of the open cells alone (the same draws from the same seed).
TEST(RunIdentity, ClosedCellsGetNoDrawAndStayZero)
{
	const std::vector<std::int64_t> full = RandomHistogram(60, 600, 11);
	std::vector<bool> closed(full.size(), false);
	std::vector<std::int64_t> open_only;
	std::vector<std::int64_t> h = full;
	for (std::size_t i = 0; i < h.size(); i++) {
		closed[i] = i % 3 == 2;
		if (closed[i])
			h[i] = 0;  // no row: what the schema guarantees
		else
			open_only.push_back(h[i]);
	}
	const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
	const IdentityPlan plan = PlanIdentity(Input(0.5, 0.0, 60), 40, {}, 40);
	SeededRandomSource rng(21), replay(21);
	const std::vector<double> x = RunIdentity(h, n, plan.noise, rng, nullptr, &closed);
	const std::vector<double> alone = RunIdentity(open_only, n, plan.noise, replay);
	ASSERT_EQ(x.size(), h.size());
	for (std::size_t i = 0, open = 0; i < x.size(); i++)
		if (closed[i])
			EXPECT_EQ(x[i], 0.0) << i;
		else
			EXPECT_EQ(x[i], alone[open++]) << i;
	EXPECT_EQ(rng.words_drawn(), replay.words_drawn());
	// The output never reads a closed cell's count: a row there (which the schema rules out) changes nothing but the
	// total the open cells are projected to.
	std::vector<std::int64_t> misplaced = h;
	misplaced[2] += 5;
	SeededRandomSource again(21);
	const std::vector<double> y = RunIdentity(misplaced, n + 5, plan.noise, again, nullptr, &closed);
	EXPECT_EQ(y[2], 0.0);
	// A mask of another size, or one that closes every cell, is an internal error.
	std::vector<bool> short_mask(h.size() - 1, false), all_closed(h.size(), true);
	EXPECT_EQ(OutcomeOf([&] { RunIdentity(h, n, plan.noise, rng, nullptr, &short_mask); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunIdentity(h, n, plan.noise, rng, nullptr, &all_closed); }), "Internal");
}

// How rows sit among the closed cells (which the schema rules out) is never read: two tables of the same n that differ
// only there release the very same output from the same seed. A row moved from an open cell into a closed one changes
// the open histogram by one count, and the output is the projection of that histogram's noisy counts onto total n.
TEST(RunIdentity, ClosedCountsAreNeverRead)
{
	std::vector<std::int64_t> h = RandomHistogram(40, 400, 12);
	std::vector<bool> closed(h.size(), false);
	for (std::size_t i = 0; i < h.size(); i++)
		closed[i] = i % 4 == 1;
	const std::int64_t n = std::accumulate(h.begin(), h.end(), std::int64_t(0));
	std::vector<std::int64_t> a = h, b = h;
	for (std::size_t i = 0; i < h.size(); i++)
		if (closed[i])
			a[i] = b[i] = 0;
	const std::int64_t moved = n - std::accumulate(a.begin(), a.end(), std::int64_t(0));
	a[1] += moved;   // every closed row in the first closed cell
	b[37] += moved;  // ... or in the last
	const IdentityPlan plan = PlanIdentity(Input(0.5, 0.0, h.size()), 10, {}, 30);
	SeededRandomSource ra(3), rb(3);
	EXPECT_EQ(RunIdentity(a, n, plan.noise, ra, nullptr, &closed), RunIdentity(b, n, plan.noise, rb, nullptr, &closed));
	// One row from open cell 0 into closed cell 1: the open cells' noisy counts, projected onto n.
	std::vector<std::int64_t> c = a;
	ASSERT_GT(c[0], 0);
	c[0]--, c[1]++;
	SeededRandomSource rc(4), replay(4);
	const std::vector<double> x = RunIdentity(c, n, plan.noise, rc, nullptr, &closed);
	std::vector<double> noisy;
	for (std::size_t i = 0; i < c.size(); i++)
		if (!closed[i])
			noisy.push_back(double(c[i]) + double(plan.noise.Sample(replay)));
	const std::vector<double> expected = ProjectOntoSimplex(noisy, double(n));
	for (std::size_t i = 0, open = 0; i < c.size(); i++)
		EXPECT_DOUBLE_EQ(x[i], closed[i] ? 0.0 : expected[open++] / double(n)) << i;
}

// The plan over N cells of which only N' are open is the plan over N' cells: the noise and the consistency step see
// the open cells alone, and a query's k counts its open cells.
TEST(PlanIdentity, OpenCellsAreTheDomainItMeasures)
{
	const auto input = [](double epsilon, std::size_t cells) {
		PlanInput in = Input(epsilon, 0.0, cells);
		in.cover_size = 36;  // the same cover over either domain
		return in;
	};
	for (double epsilon : {0.1, 1.0})
		for (std::size_t k : {std::size_t(1), std::size_t(9), std::size_t(20)}) {
			const IdentityPlan closed = PlanIdentity(input(epsilon, 135), k, {}, 40);
			const IdentityPlan alone = PlanIdentity(input(epsilon, 40), k);
			EXPECT_DOUBLE_EQ(closed.predicted_error, alone.predicted_error) << epsilon << " " << k;
			const std::vector<std::int64_t> sizes{std::int64_t(k), std::int64_t(40 - k), 3};
			EXPECT_DOUBLE_EQ(PlanIdentity(input(epsilon, 135), k, sizes, 40).predicted_error,
			                 PlanIdentity(input(epsilon, 40), k, sizes).predicted_error);
		}
	// Fewer open cells, the same query sizes: less noise per query after consistency, never more.
	EXPECT_LE(PlanIdentity(Input(1.0, 0.0, 384), 9, {}, 135).predicted_error,
	          PlanIdentity(Input(1.0, 0.0, 384), 9).predicted_error);
	EXPECT_EQ(OutcomeOf([] { PlanIdentity(Input(1.0, 0.0, 40), 1, {}, 41); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { PlanIdentity(Input(1.0, 0.0, 40), 21, {}, 20); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { PlanIdentity(Input(1.0, 0.0, 40), 1, {21}, 20); }), "Internal");
}

// The bias with closed cells is the bias of the open cells alone, the closed ones moving by 0: at a small epsilon
// the empty closed cells would otherwise push tau up and predict a bias no run shows.
TEST(IdentityProjectionBias, ClosedCellsNeitherMoveNorRaiseTau)
{
	const std::size_t cells = 30;
	std::vector<CellInterval> prefixes, open_prefixes;
	std::vector<bool> closed(cells, false);
	std::vector<double> stand_in(cells, 0.0), open_stand_in;
	for (std::size_t i = 0; i < cells; i++) {
		closed[i] = i >= 20;  // ten closed cells, empty
		if (!closed[i]) {
			stand_in[i] = (i % 2 == 0 ? 1.5 : 0.5) / 20.0;
			open_stand_in.push_back(stand_in[i]);
		}
	}
	for (std::int32_t j = 0; j < std::int32_t(cells); j++)
		prefixes.push_back({0, j});
	for (std::int32_t j = 0; j < 20; j++)
		open_prefixes.push_back({0, j});
	const IntervalWorkload workload(prefixes, cells), open_workload(open_prefixes, 20);
	for (double epsilon : {0.05, 0.5}) {
		const HistogramNoise noise = HistogramNoiseFor(2.0, 2.0, epsilon, 0.0);
		const double with_mask = IdentityProjectionBias(stand_in, 1000, noise, workload, nullptr, closed);
		const double alone = IdentityProjectionBias(open_stand_in, 1000, noise, open_workload);
		// Closed cells without stand-in mass (a boolean's or an enum's "other" bin, where no public row can be): the
		// bias is bit for bit the open cells' alone, as before any NOT NULL column (no rescaling by a sum near 1).
		EXPECT_EQ(with_mask, alone) << epsilon;
		EXPECT_LT(with_mask, IdentityProjectionBias(stand_in, 1000, noise, workload)) << epsilon;
		const double any_set = IdentityProjectionBiasOfAnySet(open_stand_in, 1000, noise);
		EXPECT_EQ(IdentityProjectionBiasOfAnySet(stand_in, 1000, noise, nullptr, closed), any_set);
		// Public mass on a closed cell (a public NULL where the private column is NOT NULL) is no private row's: the
		// open cells' shares are taken relative to their total, as if that mass were not there.
		std::vector<double> leaky = stand_in;
		for (std::size_t i = 0; i < cells; i++)
			leaky[i] = closed[i] ? 0.02 : 0.8 * stand_in[i];
		EXPECT_NEAR(IdentityProjectionBias(leaky, 1000, noise, workload, nullptr, closed), alone, 1e-9 * alone)
		    << epsilon;
	}
	EXPECT_EQ(OutcomeOf([&] {
		          IdentityProjectionBias(stand_in, 1000, HistogramNoiseFor(2.0, 2.0, 1.0, 0.0), workload, nullptr,
		                                 std::vector<bool>(cells - 1, false));
	          }),
	          "Internal");
}

TEST(PlanIdentity, MoreEpsilonNeverPredictsMoreError)
{
	for (double delta : {0.0, 1e-9, 1e-5})
		for (std::size_t k : {std::size_t(1), std::size_t(17), std::size_t(500)}) {
			double previous = INFINITY;
			for (double epsilon = 0.001; epsilon < 50; epsilon *= 1.3) {
				const double e = PlanIdentity(Input(epsilon, delta, 1000), k).predicted_error;
				EXPECT_LE(e, previous) << "epsilon " << epsilon << " delta " << delta << " k " << k;
				EXPECT_GE(e, 0.0);
				EXPECT_LE(e, 1.0);
				previous = e;
			}
		}
}

TEST(PlanIdentity, WiderQueriesAndLargerCoversNeverPredictLessError)
{
	double previous = 0;
	for (std::size_t k = 0; k <= 1000; k += 50) {
		const double e = PlanIdentity(Input(1.0, 0.0, 1000), k).predicted_error;
		EXPECT_GE(e, previous);
		previous = e;
	}
	PlanInput small = Input(1.0, 0.0, 1000), large = small;
	large.cover_size = 100000;
	EXPECT_LT(PlanIdentity(small, 20).predicted_error, PlanIdentity(large, 20).predicted_error);
}

// The calibration runs: all 99 proper prefixes of 100 cells, n = 10000, epsilon = 1, 200 seeded runs of the plan.
constexpr std::size_t kPrefixCells = 100;
constexpr std::int64_t kPrefixRows = 10000;
constexpr int kPrefixRuns = 200;

PlanInput
PrefixInput()
{
	PlanInput in = Input(1.0, 0.0, kPrefixCells);
	in.cover_size = kPrefixCells - 1;
	in.private_rows = kPrefixRows;
	return in;
}

// How many of the runs exceed the plan's prediction on some prefix, and the largest max error of any run: on h
// (kPrefixRows rows; by default the seeded histogram of kPrefixCells cells), with closed cells when given.
std::pair<int, double>
PrefixRunsExceeding(const IdentityPlan &plan,
                    const std::vector<std::int64_t> &h = RandomHistogram(kPrefixCells, kPrefixRows, 6),
                    const std::vector<bool> *closed = nullptr)
{
	SeededRandomSource rng(8);
	int exceeded = 0;
	double worst = 0;
	for (int run = 0; run < kPrefixRuns; run++) {
		const std::vector<double> x = RunIdentity(h, kPrefixRows, plan.noise, rng, nullptr, closed);
		double truth = 0, estimate = 0, max_error = 0;
		for (std::size_t i = 0; i + 1 < h.size(); i++) {
			truth += double(h[i]) / double(kPrefixRows);
			estimate += x[i];
			max_error = std::max(max_error, std::abs(truth - estimate));
		}
		worst = std::max(worst, max_error);
		exceeded += max_error > plan.predicted_error;
	}
	return {exceeded, worst};
}

// Calibration: the max error exceeds the prediction in at most about beta of the runs (the union bound makes it
// rarer).
TEST(PlanIdentity, PredictionHoldsWithProbabilityAboutOneMinusBeta)
{
	const PlanInput in = PrefixInput();
	const IdentityPlan plan = PlanIdentity(in, kPrefixCells - 1);
	const auto [exceeded, worst] = PrefixRunsExceeding(plan);
	std::printf("[ identity ] predicted %.5f, worst of %d runs %.5f, exceeded %d\n", plan.predicted_error, kPrefixRuns,
	            worst, exceeded);
	EXPECT_LE(exceeded, int(kPrefixRuns * in.beta * 2));
	EXPECT_GT(worst, plan.predicted_error / 10) << "prediction far too loose";
}

// The listed cover: each prefix with its own k and the exact law of its noise. Below the worst-k Chernoff bound, and
// still calibrated on the same runs.
TEST(PlanIdentity, ListedCoverPredictsLessAndStillHolds)
{
	const PlanInput in = PrefixInput();
	std::vector<std::int64_t> prefix_cells(kPrefixCells - 1);
	std::iota(prefix_cells.begin(), prefix_cells.end(), 1);
	const IdentityPlan worst_k = PlanIdentity(in, kPrefixCells - 1);
	const IdentityPlan plan = PlanIdentity(in, kPrefixCells - 1, prefix_cells);
	EXPECT_LT(plan.predicted_error, 0.9 * worst_k.predicted_error);
	// A cover of one query over k cells: the listed bound never exceeds the unlisted one of the same k.
	for (std::int64_t k : {1, 10, 50}) {
		PlanInput one = in;
		one.cover_size = 1;
		EXPECT_LE(PlanIdentity(one, std::size_t(k), {k}).predicted_error,
		          PlanIdentity(one, std::size_t(k)).predicted_error);
	}
	const auto [exceeded, worst] = PrefixRunsExceeding(plan);
	std::printf("[ identity, listed ] predicted %.5f (worst k: %.5f), worst of %d runs %.5f, exceeded %d\n",
	            plan.predicted_error, worst_k.predicted_error, kPrefixRuns, worst, exceeded);
	EXPECT_LE(exceeded, int(kPrefixRuns * in.beta * 2));
	EXPECT_EQ(OutcomeOf([&] { PlanIdentity(in, kPrefixCells - 1, {std::int64_t(kPrefixCells) + 1}); }), "Internal");
}

// Calibration with closed cells: 100 open cells among 150 (every third closed, empty), the 149 proper prefixes of the
// whole grid listed with their open cells; the masked run exceeds the masked plan in about beta of the runs at most,
// and the prediction is not far too loose.
TEST(PlanIdentity, PredictionWithClosedCellsHoldsWithProbabilityAboutOneMinusBeta)
{
	constexpr std::size_t cells = 150;
	std::vector<bool> closed(cells, false);
	std::vector<std::int64_t> h(cells, 0);
	const std::vector<std::int64_t> open_h = RandomHistogram(100, kPrefixRows, 6);
	for (std::size_t i = 0, open = 0; i < cells; i++) {
		closed[i] = i % 3 == 2;
		if (!closed[i])
			h[i] = open_h[open++];
	}
	std::vector<std::int64_t> open_in_prefix;
	std::int64_t k = 0;
	for (std::size_t i = 0; i + 1 < cells; i++) {
		k += closed[i] ? 0 : 1;
		open_in_prefix.push_back(k);
	}
	PlanInput in = Input(1.0, 0.0, cells);
	in.cover_size = cells - 1;
	in.private_rows = kPrefixRows;
	const IdentityPlan plan = PlanIdentity(in, 100, open_in_prefix, 100);
	const auto [exceeded, worst] = PrefixRunsExceeding(plan, h, &closed);
	std::printf("[ identity, closed ] predicted %.5f, worst of %d runs %.5f, exceeded %d\n", plan.predicted_error,
	            kPrefixRuns, worst, exceeded);
	EXPECT_LE(exceeded, int(kPrefixRuns * in.beta * 2));
	EXPECT_GT(worst, plan.predicted_error / 10) << "prediction far too loose";
}

TEST(PlanIdentity, RejectsInvalidInput)
{
	const auto plan = [](auto modify) {
		return OutcomeOf([&] {
			PlanInput in = Input(1.0, 0.0, 10);
			modify(in);
			PlanIdentity(in, 5);
		});
	};
	EXPECT_EQ(plan([](PlanInput &) {}), "no error");
	EXPECT_EQ(plan([](PlanInput &in) { in.epsilon = 0; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.epsilon = NAN; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.delta = 1; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.beta = 0; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.beta = 1; }), "InvalidParameter");
	EXPECT_EQ(plan([](PlanInput &in) { in.private_rows = 0; }), "DataException");
	EXPECT_EQ(plan([](PlanInput &in) { in.cover_size = 0; }), "DataException");
	EXPECT_EQ(plan([](PlanInput &in) { in.cells = 4; }), "Internal");  // a query over 5 of 4 cells
}

// The predicted projection bias against the mean answer of many seeded runs: half the cells empty, the other half
// holding the rows; at small epsilon the clipping takes mass from the occupied cells, and the prediction follows
// the measured bias of the prefix queries; at large n epsilon the bias vanishes.
TEST(IdentityProjectionBias, FollowsTheMeasuredBiasOfTheNonNegativityStep)
{
	const std::size_t cells = 40;
	std::vector<CellInterval> prefixes;
	for (std::int32_t j = 0; j < std::int32_t(cells); j++)
		prefixes.push_back({0, j});
	const IntervalWorkload workload(prefixes, cells);
	for (double epsilon : {0.05, 0.5, 50.0}) {
		SCOPED_TRACE(epsilon);
		const std::int64_t n = 2000;
		std::vector<std::int64_t> histogram(cells, 0);
		std::vector<double> stand_in(cells, 0.0);
		for (std::size_t i = cells / 2; i < cells; i++) {
			histogram[i] = n / std::int64_t(cells / 2);
			stand_in[i] = 1.0 / double(cells / 2);
		}
		const HistogramNoise noise = HistogramNoiseFor(2.0, 2.0, epsilon, 0.0);
		const double predicted = IdentityProjectionBias(stand_in, n, noise, workload);
		// Measured: the mean synthetic answer over seeded runs, against the truth.
		std::vector<double> mean(cells, 0.0);
		const int runs = 400;
		for (int r = 0; r < runs; r++) {
			SeededRandomSource rng(std::uint64_t(1000 + r));
			const std::vector<double> y = RunIdentity(histogram, n, noise, rng);
			for (std::size_t i = 0; i < cells; i++)
				mean[i] += y[i] / runs;
		}
		std::vector<double> answers, truth;
		workload.Evaluate(mean, answers);
		workload.Evaluate(stand_in, truth);
		double measured = 0.0;
		for (std::size_t q = 0; q < answers.size(); q++)
			measured = std::max(measured, std::abs(answers[q] - truth[q]));
		if (epsilon == 50.0) {
			EXPECT_LT(predicted, 1e-3);
			EXPECT_LT(measured, 2e-3);
		} else {
			EXPECT_GT(measured, 0.01);  // the bias is real at these epsilons
			EXPECT_NEAR(predicted, measured, 0.3 * measured);
		}
	}
}

// A regression: above epsilon about 1490 the noise's variance rounds to 0 and the bracket stayed at 0 for
// ever. Every variance (0, tiny, the largest the sampler draws) and every n terminates with a bias in [0, 1].
TEST(IdentityProjectionBias, TerminatesForEveryVarianceAndN)
{
	const std::size_t cells = 64;
	std::vector<CellInterval> prefixes;
	for (std::int32_t j = 0; j < std::int32_t(cells); j++)
		prefixes.push_back({0, j});
	const IntervalWorkload workload(prefixes, cells);
	std::vector<double> sparse(cells, 0.0), uniform(cells, 1.0 / double(cells));
	sparse[3] = 0.75;
	sparse[40] = 0.25;
	// A public prior whose n-scaled counts, all positive, sum below n = 2^62 in double: the case that looped.
	std::vector<std::int64_t> public_counts(cells);
	for (std::size_t i = 0; i < cells; i++)
		public_counts[i] = std::int64_t(i * 7 % 5);
	std::vector<double> perks = PublicPrior(public_counts);
	for (double epsilon : {kMinEpsilon, 1e-3, 1.0, 1490.0, 1500.0, 1e6, 1e300})
		for (double delta : {0.0, 1e-6})
			for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(1) << 62})
				for (const std::vector<double> *stand_in : {&sparse, &uniform, &perks}) {
					SCOPED_TRACE(epsilon);
					SCOPED_TRACE(delta);
					SCOPED_TRACE(n);
					const HistogramNoise noise = HistogramNoiseFor(2.0, 2.0, epsilon, delta);
					const double bias = IdentityProjectionBias(*stand_in, n, noise, workload);
					EXPECT_GE(bias, 0.0);
					EXPECT_LE(bias, 1.0);
					if (epsilon >= 1500.0) {
						EXPECT_EQ(noise.Variance(), 0.0);
						EXPECT_LT(bias, 1e-9);  // no spread: clipping at 0 moves nothing
					}
				}
}

int g_checks = 0;

bool
CancelOnThirdPoll()
{
	return ++g_checks >= 3;
}

// The bias polls every 2^16 cells: a cancel ends it within a few evaluations of the expected total.
TEST(IdentityProjectionBias, HonoursACancel)
{
	const std::size_t cells = 1 << 17;
	const IntervalWorkload workload({CellInterval{0, std::int32_t(cells / 2)}}, cells);
	const std::vector<double> uniform(cells, 1.0 / double(cells));
	const HistogramNoise noise = HistogramNoiseFor(2.0, 2.0, 0.1, 0.0);
	g_checks = 0;
	EXPECT_EQ(OutcomeOf([&] { IdentityProjectionBias(uniform, 1000, noise, workload, CancelOnThirdPoll); }),
	          "Cancelled");
	EXPECT_EQ(g_checks, 3);
	EXPECT_NO_THROW(IdentityProjectionBias(uniform, 1000, noise, workload));
}

}  // namespace
}  // namespace pap::core
