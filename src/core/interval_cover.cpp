#include "core/interval_cover.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/errors.hpp"

namespace pap::core {

double
IntervalCover::CoverSize(QueryClassKind kind, std::size_t m)
{
	double md = double(m);
	return kind == QueryClassKind::Thresholds ? md + 1.0 : md * (md + 1.0) / 2.0 + 1.0;
}

IntervalCover::IntervalCover(QueryClass query_class, NumericAxis axis, std::size_t max_queries)
    : class_(std::move(query_class)), axis_(std::move(axis))
{
	const std::size_t m = axis_.cut_count();
	const double size = CoverSize(class_.kind, m);
	if (size > double(max_queries))
		throw Error(ErrorKind::LimitExceeded,
		            "query class " + class_.Text() + " would have " + FormatFloat8(size) +
		                " cover queries, more than the limit of " + std::to_string(max_queries),
		            "The public table has " + std::to_string(m) + " distinct values in column " +
		                QuoteIdentifier(class_.column) + ".",
		            "Use a public table with fewer distinct values, or thresholds instead of ranges.");
	cells_.reserve(std::size_t(size));
	const std::int32_t M = std::int32_t(m);
	if (class_.kind == QueryClassKind::Thresholds) {
		for (std::int32_t j = 0; j <= M; j++)
			cells_.push_back(CellInterval{0, j - 1});
	} else {
		cells_.push_back(CellInterval{1, 0});  // the empty run
		for (std::int32_t i = 1; i <= M; i++)
			for (std::int32_t k = i; k <= M; k++)
				cells_.push_back(CellInterval{i - 1, k == M ? axis_.TopBin() : k - 1});
	}
}

std::size_t
IntervalCover::RangeIndex(std::size_t i, std::size_t k) const
{
	const std::size_t M = axis_.cut_count();
	// runs are listed by first value i, then last value k: (i-1) full blocks of decreasing length come first
	return 1 + (i - 1) * (M + 1) - (i - 1) * i / 2 + (k - i);
}

std::size_t
LiteralCount(const QueryText &query)
{
	std::size_t count = 0;
	for (const Condition &c : query.conditions)
		count += c.op == Comparison::Between ? 2 : 1;
	return count;
}

namespace {

// Keeps the tighter of two bounds; at equal values an exclusive bound is the tighter one.
void
TightenUpper(ValueBound &bound, double value, bool inclusive)
{
	if (!bound.present || PgFloatLess(value, bound.value) ||
	    (!PgFloatLess(bound.value, value) && !inclusive)) {
		bound.present = true;
		bound.value = value;
		bound.inclusive = inclusive;
	}
}

void
TightenLower(ValueBound &bound, double value, bool inclusive)
{
	if (!bound.present || PgFloatLess(bound.value, value) ||
	    (!PgFloatLess(value, bound.value) && !inclusive)) {
		bound.present = true;
		bound.value = value;
		bound.inclusive = inclusive;
	}
}

}  // namespace

std::size_t
IntervalCover::Project(const QueryText &query, const std::vector<double> &values) const
{
	if (values.size() != LiteralCount(query))
		throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
	ValueBound lower, upper;
	std::size_t next = 0;
	for (const Condition &c : query.conditions) {
		if (c.column != class_.column)
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(c.column) + " is not in the release's query class " + class_.Text(),
			            {}, "A query may use only the column " + QuoteIdentifier(class_.column) + ".");
		const double v = values[next++];
		switch (c.op) {
		case Comparison::LessEqual: TightenUpper(upper, v, true); break;
		case Comparison::Less: TightenUpper(upper, v, false); break;
		case Comparison::GreaterEqual: TightenLower(lower, v, true); break;
		case Comparison::Greater: TightenLower(lower, v, false); break;
		case Comparison::Equal:
			TightenLower(lower, v, true);
			TightenUpper(upper, v, true);
			break;
		case Comparison::Between:
			TightenLower(lower, v, true);
			TightenUpper(upper, values[next++], true);
			break;
		}
	}
	if (class_.kind == QueryClassKind::Thresholds && (lower.present || !upper.present))
		throw Error(ErrorKind::QueryOutsideClass, "query is outside the release's query class " + class_.Text(),
		            "The class " + class_.Text() + " contains only the queries " + QuoteIdentifier(class_.column) +
		                " <= c and " + QuoteIdentifier(class_.column) + " < c.",
		            "Define a release over ranges(" + QuoteIdentifier(class_.column) + ") to answer other intervals.");

