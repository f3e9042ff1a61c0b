// The cover H~ of a one-dimensional class (Algorithm 3, steps 1-4; reference/seeds.md §1.8) and the
// projection of any query of the class onto it. Cells are the bins of the NumericAxis.
//
// thresholds(col): cover query j = "col <= w_j" for j = 1..M, plus j = 0 = "col < w_1" (the empty pattern);
//   its cells are bins [0, j-1]. A query col <= c (or col < c) projects to j = #{public values <= c (< c)}:
//   the unique cover query that labels every public value the same way.
// ranges(col): one cover query per contiguous run w_i..w_k of public values (1 <= i <= k <= M) plus the empty
//   query. Its canonical representative is "col > w_{i-1} AND col <= w_k": cells [i-1, k-1]. A run that starts
//   at w_1 has no lower bound and one that ends at w_M has no upper bound (it also takes the top bin), so
//   one-sided queries such as col > c keep the mass beyond the last public value.
// The NULL bin is in no query: a SQL comparison with NULL is never true.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cover.hpp"
#include "core/numeric_axis.hpp"
#include "core/query_class.hpp"
#include "core/query_text.hpp"
#include "core/workload.hpp"

namespace pap::core {

class IntervalCover : public Cover {
public:
	// Throws Error(LimitExceeded) when the cover would have more than max_queries queries.
	IntervalCover(QueryClass query_class, NumericAxis axis, std::size_t max_queries);

	const QueryClass &query_class() const { return class_; }
	const NumericAxis &axis() const { return axis_; }
	std::size_t QueryCount() const override { return cells_.size(); }
	std::size_t CellCount() const override { return std::size_t(axis_.BinCount()); }
	const CellInterval &Cells(std::size_t q) const { return cells_[q]; }
	IntervalWorkload MakeWorkload() const { return IntervalWorkload(cells_, CellCount()); }
	std::unique_ptr<Workload> NewWorkload() const override
	{
		return std::make_unique<IntervalWorkload>(MakeWorkload());
	}

	// The cover query a parsed query projects to. literal_values[i] is the value of the i-th literal in reading
	// order (the BETWEEN upper bound right after its lower bound). Error(UndefinedColumn) for another column,
	// Error(QueryOutsideClass) for a query of another shape.
	std::size_t Project(const QueryText &query, const std::vector<double> &literal_values) const override;

	CoverQueryShape Shape(std::size_t q) const override;
	CellShape ShapeOfCell(std::size_t cell) const override;  // bin `cell` of the axis
	int VcDimension() const override { return class_.VcDimension(); }
	// e.g. "price > 326 AND price <= 1000"; format_value renders a cut value as a literal of the column's type.
	std::string Render(std::size_t q, std::string (*format_value)(double, const void *), const void *context) const;

	// Maximum number of cover queries the class would have over m distinct public values.
	static double CoverSize(QueryClassKind kind, std::size_t distinct_public_values);

private:
	std::size_t RangeIndex(std::size_t first, std::size_t last) const;  // 1-based run of public values

	QueryClass class_;
	NumericAxis axis_;
	std::vector<CellInterval> cells_;
};

// Number of literals a parsed query holds (BETWEEN has two): the length literal_values must have.
std::size_t LiteralCount(const QueryText &query);

// A literal of a numeric column, with float8's rules: a number, or a quoted number, 'Infinity', '-Infinity',
// 'NaN' (any case, also 'inf'). Error(InvalidParameter) if it is none of these or out of float8's range.
double NumericLiteralValue(const Literal &literal);

// Shortest text that reads back as the same float8 (PostgreSQL's float8out with extra_float_digits = 1).
std::string FormatFloat8(double value);

}  // namespace pap::core

#include "core/core_only.hpp"
