// Tests of the marginal-tables mechanism: the attribute sets and tables (one at a time and all in one pass), the
// combined estimates and the least-squares fit of the k-way stage (against per-table projections on sparse
// tables), the sensitivity of the measured tables by brute force, the run as documented (the noise is one draw per
// table cell in table order, with the planned distribution; the reconstruction fits the targets), determinism,
// exactness at a huge epsilon, correcting a shifted prior, cancellation, the accounting and the planner (from public
// inputs, monotone in epsilon), and bad input.
#include "core/mechanisms/marginal_tables.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <vector>

#include "chi_squared.hpp"
#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/cells/open_subgrid.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/registry.hpp"
#include "core/noise/discrete_gaussian.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

using test::AlwaysInterrupted;
using test::OutcomeOf;

// A histogram over the grid with dependent axes: a random walk of the coordinates, so the marginals are far from
// uniform and from a product.
std::vector<std::int64_t>
DependentHistogram(const std::vector<std::int32_t> &radices, std::int64_t n, std::uint64_t seed)
{
	std::mt19937_64 gen(seed);
	std::size_t cells = 1;
	for (std::int32_t r : radices)
		cells *= std::size_t(r);
	std::vector<std::int64_t> h(cells, 0);
	for (std::int64_t row = 0; row < n; row++) {
		std::size_t cell = 0;
		std::int32_t previous = 0;
		for (std::int32_t r : radices) {
			const std::int32_t bin = std::int32_t((previous + gen() % 2) % std::uint64_t(r));
			cell = cell * std::size_t(r) + std::size_t(bin);
			previous = bin;
		}
		h[cell]++;
	}
	return h;
}

PlanInput
Input(double epsilon, double delta, std::size_t cells, std::int64_t n = 10000, std::int64_t m = 1000)
{
	PlanInput in = test::HistogramPlanInput(epsilon, delta, cells);
	in.private_rows = n;
	in.public_rows = m;
	return in;
}

