// Tests of the per-query projection part of an answer's error bound (release/answer_bound.hpp): where an edge
// falls among the cut points and public values, which side of its bin it may miss, and the sum over edges.
#include "core/release/answer_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/base/errors.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {
namespace {

// Public values 1..6 with 10 rows each, cut points 2, 4, 6: bins (-inf, 2] {1, 2}, (2, 4] {3, 4}, (4, 6] {5, 6}
// and the top bin (6, inf), which holds no public row.
ReleaseAxis
SixValues()
{
	ReleaseAxis axis;
	axis.kind = AxisKind::Numeric;
	axis.value_type = ValueType::Number;
	axis.label = "v";
	axis.cuts = {2, 4, 6};
	axis.public_values = {1, 2, 3, 4, 5, 6};
	axis.public_counts = {10, 10, 10, 10, 10, 10};
	return axis;
}

ValueBound
Bound(double value, bool inclusive)
{
	return ValueBound{true, value, inclusive};
}

TEST(SplitOfEdge, AnEdgeOnACutIsExact)
{
	const ReleaseAxis axis = SixValues();
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(4, true), true).exact);    // v <= 4
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(4, false), false).exact);  // v > 4
	EXPECT_FALSE(SplitOfEdge(axis, {}, Bound(4, false), true).exact);  // v < 4 misses the rows equal to 4
	EXPECT_FALSE(SplitOfEdge(axis, {}, Bound(4, true), false).exact);  // v >= 4 likewise
	EXPECT_FALSE(SplitOfEdge(axis, {}, Bound(3, true), true).exact);
}

// On an integer axis (step 1) a bound between two integers selects the same rows as the integer below it: "v <= 4.5"
// and "v < 5" are "v <= 4", exact at the cut 4, where a continuous axis moves them over a gap.
TEST(SplitOfEdge, ABoundOfAnIntegerAxisIsTheIntegerItSelects)
{
	ReleaseAxis axis = SixValues();
	EXPECT_FALSE(SplitOfEdge(axis, {}, Bound(4.5, true), true).exact);
	axis.value_step = 1.0;
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(4.5, true), true).exact);    // v <= 4.5
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(5, false), true).exact);     // v < 5
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(4.5, false), false).exact);  // v > 4.5 is v > 4
	EXPECT_TRUE(SplitOfEdge(axis, {}, Bound(5, true), false).exact);     // v >= 5 is v > 4
	EXPECT_FALSE(SplitOfEdge(axis, {}, Bound(4, false), true).exact);    // v < 4 is v <= 3, inside (2, 4]
	const EdgeSplit s = SplitOfEdge(axis, {}, Bound(3.5, false), true);  // v < 3.5 is v <= 3
	EXPECT_EQ(s.below, 10);
	EXPECT_EQ(s.above, 10);
}

TEST(SplitOfEdge, SidesWithinTheEdgesBin)
{
	const ReleaseAxis axis = SixValues();
	EdgeSplit s = SplitOfEdge(axis, {}, Bound(3, true), true);  // v <= 3: {3} below, {4} above
	EXPECT_EQ(s.below, 10);
	EXPECT_EQ(s.above, 10);
	EXPECT_EQ(s.split, 3u);
	s = SplitOfEdge(axis, {}, Bound(3, false), true);  // v < 3: nothing of bin (2, 4] below
	EXPECT_EQ(s.below, 0);
	EXPECT_EQ(s.above, 20);
	s = SplitOfEdge(axis, {}, Bound(4, true), false);  // v >= 4: {3} below
	EXPECT_EQ(s.below, 10);
	EXPECT_EQ(s.above, 10);
	s = SplitOfEdge(axis, {}, Bound(3.5, false), false);  // v > 3.5
	EXPECT_EQ(s.below, 10);
	EXPECT_EQ(s.above, 10);
	s = SplitOfEdge(axis, {}, Bound(-5, true), true);  // below every value: the first bin, all of it above
	EXPECT_EQ(s.below, 0);
	EXPECT_EQ(s.above, 20);
}

