// Tests of granularity auto (layout_choice.hpp): the ladder of candidates, the coarsening of a finest layout, and
// the choice by the error model: finer cuts where the noise is small beside the projection, alpha's where it is
// not, the public support where the full grid does not fit, and the extremes (one public row, one public value,
// many distinct values, nothing that fits).
#include "core/release/layout_choice.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {
namespace {

// A one-column ordered release at a cut at every public value: value i holds counts[i] public rows, null_rows
// more are NULL.
ReleaseLayout
FinestOrdered(const char *class_text, const std::vector<double> &values, const std::vector<std::int64_t> &counts,
              std::int64_t null_rows = 0)
{
	ReleaseLayout layout;
	layout.spec = ParseClassSpec(class_text);
	ReleaseAxis axis;
	axis.kind = AxisKind::Numeric;
	axis.label = "x";
	axis.cuts = values;
	axis.public_values = values;
	axis.public_counts = counts;
	layout.axes.push_back(axis);
	for (std::size_t i = 0; i < values.size(); i++) {
		layout.public_points.push_back(std::int32_t(i));
		layout.public_point_counts.push_back(counts[i]);
	}
	if (null_rows > 0) {
		layout.public_points.push_back(axis.NullBin());
		layout.public_point_counts.push_back(null_rows);
	}
	return layout;
}

LayoutPlanning
Planning(std::int64_t public_rows, std::int64_t private_rows, double epsilon, double alpha = 0.05)
{
	LayoutPlanning p;
	p.public_rows = public_rows;
	p.private_rows = private_rows;
	p.epsilon = epsilon;
	p.delta = 0.0;
	p.alpha = alpha;
	p.beta = 0.05;
	p.cell_limit = 1000000;
	p.max_cover_queries = 1000000;
	return p;
}

// values 0 .. k-1, each `rows` public rows
ReleaseLayout
Uniform(const char *class_text, std::size_t k, std::int64_t rows)
{
	std::vector<double> values;
	for (std::size_t i = 0; i < k; i++)
		values.push_back(double(i));
	return FinestOrdered(class_text, values, std::vector<std::int64_t>(k, rows));
}

// boxes or orthants over x and y: values 0 .. k-1 on both axes, `rows` public rows at each point (i, i) of the
// diagonal, at a cut at every value.
ReleaseLayout
Diagonal(const char *class_text, std::size_t k, std::int64_t rows)
{
	ReleaseLayout layout;
	layout.spec = ParseClassSpec(class_text);
	std::vector<double> values;
	for (std::size_t i = 0; i < k; i++)
		values.push_back(double(i));
	for (const char *label : {"x", "y"}) {
		ReleaseAxis axis;
		axis.kind = AxisKind::Numeric;
		axis.label = label;
		axis.cuts = values;
		axis.public_values = values;
		axis.public_counts.assign(k, rows);
		layout.axes.push_back(axis);
	}
	for (std::size_t i = 0; i < k; i++) {
		layout.public_points.push_back(std::int32_t(i));
		layout.public_points.push_back(std::int32_t(i));
		layout.public_point_counts.push_back(rows);
	}
	return layout;
}

TEST(GranularityLadder, FromCoarserThanAlphaToFinest)
{
	// thresholds: s = 1, alpha / 4 of 20,000 rows = 1,000 rows per bin at alpha; 2,000 .. 16,000 rows coarser (32,000
	// would hold every row), 500 .. 3.9 finer, then every value.
	const std::vector<GranularityCandidate> ladder = GranularityLadder(ParseClassSpec("thresholds(x)"), 0.2, 20000);
	ASSERT_EQ(ladder.size(), 4u + 1u + std::size_t(kMaxHalvings) + 1u);
	EXPECT_EQ(ladder.front().name, "alpha*16");
	EXPECT_DOUBLE_EQ(ladder.front().max_bin_rows, 16000.0);
	EXPECT_EQ(ladder[4].name, "alpha");
	EXPECT_DOUBLE_EQ(ladder[4].max_bin_rows, 1000.0);
	EXPECT_EQ(ladder[5].name, "alpha/2");
	EXPECT_DOUBLE_EQ(ladder[5].max_bin_rows, 500.0);
	EXPECT_EQ(ladder.back().name, "finest");
	EXPECT_EQ(ladder.back().max_bin_rows, 0.0);
	for (std::size_t i = 1; i + 1 < ladder.size(); i++)
		EXPECT_LT(ladder[i].max_bin_rows, ladder[i - 1].max_bin_rows);
	// ranges: s = 2; 0.2 / 8 of 48 rows is 1.2 rows at alpha, 2.4 .. 38.4 coarser, 0.6 at alpha/2 (no finer one).
	const std::vector<GranularityCandidate> small = GranularityLadder(ParseClassSpec("ranges(x)"), 0.2, 48);
	ASSERT_EQ(small.size(), 7u);
	EXPECT_EQ(small.front().name, "alpha*32");
	EXPECT_EQ(small[5].name, "alpha");
	EXPECT_EQ(small.back().name, "finest");
}

TEST(GranularityLadder, OnePublicRowAndUnorderedClasses)
{
	const std::vector<GranularityCandidate> one = GranularityLadder(ParseClassSpec("thresholds(x)"), 0.05, 1);
	ASSERT_EQ(one.size(), 1u);
	EXPECT_EQ(one.front().name, "finest");
	const std::vector<GranularityCandidate> marginals = GranularityLadder(ParseClassSpec("marginals(1; x)"), 0.05, 1e6);
	ASSERT_EQ(marginals.size(), 1u);
	EXPECT_EQ(marginals.front().name, "exact");
}

TEST(CoarsenLayout, MovesPointsToTheCoarseBinsAndMergesThem)
{
	const ReleaseLayout finest = FinestOrdered("thresholds(x)", {1, 2, 3, 4}, {1, 1, 1, 1}, 5);
	const ReleaseLayout coarse = CoarsenLayout(finest, 2.0);
	EXPECT_EQ(coarse.axes[0].cuts, (std::vector<double>{2, 4}));
	// bins (., 2], (2, 4], (4, .), NULL: radix 4; the NULL bin moves from 5 to 3
	EXPECT_EQ(coarse.public_points, (std::vector<std::int32_t>{0, 1, 3}));
	EXPECT_EQ(coarse.public_point_counts, (std::vector<std::int64_t>{2, 2, 5}));
	// The finest marginal stays: projection and refinement read it.
	EXPECT_EQ(coarse.axes[0].public_values, finest.axes[0].public_values);
	// 0 keeps every value.
	const ReleaseLayout same = CoarsenLayout(finest, 0.0);
	EXPECT_EQ(same.public_points, finest.public_points);
	EXPECT_EQ(same.axes[0].cuts, finest.axes[0].cuts);
}

TEST(ChooseLayout, FinerCutsWinWhenTheNoiseIsSmall)
{
	// 1,000 values of 20 public rows; a million private rows at epsilon 10: the noise of 1,000 cells is far below
	// alpha's projection (bins of 250 rows, 1.25% of the rows each).
	const ReleaseLayout finest = Uniform("thresholds(x)", 1000, 20);
	const LayoutChoice choice = ChooseLayout(finest, Planning(20000, 1000000, 10.0));
	EXPECT_LT(choice.max_bin_rows, 250.0);
	EXPECT_GT(choice.layout.axes[0].cuts.size(), std::size_t(80));
	EXPECT_EQ(choice.granularity.rfind("auto: ", 0), 0u) << choice.granularity;
	EXPECT_NE(choice.granularity.find("alpha 0."), std::string::npos) << choice.granularity;  // alpha listed
}

// Every whole value (docs/mechanisms.md §20): an integer axis whose public sample shows every other integer from 0 to
// 38 (20 values) is also planned cut at each of the 39 integers, the 19 unseen ones with 0 public rows; a bin then
// holds one integer, so part (a) is the tails' alone, on a union of 3 events where finest's counts 2 per gap. Where
// the noise is small it wins; on a continuous axis, or where the integers number more than
// kWholeValuesPerPublicValue times the public values, it is not planned.
ReleaseLayout
EveryOther(const char *class_text, std::size_t k, std::int64_t rows, double step, std::size_t every = 2)
{
	std::vector<double> values;
	for (std::size_t i = 0; i < k; i++)
		values.push_back(double(every * i));
	ReleaseLayout layout = FinestOrdered(class_text, values, std::vector<std::int64_t>(k, rows));
	layout.axes[0].value_step = step;
	return layout;
}

TEST(ChooseLayout, EveryWholeValueOfADiscreteAxis)
{
	const ReleaseLayout finest = EveryOther("ranges(x)", 20, 20, 1.0);
	const std::optional<ReleaseLayout> whole = WholeValueLayout(finest, 1000000);
	ASSERT_TRUE(whole.has_value());
	const ReleaseAxis &axis = whole->axes[0];
	ASSERT_EQ(axis.cuts.size(), 39u);
	EXPECT_EQ(axis.public_values, axis.cuts);
	for (std::size_t v = 0; v < 39; v++) {
		EXPECT_EQ(axis.cuts[v], double(v));
		EXPECT_EQ(axis.public_counts[v], v % 2 == 0 ? 20 : 0) << v;
	}
	// The public points moved to the new bins: value 2i is bin 2i now (it was bin i).
	ASSERT_EQ(whole->public_point_counts.size(), 20u);
	for (std::size_t i = 0; i < 20; i++)
		EXPECT_EQ(whole->public_points[i], std::int32_t(2 * i));
	// Part (a): the bins inside the range are exact, only the tails' three bounds remain (the gap below 0 and the
	// first bin, the top bin), where finest's gaps each hold an integer.
	EXPECT_EQ(AxisEventCount(axis.cuts, axis.public_values, 1.0), 3u);
	EXPECT_EQ(AxisEventCount(finest.axes[0].cuts, finest.axes[0].public_values, 1.0), 2u * 20 + 1);
	const AxisCut cut = AxisCutOf(axis.cuts, axis.public_values, axis.public_counts, 1.0);
	const double beta = 0.05 / 6;
	const double tail = PrivateShareInterval(0, 400, 100000, RefinementLogTerm(3, beta)).high;
	EXPECT_DOUBLE_EQ(ProjectionError({cut}, {2}, false, 400, 100000, beta), 2 * tail);
	EXPECT_DOUBLE_EQ(RefinementError({cut}, {2}, false, 400, 100000, beta), 2 * tail);
	const std::vector<std::vector<double>> spreads = GapSpreadShares({cut}, {2}, 400, 100000, beta);
	ASSERT_EQ(spreads.at(0).size(), 39u);
	for (double theta : spreads[0])
		EXPECT_EQ(theta, 0.0);  // no gap inside the range holds a value to spread over

	// Chosen where the noise is small (a million private rows at epsilon 10), named in the text.
	const LayoutChoice choice = ChooseLayout(finest, Planning(400, 1000000, 10.0));
	EXPECT_EQ(choice.layout.axes[0].cuts.size(), 39u) << choice.granularity;
	EXPECT_EQ(choice.granularity.rfind("auto: every whole value", 0), 0u) << choice.granularity;
	EXPECT_EQ(choice.layout.axes[0].public_counts, axis.public_counts);

	// Not on a continuous axis, not when no integer is missing, not past the limit (every third integer: 58 of them
	// for 20 public values), not past the cell limit.
	EXPECT_FALSE(WholeValueLayout(EveryOther("ranges(x)", 20, 20, 0.0), 1000000).has_value());
	EXPECT_FALSE(WholeValueLayout(EveryOther("ranges(x)", 20, 20, 1.0, 1), 1000000).has_value());
	EXPECT_FALSE(WholeValueLayout(EveryOther("ranges(x)", 20, 20, 1.0, 3), 1000000).has_value());
	EXPECT_FALSE(WholeValueLayout(finest, 40).has_value());
	EXPECT_TRUE(WholeValueLayout(finest, 41).has_value());  // 39 bins, the top one and NULL
	const LayoutChoice continuous = ChooseLayout(EveryOther("ranges(x)", 20, 20, 0.0), Planning(400, 1000000, 10.0));
	EXPECT_EQ(continuous.granularity.find("whole value"), std::string::npos) << continuous.granularity;
}

TEST(ChooseLayout, CoarserCutsWinWhenTheNoiseDominates)
{
	// The same public table, 2,000 private rows at epsilon 1: identity's noise grows with the cells, and PMW's prior
	// is farther off at every granularity. Bins of twice alpha's mass (500 public rows) predict 0.0252, within 1.1
	// times the coarser alpha*4 (0.0247: fewer cells, more projection), the finest so; finer ones predict more (more
	// cells, more noise: alpha 0.0298, alpha/2 0.0378).
	const ReleaseLayout finest = Uniform("thresholds(x)", 1000, 20);
	const LayoutChoice choice = ChooseLayout(finest, Planning(20000, 2000, 1.0));
	EXPECT_DOUBLE_EQ(choice.max_bin_rows, 500.0);
	EXPECT_EQ(choice.granularity.rfind("auto: alpha*2 cuts", 0), 0u) << choice.granularity;
	EXPECT_NE(choice.granularity.find("alpha*4 0."), std::string::npos) << choice.granularity;
	// alpha and alpha/2 predict more than alpha*2: the finer ones are not planned.
	EXPECT_NE(choice.granularity.find("alpha 0."), std::string::npos) << choice.granularity;
	EXPECT_NE(choice.granularity.find("alpha/2 0."), std::string::npos) << choice.granularity;
	EXPECT_EQ(choice.granularity.find("alpha/4"), std::string::npos) << choice.granularity;
	EXPECT_NE(choice.granularity.find("finer ones not planned"), std::string::npos) << choice.granularity;
	EXPECT_EQ(choice.layout.domain_kind, DomainKind::Dense);
}

TEST(ChooseLayout, ANearTieTakesTheFinerCuts)
{
	// The same public table, 20,000 private rows at epsilon 1: alpha predicts 0.00518, the smallest, and alpha/2
	// 0.00534, within kNearTie of it, so alpha/2 is taken (its projection part hardly falls with the finer cuts);
	// alpha/4 (0.00721) is beyond the tie.
	const ReleaseLayout finest = Uniform("thresholds(x)", 1000, 20);
	const LayoutChoice choice = ChooseLayout(finest, Planning(20000, 20000, 1.0));
	EXPECT_DOUBLE_EQ(choice.max_bin_rows, 125.0);
	EXPECT_EQ(choice.granularity.rfind("auto: alpha/2 cuts", 0), 0u) << choice.granularity;
	EXPECT_NE(choice.granularity.find("the finest within 1.1 times the smallest prediction"), std::string::npos)
	    << choice.granularity;
	EXPECT_NE(choice.granularity.find("alpha 0.00518 "), std::string::npos) << choice.granularity;
	EXPECT_EQ(choice.layout.axes[0].cuts, CoarsenLayout(finest, 125.0).axes[0].cuts);
}

TEST(ChooseLayout, OverTwoOrderedAxesTheSmallestPredictionWins)
{
	// boxes(x, y), 200 values of 10 public rows each on the diagonal, 20,000 private rows at epsilon 0.3: alpha*16
	// predicts 0.109, the smallest, and the finer alpha*8 0.110, within kNearTie of it. Over two ordered axes part
	// (a) falls with the bins (a bin's rows may all lie inside another axis's range), so a near tie is no sign that
	// the finer cuts err less: alpha*16 is kept.
	const LayoutChoice choice = ChooseLayout(Diagonal("boxes(x, y)", 200, 10), Planning(2000, 20000, 0.3));
	EXPECT_EQ(choice.granularity.rfind("auto: alpha*16 cuts", 0), 0u) << choice.granularity;
	EXPECT_NE(choice.granularity.find("alpha*8 0.11 "), std::string::npos) << choice.granularity;
	EXPECT_EQ(choice.granularity.find("the finest within"), std::string::npos) << choice.granularity;
	EXPECT_DOUBLE_EQ(choice.max_bin_rows, 100.0);
	EXPECT_EQ(choice.layout.axes[0].cuts, CoarsenLayout(Diagonal("boxes(x, y)", 200, 10), 100.0).axes[0].cuts);
}

// The choice among planned layouts: the smallest prediction, the finest within the tie of it; where the smallest
// rests on the public sample, the smallest that does not within kNearTie of it, and then the finest within the tie
// among those that do not rest on the sample.
TEST(ChooseAmongPlanned, ANearTieGoesToAPredictionThatDoesNotRestOnThePublicSample)
{
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseAmongPlanned({}, kNearTie));
	// Nothing rests on the sample: the finest within the tie (candidate 2), none beyond it (candidate 3).
	const std::vector<LayoutPrediction> steady{
	    {0, 0.100, false}, {1, 0.104, false}, {2, 0.109, false}, {3, 0.12, false}};
	LayoutTieChoice c = ChooseAmongPlanned(steady, kNearTie);
	EXPECT_EQ(c.smallest, 0u);
	EXPECT_EQ(c.anchor, 0u);
	EXPECT_EQ(c.chosen, 2u);
	EXPECT_FALSE(c.steadier);
	EXPECT_EQ(ChooseAmongPlanned(steady, 1.0).chosen, 0u);
	// The smallest rests on the sample, a coarser one that does not is within kNearTie: it is taken, and a finer one
	// resting on the sample within the tie of it does not take the tie back.
	const std::vector<LayoutPrediction> mixed{{0, 0.105, false}, {1, 0.100, true}, {2, 0.106, true}};
	c = ChooseAmongPlanned(mixed, kNearTie);
	EXPECT_EQ(c.smallest, 1u);
	EXPECT_EQ(c.anchor, 0u);
	EXPECT_EQ(c.chosen, 0u);
	EXPECT_TRUE(c.steadier);
	// ... while a finer one that does not rest on it does.
	const std::vector<LayoutPrediction> finer{{0, 0.105, false}, {1, 0.100, true}, {2, 0.110, false}};
	c = ChooseAmongPlanned(finer, kNearTie);
	EXPECT_EQ(c.anchor, 0u);
	EXPECT_EQ(c.chosen, 2u);
	EXPECT_TRUE(c.steadier);
	EXPECT_EQ(ChooseAmongPlanned(finer, 1.0).chosen, 0u);
	// Beyond kNearTie the smallest stays, and the finest within the tie of it is taken whatever it rests on.
	const std::vector<LayoutPrediction> far{{0, 0.111, false}, {1, 0.100, true}, {2, 0.108, true}};
	c = ChooseAmongPlanned(far, kNearTie);
	EXPECT_EQ(c.anchor, 1u);
	EXPECT_EQ(c.chosen, 2u);
	EXPECT_FALSE(c.steadier);
	// The best of those that do not rest on the sample, not the first: the grid and the support of one candidate.
	const std::vector<LayoutPrediction> domains{{0, 0.100, true}, {1, 0.108, false}, {1, 0.104, false}};
	c = ChooseAmongPlanned(domains, 1.0);
	EXPECT_EQ(c.anchor, 2u);
	EXPECT_EQ(c.chosen, 2u);
	EXPECT_TRUE(c.steadier);
}