TEST(AttributeSets, AreEveryCombinationInLexicographicOrder)
{
	const std::vector<std::vector<int>> sets = AttributeSets(4, 2);
	const std::vector<std::vector<int>> expected{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
	EXPECT_EQ(sets, expected);
	EXPECT_EQ(AttributeSets(6, 3).size(), 20u);
	EXPECT_EQ(AttributeSets(5, 5).size(), 1u);
	EXPECT_EQ(AttributeSets(5, 1).size(), 5u);
	EXPECT_EQ(OutcomeOf([] { AttributeSets(3, 0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { AttributeSets(3, 4); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { AttributeSets(64, 32); }), "LimitExceeded");
}

TEST(MarginalTable, SumsOverTheOtherAxesAndScalesByTableCell)
{
	const std::vector<std::int32_t> radices{3, 2, 4};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 500, 1);
	const MarginalTable table(radices, {0, 2});
	ASSERT_EQ(table.size(), 12u);
	std::vector<std::int64_t> expected(12, 0);
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 4; c++)
				expected[std::size_t(a * 4 + c)] += h[std::size_t((a * 2 + b) * 4 + c)];
	EXPECT_EQ(table.Counts(h, nullptr), expected);
	std::vector<double> weights(h.begin(), h.end()), factors(12);
	for (std::size_t i = 0; i < 12; i++)
		factors[i] = double(i + 1);
	table.Scale(factors, weights, nullptr);
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 4; c++) {
				const std::size_t cell = std::size_t((a * 2 + b) * 4 + c);
				EXPECT_EQ(weights[cell], double(h[cell]) * double(a * 4 + c + 1));
			}
	EXPECT_EQ(OutcomeOf([&] { MarginalTable(radices, {2, 0}); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { MarginalTable(radices, {3}); }), "Internal");
}

double MaxMarginalError(const std::vector<double> &x, const std::vector<std::int64_t> &h,
                        const std::vector<std::int32_t> &radices, int order);

TEST(MarginalTableSet, ReadsAndWritesEveryTableInOnePass)
{
	const std::vector<std::int32_t> radices{3, 2, 4, 2};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 700, 12);
	const std::vector<double> values(h.begin(), h.end());
	const std::vector<std::vector<int>> sets = AttributeSets(4, 2);
	const MarginalTableSet set(radices, sets);
	ASSERT_EQ(set.tables().size(), sets.size());
	const std::vector<std::vector<double>> sums = set.Of(values, nullptr);
	std::vector<std::vector<double>> per_table;
	for (std::size_t t = 0; t < sets.size(); t++) {
		const MarginalTable table(radices, sets[t]);
		EXPECT_EQ(sums[t], table.Of(values, nullptr));
		per_table.emplace_back(table.size());
		for (std::size_t i = 0; i < table.size(); i++)
			per_table[t][i] = double(t * 100 + i);
	}
	// SumBack: each grid cell gets the sum over the tables of its table cell's value (the table cell found as where
	// the table puts the grid cell's unit mass).
	std::vector<double> back(values.size(), -1.0), expected(values.size(), 0.0);
	set.SumBack(per_table, back, nullptr);
	for (std::size_t c = 0; c < values.size(); c++) {
		std::vector<double> unit(values.size(), 0.0);
		unit[c] = 1.0;
		for (std::size_t t = 0; t < sets.size(); t++) {
			const std::vector<double> mass = MarginalTable(radices, sets[t]).Of(unit, nullptr);
			expected[c] += per_table[t][std::size_t(std::max_element(mass.begin(), mass.end()) - mass.begin())];
		}
	}
	for (std::size_t c = 0; c < back.size(); c++)
		EXPECT_NEAR(back[c], expected[c], 1e-9);
	EXPECT_EQ(OutcomeOf([&] { set.Of(std::vector<double>(5, 1.0), nullptr); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { set.SumBack({per_table[0]}, back, nullptr); }), "Internal");
	std::vector<double> short_out(5);
	EXPECT_EQ(OutcomeOf([&] { set.SumBack(per_table, short_out, nullptr); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { MarginalTableSet(radices, {{0, 4}}); }), "Internal");
}

TEST(CombinedEstimate, IsTheInverseVarianceCombinationAndItsVariance)
{
	// n = 1000, m = 100, s2 = 400: a cell of public share 0.5 has v = 1000^2 0.25 (1/100 + 1/1000) = 2750.
	const TableEstimate e = CombinedEstimate({600, 400}, {0.5, 0.5}, 1000, 100, 400);
	const double v = 2750, w = v / (v + 400);
	EXPECT_NEAR(e.values[0], (w * 600 + (1 - w) * 500) / 1000, 1e-12);
	EXPECT_NEAR(e.values[1], (w * 400 + (1 - w) * 500) / 1000, 1e-12);
	EXPECT_NEAR(e.inverse_variance[0], 1000.0 * 1000.0 * (v + 400) / (v * 400), 1e-6);
	// Without a public sample: the noisy counts alone, unclipped, with the noise's variance.
	const TableEstimate alone = CombinedEstimate({-30, 1030}, {0.5, 0.5}, 1000, 0, 400);
	EXPECT_EQ(alone.values, (std::vector<double>{-0.03, 1.03}));
	EXPECT_NEAR(alone.inverse_variance[1], 1000.0 * 1000.0 / 400, 1e-9);
	// An exact count (no noise) keeps a finite weight: rounding's variance.
	EXPECT_EQ(CombinedEstimate({1, 2}, {0.5, 0.5}, 3, 0, 0).inverse_variance[0], 9.0 * 12.0);
	EXPECT_EQ(OutcomeOf([] { CombinedEstimate({1, 2}, {0.5, 0.5}, 3, 0, -1); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { CombinedEstimate({1, 2}, {1.0}, 3, 0, 1); }), "Internal");
}

TEST(FitLeastSquares, MeetsConsistentEstimatesAndNeverRaisesTheLoss)
{
	const std::vector<std::int32_t> radices{3, 4, 3};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 4000, 13);
	const MarginalTableSet set(radices, AttributeSets(3, 2));
	std::vector<double> truth(h.begin(), h.end());
	for (double &x : truth)
		x /= 4000.0;
	std::vector<TableEstimate> estimates;
	for (const std::vector<double> &marginal : set.Of(truth, nullptr))
		estimates.push_back({marginal, std::vector<double>(marginal.size(), 1e4)});
	std::vector<double> model = UniformPrior(truth.size());
	std::vector<std::vector<double>> start = set.Of(model, nullptr);
	double start_loss = 0;
	for (std::size_t t = 0; t < start.size(); t++)
		for (std::size_t i = 0; i < start[t].size(); i++)
			start_loss += 0.5 * 1e4 * std::pow(start[t][i] - estimates[t].values[i], 2);
	const double one_step = FitLeastSquares(set, estimates, 1, model, nullptr);
	EXPECT_LT(one_step, start_loss);
	const double loss = FitLeastSquares(set, estimates, 2000, model, nullptr);
	EXPECT_LE(loss, one_step);
	double sum = 0;
	for (double x : model) {
		EXPECT_GE(x, 0.0);
		sum += x;
	}
	EXPECT_NEAR(sum, 1.0, 1e-12);
	const std::vector<std::vector<double>> fitted = set.Of(model, nullptr);
	for (std::size_t t = 0; t < fitted.size(); t++)
		for (std::size_t i = 0; i < fitted[t].size(); i++)
			EXPECT_NEAR(fitted[t][i], estimates[t].values[i], 1e-4);
	const MarginalTableSet none(radices, {});
	EXPECT_EQ(OutcomeOf([&] { FitLeastSquares(none, {}, 1, model, nullptr); }), "Internal");
	estimates.back().inverse_variance.assign(estimates.back().inverse_variance.size(), 0.0);
	estimates.front().inverse_variance.assign(estimates.front().inverse_variance.size(), 0.0);
	estimates[1].inverse_variance.assign(estimates[1].inverse_variance.size(), 0.0);
	EXPECT_EQ(OutcomeOf([&] { FitLeastSquares(set, estimates, 1, model, nullptr); }), "Internal");
	estimates.pop_back();
	EXPECT_EQ(OutcomeOf([&] { FitLeastSquares(set, estimates, 1, model, nullptr); }), "Internal");
}

// Why the k-way stage fits by least squares: on a sparse table (most cells empty), projecting each noisy table onto
// the non-negative tables of n rows on its own lowers its occupied cells by a common shift that depends on the
// table's number of empty cells, so the overlapping tables disagree on their shared sub-marginals, and fitting them
// (IPF) lands between them. The joint fit of the unclipped tables keeps the noise zero-mean.
TEST(FitLeastSquares, BeatsFittingPerTableProjectionsOnSparseTables)
{
	const std::vector<std::int32_t> radices{2, 12, 12};
	const std::vector<std::vector<int>> sets = AttributeSets(3, 2);
	const MarginalTableSet set(radices, sets);
	const std::int64_t n = 20000;
	const RationalScale scale = ScaleAtLeast(2.0 * 3 / 0.5);  // three tables at epsilon 0.5
	double projected_error = 0, fitted_error = 0;
	for (std::uint64_t seed = 0; seed < 10; seed++) {
		const std::vector<std::int64_t> h = DependentHistogram(radices, n, 20 + seed);
		SeededRandomSource rng(seed);
		std::vector<std::vector<double>> noisy;
		for (const MarginalTable &table : set.tables()) {
			noisy.emplace_back();
			for (std::int64_t c : table.Counts(h, nullptr))
				noisy.back().push_back(double(c + SampleDiscreteLaplace(rng, scale)));
		}
		const double s2 = 2 * scale.value() * scale.value();
		const std::vector<double> uniform = UniformPrior(h.size());
		// Per-table projections (CombinedTargets without a public sample), then 30 sweeps of IPF.
		std::vector<double> ipf = uniform;
		std::vector<std::vector<double>> targets;
		for (const std::vector<double> &y : noisy)
			targets.push_back(CombinedTargets(y, std::vector<double>(y.size(), 0.0), double(n), 0, s2, true));
		for (int sweep = 0; sweep < 30; sweep++)
			for (std::size_t t = 0; t < sets.size(); t++) {
				std::vector<double> factors = set.tables()[t].Of(ipf, nullptr);
				for (std::size_t i = 0; i < factors.size(); i++)
					factors[i] = targets[t][i] / factors[i];
				set.tables()[t].Scale(factors, ipf, nullptr);
			}
		std::vector<TableEstimate> estimates;
		for (const std::vector<double> &y : noisy)
			estimates.push_back(CombinedEstimate(y, std::vector<double>(y.size(), 0.0), double(n), 0, s2));
		std::vector<double> fitted = uniform;
		FitLeastSquares(set, estimates, kLeastSquaresSteps, fitted, nullptr);
		projected_error += MaxMarginalError(ipf, h, radices, 2);
		fitted_error += MaxMarginalError(fitted, h, radices, 2);
	}
	EXPECT_LT(fitted_error, 0.7 * projected_error);
}

TEST(MarginalTablesSensitivity, ReplacingOneRowMovesEachTableL1TwoAndL2SquaredTwo)
{
	const std::vector<std::int32_t> radices{2, 3, 2};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 60, 2);
	for (int order = 1; order <= 3; order++)
		for (const std::vector<int> &set : AttributeSets(3, order)) {
			const MarginalTable table(radices, set);
			const auto [max_l1, max_l2] = test::LargestMovedRowChange(
			    h, [&](const std::vector<std::int64_t> &g) { return table.Counts(g, nullptr); });
			EXPECT_EQ(max_l1, 2.0);
			EXPECT_EQ(max_l2, 2.0);
		}
}

TEST(PlanMarginalTables, SpendsTheBudgetOverTheTablesAndNoMore)
{
	const std::vector<std::int32_t> radices{3, 3, 3, 3};
	const std::vector<std::int64_t> public_histogram = DependentHistogram(radices, 1000, 3);
	for (double epsilon : {1e-3, 0.1, 1.0, 50.0}) {
		const MarginalTablesPlan plan = PlanMarginalTables(Input(epsilon, 0, 81), radices, 2, public_histogram);
		ASSERT_FALSE(plan.tables.gaussian);
		EXPECT_LE(plan.used.epsilon, epsilon);
		EXPECT_GT(plan.used.epsilon, epsilon * (1 - 1e-4));
		EXPECT_EQ(plan.used.delta, 0.0);
		if (!plan.calibrate) {
			// The variant without the prior: the 6 two-way tables alone at the whole epsilon.
			EXPECT_EQ(plan.public_rows, 0);
			EXPECT_EQ(plan.calibration_share, 0.0);
			EXPECT_GE(plan.tables.laplace.value(), 2.0 * 6 / epsilon);
			EXPECT_LE(plan.tables.laplace.value(), 2.0 * 6 / epsilon + 1e-5);
			continue;
		}
		// 6 two-way tables at (1 - share) epsilon, 4 one-way tables at share epsilon, each l1 = 2, the share one
		// of the candidates. (The scales are rounded up to the sampler's grid of 2^-20.)
		EXPECT_EQ(plan.public_rows, 1000);
		const double share = plan.calibration_share;
		EXPECT_NE(std::find(std::begin(kCalibrationShares), std::end(kCalibrationShares), share),
		          std::end(kCalibrationShares));
		EXPECT_GE(plan.tables.laplace.value(), 2.0 * 6 / ((1 - share) * epsilon));
		EXPECT_LE(plan.tables.laplace.value(), 2.0 * 6 / ((1 - share) * epsilon) + 1e-5);
		EXPECT_GE(plan.calibration.laplace.value(), 2.0 * 4 / (share * epsilon));
		EXPECT_LE(plan.calibration.laplace.value(), 2.0 * 4 / (share * epsilon) + 1e-5);
	}
	// k = 1: the workload's tables are the 1-way ones, no calibration stage.
	const MarginalTablesPlan one = PlanMarginalTables(Input(1.0, 0, 81), radices, 1, public_histogram);
	EXPECT_FALSE(one.calibrate);
	EXPECT_NEAR(one.tables.laplace.value(), 2.0 * 4, 1e-5);
	// delta > 0: the discrete Gaussian where its variance is the smaller (many tables), charged within (epsilon,
	// delta).
	const std::vector<std::int32_t> binary(8, 2);
	const MarginalTablesPlan gauss =
	    PlanMarginalTables(Input(1.0, 1e-3, 256), binary, 4, std::vector<std::int64_t>(256, 3));
	EXPECT_TRUE(gauss.tables.gaussian);
	EXPECT_TRUE(!gauss.calibrate || gauss.calibration.gaussian);
	EXPECT_EQ(gauss.used.epsilon, 1.0);
	EXPECT_LE(gauss.used.delta, 1e-3);
	EXPECT_GT(gauss.used.delta, 0.0);
}

// Every candidate, not only the chosen one, and every stage: the discrete Gaussian's variance is at least the
// stage's tables over its share of rho (l2^2 = 2 per table, rho = tables / sigma^2), so the rho spent is within the
// rho the request converts to, and delta from that rho at epsilon is within delta before any cap (the reported delta
// is capped at the request, so only the uncapped value can show an overspend); the Laplace candidates spend at most
// epsilon.
TEST(PlanMarginalTables, EveryCandidateSpendsWithinItsBudget)
{
	const std::vector<std::int32_t> binary(8, 2);
	const std::vector<std::int64_t> histogram(256, 3);
	for (double epsilon : {1e-3, 0.1, 1.0, 30.0})
		for (double delta : {1e-9, 1e-3, 0.5})
			for (int order : {1, 2, 4}) {
				SCOPED_TRACE(std::to_string(epsilon) + " " + std::to_string(delta) + " k=" + std::to_string(order));
				const double rho = LargestZcdpRho(epsilon, delta);
				const double tables = double(AttributeSets(8, order).size());
				int gaussian = 0;
				for (const MarginalTablesPlan &p :
				     MarginalTablesCandidates(Input(epsilon, delta, 256), binary, order, histogram)) {
					if (!p.tables.gaussian) {
						EXPECT_LE(p.used.epsilon, epsilon);
						continue;
					}
					gaussian++;
					const double share = p.calibrate ? p.calibration_share : 0.0;
					EXPECT_GE(p.tables.variance.value(), tables / ((1.0 - share) * rho) * (1 - 1e-12));
					if (p.calibrate) {
						EXPECT_TRUE(p.calibration.gaussian);
						EXPECT_GE(p.calibration.variance.value(), 8.0 / (share * rho) * (1 - 1e-12));
					}
					EXPECT_LE(p.used.rho, rho * (1 + 1e-12));
					EXPECT_LE(ZcdpDelta(p.used.rho, epsilon), delta * (1 + 1e-9));
					EXPECT_EQ(p.used.epsilon, epsilon);
				}
				EXPECT_GT(gaussian, 0);
			}
}

TEST(PlanMarginalTables, PredictionFallsWithEpsilonAndIsAShare)
{
	const std::vector<std::int32_t> radices{4, 3, 5};
	const std::vector<std::int64_t> public_histogram = DependentHistogram(radices, 800, 4);
	double previous = 2.0;
	for (double epsilon : {1e-4, 0.01, 0.1, 1.0, 10.0}) {
		const double e = PlanMarginalTables(Input(epsilon, 0, 60), radices, 2, public_histogram).predicted_error;
		EXPECT_GT(e, 0.0);
		EXPECT_LE(e, 1.0);
		EXPECT_LE(e, previous);
		previous = e;
	}
	// Without a public sample (the uniform prior) the noisy tables stand alone. For k = 1 the planner weighs the
	// prior only where its prediction (the combined estimate's, with the per-cell test's chance flags priced) is
	// the smaller, so the prediction with a public sample is never above the noisy tables' alone.
	PlanInput uniform = Input(0.1, 0, 60);
	uniform.uniform_prior = true;
	const MarginalTablesPlan alone = PlanMarginalTables(uniform, radices, 1, public_histogram);
	EXPECT_EQ(alone.public_rows, 0);
	EXPECT_GE(alone.predicted_error,
	          PlanMarginalTables(Input(0.1, 0, 60), radices, 1, public_histogram).predicted_error);
}

// At a small epsilon the 2-way tables' noise dwarfs the public sample's error (their weight w near 0), so the
// released cells are the model's, and a larger 1-way share corrects more of the model's error: the planner takes a
// share above 0.5, and over paired runs (the same public sample, private table and seed) its release is closer to
// the private 2-way marginals than the same plan with the share 0.5 (docs/mechanisms.md §13, "Shares above 0.5"). At
// a large epsilon it keeps a share of at most 0.5.
TEST(PlanMarginalTables, TakesALargeOneWayShareWhereTheTwoWayTablesAddLittle)
{
	const std::vector<std::int32_t> radices{3, 3, 3, 3};
	const double epsilon = 0.05;
	double large_error = 0, half_error = 0;
	const int trials = 40;
	for (int trial = 0; trial < trials; trial++) {
		const std::vector<std::int64_t> pub = DependentHistogram(radices, 2000, 100 + std::uint64_t(trial));
		const std::vector<std::int64_t> h = DependentHistogram(radices, 20000, 200 + std::uint64_t(trial));
		const MarginalTablesPlan large = PlanMarginalTables(Input(epsilon, 0, 81, 20000, 2000), radices, 2, pub);
		ASSERT_TRUE(large.calibrate);
		ASSERT_GT(large.calibration_share, 0.5);
		// The same plan at the share 0.5: six 2-way and four 1-way tables, each stage of l1 2 T at half epsilon.
		MarginalTablesPlan half = large;
		half.calibration_share = 0.5;
		half.tables = HistogramNoiseFor(2.0 * 6, 2.0 * 6, epsilon / 2, 0.0);
		half.calibration = HistogramNoiseFor(2.0 * 4, 2.0 * 4, epsilon / 2, 0.0);
		SeededRandomSource large_rng(300 + std::uint64_t(trial)), half_rng(300 + std::uint64_t(trial));
		large_error +=
		    MaxMarginalError(RunMarginalTables(h, radices, 20000, PublicPrior(pub), large, large_rng), h, radices, 2);
		half_error +=
		    MaxMarginalError(RunMarginalTables(h, radices, 20000, PublicPrior(pub), half, half_rng), h, radices, 2);
	}
	EXPECT_LT(large_error, 0.9 * half_error)
	    << "mean max error " << large_error / trials << " against " << half_error / trials;
	const MarginalTablesPlan precise =
	    PlanMarginalTables(Input(5.0, 0, 81, 20000, 2000), radices, 2, DependentHistogram(radices, 2000, 7));
	EXPECT_LE(precise.calibration_share, 0.5);
}

// The planner weighs the prior where the public sample carries the answers (a large sample, little budget), and
// measures the k-way tables alone at the whole budget where the noise is small against the sample's own error (a
// small sample, a large epsilon); that variant's prediction is the noisy tables' alone, as with the uniform prior.
TEST(PlanMarginalTables, WeighsThePriorOnlyWhereItPredictsBetter)
{
	const std::vector<std::int32_t> radices{3, 3, 3, 3};
	const std::vector<std::int64_t> public_histogram = DependentHistogram(radices, 10000, 3);
	const MarginalTablesPlan weighing =
	    PlanMarginalTables(Input(0.01, 0, 81, 10000, 10000), radices, 2, public_histogram);
	EXPECT_TRUE(weighing.calibrate);
	EXPECT_EQ(weighing.public_rows, 10000);
	const MarginalTablesPlan alone = PlanMarginalTables(Input(10.0, 0, 81, 10000, 20), radices, 2, public_histogram);
	EXPECT_FALSE(alone.calibrate);
	EXPECT_EQ(alone.public_rows, 0);
	PlanInput uniform = Input(10.0, 0, 81, 10000, 20);
	uniform.uniform_prior = true;
	const MarginalTablesPlan without_prior = PlanMarginalTables(uniform, radices, 2, public_histogram);
	EXPECT_FALSE(without_prior.calibrate);
	EXPECT_EQ(alone.predicted_error, without_prior.predicted_error);
	EXPECT_EQ(alone.tables.laplace.value(), without_prior.tables.laplace.value());
}

MarginalTablesPlan
Candidate(double predicted_error, std::int64_t public_rows, int order = 2)
{
	MarginalTablesPlan plan;
	plan.predicted_error = predicted_error;
	plan.public_rows = public_rows;
	plan.order = order;
	return plan;
}

// The smallest prediction, ties to the earlier; but where it weighs the prior over k > 1 and a variant without the
// prior predicts within kNearTie of it, the best variant without the prior.
TEST(MarginalTablesVariantChoice, ANearTieGoesToTheVariantWithoutThePrior)
{
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.100, 50), Candidate(0.109, 0)}), 1u);
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.100, 50), Candidate(0.111, 0)}), 0u);
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.120, 50), Candidate(0.100, 50), Candidate(0.105, 0)}), 2u);
	// The best of the variants without the prior (Laplace and Gaussian), and the smallest where it is one of them.
	EXPECT_EQ(MarginalTablesVariantChoice(
	              {Candidate(0.100, 50), Candidate(0.108, 0), Candidate(0.090, 50), Candidate(0.098, 0)}),
	          3u);
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.100, 0), Candidate(0.105, 50)}), 0u);
	// Ties to the earlier; no variant without the prior (a uniform prior weighs nothing: all are 0).
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.1, 50), Candidate(0.1, 50)}), 0u);
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.2, 0), Candidate(0.1, 0)}), 1u);
	// k = 1: the per-cell test puts both predictions on one footing, and the smallest wins.
	EXPECT_EQ(MarginalTablesVariantChoice({Candidate(0.100, 50, 1), Candidate(0.101, 0, 1)}), 0u);
	EXPECT_EQ(OutcomeOf([] { MarginalTablesVariantChoice({}); }), "Internal");
}

