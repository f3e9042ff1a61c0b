// Tests of folding a marginals release's rare categories to fit the cell limit (category_folding.hpp), of the bound
// on the share of a folded "other" bin (error_model.hpp's OtherBinShareBound, checked against simulated samples),
// and of granularity auto planning the folded grid (layout_choice.hpp).
#include "core/release/category_folding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/release/answer_mode.hpp"
#include "core/release/layout_choice.hpp"

namespace pap::core {
namespace {

// Part (a) in both modes on the answers' own event (ProjectionEventBetaOf of the request's beta), where the plan
// takes its median (PlanProjectionEventBeta).
AnswerModeErrors
BoundModes(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double request_beta)
{
	return AnswerModeErrorsOf(layout, public_rows, private_rows, ProjectionEventBetaOf(layout, request_beta));
}

using test::ZipfPopulation;

std::string
Name(std::size_t i)
{
	const std::string digits = std::to_string(i);
	return "v" + std::string(digits.size() < 3 ? 3 - digits.size() : 0, '0') + digits;
}

ReleaseAxis
TextAxis(const char *label, std::size_t categories)
{
	ReleaseAxis axis;
	axis.kind = AxisKind::Categorical;
	axis.value_type = ValueType::Text;
	axis.label = label;
	for (std::size_t i = 0; i < categories; i++)
		axis.categories.push_back(Name(i));
	return axis;
}

// marginals(2; a, b) over two text columns: public rows at (i, j) for every pair of categories, rows[i] * rows[j]
// / scale of them (at least one), so that category i of either axis has about rows[i] public rows in all.
ReleaseLayout
TwoTextAxes(const std::vector<std::int64_t> &a_rows, const std::vector<std::int64_t> &b_rows)
{
	ReleaseLayout layout;
	layout.spec = ParseClassSpec("marginals(2; a, b)");
	layout.axes = {TextAxis("a", a_rows.size()), TextAxis("b", b_rows.size())};
	for (std::size_t i = 0; i < a_rows.size(); i++)
		for (std::size_t j = 0; j < b_rows.size(); j++) {
			layout.public_points.insert(layout.public_points.end(), {std::int32_t(i), std::int32_t(j)});
			layout.public_point_counts.push_back(a_rows[i] * b_rows[j]);
		}
	return layout;
}

std::int64_t
Sum(const std::vector<std::int64_t> &v)
{
	std::int64_t s = 0;
	for (std::int64_t x : v)
		s += x;
	return s;
}

TEST(FoldCategories, FoldsTheRarestCategoriesUntilTheGridFits)
{
	// Axis a: 12 categories, b: 6; the grid has 14 x 8 = 112 cells.
	const std::vector<std::int64_t> a = {50, 1, 40, 2, 30, 3, 20, 1, 10, 2, 5, 1};
	const std::vector<std::int64_t> b = {9, 1, 8, 2, 7, 1};
	const ReleaseLayout layout = TwoTextAxes(a, b);
	const std::int64_t rows = Sum(layout.public_point_counts);
	EXPECT_FALSE(FoldCategories(layout, 112).has_value());  // fits already
	const std::optional<FoldedLayout> folded = FoldCategories(layout, 60);
	ASSERT_TRUE(folded.has_value());
	const ReleaseLayout &out = folded->layout;
	EXPECT_LE(GridSizeOf(out.Radices()), 60.0);
	EXPECT_EQ(Sum(out.public_point_counts), rows);
	EXPECT_TRUE(std::is_sorted(out.axes[0].categories.begin(), out.axes[0].categories.end()));
	// Points sorted and distinct.
	for (std::size_t p = 1; p < out.public_point_counts.size(); p++)
		EXPECT_TRUE(std::lexicographical_compare(
		    out.public_points.begin() + std::ptrdiff_t(2 * p - 2), out.public_points.begin() + std::ptrdiff_t(2 * p),
		    out.public_points.begin() + std::ptrdiff_t(2 * p), out.public_points.begin() + std::ptrdiff_t(2 * p + 2)));
	// Per axis: every kept category has more public rows than every folded one (the rule the bound relies on), and
	// the "other" bin holds the folded rows.
	std::int64_t largest_folded = 0;
	for (std::size_t axis = 0; axis < 2; axis++) {
		const std::vector<std::int64_t> before = layout.PublicRowsPerBin(axis), after = out.PublicRowsPerBin(axis);
		std::int64_t fewest_kept = std::numeric_limits<std::int64_t>::max(), most_folded = 0, folded_rows = 0;
		for (std::size_t c = 0; c < layout.axes[axis].categories.size(); c++) {
			const auto &kept = out.axes[axis].categories;
			if (std::binary_search(kept.begin(), kept.end(), layout.axes[axis].categories[c]))
				fewest_kept = std::min(fewest_kept, before[c]);
			else {
				most_folded = std::max(most_folded, before[c]);
				folded_rows += before[c];
			}
		}
		EXPECT_GT(fewest_kept, most_folded);
		EXPECT_EQ(after.at(out.axes[axis].categories.size()), folded_rows);
		largest_folded = std::max(largest_folded, folded_rows);
	}
	// Minimax: no pair of thresholds of the ladder (0, 1, 3, 7, ...) that fits folds fewer rows on its worse axis.
	const auto folded_at = [](const std::vector<std::int64_t> &counts, std::size_t categories, std::int64_t t,
	                          std::size_t &kept) {
		std::int64_t r = 0;
		kept = 0;
		for (std::size_t c = 0; c < categories; c++) {
			if (counts[c] <= t)
				r += counts[c];
			else
				kept++;
		}
		return r;
	};
	const std::vector<std::int64_t> rows_a = layout.PublicRowsPerBin(0), rows_b = layout.PublicRowsPerBin(1);
	std::vector<std::int64_t> ta = {0}, tb;
	for (std::int64_t t = 1; t < 100000; t = 2 * t + 1)
		ta.push_back(t);
	tb = ta;
	std::int64_t best = std::numeric_limits<std::int64_t>::max();
	for (std::int64_t x : ta)
		for (std::int64_t y : tb) {
			std::size_t ka = 0, kb = 0;
			const std::int64_t fa = folded_at(rows_a, a.size(), x, ka), fb = folded_at(rows_b, b.size(), y, kb);
			if (ka >= 1 && kb >= 1 && double(ka + 2) * double(kb + 2) <= 60.0)
				best = std::min(best, std::max(fa, fb));
		}
	EXPECT_EQ(largest_folded, best);
	EXPECT_NE(folded->summary.find("a keeps"), std::string::npos) << folded->summary;
}

TEST(FoldCategories, NothingToFold)
{
	// a: 48, 6 and 6 public rows; b: 50 and 10. Folding at 7 on a and 15 on b (the lowest rungs that fold as much)
	// leaves one category each.
	const ReleaseLayout layout = TwoTextAxes({8, 1, 1}, {5, 1});
	// Every axis down to one category still exceeds 8 cells (3 x 3 = 9).
	EXPECT_FALSE(FoldCategories(layout, 8).has_value());
	ReleaseLayout stumps = layout;
	stumps.spec = ParseClassSpec("stumps(a, b)");
	EXPECT_FALSE(FoldCategories(stumps, 9).has_value());
	const std::optional<FoldedLayout> folded = FoldCategories(layout, 9);
	ASSERT_TRUE(folded.has_value());
	EXPECT_EQ(folded->layout.axes[0].categories, std::vector<std::string>{"v000"});
	EXPECT_EQ(folded->layout.axes[1].categories, std::vector<std::string>{"v000"});
	EXPECT_NE(folded->summary.find("a keeps 1 of 3 categories (folds those shown at most 7 times, 12 public rows)"),
	          std::string::npos)
	    << folded->summary;
	// Counts no rung separates: 9 and 8 rows (the rung 7 keeps both, 15 would fold both); 4 x 3 cells do not fit 9.
	EXPECT_FALSE(FoldCategories(TwoTextAxes({9, 8}, {1}), 9).has_value());
}

// The bound on the population share of a folded "other" bin holds on simulated samples: a population of 2,000
// values with Zipf shares, public samples of 3,000 rows folded at a threshold, and the true share of the values the
// sample shows at most that often against the bound at 1 - beta. A bound that ignored the selection (the folded rows'
// share alone) fails often here: the rare values the sample shows are a biased few.
TEST(OtherBinShareBound, CoversTheFoldedShareOnSimulatedSamples)
{
	const std::size_t values = 2000;
	ZipfPopulation population(values);
	std::mt19937_64 random(20261128);
	const std::vector<double> &shares = population.shares();
	const double beta = 0.05;
	int failures = 0, naive_failures = 0;
	const int trials = 60;
	for (int trial = 0; trial < trials; trial++) {
		const std::vector<std::int64_t> counts = population.Counts(3000, random);
		const std::int64_t threshold = (std::int64_t(2) << (trial % 3)) - 1;  // 1, 3, 7: rungs of the ladder
		// The axis as folding leaves it: kept categories (seen more than the threshold), "other", NULL (none).
		std::vector<std::int64_t> bins;
		std::int64_t other = 0;
		double truth = 0;
		for (std::size_t v = 0; v < values; v++) {
			if (counts[v] > threshold)
				bins.push_back(counts[v]);
			else {
				other += counts[v];
				truth += shares[v];
			}
		}
		bins.push_back(other);
		bins.push_back(0);
		const double bound = OtherBinShareBound(bins, std::log(4.0 * kUnseenValueSplits / beta));
		failures += truth > bound ? 1 : 0;
		naive_failures += truth > double(other) / 3000.0 ? 1 : 0;
	}
	EXPECT_LE(failures, 1) << "of " << trials;
	EXPECT_GE(naive_failures, trials / 2) << "the folded rows' share alone understates the bin";
}

// The same near the threshold: 1,000 equally likely values, 3,000 rows (3 per value on average) folded at 3, so
// that many kept values lie just above it; a bound at a lower threshold than the rung fails here.
TEST(OtherBinShareBound, CoversTheFoldedShareNearTheThreshold)
{
	std::mt19937_64 random(20261130);
	std::uniform_int_distribution<std::size_t> draw(0, 999);
	int failures = 0, low_failures = 0;
	const int trials = 40;
	for (int trial = 0; trial < trials; trial++) {
		std::vector<std::int64_t> counts(1000, 0);
		for (int r = 0; r < 3000; r++)
			counts[draw(random)]++;
		std::vector<std::int64_t> bins;
		std::int64_t other = 0, folded_values = 0;
		for (std::int64_t c : counts) {
			if (c > 3)
				bins.push_back(c);
			else {
				other += c;
				folded_values++;
			}
		}
		const double truth = double(folded_values) / 1000.0;
		std::vector<std::int64_t> folded = bins;
		folded.insert(folded.end(), {other, 0});
		failures += truth > OtherBinShareBound(folded, std::log(4.0 * kUnseenValueSplits / 0.05)) ? 1 : 0;
		// What a bound that read the bin as the values the sample never shows would say.
		std::vector<std::int64_t> unseen = bins;
		unseen.insert(unseen.end(), {0, 0});
		low_failures += truth > UnseenValueShareBound(unseen, std::log(4.0 * kUnseenValueSplits / 0.05)) ? 1 : 0;
	}
	EXPECT_LE(failures, 1) << "of " << trials;
	EXPECT_GE(low_failures, trials / 2);
}

// The rung the stored layout tells: below the fewest kept rows, or at or above the bin's rows when lower.
TEST(FoldThresholdOf, TheLowestRungThatDescribesTheFold)
{
	EXPECT_EQ(FoldThresholdBelow(1), 0);
	EXPECT_EQ(FoldThresholdBelow(2), 1);
	EXPECT_EQ(FoldThresholdBelow(2000), 1023);
	EXPECT_EQ(FoldThresholdOf(2000, 50), 63);  // few folded rows: no folded category has more than 50
	EXPECT_EQ(FoldThresholdOf(2000, 4000), 1023);
	EXPECT_EQ(FoldThresholdOf(10, 0), 0);
	// Kept categories of 1,100 rows lie just above the rung below them (1023): most of A's draws of them fall at or
	// below it, so a bin read at that rung counts them; 50 folded rows are read at 63, where none does.
	const std::vector<std::int64_t> light = {1100, 1100, 1100, 50, 0};
	EXPECT_LT(OtherBinShareBound(light, 8.0), 0.1);
}

TEST(OtherBinShareBound, WithoutFoldedRowsItIsTheMissingMass)
{
	const std::vector<std::int64_t> bins = {40, 30, 1, 1, 0, 5};
	// Its event at half the probability: the other half is the folded branch's, which the sample might have taken.
	EXPECT_EQ(OtherBinShareBound(bins, 5.0), UnseenValueShareBound(bins, 5.0 + std::log(2.0)));
	std::vector<std::int64_t> folded = {40, 30, 2, 5};  // the two single rows folded
	EXPECT_GT(OtherBinShareBound(folded, 5.0), 2.0 / 77.0);
	EXPECT_THROW(OtherBinShareBound({3, 2}, 5.0), Error);
	EXPECT_THROW(OtherBinShareBound({0, 3, 1}, 5.0), Error);  // a kept category without rows on a folded axis
}

TEST(OtherBinsError, TheLargestFoldedBinsPrivateShare)
{
	EXPECT_EQ(OtherBinsError({}, 2, 1000, 100000, 0.05), 0.0);
	const std::vector<std::int64_t> small = {400, 300, 20, 0}, large = {400, 300, 200, 0};  // 20 and 200 folded rows
	const double beta = 0.05;
	const auto one = [&](const std::vector<std::int64_t> &bins, double axes) {
		return SampleShareUpperBound(OtherBinShareBound(bins, std::log(8.0 * kUnseenValueSplits * axes / beta)), 100000,
		                             std::log(2.0 * axes / beta));
	};
	EXPECT_DOUBLE_EQ(OtherBinsError({small}, 1, 720, 100000, beta), one(small, 1));
	// The unions run over the columns that may fold, whichever did.
	EXPECT_DOUBLE_EQ(OtherBinsError({small}, 3, 720, 100000, beta), one(small, 3));
	EXPECT_DOUBLE_EQ(OtherBinsError({small, large}, 2, 900, 100000, beta), one(large, 2));
	EXPECT_THROW(OtherBinsError({small, large}, 1, 900, 100000, beta), Error);
	EXPECT_GT(one(large, 1), 200.0 / 900.0);
}

// What one value of an "other" bin can hold: every value a public sample shows at most t times has a smaller private
// share, checked on simulated Zipf samples (a public one of 3,000 rows, a private one of 30,000).
TEST(FoldedValueError, CoversTheLargestPrivateShareOfARareValue)
{
	EXPECT_NEAR(FoldedValueError(0, 3000, 30000, 0.05), RareValuePrivateShareBound(0, 3000, 30000, std::log(2 / 0.05)),
	            1e-15);
	// A folded bin's threshold is one of the rungs up to m: a union over them.
	EXPECT_NEAR(FoldedValueError(3, 3000, 30000, 0.05),
	            RareValuePrivateShareBound(3, 3000, 30000, std::log(2 * 12 / 0.05)), 1e-15);
	EXPECT_LT(FoldedValueError(3, 3000, 30000, 0.05), FoldedValueError(7, 3000, 30000, 0.05));
	const std::size_t values = 2000;
	ZipfPopulation population(values);
	std::mt19937_64 random(20261129);
	int failures = 0, naive_failures = 0;
	const int trials = 60;
	for (int trial = 0; trial < trials; trial++) {
		const std::vector<std::int64_t> shown = population.Counts(3000, random),
		                                held = population.Counts(30000, random);
		const std::int64_t threshold = (std::int64_t(1) << (trial % 4)) - 1;
		double largest = 0;
		for (std::size_t v = 0; v < values; v++)
			if (shown[v] <= threshold)
				largest = std::max(largest, double(held[v]) / 30000.0);
		failures += largest > FoldedValueError(threshold, 3000, 30000, 0.05) ? 1 : 0;
		naive_failures += largest > double(threshold) / 3000.0 ? 1 : 0;
	}
	EXPECT_LE(failures, 1) << "of " << trials;
	EXPECT_GE(naive_failures, trials / 2) << "the threshold's own share understates the largest rare value";
}

// Granularity auto plans the folded full grid beside the public support when the full grid exceeds the limit, and
// its plan prices the folded categories: a query naming one reads half its "other" bin from its own cells.
TEST(ChooseLayout, FoldsCategoriesWhereTheFullGridDoesNotFit)
{
	std::vector<std::int64_t> a, b;
	for (std::size_t i = 0; i < 60; i++)
		a.push_back(i < 10 ? 400 - 20 * std::int64_t(i) : 1 + std::int64_t(i % 3));
	for (std::size_t i = 0; i < 30; i++)
		b.push_back(i < 8 ? 300 - 25 * std::int64_t(i) : 1 + std::int64_t(i % 2));
	const ReleaseLayout finest = TwoTextAxes(a, b);
	const std::int64_t rows = Sum(finest.public_point_counts);
	LayoutPlanning planning;
	planning.public_rows = rows;
	planning.private_rows = 20 * rows;
	planning.epsilon = 1.0;
	planning.beta = 0.05;
	planning.cell_limit = 400;  // the grid has 62 x 32 = 1,984 cells
	planning.max_cover_queries = 1000000;
	const LayoutChoice choice = ChooseLayout(finest, planning);
	EXPECT_NE(choice.granularity.find("folded"), std::string::npos) << choice.granularity;
	EXPECT_NE(choice.domain_reason.find("folded to"), std::string::npos) << choice.domain_reason;
	ASSERT_EQ(choice.layout.domain_kind, DomainKind::Dense);  // the support (1,801 cells) does not fit either
	EXPECT_LE(GridSizeOf(choice.layout.Radices()), 400.0);
	const AnswerModeErrors modes = BoundModes(choice.layout, rows, 20 * rows, 0.05);
	EXPECT_GT(modes.own_cells, 0.0);
	EXPECT_LT(modes.own_cells, modes.projection);
	// Own cells: per axis half the smaller of its bin's private share and its cap, each on half of part (a)'s event;
	// the largest over the axes.
	const double beta = ProjectionEventBetaOf(choice.layout, 0.05);
	const LoadedAnswerFacts loaded = LoadedAnswerFactsOf(choice.layout, rows, 20 * rows, 0.05);
	ASSERT_EQ(loaded.other_bin_caps.size(), 2u);
	double own_cells = 0;
	for (std::size_t a = 0; a < 2; a++) {
		ASSERT_GT(choice.layout.PublicRowsPerBin(a).at(choice.layout.axes[a].categories.size()), 0);  // both fold
		EXPECT_LT(loaded.other_bin_caps[a], 1.0);
		const double bin = OtherBinsError({choice.layout.PublicRowsPerBin(a)}, 2, rows, 20 * rows, beta / 2.0);
		own_cells = std::max(own_cells, std::min(bin, loaded.other_bin_caps[a]) / 2.0);
	}
	EXPECT_DOUBLE_EQ(modes.own_cells, own_cells);
	// With the support within the limit, both are planned and the reason gives both predictions.
	planning.cell_limit = 1900;
	const LayoutChoice both = ChooseLayout(finest, planning);
	EXPECT_NE(both.domain_reason.find("folded to"), std::string::npos) << both.domain_reason;
	EXPECT_NE(both.domain_reason.find("plus one outside cell"), std::string::npos) << both.domain_reason;
	// Unfolded, per axis half the smaller of its bin's share of unseen values and the cap of one unseen value.
	planning.cell_limit = 10000;
	const LayoutChoice unfolded = ChooseLayout(finest, planning);
	EXPECT_EQ(unfolded.granularity.find("folded"), std::string::npos) << unfolded.granularity;
	const std::vector<double> caps = LoadedAnswerFactsOf(unfolded.layout, rows, 20 * rows, 0.05).other_bin_caps;
	ASSERT_EQ(caps.size(), 2u);
	EXPECT_DOUBLE_EQ(caps[0], FoldedValueError(0, rows, 20 * rows, beta / 4));  // half the event, two open axes
	double unseen = 0;
	for (std::size_t a = 0; a < 2; a++)
		unseen = std::max(
		    unseen,
		    std::min(OtherBinsError({unfolded.layout.PublicRowsPerBin(a)}, 2, rows, 20 * rows, beta / 2), caps[a]));
	EXPECT_GT(unseen, 0.0);
	EXPECT_DOUBLE_EQ(BoundModes(unfolded.layout, rows, 20 * rows, 0.05).own_cells, unseen / 2);
}

// Read from its own cells, a query naming a value the public sample never showed gets half its column's "other"
// bin, every unseen value together, capped at what one unseen value can hold: off by |min(T, cap) / 2 - c| for T the
// bin's private rows and c the value's. The plan's own-cells part covers the largest such error on simulated samples
// of one Zipf population (it was 0 before it priced them; the largest error is positive in every trial).
TEST(AnswerModeErrors, OwnCellsPartCoversTheValuesThePublicSampleNeverShowed)
{
	const std::size_t values = 3000;
	ZipfPopulation population(values);
	std::mt19937_64 random(20261128);
	const int trials = 40, m = 500, n = 20000;
	int failures = 0, positive = 0;
	for (int trial = 0; trial < trials; trial++) {
		const std::vector<std::int64_t> pub = population.Counts(m, random), priv = population.Counts(n, random);
		ReleaseLayout layout;
		layout.spec = ParseClassSpec("marginals(1; a)");
		layout.axes = {TextAxis("a", 0)};
		std::int64_t unseen_rows = 0;
		for (std::size_t v = 0; v < values; v++)
			if (pub[v] > 0) {  // the categories: the values the public sample shows
				layout.public_points.push_back(std::int32_t(layout.axes[0].categories.size()));
				layout.public_point_counts.push_back(pub[v]);
				layout.axes[0].categories.push_back(Name(v));
			} else
				unseen_rows += priv[v];
		const double cap = LoadedAnswerFactsOf(layout, m, n, 0.05).other_bin_caps.at(0);
		const double answer = std::min(double(unseen_rows) / n, cap) / 2;
		double largest = 0;
		for (std::size_t v = 0; v < values; v++)
			if (pub[v] == 0)
				largest = std::max(largest, std::fabs(answer - double(priv[v]) / n));
		positive += largest > 0 ? 1 : 0;
		failures += largest > BoundModes(layout, m, n, 0.05).own_cells ? 1 : 0;
	}
	EXPECT_EQ(positive, trials);
	EXPECT_LE(failures, 1) << "of " << trials;
}

}  // namespace
}  // namespace pap::core