// The tie factor is 1 only where one query may move edges on two or more ordered axes: boxes and orthants over two
// numeric columns; a halfspace query is one threshold on one direction, and a box over one numeric and one
// categorical column moves edges on one axis.
TEST(NearTieOf, OneWhereAQueryMovesEdgesOnTwoOrderedAxes)
{
	EXPECT_EQ(NearTieOf(Diagonal("boxes(x, y)", 20, 1)), 1.0);
	EXPECT_EQ(NearTieOf(Diagonal("orthants(x, y)", 20, 1)), 1.0);
	EXPECT_EQ(NearTieOf(Uniform("thresholds(x)", 20, 1)), kNearTie);
	EXPECT_EQ(NearTieOf(Uniform("ranges(x)", 20, 1)), kNearTie);
	ReleaseLayout halfspaces = Diagonal("halfspaces(x, y; [1, 2], [1, -1])", 20, 1);
	for (ReleaseAxis &axis : halfspaces.axes)
		axis.kind = AxisKind::Linear;
	EXPECT_EQ(NearTieOf(halfspaces), kNearTie);
	ReleaseLayout mixed = Diagonal("boxes(x, y)", 20, 1);
	mixed.axes[1].kind = AxisKind::Categorical;
	EXPECT_EQ(NearTieOf(mixed), kNearTie);
}