// The plan is the choice among its candidates, each spending what it is charged; and over a sweep of epsilon the rule
// takes effect end to end: somewhere a variant that weighs the prior predicts the least and the plan measures the
// tables alone, at a prediction within kNearTie of it.
TEST(PlanMarginalTables, IsTheChoiceAmongItsCandidates)
{
	const std::vector<std::int32_t> radices{3, 3, 3, 3};
	const std::vector<std::int64_t> public_histogram = DependentHistogram(radices, 200, 11);
	int near_ties = 0;
	for (double epsilon = 0.02; epsilon < 20.0; epsilon *= 1.15) {
		const PlanInput in = Input(epsilon, 0, 81, 20000, 200);
		const std::vector<MarginalTablesPlan> candidates = MarginalTablesCandidates(in, radices, 2, public_histogram);
		ASSERT_FALSE(candidates.empty());
		const MarginalTablesPlan plan = PlanMarginalTables(in, radices, 2, public_histogram);
		const MarginalTablesPlan &chosen = candidates[MarginalTablesVariantChoice(candidates)];
		EXPECT_EQ(plan.predicted_error, chosen.predicted_error);
		EXPECT_EQ(plan.public_rows, chosen.public_rows);
		EXPECT_EQ(plan.calibration_share, chosen.calibration_share);
		EXPECT_EQ(plan.used.epsilon, chosen.used.epsilon);
		double smallest = 1.0;
		bool smallest_weighs = false;
		for (const MarginalTablesPlan &c : candidates) {
			EXPECT_LE(c.used.epsilon, epsilon);
			if (c.predicted_error < smallest) {
				smallest = c.predicted_error;
				smallest_weighs = c.public_rows > 0;
			}
		}
		if (smallest_weighs && plan.public_rows == 0) {
			near_ties++;
			EXPECT_LE(plan.predicted_error, kNearTie * smallest);
		}
	}
	EXPECT_GT(near_ties, 0);
}