TEST(SplitOfEdge, ExtremeValuesFallInTheOuterBins)
{
	const ReleaseAxis axis = SixValues();
	for (double v : {100.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
		const EdgeSplit s = SplitOfEdge(axis, {}, Bound(v, true), true);  // the top bin: no public row
		EXPECT_FALSE(s.exact);
		EXPECT_EQ(s.below, 0);
		EXPECT_EQ(s.above, 0);
	}
	const EdgeSplit s = SplitOfEdge(axis, {}, Bound(-std::numeric_limits<double>::infinity(), true), false);
	EXPECT_EQ(s.below, 0);
	EXPECT_EQ(s.above, 20);
	EXPECT_FALSE(SplitOfEdge(axis, {}, ValueBound{}, true).exact);  // no bound: nothing to split
}

TEST(AxisSideCount, IsTheErrorModelsCount)
{
	ReleaseAxis axis = SixValues();
	EXPECT_EQ(AxisSideCount(axis), AxisCutOf(axis.cuts, axis.public_values, axis.public_counts).sides);
	axis.cuts = {6};
	EXPECT_EQ(AxisSideCount(axis), AxisCutOf(axis.cuts, axis.public_values, axis.public_counts).sides);
	axis.cuts = {1, 2, 3, 4, 5, 6};
	EXPECT_EQ(AxisSideCount(axis), AxisCutOf(axis.cuts, axis.public_values, axis.public_counts).sides);
}

ColumnBounds
Column(ValueBound lower, ValueBound upper)
{
	return ColumnBounds{true, lower, upper};
}

TEST(QueryProjectionBound, OneSideOfTheBinPerEdgeOnRefinementsEvent)
{
	const std::vector<ReleaseAxis> axes = {SixValues()};
	const std::int64_t m = 60, n = 600;
	const double beta = DataPartBeta(0.05);  // part (a)'s event
	// One event for refined and unrefined answers: both bounds of every part of every bin (docs/mechanisms.md §18).
	const double log_term = RefinementLogTerm(double(AxisSideCount(axes[0])), beta);
	const double ten = PrivateShareInterval(10, m, n, log_term).high;
	const double twenty = PrivateShareInterval(20, m, n, log_term).high;
	const double none = PrivateShareInterval(0, m, n, log_term).high;
	// v <= 3 answered as v <= 4 (bins 0..1): it moved up over {4}.
	const std::vector<ColumnBounds> at3 = {Column({}, Bound(3, true))};
	const CellInterval up{0, 1}, down{0, 0};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, at3, &up, m, n, beta), ten);
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, at3, &down, m, n, beta), ten);
	// Refined, halfway through the bin {3, 4}: half the difference of the two halves' shares, both ways; less than
	// the side a projection moves over.
	const ShareInterval half = PrivateShareInterval(10, m, n, log_term);
	const double refined = QueryProjectionBound(axes, {}, at3, nullptr, m, n, beta);
	EXPECT_DOUBLE_EQ(refined, 0.5 * half.high - 0.5 * half.low);
	EXPECT_LT(refined, ten);
	// v < 3 answered as v <= 2: the side below the edge holds no public row; refined, only that gap remains too.
	const std::vector<ColumnBounds> below3 = {Column({}, Bound(3, false))};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, below3, &down, m, n, beta), none);
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, below3, nullptr, m, n, beta), none);
	EXPECT_LT(none, twenty);
	// a cover query moves no edge
	const std::vector<ColumnBounds> exact = {Column(Bound(2, false), Bound(4, true))};
	const CellInterval bin1{1, 1};
	EXPECT_EQ(QueryProjectionBound(axes, {}, exact, &bin1, m, n, beta), 0.0);
	EXPECT_EQ(QueryProjectionBound(axes, {}, exact, nullptr, m, n, beta), 0.0);
	// v > 2.5 AND v <= 3.5 answered as the empty query: the rows it keeps beside each edge.
	const std::vector<ColumnBounds> inside = {Column(Bound(2.5, false), Bound(3.5, true))};
	const CellInterval empty{0, -1};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, inside, &empty, m, n, beta), std::min(1.0, twenty + ten));
	// an axis the query leaves free adds nothing
	const std::vector<ColumnBounds> free_axis = {ColumnBounds{}};
	EXPECT_EQ(QueryProjectionBound(axes, {}, free_axis, nullptr, m, n, beta), 0.0);
}