TEST(ChooseLayout, OnePublicRow)
{
	const ReleaseLayout finest = FinestOrdered("thresholds(x)", {5}, {1});
	const LayoutChoice choice = ChooseLayout(finest, Planning(1, 100, 1.0));
	EXPECT_EQ(choice.layout.axes[0].cuts, (std::vector<double>{5}));
	EXPECT_EQ(choice.granularity.rfind("auto: finest cuts", 0), 0u) << choice.granularity;
}

TEST(ChooseLayout, AllEqualValuesPlanOneLayoutAndKeepTheCoarsest)
{
	// Every candidate has the one cut: planned once, named by the coarsest (ties keep the coarser).
	const ReleaseLayout finest = FinestOrdered("ranges(x)", {7}, {1000});
	const LayoutChoice choice = ChooseLayout(finest, Planning(1000, 5000, 1.0));
	EXPECT_EQ(choice.layout.axes[0].cuts, (std::vector<double>{7}));
	const std::string coarsest = GranularityLadder(finest.spec, 0.05, 1000).front().name;
	EXPECT_EQ(choice.granularity.rfind("auto: " + coarsest + " cuts", 0), 0u) << choice.granularity;
	EXPECT_EQ(choice.granularity.find("alpha/2"), std::string::npos) << choice.granularity;
	EXPECT_EQ(choice.granularity.find("finest"), std::string::npos) << choice.granularity;
}

