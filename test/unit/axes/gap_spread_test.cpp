// Tests of the gap spread of refined answers (axes/gap_spread.hpp): the share of a value's spread row below a
// bound, linear across the gap and 0 where the gap is not a finite interval, and the public rows below a bound.
#include "core/axes/gap_spread.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace pap::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(GapSpread, LinearAcrossTheGapAndClamped)
{
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, 10.0, 0.0, true), 0.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, 12.5, 0.0, true), 0.25);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, 20.0, 0.0, false),
	                 1.0);  // "c < 20": the whole spread, none of 20's own rows
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, 5.0, 0.0, true), 0.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, 25.0, 0.0, true), 1.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, -kInf, 0.0, true), 0.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, kInf, 0.0, true), 1.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(10.0, 20.0, kNaN, 0.0, true), 1.0);  // NaN sorts above every number
}

TEST(GapSpread, NoSpreadOverAGapThatIsNoFiniteInterval)
{
	const double huge = std::numeric_limits<double>::max();
	for (double x : {-kInf, -1.0, 0.0, 1.0, kInf, kNaN}) {
		EXPECT_EQ(GapSpreadBelow(-kInf, 1.0, x, 0.0, true), 0.0) << x;
		EXPECT_EQ(GapSpreadBelow(1.0, kInf, x, 0.0, true), 0.0) << x;
		EXPECT_EQ(GapSpreadBelow(1.0, kNaN, x, 0.0, true), 0.0) << x;
		EXPECT_EQ(GapSpreadBelow(-huge, huge, x, 0.0, true), 0.0) << x;  // the width overflows
		EXPECT_EQ(GapSpreadBelow(1.0, 1.0, x, 0.0, true), 0.0) << x;
	}
}

TEST(GapSpread, RowsBelowABoundAddTheSpreadOfTheValueAboveIt)
{
	const std::vector<double> values = {1.0, 2.0, 4.0};  // rows 3, 1, 2 (counted by the caller)
	const std::vector<double> theta = {0.0, 1.0, 0.5};
	// "c <= 3": 1 and 2 below (4 rows), half of 4's spread row times theta 0.5
	EXPECT_DOUBLE_EQ(SpreadRowsBelow(values, theta, 2, 4, 3.0, 0.0, true), 4.25);
	// "c < 2": 1 below (3 rows) and all of 2's spread row: its one row lies in (1, 2)
	EXPECT_DOUBLE_EQ(SpreadRowsBelow(values, theta, 1, 3, 2.0, 0.0, true), 4.0);
	// the lowest value has no gap below it, and past the highest value there is none to spread
	EXPECT_DOUBLE_EQ(SpreadRowsBelow(values, theta, 0, 0, 0.5, 0.0, true), 0.0);
	EXPECT_DOUBLE_EQ(SpreadRowsBelow(values, theta, 3, 6, 9.0, 0.0, true), 6.0);
	// without shares the rows are counted as they are (an answer by public row counts)
	EXPECT_DOUBLE_EQ(SpreadRowsBelow(values, {}, 2, 4, 3.0, 0.0, true), 4.0);
}

// A date axis (positions in microseconds, whole days apart): the spread lies on the days of the gap, the value's
// own day included, so a bound between two days counts as the day below it and "c < upper" leaves upper's day out.
TEST(GapSpread, DatesSpreadOverTheDaysOfTheGap)
{
	const double day = AxisValueStep(ValueType::Date);
	EXPECT_EQ(day, 86400.0 * 1e6);
	EXPECT_EQ(AxisValueStep(ValueType::Number), 0.0);
	EXPECT_EQ(AxisValueStep(ValueType::Timestamp), 0.0);
	const double lower = 100 * day, upper = 104 * day;  // the days 101, 102, 103, 104
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 101 * day, day, true), 0.25);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 101.75 * day, day, true), 0.25);  // 18:00 on day 101
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 102 * day, day, false), 0.25);    // "c < day 102"
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 104 * day, day, false), 0.75);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 104 * day, day, true), 1.0);
	EXPECT_DOUBLE_EQ(GapSpreadBelow(lower, upper, 100.5 * day, day, true), 0.0);
	// a gap that is no whole number of steps is spread continuously
	EXPECT_DOUBLE_EQ(GapSpreadBelow(0.0, 1.5 * day, 0.75 * day, day, true), 0.5);
}

// A bound of a discrete column moves to the largest multiple of its step that selects the same values, in the
// form that keeps the values equal to it below ("c <= v", "c > v").
TEST(GapSpread, StepFloorMovesABoundToTheValuesItSelects)
{
	EXPECT_EQ(StepFloor(5.5, 1, true), 5.0);   // c <= 5.5 is c <= 5
	EXPECT_EQ(StepFloor(5.5, 1, false), 5.0);  // c < 5.5 is c <= 5
	EXPECT_EQ(StepFloor(6, 1, true), 6.0);     // c <= 6
	EXPECT_EQ(StepFloor(6, 1, false), 5.0);    // c < 6 is c <= 5
	EXPECT_EQ(StepFloor(-0.5, 1, true), -1.0);
	EXPECT_EQ(StepFloor(-1, 1, false), -2.0);
	const double day = AxisValueStep(ValueType::Date);
	EXPECT_EQ(StepFloor(101.75 * day, day, true), 101 * day);  // a date <= 18:00 on day 101: up to day 101
	EXPECT_EQ(StepFloor(101.75 * day, day, false), 101 * day);
	EXPECT_EQ(StepFloor(101 * day, day, false), 100 * day);
	// Nothing to move: a continuous axis, a value that is no number, or one beyond 2^52.
	EXPECT_FALSE(StepFloor(5.5, 0, true).has_value());
	EXPECT_FALSE(StepFloor(INFINITY, 1, true).has_value());
	EXPECT_FALSE(StepFloor(NAN, 1, true).has_value());
	EXPECT_FALSE(StepFloor(std::ldexp(1.0, 60), 1, true).has_value());
}

}  // namespace
}  // namespace pap::core
