// Tests of the SQL literal formatting of axis values and categories: temporal texts against values printed by a
// real PostgreSQL 15 (DateStyle ISO, TimeZone UTC), the calendar against a day-by-day walk, and every literal read
// back by the query parser.
#include "core/language/value_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kUsecsPerDay = 86400e6;

bool
IsLeap(std::int64_t y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}
int
MonthLength(std::int64_t y, int m)
{
	static const int kLength[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	return kLength[m - 1] + (m == 2 && IsLeap(y) ? 1 : 0);
}

// Days from 2000-01-01 to y-m-d (astronomical year: 0 is 1 BC), counting whole years and months: slow and
// obviously right, unlike the closed form under test.
std::int64_t
DaysSince2000(std::int64_t y, int m, int d)
{
	std::int64_t days = 0;
	for (std::int64_t k = 2000; k < y; ++k)
		days += IsLeap(k) ? 366 : 365;
	for (std::int64_t k = y; k < 2000; ++k)
		days -= IsLeap(k) ? 366 : 365;
	for (int k = 1; k < m; ++k)
		days += MonthLength(y, k);
	return days + d - 1;
}

double
DateAxis(std::int64_t y, int m, int d)
{
	return double(DaysSince2000(y, m, d)) * kUsecsPerDay;
}
double
TimestampAxis(std::int64_t y, int m, int d, int hh, int mm, int ss, int usec)
{
	return double(DaysSince2000(y, m, d) * 86400000000 + ((hh * 60 + mm) * 60 + ss) * std::int64_t{1000000} + usec);
}

std::string
Quoted(const std::string &s)
{
	return "'" + s + "'";
}

TEST(DaysSince2000, AgreesWithPostgres)
{
	// date - '2000-01-01'::date as printed by PostgreSQL 15: checks the test's own calendar.
	EXPECT_EQ(DaysSince2000(1970, 1, 1), -10957);
	EXPECT_EQ(DaysSince2000(1900, 2, 28), -36466);
	EXPECT_EQ(DaysSince2000(2000, 2, 29), 59);
	EXPECT_EQ(DaysSince2000(2100, 3, 1), 36584);
	EXPECT_EQ(DaysSince2000(0, 2, 29), -730426);        // 0001-02-29 BC
	EXPECT_EQ(DaysSince2000(-43, 3, 15), -746117);      // 0044-03-15 BC
	EXPECT_EQ(DaysSince2000(-4713, 11, 24), -2451545);  // 4714-11-24 BC, Julian day 0
	EXPECT_EQ(DaysSince2000(5874897, 12, 31), 2145031948);
}

struct DateCase {
	std::int64_t year;  // astronomical
	int month, day;
	const char *text;  // printed by PostgreSQL 15
};

TEST(FormatAxisLiteral, DatesAsPostgresPrintsThem)
{
	// select v::date, with DateStyle ISO, in PostgreSQL 15.
	for (const DateCase &c :
	     {DateCase{2000, 1, 1, "2000-01-01"}, DateCase{1970, 1, 1, "1970-01-01"}, DateCase{1900, 2, 28, "1900-02-28"},
	      DateCase{1900, 3, 1, "1900-03-01"}, DateCase{1999, 12, 31, "1999-12-31"}, DateCase{2000, 2, 29, "2000-02-29"},
	      DateCase{2024, 2, 29, "2024-02-29"}, DateCase{2100, 3, 1, "2100-03-01"}, DateCase{1, 1, 1, "0001-01-01"},
	      DateCase{0, 12, 31, "0001-12-31 BC"}, DateCase{0, 1, 1, "0001-01-01 BC"}, DateCase{0, 2, 29, "0001-02-29 BC"},
	      DateCase{-43, 3, 15, "0044-03-15 BC"}, DateCase{-4713, 11, 24, "4714-11-24 BC"},
	      DateCase{9999, 12, 31, "9999-12-31"}, DateCase{10000, 1, 1, "10000-01-01"},
	      DateCase{5874897, 12, 31, "5874897-12-31"}}) {
		EXPECT_EQ(FormatAxisLiteral(DateAxis(c.year, c.month, c.day), ValueType::Date), Quoted(c.text)) << c.text;
	}
	EXPECT_EQ(FormatAxisLiteral(kInf, ValueType::Date), "'infinity'");
	EXPECT_EQ(FormatAxisLiteral(-kInf, ValueType::Date), "'-infinity'");
}

struct TimestampCase {
	std::int64_t year;
	int month, day, hh, mm, ss, usec;
	const char *timestamp;    // select v::timestamp, PostgreSQL 15
	const char *timestamptz;  // select v::timestamptz with TimeZone UTC, PostgreSQL 15 (nullptr: not asked)
};

TEST(FormatAxisLiteral, TimestampsAsPostgresPrintsThem)
{
	const TimestampCase cases[] = {
	    {2000, 1, 1, 0, 0, 0, 0, "2000-01-01 00:00:00", "2000-01-01 00:00:00+00"},
	    {2020, 1, 1, 10, 30, 0, 0, "2020-01-01 10:30:00", nullptr},
	    {2020, 1, 1, 10, 30, 0, 500000, "2020-01-01 10:30:00.5", "2020-01-01 10:30:00.5+00"},
	    {1999, 12, 31, 23, 59, 59, 999999, "1999-12-31 23:59:59.999999", "1999-12-31 23:59:59.999999+00"},
	    {1969, 12, 31, 23, 59, 59, 123000, "1969-12-31 23:59:59.123", nullptr},
	    {2000, 2, 29, 12, 0, 0, 1, "2000-02-29 12:00:00.000001", nullptr},
	    {1900, 2, 28, 1, 2, 3, 450000, "1900-02-28 01:02:03.45", nullptr},
	    {0, 12, 31, 23, 59, 59, 50000, "0001-12-31 23:59:59.05 BC", "0001-12-31 23:59:59.05+00 BC"},
	    {1, 1, 1, 0, 0, 0, 0, "0001-01-01 00:00:00", nullptr},
	    {-4713, 11, 24, 0, 0, 0, 0, "4714-11-24 00:00:00 BC", "4714-11-24 00:00:00+00 BC"},
	    {9999, 12, 31, 23, 59, 59, 0, "9999-12-31 23:59:59", nullptr},
	    {10000, 1, 1, 0, 0, 0, 0, "10000-01-01 00:00:00", "10000-01-01 00:00:00+00"},
	    {294276, 12, 31, 0, 0, 0, 0, "294276-12-31 00:00:00", "294276-12-31 00:00:00+00"},
	};
	for (const TimestampCase &c : cases) {
		const double v = TimestampAxis(c.year, c.month, c.day, c.hh, c.mm, c.ss, c.usec);
		EXPECT_EQ(FormatAxisLiteral(v, ValueType::Timestamp), Quoted(c.timestamp)) << c.timestamp;
		if (c.timestamptz != nullptr) {
			EXPECT_EQ(FormatAxisLiteral(v, ValueType::TimestampTz), Quoted(c.timestamptz)) << c.timestamptz;
		}
	}
	for (const ValueType type : {ValueType::Timestamp, ValueType::TimestampTz}) {
		EXPECT_EQ(FormatAxisLiteral(kInf, type), "'infinity'");
		EXPECT_EQ(FormatAxisLiteral(-kInf, type), "'-infinity'");
	}
}

TEST(FormatAxisLiteral, RoundsToWholeMicrosecondsAndDays)
{
	// As the glue did (llround: halves away from zero).
	EXPECT_EQ(FormatAxisLiteral(0.4, ValueType::Timestamp), "'2000-01-01 00:00:00'");
	EXPECT_EQ(FormatAxisLiteral(0.5, ValueType::Timestamp), "'2000-01-01 00:00:00.000001'");
	EXPECT_EQ(FormatAxisLiteral(-0.5, ValueType::Timestamp), "'1999-12-31 23:59:59.999999'");
	EXPECT_EQ(FormatAxisLiteral(-1.0, ValueType::TimestampTz), "'1999-12-31 23:59:59.999999+00'");
	EXPECT_EQ(FormatAxisLiteral(0.49 * kUsecsPerDay, ValueType::Date), "'2000-01-01'");
	EXPECT_EQ(FormatAxisLiteral(-0.5 * kUsecsPerDay, ValueType::Date), "'1999-12-31'");
}

TEST(FormatAxisLiteral, OutOfRangeIsADataException)
{
	const double first_day = DateAxis(-4713, 11, 24);
	const double after_last_day = DateAxis(5874898, 1, 1);
	const double first_usec = first_day;                              // MIN_TIMESTAMP
	const double end_usec = TimestampAxis(294277, 1, 1, 0, 0, 0, 0);  // END_TIMESTAMP, exclusive
	EXPECT_EQ(FormatAxisLiteral(first_day, ValueType::Date), "'4714-11-24 BC'");
	EXPECT_EQ(FormatAxisLiteral(after_last_day - kUsecsPerDay, ValueType::Date), "'5874897-12-31'");
	EXPECT_EQ(FormatAxisLiteral(first_usec, ValueType::Timestamp), "'4714-11-24 00:00:00 BC'");
	EXPECT_EQ(FormatAxisLiteral(end_usec - 2048, ValueType::Timestamp), "'294276-12-31 23:59:59.997952'");
	struct Bad {
		double value;
		ValueType type;
	};
	for (const Bad &b :
	     {Bad{first_day - kUsecsPerDay, ValueType::Date}, Bad{after_last_day, ValueType::Date},
	      Bad{1e300, ValueType::Date}, Bad{-1e300, ValueType::Date}, Bad{first_usec - 64, ValueType::Timestamp},
	      Bad{end_usec, ValueType::Timestamp}, Bad{end_usec, ValueType::TimestampTz},
	      Bad{-1e300, ValueType::TimestampTz}, Bad{std::numeric_limits<double>::max(), ValueType::Timestamp}}) {
		try {
			FormatAxisLiteral(b.value, b.type);
			ADD_FAILURE() << "no error for " << b.value;
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::DataException) << e.what();
			EXPECT_TRUE(std::string(e.what()) == "date out of range" ||
			            std::string(e.what()) == "timestamp out of range")
			    << e.what();
			EXPECT_FALSE(e.detail().empty());
		}
	}
	for (const ValueType type : {ValueType::Text, ValueType::Boolean}) {
		try {
			FormatAxisLiteral(1.0, type);
			ADD_FAILURE() << "no error";
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::Internal);
		}
	}
}