TEST(ChooseLayout, ManyDistinctValuesStayBounded)
{
	// 100,000 distinct public values: at most kMaxHalvings + 2 granularities are planned, each over at most
	// 100,002 cells; the choice is one of them and its cells fit the limit.
	const ReleaseLayout finest = Uniform("thresholds(x)", 100000, 1);
	const LayoutChoice choice = ChooseLayout(finest, Planning(100000, 1000000, 1.0));
	EXPECT_LE(choice.layout.axes[0].cuts.size(), std::size_t(100000));
	EXPECT_GE(choice.layout.axes[0].cuts.size(), std::size_t(1));
	EXPECT_EQ(choice.layout.MakeDomain().CellCount(), choice.layout.axes[0].cuts.size() + 2);
}

TEST(ChooseLayout, PublicSupportWhereTheFullGridDoesNotFit)
{
	const ReleaseLayout finest = Uniform("thresholds(x)", 1000, 20);
	LayoutPlanning planning = Planning(20000, 100000, 1.0);
	planning.cell_limit = 2;  // the coarsest grid has 4 cells (a cut, above it, NULL), its support 3
	EXPECT_THROW(
	    {
		    try {
			    ChooseLayout(finest, planning);
		    } catch (const Error &e) {
			    EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
			    throw;
		    }
	    },
	    Error);
	planning.cell_limit = 1000;
	const LayoutChoice choice = ChooseLayout(finest, planning);
	EXPECT_LE(choice.layout.MakeDomain().CellCount(), std::size_t(1000));
	EXPECT_NE(choice.granularity.find("does not fit pap_release.max_cells"), std::string::npos) << choice.granularity;
}