// The variant without the prior adds the non-negativity's bias, identity's, on the public sample's shares of each
// table's cells: with the uniform prior (the noise the same whatever the public sample), a public sample that leaves
// most cells of the 2-way tables empty predicts more than one that fills them evenly.
TEST(PlanMarginalTables, WithoutThePriorCountsTheNonNegativitysBias)
{
	const std::vector<std::int32_t> radices{6, 6, 6};
	std::vector<std::int64_t> sparse(216, 0), even(216, 10);
	for (std::size_t c = 0; c < 216; c += 43)
		sparse[c] = 400;  // five cells: each 2-way table keeps at most five of its 36 cells
	PlanInput in = Input(0.2, 0, 216, 2000, 2000);
	in.uniform_prior = true;
	const MarginalTablesPlan with_empty_cells = PlanMarginalTables(in, radices, 2, sparse);
	const MarginalTablesPlan without = PlanMarginalTables(in, radices, 2, even);
	ASSERT_FALSE(with_empty_cells.calibrate);
	ASSERT_FALSE(without.calibrate);
	EXPECT_EQ(with_empty_cells.tables.laplace.value(), without.tables.laplace.value());
	EXPECT_GT(with_empty_cells.predicted_error, without.predicted_error * 1.05);
}

// The diagonal of the orthogonal projection onto the consistent marginals with the total known, built by brute force
// (Gram-Schmidt on the images of the directions that keep the total), for every table cell.
std::vector<double>
ProjectionDiagonal(const std::vector<std::int32_t> &radices, const std::vector<std::vector<int>> &sets)
{
	std::size_t cells = 1;
	for (std::int32_t r : radices)
		cells *= std::size_t(r);
	std::vector<MarginalTable> tables;
	std::size_t rows = 0;
	for (const std::vector<int> &set : sets) {
		tables.emplace_back(radices, set);
		rows += tables.back().size();
	}
	// The table cells of one grid cell's indicator, all tables stacked.
	const auto image = [&](std::size_t cell) {
		std::vector<double> indicator(cells, 0.0), stacked;
		indicator[cell] = 1.0;
		for (const MarginalTable &table : tables) {
			const std::vector<double> sums = table.Of(indicator, nullptr);
			stacked.insert(stacked.end(), sums.begin(), sums.end());
		}
		return stacked;
	};
	const std::vector<double> first = image(0);
	std::vector<std::vector<double>> basis;
	for (std::size_t c = 1; c < cells; c++) {
		std::vector<double> u = image(c);
		for (std::size_t r = 0; r < rows; r++)
			u[r] -= first[r];
		for (int pass = 0; pass < 2; pass++)  // twice: Gram-Schmidt loses orthogonality once
			for (const std::vector<double> &q : basis) {
				double dot = 0.0;
				for (std::size_t r = 0; r < rows; r++)
					dot += q[r] * u[r];
				for (std::size_t r = 0; r < rows; r++)
					u[r] -= dot * q[r];
			}
		double norm = 0.0;
		for (double x : u)
			norm += x * x;
		if (norm < 1e-18)
			continue;  // a direction the tables do not see
		for (double &x : u)
			x /= std::sqrt(norm);
		basis.push_back(u);
	}
	std::vector<double> diagonal(rows, 0.0);
	for (const std::vector<double> &q : basis)
		for (std::size_t r = 0; r < rows; r++)
			diagonal[r] += q[r] * q[r];
	return diagonal;
}