// Every day from 4714-11-24 BC to 10000-01-01, walking the calendar one day at a time.
TEST(FormatAxisLiteral, EveryDateAgreesWithACalendarWalk)
{
	std::int64_t y = -4713;
	int m = 11, d = 24;
	std::int64_t checked = 0;
	for (std::int64_t day = DaysSince2000(y, m, d); y <= 10000; ++day) {
		// Every day near the present and around year 0, a sample elsewhere (formatting is the slow part).
		if ((y >= 1890 && y <= 2110) || (y >= -2 && y <= 2) || day % 37 == 0) {
			char expected[48];
			std::snprintf(expected, sizeof expected, "'%04lld-%02d-%02d%s'", static_cast<long long>(y > 0 ? y : 1 - y),
			              m, d, y > 0 ? "" : " BC");
			ASSERT_EQ(FormatAxisLiteral(double(day) * kUsecsPerDay, ValueType::Date), expected) << day;
			++checked;
		}
		if (++d > MonthLength(y, m)) {
			d = 1;
			if (++m > 12) {
				m = 1;
				++y;
			}
		}
	}
	EXPECT_GT(checked, 150000);
}

// Random instants: the date part as a Date, the time of day from the microseconds.
TEST(FormatAxisLiteral, RandomTimestampsSplitIntoDateAndTime)
{
	std::mt19937_64 rng(3);
	const std::int64_t lo = -211813488000000000, hi = 9223371331200000000;
	for (int i = 0; i < 20000; ++i) {
		std::int64_t t;
		if (i % 2 == 0)
			t = std::int64_t(std::uint64_t(lo) + rng() % (std::uint64_t(hi) - std::uint64_t(lo)));
		else
			t = std::int64_t(rng() % 200000000000000) - 100000000000000;  // within ~3 years of 2000
		t -= t % 2048;  // exactly representable as a double everywhere in the range
		std::int64_t day = t / 86400000000, time = t % 86400000000;
		if (time < 0) {
			time += 86400000000;
			--day;
		}
		std::string date = FormatAxisLiteral(double(day) * kUsecsPerDay, ValueType::Date);
		date = date.substr(1, date.size() - 2);
		const bool bc = date.size() > 3 && date.compare(date.size() - 3, 3, " BC") == 0;
		if (bc)
			date.resize(date.size() - 3);
		char clock[32];
		std::snprintf(clock, sizeof clock, " %02d:%02d:%02d", int(time / 3600000000), int(time / 60000000 % 60),
		              int(time / 1000000 % 60));
		std::string fraction;
		if (time % 1000000 != 0) {
			char digits[16];
			std::snprintf(digits, sizeof digits, ".%06d", int(time % 1000000));
			fraction = digits;
			while (fraction.back() == '0')
				fraction.pop_back();
		}
		const std::string base = date + clock + fraction;
		ASSERT_EQ(FormatAxisLiteral(double(t), ValueType::Timestamp), Quoted(base + (bc ? " BC" : ""))) << t;
		ASSERT_EQ(FormatAxisLiteral(double(t), ValueType::TimestampTz), Quoted(base + "+00" + (bc ? " BC" : ""))) << t;
	}
}

