// Axis values and categories as SQL literals (value_format.hpp), without PostgreSQL: the temporal texts are those
// of PostgreSQL's EncodeDateOnly / EncodeDateTime with DateStyle ISO and TimeZone UTC, which the glue used before.
#include "core/language/value_format.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/language/text_lexer.hpp"  // IsValidNumber

namespace pap::core {
namespace {

constexpr std::int64_t kUsecsPerSecond = 1000000;
constexpr std::int64_t kUsecsPerDay = 86400 * kUsecsPerSecond;
// PostgreSQL's ranges (datatype/timestamp.h), relative to its epoch 2000-01-01: dates from Julian day 0
// (4714-11-24 BC) to 5874897-12-31, timestamps from 4714-11-24 00:00 BC to before 294277-01-01 00:00.
constexpr std::int64_t kPostgresEpochJulianDay = 2451545;
constexpr std::int64_t kMinDay = 0 - kPostgresEpochJulianDay;
constexpr std::int64_t kEndDay = 2147483494 - kPostgresEpochJulianDay;  // exclusive: DATE_END_JULIAN
constexpr std::int64_t kMinTimestamp = -211813488000000000;
constexpr std::int64_t kEndTimestamp = 9223371331200000000;  // exclusive; both exact as doubles
constexpr std::int64_t kDaysFrom1970To2000 = 10957;

struct CivilDate {
	std::int64_t year;  // astronomical: 0 is 1 BC
	int month;
	int day;
};

// Howard Hinnant's civil_from_days ("chrono-Compatible Low-Level Date Algorithms",
// https://howardhinnant.github.io/date_algorithms.html): proleptic Gregorian, as PostgreSQL's j2date, valid for
// every day of PostgreSQL's range.
CivilDate
CivilFromDays(std::int64_t days_since_2000)
{
	const std::int64_t z = days_since_2000 + kDaysFrom1970To2000 + 719468;
	const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	const std::int64_t doe = z - era * 146097;                                       // [0, 146096]
	const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
	const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
	const std::int64_t mp = (5 * doy + 2) / 153;                                     // [0, 11], from March
	const int day = int(doy - (153 * mp + 2) / 5 + 1);
	const int month = int(mp < 10 ? mp + 3 : mp - 9);
	return CivilDate{yoe + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// EncodeDateOnly's ISO form without the era: the year zero-padded to 4 digits, 1 - year for BC.
std::string
DateDigits(const CivilDate &d)
{
	char buf[48];
	std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d", static_cast<long long>(d.year > 0 ? d.year : 1 - d.year),
	              d.month, d.day);
	return buf;
}

std::string
FormatDate(double value)
{
	const double days = value / double(kUsecsPerDay);
	// The double comparison first: llround of a value beyond int64 is undefined.
	if (!(days > double(kMinDay) - 1.0 && days < double(kEndDay) + 1.0))
		throw Error(ErrorKind::DataException, "date out of range",
		            "The axis value " + FormatFloat8(value) + " is not a PostgreSQL date.");
	const std::int64_t day = std::llround(days);  // as the glue rounded
	if (day < kMinDay || day >= kEndDay)
		throw Error(ErrorKind::DataException, "date out of range",
		            "The axis value " + FormatFloat8(value) + " is not a PostgreSQL date.");
	const CivilDate d = CivilFromDays(day);
	return DateDigits(d) + (d.year > 0 ? "" : " BC");
}

// EncodeDateTime, ISO: "YYYY-MM-DD HH:MM:SS[.ffffff without trailing zeros][+00][ BC]".
std::string
FormatTimestamp(double value, bool with_zone)
{
	if (!(value >= double(kMinTimestamp) && value < double(kEndTimestamp)))
		throw Error(ErrorKind::DataException, "timestamp out of range",
		            "The axis value " + FormatFloat8(value) + " is not a PostgreSQL timestamp.");
	const std::int64_t t = std::llround(value);
	std::int64_t day = t / kUsecsPerDay;
	std::int64_t time = t % kUsecsPerDay;
	if (time < 0) {  // floor division, as timestamp2tm does
		time += kUsecsPerDay;
		--day;
	}
	const CivilDate d = CivilFromDays(day);
	const std::int64_t seconds = time / kUsecsPerSecond;
	const int fraction = int(time % kUsecsPerSecond);
	char buf[32];
	std::snprintf(buf, sizeof buf, " %02d:%02d:%02d", int(seconds / 3600), int(seconds / 60 % 60), int(seconds % 60));
	std::string out = DateDigits(d) + buf;
	if (fraction != 0) {
		std::snprintf(buf, sizeof buf, ".%06d", fraction);
		std::string digits = buf;
		digits.erase(digits.find_last_not_of('0') + 1);
		out += digits;
	}
	if (with_zone)
		out += "+00";  // the axis is UTC
	if (d.year <= 0)
		out += " BC";
	return out;
}

}  // namespace

std::string
FormatAxisLiteral(double value, ValueType type)
{
	// NaN has no temporal text; the glue printed it as a number too.
	if (type == ValueType::Number || std::isnan(value))
		return FormatFloat8(value);
	if (std::isinf(value))
		return QuoteLiteral(value < 0 ? "-infinity" : "infinity");
	switch (type) {
	case ValueType::Date: return QuoteLiteral(FormatDate(value));
	case ValueType::Timestamp: return QuoteLiteral(FormatTimestamp(value, false));
	case ValueType::TimestampTz: return QuoteLiteral(FormatTimestamp(value, true));
	case ValueType::Number:
	case ValueType::Text:
	case ValueType::Boolean:
	case ValueType::Enum: break;
	}
	throw Error(ErrorKind::Internal, "text, boolean and enum axes have no axis values");
}

std::string
FormatCategoryLiteral(const std::string &category, ValueType type)
{
	// Bare only when the query parser reads it back as the same text: 'NaN' or 't' keep their quotes.
	if (type == ValueType::Number && IsValidNumber(category))
		return category;
	if (type == ValueType::Boolean && (category == "true" || category == "false"))
		return category;
	return QuoteLiteral(category);
}

std::string
QuoteLiteral(const std::string &text)
{
	std::string out = "'";
	for (const char c : text) {
		if (c == '\'')
			out += '\'';
		out += c;
	}
	out += '\'';
	return out;
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
		return Error(ErrorKind::InvalidParameter, "invalid number \"" + literal.text + "\"",
		             "A numeric column is compared with a number, or a quoted number, 'Infinity', '-Infinity' or "
		             "'NaN'.")
		    .At(literal.position);
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