TEST(LeastSquaresVarianceShares, AreTheDiagonalOfTheFitsProjection)
{
	const std::vector<std::pair<std::vector<std::int32_t>, int>> grids{
	    {{2, 3, 2}, 2}, {{3, 2, 2, 3}, 2}, {{3, 2, 2, 3}, 3}, {{4, 1, 3}, 2}, {{5, 3}, 1}, {{2, 4, 3}, 3}};
	for (const auto &[radices, order] : grids) {
		const std::vector<std::vector<int>> sets = AttributeSets(int(radices.size()), order);
		const std::vector<double> shares = LeastSquaresVarianceShares(radices, sets);
		const std::vector<double> diagonal = ProjectionDiagonal(radices, sets);
		ASSERT_EQ(shares.size(), sets.size());
		std::size_t row = 0;
		for (std::size_t t = 0; t < sets.size(); t++) {
			const MarginalTable table(radices, sets[t]);
			for (std::size_t i = 0; i < table.size(); i++, row++)
				EXPECT_NEAR(shares[t], diagonal[row], 1e-9) << "order " << order << " table " << t << " cell " << i;
		}
	}
	// One table that shares no axis: its projection onto the tables of n rows, 1 - 1/K.
	EXPECT_NEAR(LeastSquaresVarianceShares({4, 5}, {{0, 1}})[0], 1.0 - 1.0 / 20, 1e-12);
	EXPECT_EQ(OutcomeOf([] { LeastSquaresVarianceShares({2, 2}, {{0, 2}}); }), "Internal");
}

// The run of the variant without the prior reaches the least-squares fit the shares describe: on a uniform grid
// whose cells all hold many rows (no count near 0, so the non-negativity never binds), each released 2-way cell's
// error has the variance share times one noisy count's (within the Monte Carlo's spread); without the fit (each
// table's noisy counts alone) it would be (1 - 1/K) times it, K = 9: 0.89 where the share is 0.59 (measured: 0.60).
TEST(RunMarginalTables, WithoutThePriorHasTheFittedVariance)
{
	const std::vector<std::int32_t> radices{3, 3, 3, 3};
	const std::int64_t n = 81000;
	const std::vector<std::int64_t> h(81, 1000);
	PlanInput in = Input(1.0, 0, 81, n, 20);
	in.uniform_prior = true;
	const MarginalTablesPlan plan = PlanMarginalTables(in, radices, 2, h);
	ASSERT_FALSE(plan.calibrate);
	ASSERT_EQ(plan.public_rows, 0);
	const std::vector<std::vector<int>> sets = AttributeSets(4, 2);
	const double share = LeastSquaresVarianceShares(radices, sets)[0];
	EXPECT_NEAR(share, 16.0 / 27.0, 1e-12);
	const double s2 = plan.tables.Variance();
	double sum_squares = 0.0;
	std::size_t count = 0;
	for (std::uint64_t seed = 0; seed < 200; seed++) {
		SeededRandomSource rng(seed);
		const std::vector<double> x = RunMarginalTables(h, radices, n, UniformPrior(81), plan, rng);
		for (const std::vector<int> &set : sets) {
			const std::vector<double> released = MarginalTable(radices, set).Of(x, nullptr);
			for (double r : released) {
				const double error = (r - 1.0 / 9.0) * double(n);
				sum_squares += error * error;
				count++;
			}
		}
	}
	EXPECT_NEAR(sum_squares / double(count) / s2, share, 0.06);
}

TEST(PlanMarginalTables, RejectsBadInput)
{
	const std::vector<std::int32_t> radices{2, 2};
	const std::vector<std::int64_t> public_histogram(4, 5);
	EXPECT_EQ(OutcomeOf([&] { PlanMarginalTables(Input(std::nan(""), 0, 4), radices, 1, public_histogram); }),
	          "InvalidParameter");
	EXPECT_EQ(OutcomeOf([&] { PlanMarginalTables(Input(1, 0, 4), radices, 3, public_histogram); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { PlanMarginalTables(Input(1, 0, 4), radices, 1, {1, 2}); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { PlanMarginalTables(Input(1, 0, 4, 0), radices, 1, public_histogram); }), "DataException");
}

// The sampler test: with a uniform prior and one table over the whole grid, the weights are the fitted targets,
// which are the noisy counts themselves (clipped at a floor, normalised): replaying the documented draws (one per
// table cell, in table order, from the plan's discrete Laplace) gives the output exactly, and the draws follow the
// discrete Laplace's law (chi-squared over many runs).
TEST(RunMarginalTables, IsOneDrawPerTableCellWithThePlannedNoise)
{
	const std::vector<std::int32_t> radices{3};
	const std::vector<std::int64_t> h{400, 100, 500};
	PlanInput in = Input(0.5, 0, 3, 1000, 1000);
	in.uniform_prior = true;
	const MarginalTablesPlan plan = PlanMarginalTables(in, radices, 1, std::vector<std::int64_t>(3, 1));
	const std::vector<double> prior = UniformPrior(3);
	std::map<std::int64_t, std::int64_t> observed;
	const int runs = 20000;
	for (int r = 0; r < runs; r++) {
		SeededRandomSource rng{std::uint64_t(r)}, replay{std::uint64_t(r)};
		const std::vector<double> x = RunMarginalTables(h, radices, 1000, prior, plan, rng);
		std::vector<double> noisy(3);
		for (std::size_t i = 0; i < 3; i++) {
			const std::int64_t draw = SampleDiscreteLaplace(replay, plan.tables.laplace);
			noisy[i] = double(h[i] + draw);
			if (i == 0)
				observed[draw]++;
		}
		const std::vector<double> expected = CombinedTargets(noisy, prior, 1000.0, 0, plan.tables.Variance(), true);
		for (std::size_t i = 0; i < 3; i++)
			ASSERT_NEAR(x[i], expected[i], 1e-12);
		ASSERT_EQ(rng.words_drawn(), replay.words_drawn());
	}
	// The first cell's draws against the discrete Laplace of the plan's scale (b = 4): P[X = x] proportional to
	// e^{-|x| / b}, the tails beyond |x| = 20 pooled.
	const double b = plan.tables.laplace.value();
	ASSERT_NEAR(b, 4.0, 1e-5);
	const double q = std::exp(-1.0 / b), norm = (1 - q) / (1 + q);
	std::vector<double> expected_counts, observed_counts;
	double tail_expected = 1.0, tail_observed = double(runs);
	for (std::int64_t x = -20; x <= 20; x++) {
		const double p = norm * std::pow(q, double(std::abs(x)));
		expected_counts.push_back(p * runs);
		observed_counts.push_back(double(observed[x]));
		tail_expected -= p;
		tail_observed -= double(observed[x]);
	}
	expected_counts.push_back(tail_expected * runs);
	observed_counts.push_back(tail_observed);
	EXPECT_GT(test::ChiSquared(observed_counts, expected_counts).p_value, 1e-4);
}

// The variant without the prior (k = 2, uniform prior): one draw per cell of every 2-way table, in table order, from
// the plan's discrete Laplace at the whole budget (2 T / epsilon for T tables), and no 1-way stage: replaying those
// draws uses exactly the random words the run used.
TEST(RunMarginalTables, WithoutThePriorDrawsOncePerTwoWayCell)
{
	const std::vector<std::int32_t> radices{2, 3, 2};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 1000, 12);
	PlanInput in = Input(0.5, 0, 12, 1000, 1000);
	in.uniform_prior = true;
	const MarginalTablesPlan plan = PlanMarginalTables(in, radices, 2, std::vector<std::int64_t>(12, 1));
	ASSERT_FALSE(plan.calibrate);
	EXPECT_NEAR(plan.tables.laplace.value(), 2.0 * 3 / 0.5, 1e-5);
	for (std::uint64_t seed = 0; seed < 20; seed++) {
		SeededRandomSource rng(seed), replay(seed);
		RunMarginalTables(h, radices, 1000, UniformPrior(12), plan, rng);
		for (const std::vector<int> &set : AttributeSets(3, 2))
			for (std::size_t i = 0; i < MarginalTable(radices, set).size(); i++)
				SampleDiscreteLaplace(replay, plan.tables.laplace);
		EXPECT_EQ(rng.words_drawn(), replay.words_drawn());
	}
}

TEST(RunMarginalTables, OutputIsADistributionAndDeterministicForASeed)
{
	const std::vector<std::int32_t> radices{3, 4, 2, 3};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 3000, 5);
	const std::vector<std::int64_t> pub = DependentHistogram(radices, 300, 6);
	for (double epsilon : {0.01, 0.5, 5.0})
		for (double delta : {0.0, 1e-6})
			for (int order : {1, 2, 4}) {
				const MarginalTablesPlan plan =
				    PlanMarginalTables(Input(epsilon, delta, 72, 3000, 300), radices, order, pub);
				SeededRandomSource a(9), b(9);
				const std::vector<double> x = RunMarginalTables(h, radices, 3000, PublicPrior(pub), plan, a);
				EXPECT_EQ(x, RunMarginalTables(h, radices, 3000, PublicPrior(pub), plan, b));
				double sum = 0;
				for (double v : x) {
					EXPECT_GE(v, 0.0);
					sum += v;
				}
				EXPECT_NEAR(sum, 1.0, 1e-12);
			}
}

