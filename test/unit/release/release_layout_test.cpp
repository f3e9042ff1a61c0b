// Tests of the private scan's SELECT list (ReleaseLayout::ScanSelectList): the pap.grid_counts form with each
// kind of axis as its arguments, and the GROUP BY form once the grid has more than kScanKeyLimit points.
#include "core/release/release_layout.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace pap::core {
namespace {

using test::OutcomeOf;

ReleaseAxis
Axis(AxisKind kind, ValueType type, const std::string &label, std::size_t cuts = 0)
{
	ReleaseAxis axis;
	axis.kind = kind;
	axis.value_type = type;
	axis.label = label;
	for (std::size_t i = 0; i < cuts; i++)
		axis.cuts.push_back(double(i));
	return axis;
}

TEST(ScanSelectList, OneAggregateCallWithEveryKindOfAxis)
{
	ReleaseLayout layout;
	layout.axes.push_back(Axis(AxisKind::Numeric, ValueType::Number, "carat", 2));
	layout.axes.push_back(Axis(AxisKind::Numeric, ValueType::Date, "sold on", 1));
	ReleaseAxis cut = Axis(AxisKind::Categorical, ValueType::Text, "Cut");
	cut.categories = {"Good", "Ideal"};
	layout.axes.push_back(cut);
	layout.axes.push_back(Axis(AxisKind::Predicate, ValueType::Boolean, "price > 1000"));
	// A number column goes to the aggregate as it is (it converts every number type totally); a date goes through
	// pap.axis_value; the aggregate bins the numeric axes itself from their cut points $1, $2.
	EXPECT_EQ(layout.ScanSelectList(),
	          "pap.grid_counts('{4,3,4,2}'::pg_catalog.int8[], $1, \"carat\", $2, "
	          "pap.axis_value(\"sold on\"), pap.category_index($3, (\"Cut\")::pg_catalog.text), "
	          "CASE WHEN (price > 1000) THEN 1 ELSE 0 END), '{4,3,4,2}'::pg_catalog.int8[]");
}

TEST(ScanSelectList, LinearAxesPassTheirWeightedSums)
{
	ReleaseLayout layout;
	layout.spec.kind = ClassKind::Halfspaces;
	layout.spec.columns = {"carat", "price"};
	layout.spec.directions = {{4000, -1}, {0, 0.5}};
	layout.axes.push_back(Axis(AxisKind::Linear, ValueType::Number, "4000*carat + -1*price", 3));
	layout.axes.push_back(Axis(AxisKind::Linear, ValueType::Number, "0.5*price", 1));
	EXPECT_EQ(layout.ScanSelectList(),
	          "pap.grid_counts('{5,3}'::pg_catalog.int8[], $1, pap.linear_value('{4000,-1}'::pg_catalog.float8[], "
	          "\"carat\", \"price\"), $2, pap.linear_value('{0.5}'::pg_catalog.float8[], \"price\")), "
	          "'{5,3}'::pg_catalog.int8[]");
}

TEST(ScanSelectList, GroupByBeyondTheKeyLimit)
{
	// 62 predicate axes: 2^62 grid points, the limit, still one aggregate; a 63rd: one bin expression per axis.
	ReleaseLayout layout;
	for (int i = 0; i < 62; i++)
		layout.axes.push_back(Axis(AxisKind::Predicate, ValueType::Boolean, "p" + std::to_string(i)));
	EXPECT_EQ(layout.ScanSelectList().rfind("pap.grid_counts('{2,2,", 0), 0u);
	layout.axes.push_back(Axis(AxisKind::Predicate, ValueType::Boolean, "p62"));
	const std::string group_by = layout.ScanSelectList();
	EXPECT_EQ(group_by.find("grid_counts"), std::string::npos);
	EXPECT_EQ(group_by.rfind("CASE WHEN (p0) THEN 1 ELSE 0 END, CASE WHEN (p1) THEN 1 ELSE 0 END, ", 0), 0u);

	// The numeric axes of the GROUP BY form bin with pap.cell_index.
	ReleaseLayout wide;
	for (int i = 0; i < 7; i++)
		wide.axes.push_back(Axis(AxisKind::Numeric, ValueType::Number, "c" + std::to_string(i), 999));
	const std::string sql = wide.ScanSelectList();
	EXPECT_EQ(sql.rfind("pap.cell_index($1, pap.axis_value(\"c0\")), pap.cell_index($2, pap.axis_value(\"c1\")), ", 0),
	          0u);
	const std::string tail = "pap.cell_index($7, pap.axis_value(\"c6\")), pg_catalog.count(*)";
	ASSERT_GE(sql.size(), tail.size());
	EXPECT_EQ(sql.substr(sql.size() - tail.size()), tail);
}

// The cells no row can hold: a point in the "other" bin of a closed categorical axis (an enum's, a boolean's, a CHECK
// list's) or in the NULL bin of a NOT NULL column, on a full grid; none on an open axis, and never the outside cell
// of a support.
TEST(ClosedCells, TheOtherBinOfEveryClosedAxis)
{
	ReleaseLayout layout;
	ReleaseAxis kind = Axis(AxisKind::Categorical, ValueType::Enum, "kind");
	kind.categories = {"a", "b"};  // bins a, b, other, NULL
	layout.axes.push_back(kind);
	layout.axes.push_back(Axis(AxisKind::Numeric, ValueType::Number, "x", 1));  // bins (-inf, 0], above, NULL
	const CellDomain grid = CellDomain::Dense(layout.Radices(), 1000);
	const std::vector<bool> closed = layout.ClosedCells(grid);
	ASSERT_EQ(closed.size(), 12u);
	for (std::size_t cell = 0; cell < closed.size(); cell++)
		EXPECT_EQ(closed[cell], cell / 3 == 2) << cell;  // first axis most significant: kind's bin is cell / 3
	// A CHECK-listed text column is closed too; an open text column is not, nor is any axis of a numeric class.
	ReleaseLayout listed = layout;
	listed.axes[0].value_type = ValueType::Text;
	listed.axes[0].check_list = true;
	EXPECT_EQ(listed.ClosedCells(grid), closed);
	ReleaseLayout open = listed;
	open.axes[0].check_list = false;
	EXPECT_TRUE(open.ClosedCells(grid).empty());
	// A NOT NULL column closes its NULL bin (the last), an ordered axis's too.
	ReleaseLayout not_null = layout;
	not_null.axes[1].not_null = true;
	const std::vector<bool> both = not_null.ClosedCells(grid);
	for (std::size_t cell = 0; cell < both.size(); cell++)
		EXPECT_EQ(both[cell], cell / 3 == 2 || cell % 3 == 2) << cell;
	open.axes[0].not_null = true;  // the open text column, NOT NULL: its NULL bin only
	const std::vector<bool> null_bin = open.ClosedCells(grid);
	for (std::size_t cell = 0; cell < null_bin.size(); cell++)
		EXPECT_EQ(null_bin[cell], cell / 3 == 3) << cell;
	// On a support: these public points (none in a closed bin) and the outside cell are open.
	const CellDomain support = CellDomain::Support(layout.Radices(), {0, 0, 1, 1}, 1000);
	EXPECT_EQ(layout.ClosedCells(support), std::vector<bool>(3, false));
	EXPECT_EQ(OutcomeOf([&] { layout.ClosedCells(CellDomain::Dense({4}, 10)); }), "Internal");
}

// On a support the public points can lie in a NULL bin (the public table is not the private one, and a public NULL
// is allowed where the private column is NOT NULL): such a point is closed, the others and the outside cell are not.
TEST(ClosedCells, APublicNullPointOfANotNullColumnIsClosedOnASupport)
{
	ReleaseLayout layout;
	ReleaseAxis kind = Axis(AxisKind::Categorical, ValueType::Text, "kind");
	kind.categories = {"a", "b"};  // bins a, b, other, NULL (3)
	layout.axes.push_back(kind);
	layout.axes.push_back(Axis(AxisKind::Numeric, ValueType::Number, "x", 1));  // bins 0, 1, NULL (2)
	const CellDomain support = CellDomain::Support(layout.Radices(), {0, 0, 1, 2, 3, 1, 2, 0}, 1000);
	ASSERT_TRUE(layout.ClosedCells(support).empty());  // no axis closed
	ReleaseLayout not_null = layout;
	not_null.axes[0].not_null = not_null.axes[1].not_null = true;
	const std::vector<bool> closed = not_null.ClosedCells(support);
	ASSERT_EQ(closed.size(), support.CellCount());
	std::vector<std::int32_t> point(2);
	std::size_t closed_count = 0;
	for (std::size_t cell = 0; cell < closed.size(); cell++) {
		closed_count += closed[cell];
		if (!support.CoordinatesOf(cell, point.data())) {
			EXPECT_FALSE(closed[cell]) << "the outside cell";
			continue;
		}
		EXPECT_EQ(closed[cell], point[0] == 3 || point[1] == 2) << cell;
	}
	EXPECT_EQ(closed_count, 2u);
}

// Two closed axes: a cell is closed when either coordinate is its axis's "other" bin (not only when both are); a
// boolean and a CHECK-listed number column close their "other" bins as an enum does.
TEST(ClosedCells, EitherClosedAxisClosesTheCell)
{
	ReleaseLayout layout;
	ReleaseAxis flag = Axis(AxisKind::Categorical, ValueType::Boolean, "flag");
	flag.categories = {"false", "true"};  // bins false, true, other, NULL
	ReleaseAxis size = Axis(AxisKind::Categorical, ValueType::Number, "size");
	size.categories = {"1", "2", "3"};  // bins 1, 2, 3, other, NULL
	size.check_list = true;
	layout.axes = {flag, size};
	const CellDomain grid = CellDomain::Dense(layout.Radices(), 1000);
	const std::vector<bool> closed = layout.ClosedCells(grid);
	ASSERT_EQ(closed.size(), 20u);
	std::size_t count = 0;
	for (std::size_t cell = 0; cell < closed.size(); cell++) {
		EXPECT_EQ(closed[cell], cell / 5 == 2 || cell % 5 == 3) << cell;
		count += closed[cell];
	}
	EXPECT_EQ(count, 20u - 3u * 4u);  // open: 3 x 4 (the NULL bins are open)
}

}  // namespace
}  // namespace pap::core