TEST(FormatAxisLiteral, Numbers)
{
	EXPECT_EQ(FormatAxisLiteral(326, ValueType::Number), "326");
	EXPECT_EQ(FormatAxisLiteral(1.5, ValueType::Number), "1.5");
	EXPECT_EQ(FormatAxisLiteral(0.1, ValueType::Number), "0.1");
	EXPECT_EQ(FormatAxisLiteral(-2.5e-10, ValueType::Number), "-2.5e-10");
	EXPECT_EQ(FormatAxisLiteral(kInf, ValueType::Number), "'Infinity'");
	EXPECT_EQ(FormatAxisLiteral(-kInf, ValueType::Number), "'-Infinity'");
	const double nan = std::numeric_limits<double>::quiet_NaN();
	for (const ValueType type : {ValueType::Number, ValueType::Date, ValueType::Timestamp, ValueType::TimestampTz})
		EXPECT_EQ(FormatAxisLiteral(nan, type), "'NaN'");
}

TEST(FormatCategoryLiteral, BareOnlyWhenItReadsBack)
{
	EXPECT_EQ(FormatCategoryLiteral("37", ValueType::Number), "37");
	EXPECT_EQ(FormatCategoryLiteral("-1.5e3", ValueType::Number), "-1.5e3");
	EXPECT_EQ(FormatCategoryLiteral("NaN", ValueType::Number), "'NaN'");
	EXPECT_EQ(FormatCategoryLiteral("Infinity", ValueType::Number), "'Infinity'");
	EXPECT_EQ(FormatCategoryLiteral("true", ValueType::Boolean), "true");
	EXPECT_EQ(FormatCategoryLiteral("false", ValueType::Boolean), "false");
	EXPECT_EQ(FormatCategoryLiteral("t", ValueType::Boolean), "'t'");
	EXPECT_EQ(FormatCategoryLiteral("Male", ValueType::Text), "'Male'");
	EXPECT_EQ(FormatCategoryLiteral("O'Brien", ValueType::Text), "'O''Brien'");
	EXPECT_EQ(FormatCategoryLiteral("37", ValueType::Text), "'37'");
	EXPECT_EQ(FormatCategoryLiteral("2020-01-01", ValueType::Date), "'2020-01-01'");
	EXPECT_EQ(FormatCategoryLiteral("", ValueType::Text), "''");
}