double
MaxMarginalError(const std::vector<double> &x, const std::vector<std::int64_t> &h,
                 const std::vector<std::int32_t> &radices, int order)
{
	double n = 0, worst = 0;
	for (std::int64_t c : h)
		n += double(c);
	for (const std::vector<int> &set : AttributeSets(int(radices.size()), order)) {
		const MarginalTable table(radices, set);
		const std::vector<double> released = table.Of(x, nullptr);
		const std::vector<std::int64_t> truth = table.Counts(h, nullptr);
		for (std::size_t i = 0; i < truth.size(); i++)
			worst = std::max(worst, std::abs(released[i] - double(truth[i]) / n));
	}
	return worst;
}

TEST(RunMarginalTables, HugeEpsilonFitsTheTrueMarginals)
{
	const std::vector<std::int32_t> radices{3, 4, 3};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 5000, 7);
	const std::vector<std::int64_t> pub = DependentHistogram(radices, 500, 8);
	const MarginalTablesPlan plan = PlanMarginalTables(Input(1e7, 0, 36, 5000, 500), radices, 2, pub);
	SeededRandomSource rng(3);
	const std::vector<double> x = RunMarginalTables(h, radices, 5000, PublicPrior(pub), plan, rng);
	EXPECT_LT(MaxMarginalError(x, h, radices, 2), 1e-3);
}

// A public sample that never shows six pairs of bins of the first two axes, though it shows every bin of each: the
// 1-way stage cannot raise those cells, the prior gives them a pseudo-row's weight only, and mirror descent alone,
// whose multiplicative steps grow such a cell by a small factor each, leaves the 2-way marginals 2.8e-4 off after
// its 400 steps. Iterative proportional fitting to each table's estimate first brings every cell near its count, so
// at a huge epsilon the release meets the true 2-way marginals (within 3e-6).
TEST(RunMarginalTables, HugeEpsilonFitsCellsThePublicSampleNeverShows)
{
	const std::vector<std::int32_t> radices{10, 12, 20};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 50000, 31);
	std::vector<std::int64_t> pub = DependentHistogram(radices, 2000, 32);
	// No public row with the first two axes' bins (0, 0..5): each of those bins is shown with other bins.
	std::fill(pub.begin(), pub.begin() + 6 * 20, 0);
	std::int64_t m = 0;
	for (std::int64_t c : pub)
		m += c;
	const MarginalTablesPlan plan = PlanMarginalTables(Input(1e7, 0, h.size(), 50000, m), radices, 2, pub);
	SeededRandomSource rng(5);
	const std::vector<double> x = RunMarginalTables(h, radices, 50000, PublicPrior(pub), plan, rng);
	EXPECT_LT(MaxMarginalError(x, h, radices, 2), 2e-5);
}

// A public sample whose first axis is shifted (its first bin three times as frequent as in the private rows): the
// 1-way stage sees the shift and the release's marginals are far closer to the private rows' than the public's.
TEST(RunMarginalTables, CorrectsAShiftedPublicSample)
{
	const std::vector<std::int32_t> radices{2, 3, 3};
	const std::vector<std::int64_t> h = DependentHistogram(radices, 20000, 9);
	std::vector<std::int64_t> pub = DependentHistogram(radices, 2000, 10);
	for (std::size_t c = 0; c < 9; c++)
		pub[c] *= 3;  // the cells of the first axis's bin 0
	std::int64_t m = 0;
	for (std::int64_t c : pub)
		m += c;
	const MarginalTablesPlan plan = PlanMarginalTables(Input(1.0, 0, 18, 20000, m), radices, 2, pub);
	SeededRandomSource rng(11);
	const std::vector<double> x = RunMarginalTables(h, radices, 20000, PublicPrior(pub), plan, rng);
	const double public_error = MaxMarginalError(PublicPrior(pub), h, radices, 2);
	EXPECT_GT(public_error, 0.1);
	EXPECT_LT(MaxMarginalError(x, h, radices, 2), public_error / 5);
}

// k = 1 on eight binary axes (a predicates class): whatever the shift of the public sample on the first axis, from
// none to far more than the noise, the released one-way tables are within the plan's prediction in at least 90% of
// the runs (beta = 0.05). The prediction is the combined estimate's for an unshifted sample; a shift large enough to
// matter is seen by the per-cell test, whose cells then take their noisy counts. Combining every cell with the prior
// (no per-cell test) exceeds the prediction in all 40 runs at the largest shift.
TEST(RunMarginalTables, OneWayPredictionCoversAShiftedPublicSample)
{
	const std::vector<std::int32_t> radices(8, 2);
	const std::int64_t n = 20000;
	const std::vector<std::int64_t> h = DependentHistogram(radices, n, 21);
	const std::vector<std::int64_t> sample = DependentHistogram(radices, 2000, 22);
	const std::size_t half = h.size() / 2;
	for (double shift : {0.0, 0.02, 0.04, 0.08, 0.16, 0.32}) {
		// Move that share of the public rows whose first bit is 0 to the same cell with the first bit 1.
		std::vector<std::int64_t> pub = sample;
		for (std::size_t c = 0; c < half; c++) {
			const auto moved = std::int64_t(std::llround(shift * double(sample[c])));
			pub[c] -= moved;
			pub[c + half] += moved;
		}
		const MarginalTablesPlan plan = PlanMarginalTables(Input(0.1, 0, h.size(), n, 2000), radices, 1, pub);
		int exceeded = 0;
		for (std::uint64_t seed = 0; seed < 40; seed++) {
			SeededRandomSource rng(seed);
			const std::vector<double> x = RunMarginalTables(h, radices, n, PublicPrior(pub), plan, rng);
			exceeded += MaxMarginalError(x, h, radices, 1) > plan.predicted_error;
		}
		EXPECT_LE(exceeded, 4) << "shift " << shift;
	}
}