// An edge on the highest cut selects every bin up to it, but a ranges cover's run to that cut also takes the top
// bin (interval_cover.hpp): "v > 2 AND v <= 6" is answered with the rows above 6, and "v > 6", which holds no
// public value, by the empty query. Each moves over the top bin, a set without public rows, whose share is not 0.
TEST(QueryProjectionBound, AnEdgeOnTheHighestCutMovesOverTheTopBinWhereTheCoverTakesIt)
{
	const std::vector<ReleaseAxis> axes = {SixValues()};
	const std::int64_t m = 60, n = 600;
	const double beta = DataPartBeta(0.05);
	const double log_term = RefinementLogTerm(double(AxisSideCount(axes[0])), beta);
	const double none = PrivateShareInterval(0, m, n, log_term).high;
	const double twenty = PrivateShareInterval(20, m, n, log_term).high;
	ASSERT_GT(none, 0.0);
	const std::vector<ColumnBounds> to_top = {Column(Bound(2, false), Bound(6, true))};
	const CellInterval with_top{1, 3}, without_top{1, 2};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, to_top, &with_top, m, n, beta), none);
	EXPECT_EQ(QueryProjectionBound(axes, {}, to_top, &without_top, m, n, beta), 0.0);  // thresholds' cover
	EXPECT_EQ(QueryProjectionBound(axes, {}, to_top, nullptr, m, n, beta), 0.0);       // refined: its own cells
	const std::vector<ColumnBounds> above_top = {Column(Bound(6, false), {})};
	const CellInterval empty{0, -1}, top{3, 3};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, above_top, &empty, m, n, beta), none);
	EXPECT_EQ(QueryProjectionBound(axes, {}, above_top, &top, m, n, beta), 0.0);
	// a cover query that ends inside the query's range on an exact edge moves over whole bins: "v <= 6" as "v <= 2"
	const std::vector<ColumnBounds> to_six = {Column({}, Bound(6, true))};
	const CellInterval first_bin{0, 0};
	EXPECT_DOUBLE_EQ(QueryProjectionBound(axes, {}, to_six, &first_bin, m, n, beta), std::min(1.0, 2 * twenty));
}

// The plan's refinement part is the worst refined bound of one edge: the same function at the same event, taken
// over every split point of every bin, so no refined answer's own bound exceeds it and the worst one meets it.
TEST(QueryProjectionBound, RefinedBoundsMeetThePlansRefinementPart)
{
	const std::vector<ReleaseAxis> axes = {SixValues()};
	const std::int64_t m = 60, n = 600;
	const double beta = DataPartBeta(0.05);  // part (a)'s event
	const double plan = RefinementError({AxisCutOf(axes[0].cuts, axes[0].public_values, axes[0].public_counts)}, {1},
	                                    false, m, n, beta);
	double worst = 0.0;
	for (double v = -1.0; v <= 8.0; v += 0.25)
		for (bool inclusive : {false, true}) {
			const double own = QueryProjectionBound(axes, {}, {Column({}, Bound(v, inclusive))}, nullptr, m, n, beta);
			EXPECT_LE(own, plan) << v;
			worst = std::max(worst, own);
		}
	EXPECT_DOUBLE_EQ(worst, plan);
}

// Refined answers that spread the gaps (GapSpreadShares) keep their bounds within the same plan part, and the
// bound of a query whose edge cuts a gap reads the share the answer placed below it.
TEST(QueryProjectionBound, SpreadGapsStayWithinThePlansRefinementPart)
{
	const std::vector<ReleaseAxis> axes = {SixValues()};
	const std::int64_t m = 60, n = 600;
	const double beta = DataPartBeta(0.05);  // part (a)'s event
	const AxisCut cut = AxisCutOf(axes[0].cuts, axes[0].public_values, axes[0].public_counts);
	const double plan = RefinementError({cut}, {1}, false, m, n, beta);
	const std::vector<std::vector<double>> spread = GapSpreadShares({cut}, {1}, m, n, beta);
	double worst = 0.0;
	bool spread_somewhere = false;
	for (double v = -1.0; v <= 8.0; v += 0.125)
		for (bool inclusive : {false, true}) {
			const ColumnBounds bound = Column({}, Bound(v, inclusive));
			const double own = QueryProjectionBound(axes, spread, {bound}, nullptr, m, n, beta);
			EXPECT_LE(own, plan * (1 + 1e-12)) << v;
			worst = std::max(worst, own);
			const EdgeSplit with = SplitOfEdge(axes[0], spread[0], bound.upper, true);
			const EdgeSplit without = SplitOfEdge(axes[0], {}, bound.upper, true);
			EXPECT_GE(with.interpolated, without.interpolated);
			spread_somewhere = spread_somewhere || with.interpolated > without.interpolated;
		}
	EXPECT_NEAR(worst, plan, 1e-12);
	EXPECT_TRUE(spread_somewhere);
}

TEST(QueryProjectionBound, AtMostOneAndChecked)
{
	const std::vector<ReleaseAxis> axes = {SixValues(), SixValues()};
	const std::vector<ColumnBounds> wide = {Column(Bound(1.5, false), Bound(5.5, true)),
	                                        Column(Bound(1.5, false), Bound(5.5, true))};
	const double tiny = QueryProjectionBound(axes, {}, wide, nullptr, 60, 10, 0.05);
	EXPECT_LE(tiny, 1.0);
	EXPECT_GT(tiny, 0.0);
	const std::vector<ColumnBounds> one_column = {wide[0]};
	EXPECT_THROW(QueryProjectionBound(axes, {}, one_column, nullptr, 60, 10, 0.05), Error);
}

}  // namespace
}  // namespace pap::core