TEST(QuoteLiteral, DoublesSingleQuotesOnly)
{
	EXPECT_EQ(QuoteLiteral(""), "''");
	EXPECT_EQ(QuoteLiteral("it's"), "'it''s'");
	EXPECT_EQ(QuoteLiteral("''"), "''''''");
	// Backslashes stay single: with standard_conforming_strings (the default) PostgreSQL reads 'a\b' as a\b,
	// and the query parser has no E'' strings.
	EXPECT_EQ(QuoteLiteral("a\\b"), "'a\\b'");
}

// Every literal reads back through the query parser as the text formatted.
TEST(FormatLiterals, ReadBackThroughTheQueryParser)
{
	std::mt19937_64 rng(11);
	const std::string alphabet = "aZ09 '\"\\.-+e\xc3\xa9\t";
	const ValueType types[] = {ValueType::Number, ValueType::Text, ValueType::Boolean, ValueType::Date};
	for (int i = 0; i < 5000; ++i) {
		std::string category;
		const std::size_t length = rng() % 8;
		for (std::size_t k = 0; k < length; ++k)
			category += alphabet[rng() % alphabet.size()];
		if (i % 7 == 0)
			category = i % 2 ? "true" : "false";
		if (i % 5 == 0)
			category = std::to_string(std::int64_t(rng() % 2000) - 1000);
		const ValueType type = types[rng() % 4];
		const std::string literal = FormatCategoryLiteral(category, type);
		const QueryText q = ParseQueryText("x = " + literal);
		ASSERT_EQ(q.conditions.size(), 1u) << literal;
		EXPECT_EQ(q.conditions[0].value.text, category) << literal;
		EXPECT_EQ(q.conditions[0].value.quoted, literal[0] == '\'') << literal;
	}
	for (int i = 0; i < 5000; ++i) {
		const double v = double(std::int64_t(rng() % 4000000000000000) - 2000000000000000);
		for (const ValueType type : {ValueType::Date, ValueType::Timestamp, ValueType::TimestampTz}) {
			const std::string literal = FormatAxisLiteral(v, type);
			const QueryText q = ParseQueryText("x = " + literal);
			EXPECT_TRUE(q.conditions[0].value.quoted);
			EXPECT_EQ("'" + q.conditions[0].value.text + "'", literal);
		}
	}
}

}  // namespace
}  // namespace pap::core