// A public sample as large as the private table and little budget: the prior carries the answers (w about 0.1), and
// the per-cell test's normal quantile is crossed by the Laplace noise alone in about one run of seven (a flagged cell
// takes its noisy count, several times the combined estimate's error). The prediction prices those chance flags, so
// it covers the measured error in at least 1 - beta of the runs; the prediction of the combined estimate alone (the
// one before it priced them) was exceeded in about one run of seven.
TEST(RunMarginalTables, OneWayPredictionCoversTheTestsChanceFlags)
{
	const std::vector<std::int32_t> radices(10, 2);
	const std::int64_t n = 20000;
	const std::vector<std::int64_t> h = DependentHistogram(radices, n, 31);
	const std::vector<std::int64_t> pub = DependentHistogram(radices, n, 32);
	const MarginalTablesPlan plan = PlanMarginalTables(Input(0.1, 0, h.size(), n, n), radices, 1, pub);
	int exceeded = 0;
	for (std::uint64_t seed = 0; seed < 100; seed++) {
		SeededRandomSource rng(seed);
		const std::vector<double> x = RunMarginalTables(h, radices, n, PublicPrior(pub), plan, rng);
		exceeded += MaxMarginalError(x, h, radices, 1) > plan.predicted_error;
	}
	EXPECT_LE(exceeded, 5);
}

TEST(CellsOffThePrior, FlagsTheShiftedCellsOnly)
{
	// 1000 rows, noise variance 25, 1000 public rows (each cell's spread about 20 rows, z about 2.4): the model is
	// 80 rows off in the first and last cells, right in the middle one; then right to a few rows everywhere.
	const std::vector<double> model{0.22, 0.2, 0.58};
	const double z = CellTestQuantile(0.05, 3);
	EXPECT_NEAR(z, 2.394, 1e-3);
	EXPECT_EQ(CellsOffThePrior({300, 200, 500}, model, 1000, 1000, 25, z), (std::vector<bool>{true, false, true}));
	EXPECT_EQ(CellsOffThePrior({222, 201, 577}, model, 1000, 1000, 25, z), (std::vector<bool>{false, false, false}));
	EXPECT_EQ(CellsOffThePrior({222, 201, 577}, model, 1000, 0, 25, z), (std::vector<bool>{true, true, true}));
	EXPECT_EQ(OutcomeOf([&] { CellsOffThePrior({1, 2}, model, 1000, 1000, 25, z); }), "Internal");
}

TEST(PublicSampleShifted, FlagsAShiftAndNotTheNoise)
{
	// 1000 rows, the model right: no shift at beta 0.01 for noise of its own size.
	const std::vector<double> model{0.3, 0.7};
	EXPECT_FALSE(PublicSampleShifted({300, 700}, model, 1000, 1000, 25, 0.01));
	EXPECT_TRUE(PublicSampleShifted({600, 400}, model, 1000, 1000, 25, 0.01));
	EXPECT_TRUE(PublicSampleShifted({300, 700}, model, 1000, 0, 25, 0.01));  // no public sample: the noisy table
}

// The closed-cell mask of the tests below, over the grid {3, 4, 3}: bin 0 of the first axis and bin 1 of the second
// closed (as ReleaseLayout::ClosedCells closes a bin: every cell holding it), 18 cells open.
std::vector<bool>
ClosedOnThreeAxes()
{
	std::vector<bool> closed(36, false);
	for (std::size_t cell = 0; cell < 36; cell++)
		closed[cell] = cell / 12 == 0 || (cell / 3) % 4 == 1;
	return closed;
}

// The cells no row can hold (a closed bin per axis, as ReleaseLayout::ClosedCells makes them): the run reads only
// the open cells, so rows moved between closed cells change nothing, bit for bit; it releases every closed cell as
// 0; and it is the run on the open subgrid with the prior conditioned on the open cells, embedded back.
TEST(RunMarginalTables, ReadsOnlyTheOpenCellsAndLeavesTheClosedOnesEmpty)
{
	const std::vector<std::int32_t> radices{3, 4, 3};
	const std::vector<bool> closed = ClosedOnThreeAxes();
	const OpenSubgrid open(radices, closed);
	ASSERT_EQ(open.radices(), (std::vector<std::int32_t>{2, 3, 3}));
	std::vector<std::int64_t> h = DependentHistogram(radices, 3000, 41), pub = DependentHistogram(radices, 300, 42);
	std::int64_t in_closed = 0;
	for (std::size_t cell = 0; cell < 36; cell++)
		if (closed[cell]) {
			in_closed += h[cell];
			h[cell] = 0;
		}
	ASSERT_GT(in_closed, 0);
	const std::size_t first_open = open.cells()[0];
	h[first_open] += in_closed;  // every row in open cells: n = 3000 in both grids
	const std::vector<double> prior = PublicPrior(pub);
	for (double epsilon : {0.05, 1.0})
		for (int order : {1, 2}) {
			const MarginalTablesPlan plan =
			    PlanMarginalTables(Input(epsilon, 0, 36, 3000, 300), radices, order, pub, &closed);
			SeededRandomSource a(13), b(13), c(13);
			const std::vector<double> x = RunMarginalTables(h, radices, 3000, prior, plan, a, nullptr, &closed);
			double sum = 0;
			for (std::size_t cell = 0; cell < 36; cell++) {
				if (closed[cell]) {
					EXPECT_EQ(x[cell], 0.0) << cell;
				}
				sum += x[cell];
			}
			EXPECT_NEAR(sum, 1.0, 1e-12);
			std::vector<double> conditioned = open.Restrict(prior);
			double mass = 0;
			for (double p : conditioned)
				mass += p;
			for (double &p : conditioned)
				p /= mass;
			EXPECT_EQ(x, open.Embed(RunMarginalTables(open.Restrict(h), open.radices(), 3000, conditioned, plan, b)));
			// 40 rows moved from an open cell into closed ones (n the same): where they sit among the closed cells
			// moves no output bit.
			std::vector<std::int64_t> moved = h, elsewhere = h;
			moved[first_open] -= 40;
			elsewhere[first_open] -= 40;
			moved[0] += 40;
			elsewhere[5] += 25;
			elsewhere[16] += 15;
			SeededRandomSource d(13);
			const std::vector<double> y = RunMarginalTables(moved, radices, 3000, prior, plan, c, nullptr, &closed);
			EXPECT_EQ(y, RunMarginalTables(elsewhere, radices, 3000, prior, plan, d, nullptr, &closed));
			for (std::size_t cell = 0; cell < 36; cell++)
				if (closed[cell]) {
					EXPECT_EQ(y[cell], 0.0) << cell;
				}
		}
}

