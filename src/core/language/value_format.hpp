// Values as SQL literals in readable query and cell texts (pap.answers, pap.synthetic): a literal that reads back
// as the same value both in pap.answer and in PostgreSQL. Pure: no session settings (timestamptz prints in UTC
// with an explicit +00 offset).
#pragma once
#include <string>

#include "core/axes/release_axis.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {

// An axis value of a Numeric/Linear axis: 326, 1.5, 'Infinity', '-Infinity', 'NaN' (Number; the shortest text that
// reads back as the same float8); '2020-01-01' (Date; the axis value is microseconds since 2000-01-01);
// '2020-01-01 10:30:00' or '2020-01-01 10:30:00.5' (Timestamp); '2020-01-01 10:30:00+00' (TimestampTz);
// 'infinity' / '-infinity' for the temporal infinities. Years outside 1..9999 print with " BC" or more digits
// as PostgreSQL does. A temporal value is rounded to whole microseconds (days for Date), as the glue did; a finite
// one outside PostgreSQL's range (dates 4714-11-24 BC to 5874897-12-31, timestamps 4714-11-24 BC to 294276) raises
// Error(DataException); Text and Boolean raise Error(Internal) (they have no axis values). NaN prints 'NaN'
// whatever the type.
std::string FormatAxisLiteral(double value, ValueType type);
// A category of a Categorical axis: bare for Number (37) and Boolean (true), else quoted ('Male', 'O''Brien').
std::string FormatCategoryLiteral(const std::string &category, ValueType type);
// A string in single quotes with ' doubled.
std::string QuoteLiteral(const std::string &text);

// A literal of a numeric column, with float8's rules: a number, or a quoted number, 'Infinity', '-Infinity',
// 'NaN' (any case, also 'inf'). Error(InvalidParameter) if it is none of these or out of float8's range.
double NumericLiteralValue(const Literal &literal);

// Shortest text that reads back as the same float8 (PostgreSQL's float8out with extra_float_digits = 1).
std::string FormatFloat8(double value);

}  // namespace pap::core

#include "core/base/core_only.hpp"