	// Public values in the query: indexes [first, end) of the sorted cuts.
	const std::size_t first =
	    !lower.present ? 0 : (lower.inclusive ? axis_.CountBelow(lower.value) : axis_.CountAtMost(lower.value));
	const std::size_t end = !upper.present ? axis_.cut_count()
	                                       : (upper.inclusive ? axis_.CountAtMost(upper.value)
	                                                          : axis_.CountBelow(upper.value));
	if (class_.kind == QueryClassKind::Thresholds)
		return end;
	if (end <= first)
		return 0;
	return RangeIndex(first + 1, end);
}

CoverQueryShape
IntervalCover::Shape(std::size_t q) const
{
	const std::vector<double> &w = axis_.cuts();
	CoverQueryShape shape;
	const CellInterval &iv = cells_.at(q);
	if (iv.empty()) {
		shape.empty = true;
		shape.upper = ValueBound{true, w.front(), false};
		return shape;
	}
	const std::size_t M = w.size();
	const std::size_t i = std::size_t(iv.lo) + 1;                                      // first public value, 1-based
	const std::size_t k = iv.hi == axis_.TopBin() ? M : std::size_t(iv.hi) + 1;        // last public value
	if (class_.kind == QueryClassKind::Thresholds) {
		shape.upper = ValueBound{true, w[std::size_t(iv.hi)], true};
		return shape;
	}
	if (i > 1)
		shape.lower = ValueBound{true, w[i - 2], false};
	if (k < M)
		shape.upper = ValueBound{true, w[k - 1], true};
	return shape;
}

CellShape
IntervalCover::ShapeOfCell(std::size_t cell) const
{
	if (cell >= std::size_t(axis_.BinCount()))
		throw Error(ErrorKind::Internal, "cell index out of range");
	CellShape shape{};
	if (std::int32_t(cell) == axis_.NullBin()) {
		shape.is_null = true;
		return shape;
	}
	const std::vector<double> &w = axis_.cuts();
	if (cell > 0)
		shape.lower = ValueBound{true, w[cell - 1], false};
	if (cell < w.size())
		shape.upper = ValueBound{true, w[cell], true};
	return shape;
}

std::string
IntervalCover::Render(std::size_t q, std::string (*format_value)(double, const void *), const void *context) const
{
	const CoverQueryShape shape = Shape(q);
	const std::string col = QuoteIdentifier(class_.column);
	if (shape.empty)
		return col + " < " + format_value(shape.upper.value, context);
	std::string text;
	if (shape.lower.present)
		text = col + " > " + format_value(shape.lower.value, context);
	if (shape.upper.present) {
		if (!text.empty())
			text += " AND ";
		text += col + " <= " + format_value(shape.upper.value, context);
	}
	return text.empty() ? col + " IS NOT NULL" : text;
}

namespace {

bool
EqualsIgnoreCase(std::string_view a, std::string_view b)
{
	if (a.size() != b.size())
		return false;
	for (std::size_t i = 0; i < a.size(); i++) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z')
			x = char(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = char(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return true;
}

}  // namespace

double
NumericLiteralValue(const Literal &literal)
{
	std::string_view s = literal.text;
	while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
		s.remove_prefix(1);
	while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
		s.remove_suffix(1);
	const double inf = std::numeric_limits<double>::infinity();
	for (const char *word : {"infinity", "+infinity", "inf", "+inf"})
		if (EqualsIgnoreCase(s, word))
			return inf;
	for (const char *word : {"-infinity", "-inf"})
		if (EqualsIgnoreCase(s, word))
			return -inf;
	if (EqualsIgnoreCase(s, "nan"))
		return std::numeric_limits<double>::quiet_NaN();
	const std::string text(s);
	const auto invalid = [&]() {
		return Error(ErrorKind::InvalidParameter,
		             "invalid number \"" + literal.text + "\" at position " + std::to_string(literal.position),
		             "A numeric column is compared with a number, or a quoted number, 'Infinity', '-Infinity' or "
		             "'NaN'.");
	};
	if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
		throw invalid();
	char *end = nullptr;
	errno = 0;
	const double value = std::strtod(text.c_str(), &end);
	if (end != text.c_str() + text.size())
		throw invalid();
	// float8in's rule: overflow, and underflow to zero, are out of range (a denormal result is accepted)
	if (errno == ERANGE && (std::isinf(value) || value == 0.0))
		throw Error(ErrorKind::InvalidParameter, "\"" + literal.text + "\" is out of range for type double precision");
	return value;
}

std::string
FormatFloat8(double value)
{
	if (std::isnan(value))
		return "'NaN'";
	if (std::isinf(value))
		return value > 0 ? "'Infinity'" : "'-Infinity'";
	char buf[64];
	const auto result = std::to_chars(buf, buf + sizeof(buf), value);
	return std::string(buf, result.ptr);
}

}  // namespace pap::core