// The plan over the open subgrid: each candidate that weighs the prior counts the public rows in the open cells (a
// public row in a closed cell is no private row's); and where the public sample, like the private table, holds no
// row in a closed cell, the chosen plan predicts no more than one over the whole grid, whose tables also measure
// the closed cells.
TEST(PlanMarginalTables, PlansTheOpenSubgrid)
{
	const std::vector<std::int32_t> radices{3, 4, 3};
	const std::vector<bool> closed = ClosedOnThreeAxes();
	const OpenSubgrid open(radices, closed);
	std::vector<std::int64_t> pub = DependentHistogram(radices, 300, 43);
	std::int64_t open_rows = 0;
	for (std::size_t cell = 0; cell < 36; cell++)
		open_rows += closed[cell] ? 0 : pub[cell];
	ASSERT_LT(open_rows, 300);
	ASSERT_GT(open_rows, 0);
	for (double epsilon : {0.05, 0.5, 5.0})
		for (int order : {1, 2, 3})
			for (const MarginalTablesPlan &candidate :
			     MarginalTablesCandidates(Input(epsilon, 0, 36, 3000, 300), radices, order, pub, &closed))
				EXPECT_TRUE(candidate.public_rows == 0 || candidate.public_rows == open_rows);
	for (std::size_t cell = 0; cell < 36; cell++)
		if (closed[cell]) {
			pub[open.cells()[0]] += pub[cell];
			pub[cell] = 0;
		}
	for (double epsilon : {0.05, 0.5, 5.0})
		for (int order : {1, 2, 3}) {
			const PlanInput input = Input(epsilon, 0, 36, 3000, 300);
			EXPECT_LE(PlanMarginalTables(input, radices, order, pub, &closed).predicted_error,
			          PlanMarginalTables(input, radices, order, pub).predicted_error * (1 + 1e-12))
			    << epsilon << " " << order;
		}
	std::vector<bool> not_a_product(36, false);
	not_a_product[5] = true;
	EXPECT_PAP_ERROR(ErrorKind::Internal,
	                 PlanMarginalTables(Input(1, 0, 36, 3000, 300), radices, 2, pub, &not_a_product));
}

// The run fits to n, public, not to the rows the open cells hold: at a huge epsilon, with the uniform prior and
// k = 1 (the noisy table alone, projected onto n rows), the rows in the closed bin are spread evenly over the open
// ones, so the release shows the open counts plus a third of the 60 each, over n. A run fitted to the open rows' count
// (h / 600) would show how many rows the closed bin holds; it is also the run of the open cells alone with n = 600.
TEST(RunMarginalTables, FitsToNNotToTheOpenRows)
{
	const std::vector<std::int32_t> radices{4};
	const std::vector<bool> closed{false, false, false, true};
	const std::vector<std::int64_t> h{100, 200, 300, 60};
	PlanInput input = Input(1e7, 0, 4, 660, 4);
	input.uniform_prior = true;
	const MarginalTablesPlan plan = PlanMarginalTables(input, radices, 1, {1, 1, 1, 1}, &closed);
	ASSERT_EQ(plan.public_rows, 0);
	SeededRandomSource a(5), b(5);
	const std::vector<double> x = RunMarginalTables(h, radices, 660, UniformPrior(4), plan, a, nullptr, &closed);
	const double expected[] = {120.0 / 660, 220.0 / 660, 320.0 / 660, 0.0};
	for (std::size_t cell = 0; cell < 4; cell++)
		EXPECT_NEAR(x[cell], expected[cell], 1e-6) << cell;
	EXPECT_EQ(x[3], 0.0);
	const std::vector<double> open_total =
	    RunMarginalTables({100, 200, 300, 0}, radices, 600, UniformPrior(4), plan, b, nullptr, &closed);
	EXPECT_NE(x, open_total);
}

// The plan with a mask is the plan on the open subgrid, candidate by candidate: its radices, the prior and the public
// distribution conditioned on the open cells, m the public rows in them. The grid's public prior conditioned on the
// open cells, (h_i + 1/N) / (T + N'/N) over the T open public rows, is the subgrid's public prior of the histogram
// (N/N') h (here N/N' = 2), whose rows m does not read: the subgrid's plan is given m = T itself.
TEST(PlanMarginalTables, WithAMaskIsThePlanOnTheOpenSubgrid)
{
	const std::vector<std::int32_t> radices{3, 4, 3};
	const std::vector<bool> closed = ClosedOnThreeAxes();
	const OpenSubgrid open(radices, closed);
	ASSERT_EQ(open.size() * 2, closed.size());
	const std::vector<std::int64_t> pub = DependentHistogram(radices, 300, 44);
	std::vector<std::int64_t> doubled = open.Restrict(pub);
	std::int64_t open_rows = 0;
	for (std::int64_t &c : doubled) {
		open_rows += c;
		c *= 2;
	}
	ASSERT_LT(open_rows, 300);
	for (bool uniform : {false, true})
		for (double delta : {0.0, 1e-6})
			for (double epsilon : {0.05, 0.5, 5.0})
				for (int order : {1, 2, 3}) {
					PlanInput grid = Input(epsilon, delta, 36, 3000, 300),
					          sub = Input(epsilon, delta, 18, 3000, open_rows);
					grid.uniform_prior = sub.uniform_prior = uniform;
					const std::vector<MarginalTablesPlan> masked =
					    MarginalTablesCandidates(grid, radices, order, pub, &closed);
					const std::vector<MarginalTablesPlan> alone =
					    MarginalTablesCandidates(sub, open.radices(), order, doubled);
					ASSERT_EQ(masked.size(), alone.size());
					for (std::size_t c = 0; c < masked.size(); c++) {
						EXPECT_EQ(masked[c].axes, alone[c].axes);
						EXPECT_EQ(masked[c].calibrate, alone[c].calibrate);
						EXPECT_EQ(masked[c].calibration_share, alone[c].calibration_share);
						EXPECT_EQ(masked[c].public_rows, alone[c].public_rows);
						EXPECT_NEAR(masked[c].predicted_error, alone[c].predicted_error,
						            1e-9 * alone[c].predicted_error)
						    << uniform << " " << delta << " " << epsilon << " " << order << " " << c;
					}
				}
}

TEST(RunMarginalTables, InterruptThrowsCancelled)
{
	const std::vector<std::int32_t> radices{300, 300};
	std::vector<std::int64_t> h(90000, 0);
	h[3] = 10;
	const MarginalTablesPlan plan = PlanMarginalTables(Input(1.0, 0, h.size(), 10, 10), radices, 1, h);
	SeededRandomSource rng(1);
	EXPECT_EQ(OutcomeOf([&] { RunMarginalTables(h, radices, 10, PublicPrior(h), plan, rng, AlwaysInterrupted); }),
	          "Cancelled");
}

TEST(RunMarginalTables, RejectsInconsistentInput)
{
	const std::vector<std::int32_t> radices{2, 2};
	const std::vector<std::int64_t> h{1, 2, 3, 4};
	const MarginalTablesPlan plan = PlanMarginalTables(Input(1.0, 0, 4, 10, 10), radices, 2, h);
	SeededRandomSource rng(1);
	const std::vector<double> prior = UniformPrior(4);
	EXPECT_EQ(OutcomeOf([&] { RunMarginalTables(h, radices, 11, prior, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunMarginalTables(h, {4}, 10, prior, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunMarginalTables(h, radices, 10, {0.5, 0.5, 0.0, 0.0}, plan, rng); }), "Internal");
	EXPECT_EQ(OutcomeOf([&] { RunMarginalTables({0, 0, 0, 0}, radices, 0, prior, plan, rng); }), "DataException");
}

}  // namespace
}  // namespace pap::core