TEST(ChooseLayout, ACoverOverTheQueryLimitIsRefusedBeforeItIsListed)
{
	// 200 public values, one cover query each: over a limit of 50 the definition is refused as granularity alpha's
	// is, while the cover is counted (the plans built every candidate's cover without a limit: a review's
	// marginals(32; 64 columns) grew to gigabytes before the check after the choice).
	ReleaseLayout finest;
	finest.spec = ParseClassSpec("marginals(1; c)");
	ReleaseAxis axis;
	axis.kind = AxisKind::Categorical;
	axis.value_type = ValueType::Text;
	axis.label = "c";
	for (int i = 0; i < 200; i++)
		axis.categories.push_back("v" + std::to_string(1000 + i));
	finest.axes.push_back(axis);
	for (int i = 0; i < 200; i++) {
		finest.public_points.push_back(i);
		finest.public_point_counts.push_back(3);
	}
	LayoutPlanning planning = Planning(600, 10000, 1.0);
	planning.max_cover_queries = 50;
	try {
		(void)ChooseLayout(finest, planning);
		ADD_FAILURE() << "a cover over the limit was planned";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
		EXPECT_NE(std::string(e.what()).find("exceeds 50 queries"), std::string::npos) << e.what();
	}
	planning.max_cover_queries = 1000;
	EXPECT_GE(ChooseLayout(finest, planning).layout.MakeReleaseCover(1000)->QueryCount(), std::size_t(200));
}

TEST(ChooseLayout, Cancellable)
{
	// 100,000 distinct values: the planners poll the interrupt check of the definition's scope.
	const ReleaseLayout finest = Uniform("thresholds(x)", 100000, 1);
	const InterruptScope scope([] { return true; });
	try {
		ChooseLayout(finest, Planning(100000, 1000000, 1.0));
		FAIL() << "not cancelled";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
	}
}

}  // namespace
}  // namespace pap::core
