// One axis of a release (docs/architecture.md step 1), learned from the public table only, as the engine, the covers
// and the catalog see it. Bins by kind (the NULL bin, when there is one, is always the last):
//   Numeric, Linear  cuts w_1 < ... < w_M: bins (w_j, w_{j+1}] for j = 0..M (w_0 = below all, w_{M+1} = above
//                    all), then NULL at M + 1. Radix M + 2. A Linear axis is the derived value w.x of the class
//                    columns (NULL when a column with a non-zero weight is NULL).
//   Categorical      categories c_0 < ... < c_{C-1} (byte order): bins 0..C-1, "other" at C, NULL at C + 1.
//                    Radix C + 2. A boolean column is categorical with categories {"false", "true"}, an enum column
//                    with its type's labels, a column a CHECK constraint lists the values of with that list: their
//                    "other" bin can hold no value (ClosedCategories).
//   Predicate        bin 0 = the predicate is false or NULL, bin 1 = true. Radix 2, no NULL bin.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pap::core {

enum class AxisKind { Numeric, Categorical, Linear, Predicate };
// How a column's literals are read and its values printed: number (float8 rules), date/timestamp/timestamptz
// (axis value = microseconds since 2000-01-01 00:00, UTC for timestamptz), text (categories), boolean, enum (an enum
// type's labels, read through its built-in output function).
enum class ValueType { Number, Date, Timestamp, TimestampTz, Text, Boolean, Enum };
// A date's axis position is in microseconds (the glue's, PostgreSQL's USECS_PER_DAY to a day), so consecutive dates
// are this far apart (gap_spread.hpp's AxisValueStep; the glue checks it against USECS_PER_DAY).
constexpr double kDateAxisStep = 86400.0 * 1e6;

const char *AxisKindName(AxisKind kind);      // "numeric", "categorical", "linear", "predicate"
AxisKind AxisKindFromName(const char *name);  // Error(Internal) for an unknown name (catalog corruption)
// Cut points on a line (Numeric, Linear): a query's bound may fall inside a bin, where it moves an edge.
constexpr bool
OrderedKind(AxisKind kind)
{
	return kind == AxisKind::Numeric || kind == AxisKind::Linear;
}
// "number", "date", "timestamp", "timestamptz", "text", "boolean", "enum"
const char *ValueTypeName(ValueType type);
ValueType ValueTypeFromName(const char *name);  // Error(Internal) for an unknown name

struct ReleaseAxis {
	AxisKind kind = AxisKind::Numeric;
	ValueType value_type = ValueType::Number;
	// Numeric, Categorical: the column name (unquoted). Linear: the canonical text of w.x, e.g. "1*x + 2*y".
	// Predicate: the predicate's SQL text as written in the class.
	std::string label;
	std::vector<double> cuts;             // Numeric, Linear: sorted, distinct, PostgreSQL float8 order
	std::vector<std::string> categories;  // Categorical: sorted by byte order, distinct
	// Numeric, Linear: the public marginal at the finest granularity (sorted distinct non-NULL public values and
	// their row counts). Projection onto coarse cuts uses it to pick the cut with the fewest public disagreements.
	std::vector<double> public_values;
	std::vector<std::int64_t> public_counts;
	// Numeric: the distance between consecutive values the column can hold, from its type (public: the catalog),
	// 1 for an integer column and a day for a date (in axis units, gap_spread.hpp's AxisValueStep); 0 when any value
	// may lie between two others (float8, numeric, timestamps, Linear axes). Every value of the column is then a
	// whole multiple of it, so an open interval between two such multiples one step apart holds no value
	// (docs/mechanisms.md §10, "Discrete columns").
	double value_step = 0;
	// Categorical: the categories are the list of values a validated CHECK constraint of the private table allows
	// the column (`column IN (...)`, read by the glue from the catalog, docs/mechanisms.md §10, "Closed columns"),
	// every one of them, and no row of either table holds another value: closed as an enum's labels are.
	bool check_list = false;
	// Numeric, Categorical: the private table's column is NOT NULL in every table that stores its rows (read by the
	// glue from the catalog when the release is planned or run, never stored), so the NULL bin holds no private row.
	bool not_null = false;

	std::int32_t Radix() const;
	bool
	Ordered() const
	{
		return OrderedKind(kind);
	}
	bool
	HasNullBin() const
	{
		return kind != AxisKind::Predicate;
	}
	std::int32_t
	NullBin() const
	{
		return Radix() - 1;
	}                               // meaningless for Predicate
	std::int32_t OtherBin() const;  // Categorical only: C
	// Categorical: the column admits no value but the categories (a boolean; an enum, whose labels they are; a
	// column whose CHECK constraint lists them, check_list), so the "other" bin holds no row of either table and no
	// query's value can fall in it.
	bool
	ClosedCategories() const
	{
		return kind == AxisKind::Categorical &&
		       (value_type == ValueType::Boolean || value_type == ValueType::Enum || check_list);
	}
	// The bin of a non-NULL numeric value (Numeric, Linear) / category text (Categorical).
	std::int32_t NumericBin(double value) const;
	std::int32_t CategoryBin(const std::string &text) const;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
