// Tests of the query class language parser (core/class_spec.hpp): every class with quoting, whitespace and case;
// canonical text round trips for random valid specs and for random non-canonical spellings of them; every error
// kind with its position over a broad set of malformed inputs; limits; and a randomized check that no byte
// sequence makes the parser do anything but return a valid spec or throw a well-formed pap::core::Error.
#include "core/language/class_spec.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {
namespace {

const char *
KindText(ErrorKind kind)
{
	switch (kind) {
	case ErrorKind::InvalidParameter: return "InvalidParameter";
	case ErrorKind::SyntaxError: return "SyntaxError";
	case ErrorKind::LimitExceeded: return "LimitExceeded";
	default: return "other kind";
	}
}

// The error a parse raised; fails the test if it returned or raised anything else.
Error
SpecError(std::string_view text)
{
	try {
		ParseClassSpec(text);
	} catch (const Error &e) {
		return e;
	} catch (const std::exception &e) {
		ADD_FAILURE() << "unexpected exception " << e.what() << " for \"" << text << "\"";
		return Error(ErrorKind::Internal, "other exception");
	}
	ADD_FAILURE() << "no error for \"" << text << "\"";
	return Error(ErrorKind::Internal, "no error");
}

// The byte offset an error carries (Error::position, the glue's errposition), or -1.
long
PositionOf(const Error &e)
{
	return e.position() == Error::kNoPosition ? -1 : long(e.position());
}

bool
Contains(const std::string &haystack, std::string_view needle)
{
	return haystack.find(needle) != std::string::npos;
}

// Conventions every error keeps: one-line lowercase message without final period, a detail sentence, a hint
// sentence if any.
void
ExpectWellFormed(const Error &e)
{
	const std::string message = e.what();
	ASSERT_FALSE(message.empty());
	EXPECT_FALSE(std::isupper(static_cast<unsigned char>(message[0]))) << message;
	EXPECT_NE(message.back(), '.') << message;
	EXPECT_EQ(message.find('\n'), std::string::npos) << message;
	EXPECT_FALSE(e.detail().empty()) << message;
	if (!e.detail().empty()) {
		EXPECT_EQ(e.detail().back(), '.') << e.detail();
	}
	if (!e.hint().empty()) {
		EXPECT_EQ(e.hint().back(), '.') << e.hint();
	}
}

struct ErrorCase {
	std::string text;
	ErrorKind kind;
	long position;         // -1: the error names no position
	std::string fragment;  // must appear in the message
};

void
CheckErrors(const std::vector<ErrorCase> &cases)
{
	for (const ErrorCase &c : cases) {
		SCOPED_TRACE("input: \"" + c.text + "\"");
		const Error e = SpecError(c.text);
		EXPECT_STREQ(KindText(e.kind()), KindText(c.kind)) << e.what();
		EXPECT_EQ(PositionOf(e), c.position) << e.what() << " / " << e.detail();
		EXPECT_TRUE(Contains(e.what(), c.fragment)) << e.what() << "\n  lacks: " << c.fragment;
		ExpectWellFormed(e);
	}
}

using Columns = std::vector<std::string>;
using Directions = std::vector<std::vector<double>>;

// ---------------------------------------------------------------------------------------------------------------
// Every class

TEST(ParseClassSpec, EveryClassOfTheDesign)
{
	ClassSpec s = ParseClassSpec("thresholds(price)");
	EXPECT_EQ(s.kind, ClassKind::Thresholds);
	EXPECT_EQ(s.columns, Columns{"price"});
	EXPECT_EQ(s.k, 0);
	EXPECT_TRUE(s.directions.empty());
	EXPECT_TRUE(s.predicates.empty());

	s = ParseClassSpec("ranges(price)");
	EXPECT_EQ(s.kind, ClassKind::Ranges);
	EXPECT_EQ(s.columns, Columns{"price"});

	s = ParseClassSpec("boxes(carat, price)");
	EXPECT_EQ(s.kind, ClassKind::Boxes);
	EXPECT_EQ(s.columns, (Columns{"carat", "price"}));

	s = ParseClassSpec("orthants(carat, price)");
	EXPECT_EQ(s.kind, ClassKind::Orthants);
	EXPECT_EQ(s.columns, (Columns{"carat", "price"}));

	s = ParseClassSpec("marginals(3; age, workclass, sex, race)");
	EXPECT_EQ(s.kind, ClassKind::Marginals);
	EXPECT_EQ(s.k, 3);
	EXPECT_EQ(s.columns, (Columns{"age", "workclass", "sex", "race"}));

	s = ParseClassSpec("stumps(a, b, c)");
	EXPECT_EQ(s.kind, ClassKind::Stumps);
	EXPECT_EQ(s.columns, (Columns{"a", "b", "c"}));
	EXPECT_EQ(s.k, 0);

	s = ParseClassSpec("halfspaces(x, y; [1, 2], [1, -1])");
	EXPECT_EQ(s.kind, ClassKind::Halfspaces);
	EXPECT_EQ(s.columns, (Columns{"x", "y"}));
	EXPECT_EQ(s.directions, (Directions{{1, 2}, {1, -1}}));
	EXPECT_TRUE(s.predicates.empty());

	s = ParseClassSpec("predicates('age > 40 AND income < 1000', 'sex = 1')");
	EXPECT_EQ(s.kind, ClassKind::Predicates);
	EXPECT_TRUE(s.columns.empty());
	EXPECT_EQ(s.predicates, (Columns{"age > 40 AND income < 1000", "sex = 1"}));
}

TEST(ParseClassSpec, SmallestAndLargestArities)
{
	EXPECT_EQ(ParseClassSpec("boxes(a)").columns, Columns{"a"});
	EXPECT_EQ(ParseClassSpec("orthants(a)").columns, Columns{"a"});
	EXPECT_EQ(ParseClassSpec("stumps(a)").columns, Columns{"a"});
	ClassSpec m = ParseClassSpec("marginals(1; a)");
	EXPECT_EQ(m.k, 1);
	m = ParseClassSpec("marginals(2; a, b)");
	EXPECT_EQ(m.k, 2);
	const ClassSpec h = ParseClassSpec("halfspaces(x; [-2])");
	EXPECT_EQ(h.directions, Directions{{-2}});
	EXPECT_EQ(ParseClassSpec("predicates('true')").predicates, Columns{"true"});

	std::string text = "stumps(";
	for (std::size_t i = 0; i < kMaxClassColumns; ++i)
		text += (i ? ", c" : "c") + std::to_string(i);
	EXPECT_EQ(ParseClassSpec(text + ")").columns.size(), kMaxClassColumns);
	EXPECT_EQ(ParseClassSpec("marginals(64; " + text.substr(7) + ")").k, 64);
}

TEST(ParseClassSpec, ClassNamesAreCaseInsensitive)
{
	for (const char *text :
	     {"THRESHOLDS(a)", "Thresholds(a)", "tHrEsHoLdS(a)", "\"Thresholds\"(a)", "\"thresholds\"(a)"})
		EXPECT_EQ(ParseClassSpec(text).kind, ClassKind::Thresholds) << text;
	EXPECT_EQ(ParseClassSpec("MARGINALS(1; A)").kind, ClassKind::Marginals);
	EXPECT_EQ(ParseClassSpec("HalfSpaces(X; [1])").kind, ClassKind::Halfspaces);
	EXPECT_EQ(ParseClassSpec("PREDICATES('A = 1')").predicates, Columns{"A = 1"});  // the text is not folded
}

TEST(ParseClassSpec, IdentifiersAsInSql)
{
	EXPECT_EQ(ParseClassSpec("boxes(Price, CARAT, dEpTh)").columns, (Columns{"price", "carat", "depth"}));
	EXPECT_EQ(ParseClassSpec(R"(boxes("Price", "a""b", "with space", "and", "BETWEEN", "é", """"))").columns,
	          (Columns{"Price", "a\"b", "with space", "and", "BETWEEN", "é", "\""}));
	EXPECT_EQ(ParseClassSpec(R"(boxes(a, "A"))").columns, (Columns{"a", "A"}));  // quoted keeps case: distinct
	EXPECT_EQ(ParseClassSpec("boxes(_x$1, x_2, andy, betweenness, thresholds)").columns,
	          (Columns{"_x$1", "x_2", "andy", "betweenness", "thresholds"}));
	EXPECT_EQ(ParseClassSpec(R"(marginals(1; "x)y;[1]"))").columns, Columns{"x)y;[1]"});
	EXPECT_EQ(ParseClassSpec(R"(halfspaces("X", x; [1, 2]))").columns, (Columns{"X", "x"}));
}

TEST(ParseClassSpec, WhitespaceAnywhereAndNowhere)
{
	const ClassSpec a = ParseClassSpec(" \t\n halfspaces \r\n( x\t,\fy\v;\n[ 1 ,2 ]\n,\t[ 1,-1 ] )\n ");
	EXPECT_EQ(a, ParseClassSpec("halfspaces(x,y;[1,2],[1,-1])"));
	EXPECT_EQ(a.directions, (Directions{{1, 2}, {1, -1}}));
	EXPECT_EQ(ParseClassSpec("\nmarginals\n(\n2\n;\na\n,\nb\n)\n"), ParseClassSpec("marginals(2;a,b)"));
	EXPECT_EQ(ParseClassSpec("predicates ( 'a' , 'b' ) ").predicates, (Columns{"a", "b"}));
	EXPECT_EQ(ParseClassSpec("predicates('a','b')").predicates, (Columns{"a", "b"}));
	EXPECT_EQ(ParseClassSpec("boxes(a,b,c)").columns, (Columns{"a", "b", "c"}));
	EXPECT_EQ(ParseClassSpec("marginals(+2;a,b)").k, 2);
	EXPECT_EQ(ParseClassSpec("marginals(002; a, b)").k, 2);
}

TEST(ParseClassSpec, WeightsReadAsDoubles)
{
	struct Case {
		const char *text;
		double value;
	};
	const double denorm = std::numeric_limits<double>::denorm_min();
	for (const Case &c : {Case{"0", 0},
	                      Case{"42", 42},
	                      Case{"+42", 42},
	                      Case{"-42", -42},
	                      Case{"3.5", 3.5},
	                      Case{"-3.5", -3.5},
	                      Case{".5", 0.5},
	                      Case{"-.5", -0.5},
	                      Case{"+.5", 0.5},
	                      Case{"1e6", 1e6},
	                      Case{"1E6", 1e6},
	                      Case{"1e+6", 1e6},
	                      Case{"1e-6", 1e-6},
	                      Case{"-2.5E-10", -2.5e-10},
	                      Case{"007", 7},
	                      Case{"0.1", 0.1},
	                      Case{"1.7976931348623157e308", 1.7976931348623157e308},
	                      Case{"2.2250738585072014e-308", 2.2250738585072014e-308},
	                      Case{"5e-324", denorm},
	                      Case{"4e-324", denorm},
	                      Case{"123456789012345678901234567890", 1.2345678901234568e29}}) {
		const ClassSpec s = ParseClassSpec(std::string("halfspaces(x, y; [1, ") + c.text + "])");
		ASSERT_EQ(s.directions.size(), 1u) << c.text;
		EXPECT_EQ(s.directions[0][1], c.value) << c.text;
	}
	// -0 and zeros with exponents are zero, stored as +0 (one normal form).
	for (const char *zero : {"-0", "-0.0", "0e-999", "-0e400", "+0"}) {
		const ClassSpec s = ParseClassSpec(std::string("halfspaces(x, y; [1, ") + zero + "])");
		EXPECT_EQ(s.directions[0][1], 0.0) << zero;
		EXPECT_FALSE(std::signbit(s.directions[0][1])) << zero;
	}
}

TEST(ParseClassSpec, PredicatesKeptVerbatim)
{
	const ClassSpec s = ParseClassSpec(
	    "predicates('it''s', '''', 'a, b); [c]', '\"x\" IS NULL', 'line\nbreak', '  padded  ', 'é = ''ü''', "
	    "'--', '/* */')");
	EXPECT_EQ(s.predicates, (Columns{"it's", "'", "a, b); [c]", "\"x\" IS NULL", "line\nbreak", "  padded  ", "é = 'ü'",
	                                 "--", "/* */"}));
	// The same text twice is kept twice: the parser does not interpret predicates.
	EXPECT_EQ(ParseClassSpec("predicates('a', 'a')").predicates, (Columns{"a", "a"}));
}

TEST(ParseClassSpec, EqualityComparesEveryField)
{
	const ClassSpec a = ParseClassSpec("halfspaces(x, y; [1, 2])");
	EXPECT_EQ(a, ParseClassSpec("HALFSPACES(X, Y; [1.0, 2e0])"));
	EXPECT_NE(a, ParseClassSpec("halfspaces(x, y; [1, 3])"));
	EXPECT_NE(a, ParseClassSpec("halfspaces(y, x; [1, 2])"));
	EXPECT_NE(ParseClassSpec("boxes(a, b)"), ParseClassSpec("orthants(a, b)"));
	EXPECT_NE(ParseClassSpec("marginals(1; a, b)"), ParseClassSpec("marginals(2; a, b)"));
	EXPECT_NE(ParseClassSpec("predicates('a')"), ParseClassSpec("predicates('a ')"));
}

// ---------------------------------------------------------------------------------------------------------------
// Canonical text

TEST(CanonicalText, NormalForms)
{
	struct Case {
		const char *text;
		const char *canonical;
	};
	for (const Case &c : {
	         Case{"THRESHOLDS( Price )", "thresholds(price)"},
	         Case{"ranges(\"Price\")", "ranges(\"Price\")"},
	         Case{"boxes(\"carat\",PRICE)", "boxes(carat, price)"},
	         Case{"orthants(\"and\", \"a b\", \"x\"\"y\", \"é\", \"1x\")",
	              "orthants(\"and\", \"a b\", \"x\"\"y\", \"é\", \"1x\")"},
	         Case{"marginals(+03;age,workclass,sex,race)", "marginals(3; age, workclass, sex, race)"},
	         Case{"stumps(a,b ,c)", "stumps(a, b, c)"},
	         Case{"halfspaces(x,y;[1.0,2],[+1,-1.00])", "halfspaces(x, y; [1, 2], [1, -1])"},
	         Case{"halfspaces(x, y; [0.1, -0], [1e6, 2.5e-10], [1e22, 1e23])",
	              "halfspaces(x, y; [0.1, 0], [1e+06, 2.5e-10], [1e+22, 1e+23])"},
	         Case{"halfspaces(x; [5e-324], [1.7976931348623157e308], [123456.789])",
	              "halfspaces(x; [5e-324], [1.7976931348623157e+308], [123456.789])"},
	         Case{"predicates( 'age > 40 AND income < 1000' ,'it''s')",
	              "predicates('age > 40 AND income < 1000', 'it''s')"},
	     }) {
		const ClassSpec s = ParseClassSpec(c.text);
		EXPECT_EQ(s.CanonicalText(), c.canonical) << c.text;
		EXPECT_EQ(ParseClassSpec(s.CanonicalText()), s) << c.text;
	}
}

TEST(CanonicalText, ClassKindNames)
{
	const std::vector<std::pair<ClassKind, const char *>> names = {
	    {ClassKind::Thresholds, "thresholds"}, {ClassKind::Ranges, "ranges"},        {ClassKind::Boxes, "boxes"},
	    {ClassKind::Orthants, "orthants"},     {ClassKind::Marginals, "marginals"},  {ClassKind::Stumps, "stumps"},
	    {ClassKind::Halfspaces, "halfspaces"}, {ClassKind::Predicates, "predicates"}};
	for (const auto &[kind, name] : names)
		EXPECT_STREQ(ClassKindName(kind), name);
}

// Random valid specs. Column names draw on the characters that need quoting, keywords and class names.
class SpecGenerator {
public:
	explicit SpecGenerator(std::uint64_t seed) : rng_(seed) {}

	ClassSpec
	Spec()
	{
		ClassSpec s;
		s.kind = static_cast<ClassKind>(rng_() % 8);
		const std::size_t max_columns = rng_() % 8 == 0 ? kMaxClassColumns : 5;
		const std::size_t d = 1 + rng_() % max_columns;
		switch (s.kind) {
		case ClassKind::Thresholds:
		case ClassKind::Ranges: s.columns = DistinctNames(1); break;
		case ClassKind::Marginals:
			s.columns = DistinctNames(d);
			s.k = 1 + static_cast<int>(rng_() % d);
			break;
		case ClassKind::Halfspaces: {
			s.columns = DistinctNames(d);
			const std::size_t count = 1 + rng_() % 4;
			for (std::size_t i = 0; i < count; ++i) {
				std::vector<double> w(d);
				bool nonzero = false;
				for (double &x : w) {
					x = Weight();
					nonzero = nonzero || x != 0;
				}
				if (!nonzero)
					w[rng_() % d] = Weight(true);
				s.directions.push_back(std::move(w));
			}
			break;
		}
		case ClassKind::Predicates: {
			const std::size_t count = 1 + rng_() % 5;
			for (std::size_t i = 0; i < count; ++i)
				s.predicates.push_back(Predicate());
			break;
		}
		default: s.columns = DistinctNames(d); break;
		}
		return s;
	}

	// The same spec written differently: random whitespace, case of the class name, quoting of names that need
	// none, folding of lower-case names from upper case, other spellings of numbers and of the order.
	std::string
	Respell(const ClassSpec &s)
	{
		std::string out = Space();
		std::string name = ClassKindName(s.kind);
		for (char &c : name)
			if (rng_() % 2)
				c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
		out += rng_() % 4 == 0 ? "\"" + name + "\"" : name;
		out += Space() + "(" + Space();
		const auto columns = [&] {
			for (std::size_t i = 0; i < s.columns.size(); ++i) {
				if (i > 0)
					out += Space() + "," + Space();
				out += Identifier(s.columns[i]);
			}
		};
		switch (s.kind) {
		case ClassKind::Marginals:
			out += std::string(rng_() % 2 ? "+" : "") + std::string(rng_() % 3, '0') + std::to_string(s.k);
			out += Space() + ";" + Space();
			columns();
			break;
		case ClassKind::Halfspaces:
			columns();
			out += Space() + ";" + Space();
			for (std::size_t d = 0; d < s.directions.size(); ++d) {
				if (d > 0)
					out += Space() + "," + Space();
				out += "[" + Space();
				for (std::size_t i = 0; i < s.directions[d].size(); ++i) {
					if (i > 0)
						out += Space() + "," + Space();
					out += Number(s.directions[d][i]);
				}
				out += Space() + "]";
			}
			break;
		case ClassKind::Predicates:
			for (std::size_t i = 0; i < s.predicates.size(); ++i) {
				if (i > 0)
					out += Space() + "," + Space();
				out += "'";
				for (const char c : s.predicates[i])
					out += c == '\'' ? std::string("''") : std::string(1, c);
				out += "'";
			}
			break;
		default: columns(); break;
		}
		return out + Space() + ")" + Space();
	}

private:
	std::string
	Name()
	{
		static const std::vector<std::string> pieces = {
		    "a", "b", "x", "y", "z", "_",  "$",  "0", "7", "X",   "Q",       " ",     "\"",    "'",  ".", ",",
		    ";", "(", ")", "[", "]", "\t", "\n", "é", "ü", "and", "between", "boxes", "price", "e1", "-", "+"};
		std::string name;
		const std::size_t length = 1 + rng_() % 6;
		for (std::size_t i = 0; i < length; ++i)
			name += pieces[rng_() % pieces.size()];
		return name;
	}

	Columns
	DistinctNames(std::size_t count)
	{
		Columns names;
		std::set<std::string> seen;
		while (names.size() < count) {
			std::string name = Name();
			if (seen.insert(name).second)
				names.push_back(std::move(name));
		}
		return names;
	}

	double
	Weight(bool nonzero = false)
	{
		for (;;) {
			double w = 0;
			switch (rng_() % 6) {
			case 0: w = static_cast<double>(static_cast<int>(rng_() % 11) - 5); break;
			case 1:
				w = static_cast<double>(static_cast<std::int64_t>(rng_() % 2000001) - 1000000) /
				    std::pow(10.0, static_cast<double>(rng_() % 8));
				break;
			case 2: {  // any finite double, denormals included
				const std::uint64_t bits = rng_();
				std::memcpy(&w, &bits, sizeof w);
				if (!std::isfinite(w))
					w = 1;
				break;
			}
			case 3: {
				const double specials[] = {std::numeric_limits<double>::max(),
				                           -std::numeric_limits<double>::max(),
				                           std::numeric_limits<double>::min(),
				                           std::numeric_limits<double>::denorm_min(),
				                           0.1,
				                           1.0 / 3,
				                           1e22,
				                           1e23};
				w = specials[rng_() % 8];
				break;
			}
			default: w = std::uniform_real_distribution<double>(-100, 100)(rng_); break;
			}
			if (w == 0)
				w = 0.0;
			if (!nonzero || w != 0)
				return w;
		}
	}

	std::string
	Predicate()
	{
		static const std::vector<std::string> pieces = {"age", " > ", "40", " AND ",   "'",  "''", "\"",
		                                                "(",   ")",   ",",  ";",       "[",  "]",  " ",
		                                                "\n",  "\t",  "é",  "x = 'a'", "--", "/*"};
		std::string text;
		const std::size_t length = 1 + rng_() % 8;
		for (std::size_t i = 0; i < length; ++i)
			text += pieces[rng_() % pieces.size()];
		bool blank = true;
		for (const char c : text)
			blank = blank && std::isspace(static_cast<unsigned char>(c));
		return blank ? text + "x" : text;
	}

	std::string
	Space()
	{
		static const char *spaces[] = {"", "", " ", "  ", "\n", "\t", " \r\n\f\v "};
		return spaces[rng_() % 7];
	}

	std::string
	Identifier(const std::string &name)
	{
		const std::string quoted = QuoteIdentifier(name);
		if (quoted != name)
			return quoted;  // needs quotes
		switch (rng_() % 3) {
		case 0: {
			std::string upper = name;
			for (char &c : upper)
				c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
			return upper;  // folds back to name
		}
		case 1: return "\"" + name + "\"";  // quotes that are not needed
		default: return name;
		}
	}

	std::string
	Number(double w)
	{
		char buf[64];
		switch (rng_() % 3) {
		case 0: std::snprintf(buf, sizeof buf, "%.17g", w); break;
		case 1: std::snprintf(buf, sizeof buf, "%+.16e", w); break;
		default: std::snprintf(buf, sizeof buf, "%.17G", w); break;
		}
		return buf;
	}

	std::mt19937_64 rng_;
};

TEST(CanonicalText, RoundTripsRandomValidSpecs)
{
	SpecGenerator gen(20250611);
	for (int i = 0; i < 3000; ++i) {
		const ClassSpec s = gen.Spec();
		const std::string canonical = s.CanonicalText();
		SCOPED_TRACE(canonical);
		ClassSpec back;
		ASSERT_NO_THROW(back = ParseClassSpec(canonical));
		ASSERT_EQ(back, s);
		EXPECT_EQ(back.CanonicalText(), canonical);
		// Any other spelling of the same spec parses to it and renders the same canonical text.
		const std::string respelled = gen.Respell(s);
		SCOPED_TRACE(respelled);
		ClassSpec again;
		ASSERT_NO_THROW(again = ParseClassSpec(respelled));
		EXPECT_EQ(again, s);
		EXPECT_EQ(again.CanonicalText(), canonical);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

TEST(ParseClassSpec, SyntaxErrors)
{
	const ErrorKind S = ErrorKind::SyntaxError;
	const std::string col = "expected a column name but found ";
	const std::string order = "expected an integer order k but found ";
	const std::string number = "expected a number but found ";
	const std::string predicate = "expected a predicate in single quotes but found ";
	CheckErrors({
	    // the name and the parentheses
	    {"", S, 0, "the query class is empty"},
	    {"  \n\t", S, 4, "the query class is empty"},
	    {"thresholds", S, 10, "expected \"(\" but found end of input"},
	    {"thresholds price", S, 11, "expected \"(\" but found \"price\""},
	    {"thresholds[price]", S, 10, "expected \"(\" but found \"[\""},
	    {"(price)", S, 0, "expected a query class name but found \"(\""},
	    {"3(price)", S, 0, "expected a query class name but found \"3\""},
	    {"'thresholds'(price)", S, 0, "expected a query class name but found 'thresholds'"},
	    {"\xff(a)", S, 0, "expected a query class name but found byte 0xff"},
	    {"\"\"(a)", S, 0, "zero-length quoted identifier"},
	    {"\"boxes(a)", S, 0, "unterminated quoted identifier"},
	    // column lists
	    {"thresholds(", S, 11, col + "end of input"},
	    {"thresholds(a,)", S, 13, col + "\")\""},
	    {"boxes(a, ,b)", S, 9, col + "\",\""},
	    {"boxes(,a)", S, 6, col + "\",\""},
	    {"boxes(a b)", S, 8, "expected \",\" or \")\" but found \"b\""},
	    {"boxes(a", S, 7, "expected \",\" or \")\" but found end of input"},
	    {"boxes(a;b)", S, 7, "expected \",\" or \")\" but found \";\""},
	    {"boxes(a))", S, 8, "expected end of input but found \")\""},
	    {"boxes(a) x", S, 9, "expected end of input but found \"x\""},
	    {"boxes(a);", S, 8, "expected end of input but found \";\""},
	    {"boxes(a)\xff", S, 8, "expected end of input but found byte 0xff"},
	    {"boxes(1)", S, 6, col + "\"1\""},
	    {"boxes('a')", S, 6, col + "'a'"},
	    {"boxes(and)", S, 6, col + "keyword \"and\""},
	    {"boxes(a, Between)", S, 9, col + "keyword \"Between\""},
	    {"boxes(\"a)", S, 6, "unterminated quoted identifier"},
	    {"boxes(\"\")", S, 6, "zero-length quoted identifier"},
	    {"boxes(a.b)", S, 7, "expected \",\" or \")\" but found \".\""},
	    {"boxes(1.2.3)", S, 6, "invalid number \"1.2.3\""},
	    {"boxes(\xc3\xa9t\xc3\xa9)", S, 6, col + "\"\xc3\xa9\""},
	    {"boxes(a, [1])", S, 9, col + "\"[\""},
	    {"stumps(a, b", S, 11, "expected \",\" or \")\" but found end of input"},
	    {"orthants(a) (b)", S, 12, "expected end of input but found \"(\""},
	    // NUL bytes anywhere, even inside quotes
	    {std::string("\0", 1), S, 0, "unexpected NUL byte"},
	    {std::string("boxes(a\0b)", 10), S, 7, "unexpected NUL byte"},
	    {std::string("predicates('a\0')", 16), S, 13, "unexpected NUL byte"},
	    // marginals
	    {"marginals(", S, 10, order + "end of input"},
	    {"marginals(a, b)", S, 10, order + "\"a\""},
	    {"marginals(2.5; a, b)", S, 10, order + "\"2.5\""},
	    {"marginals(1e1; a)", S, 10, order + "\"1e1\""},
	    {"marginals('2'; a)", S, 10, order + "'2'"},
	    {"marginals(- 2; a)", S, 10, order + "\"-\""},
	    {"marginals(;a)", S, 10, order + "\";\""},
	    {"marginals(2, a, b)", S, 11, "expected \";\" but found \",\""},
	    {"marginals(2)", S, 11, "expected \";\" but found \")\""},
	    {"marginals(2 a)", S, 12, "expected \";\" but found \"a\""},
	    {"marginals(2;)", S, 12, col + "\")\""},
	    {"marginals(2;; a)", S, 12, col + "\";\""},
	    {"marginals(2; a; b)", S, 14, "expected \",\" or \")\" but found \";\""},
	    {"marginals(2; a, b", S, 17, "expected \",\" or \")\" but found end of input"},
	    // halfspaces
	    {"halfspaces(x y; [1])", S, 13, "expected \",\" or \";\" but found \"y\""},
	    {"halfspaces(x, y", S, 15, "expected \",\" or \";\" but found end of input"},
	    {"halfspaces(x, y;)", S, 16, "expected \"[\" but found \")\""},
	    {"halfspaces(x, y; 1, 2)", S, 17, "expected \"[\" but found \"1\""},
	    {"halfspaces(x, y; (1, 2))", S, 17, "expected \"[\" but found \"(\""},
	    {"halfspaces(x, y; [1, 2]", S, 23, "expected \",\" or \")\" but found end of input"},
	    {"halfspaces(x, y; [1, 2] [1, 3])", S, 24, "expected \",\" or \")\" but found \"[\""},
	    {"halfspaces(x, y; [1 2])", S, 20, "expected \",\" or \"]\" but found \"2\""},
	    {"halfspaces(x, y; [1, 2)", S, 22, "expected \",\" or \"]\" but found \")\""},
	    {"halfspaces(x, y; [1, a])", S, 21, number + "\"a\""},
	    {"halfspaces(x, y; [1, ])", S, 21, number + "\"]\""},
	    {"halfspaces(x, y; [1,,2])", S, 20, number + "\",\""},
	    {"halfspaces(x, y; [1, '2'])", S, 21, number + "'2'"},
	    {"halfspaces(x, y; [1, - 2])", S, 21, number + "\"-\""},
	    {"halfspaces(x, y; [1, 2e])", S, 21, "invalid number \"2e\""},
	    {"halfspaces(x, y; [1, 0x10])", S, 21, "invalid number \"0x10\""},
	    {"halfspaces(x, y; [1, 1.])", S, 21, "invalid number \"1.\""},
	    {"halfspaces(x, y; [[1, 2]])", S, 18, number + "\"[\""},
	    {"halfspaces(x; [inf])", S, 15, number + "\"inf\""},
	    {"halfspaces(x; [NaN])", S, 15, number + "\"NaN\""},
	    {"halfspaces(x; [1],)", S, 18, "expected \"[\" but found \")\""},
	    {"halfspaces(x; [1]; [2])", S, 17, "expected \",\" or \")\" but found \";\""},
	    // predicates
	    {"predicates(age > 40)", S, 11, predicate + "\"age\""},
	    {"predicates(\"a\")", S, 11, predicate + "\"a\""},
	    {"predicates(E'a')", S, 11, "escape string constants (E'...') are not supported in a query class"},
	    {"predicates(e 'a')", S, 11, predicate + "\"e\""},
	    {"predicates(1)", S, 11, predicate + "\"1\""},
	    {"predicates('a' 'b')", S, 15, "expected \",\" or \")\" but found 'b'"},
	    {"predicates('a', )", S, 16, predicate + "\")\""},
	    {"predicates('a'; 'b')", S, 14, "expected \",\" or \")\" but found \";\""},
	    {"predicates('a')'b'", S, 15, "expected end of input but found 'b'"},
	    {"predicates('a)", S, 11, "unterminated quoted string"},
	    {"predicates('it''s)", S, 11, "unterminated quoted string"},
	    {"predicates('a', 'b", S, 16, "unterminated quoted string"},
	});
}

TEST(ParseClassSpec, InvalidParameters)
{
	const ErrorKind P = ErrorKind::InvalidParameter;
	CheckErrors({
	    // unknown classes, at the name
	    {"nosuch(a)", P, 0, "unknown query class \"nosuch\""},
	    {"  Foo(a)", P, 2, "unknown query class \"foo\""},
	    {"\"boxes \"(a)", P, 0, "unknown query class \"boxes \""},
	    {"threshold(a)", P, 0, "unknown query class \"threshold\""},
	    {"and", P, 0, "unknown query class \"and\""},
	    {"box", P, 0, "unknown query class \"box\""},
	    {"nosuch(", P, 0, "unknown query class \"nosuch\""},  // the first problem from the left
	    // no arguments at all, at the closing parenthesis
	    {"thresholds()", P, 11, "query class thresholds takes exactly one column, got 0"},
	    {"ranges( )", P, 8, "query class ranges takes exactly one column, got 0"},
	    {"boxes()", P, 6, "query class boxes takes at least one column, got 0"},
	    {"orthants(\n)", P, 10, "query class orthants takes at least one column, got 0"},
	    {"stumps()", P, 7, "query class stumps takes at least one column, got 0"},
	    {"marginals()", P, 10, "query class marginals takes an order and at least one column, got none"},
	    {"halfspaces()", P, 11, "query class halfspaces takes at least one column and one direction, got none"},
	    {"predicates()", P, 11, "query class predicates takes at least one predicate, got 0"},
	    // too many columns for a one-column class, at the second column
	    {"thresholds(a, b)", P, 14, "query class thresholds takes exactly one column, got 2"},
	    {"ranges(a, b, c)", P, 10, "query class ranges takes exactly one column, got 3"},
	    // duplicate columns, at the second mention
	    {"boxes(a, a)", P, 9, "column \"a\" appears twice in query class"},
	    {"boxes(a, A)", P, 9, "column \"a\" appears twice in query class"},
	    {"boxes(a, \"a\")", P, 9, "column \"a\" appears twice in query class"},
	    {"stumps(x, y, z, y)", P, 16, "column \"y\" appears twice in query class"},
	    {"marginals(1; a, b, a)", P, 19, "column \"a\" appears twice in query class"},
	    {"halfspaces(x, X; [1, 2])", P, 14, "column \"x\" appears twice in query class"},
	    {"thresholds(a, a)", P, 14, "column \"a\" appears twice in query class"},
	    {"boxes(\"Q\"\"\", \"Q\"\"\")", P, 13, "column \"Q\"\" appears twice in query class"},
	    {"boxes(a, a, ", P, 9, "column \"a\" appears twice"},  // found before the later syntax error
	    // marginals' order, at the order
	    {"marginals(0; a)", P, 10, "order 0 of query class marginals is out of range"},
	    {"marginals(3; a, b)", P, 10, "order 3 of query class marginals is out of range"},
	    {"marginals(-1; a)", P, 10, "order -1 of query class marginals is out of range"},
	    {"marginals( +5 ; a, b, c, d)", P, 11, "order +5 of query class marginals is out of range"},
	    {"marginals(-0; a)", P, 10, "order -0 of query class marginals is out of range"},
	    {"marginals(99999999999999999999999; a)", P, 10, "order 99999999999999999999999 of query class marginals"},
	    {"marginals(65; a)", P, 10, "order 65 of query class marginals is out of range"},
	    // halfspaces: directions
	    {"halfspaces(x, y)", P, 15, "query class halfspaces takes at least one direction, got 0"},
	    {"halfspaces(x, y; [1])", P, 17, "direction 1 of query class halfspaces has 1 weight, expected 2"},
	    {"halfspaces(x; [])", P, 14, "direction 1 of query class halfspaces has 0 weights, expected 1"},
	    {"halfspaces(x, y; [1, 2], [1, 2, 3])", P, 25, "direction 2 of query class halfspaces has 3 weights"},
	    {"halfspaces(x, y; [0, 0])", P, 17, "direction 1 of query class halfspaces is zero"},
	    {"halfspaces(x, y; [1, 1], [0, -0.0])", P, 25, "direction 2 of query class halfspaces is zero"},
	    {"halfspaces(x; [0e5], [1])", P, 14, "direction 1 of query class halfspaces is zero"},
	    {"halfspaces(x; [0], ", P, 14, "direction 1 of query class halfspaces is zero"},  // before the syntax error
	    {"halfspaces(x; [1e400])", P, 15, "weight \"1e400\" is out of range for type double precision"},
	    {"halfspaces(x; [-1e-400])", P, 15, "weight \"-1e-400\" is out of range for type double precision"},
	    {"halfspaces(x; [2.4703282292062327e-324])", P, 15, "is out of range for type double precision"},
	    // predicates
	    {"predicates('')", P, 11, "predicate 1 of query class predicates is empty"},
	    {"predicates('a', '  \n\t ')", P, 16, "predicate 2 of query class predicates is empty"},
	});
}

TEST(ParseClassSpec, OrderOfChecksIsLeftToRight)
{
	// Syntax is checked as far as the construct a validity check needs: the count of a one-column class is
	// known at its closing parenthesis, so a syntax error inside the list comes first.
	EXPECT_EQ(SpecError("thresholds(a, b").kind(), ErrorKind::SyntaxError);
	EXPECT_EQ(SpecError("marginals(9; a, b").kind(), ErrorKind::SyntaxError);
	EXPECT_EQ(SpecError("halfspaces(x; [1, 2").kind(), ErrorKind::SyntaxError);
	EXPECT_EQ(SpecError("halfspaces(x; [1, 2] junk").kind(), ErrorKind::InvalidParameter);
	EXPECT_EQ(SpecError("predicates('', ").kind(), ErrorKind::InvalidParameter);
	EXPECT_EQ(SpecError("nosuch)))").kind(), ErrorKind::InvalidParameter);
	// A malformed name comes before anything else; a NUL byte anywhere comes before everything.
	EXPECT_EQ(SpecError(std::string("nosuch(a)\0", 10)).kind(), ErrorKind::SyntaxError);
}

TEST(ParseClassSpec, ExactMessagesDetailsAndHints)
{
	Error e = SpecError("thresholds(price");
	EXPECT_STREQ(e.what(), "syntax error in query class \"thresholds(price\": expected \",\" or \")\" "
	                       "but found end of input");
	EXPECT_EQ(e.detail(), "A query class of this kind is written thresholds(column), such as thresholds(price).");

	e = SpecError("(a)");
	EXPECT_TRUE(Contains(e.detail(), "marginals(2; age, sex, race)")) << e.detail();

	e = SpecError("boxs(a, b)");
	EXPECT_STREQ(e.what(), "unknown query class \"boxs\"");
	EXPECT_EQ(e.detail(), "The class name is not a known query class.");
	EXPECT_EQ(e.hint(), "Known query classes: thresholds(column), ranges(column), boxes(column, ...), "
	                    "orthants(column, ...), marginals(k; column, ...), stumps(column, ...), "
	                    "halfspaces(column, ...; [weight, ...], ...), predicates('condition', ...).");

	e = SpecError("boxes(carat, price, Carat)");
	EXPECT_STREQ(e.what(), "column \"carat\" appears twice in query class");
	EXPECT_EQ(e.detail(), "Column \"carat\" is listed twice; each column may "
	                      "appear only once.");

	e = SpecError("thresholds(a, b)");
	EXPECT_EQ(e.hint(), "Write thresholds(column), or orthants(column, ...) for several columns.");
	EXPECT_EQ(SpecError("ranges(a, b)").hint(), "Write ranges(column), or boxes(column, ...) for several columns.");

	e = SpecError("marginals(5; a, b, c, d)");
	EXPECT_STREQ(e.what(), "order 5 of query class marginals is out of range");
	EXPECT_EQ(e.detail(), "The order k must be between 1 and the number of columns, 4.");
	EXPECT_EQ(e.hint(), "Write marginals(k; column, ...), such as marginals(2; age, sex, race).");

	e = SpecError("marginals(2, a, b)");
	EXPECT_EQ(e.hint(), "Separate the order from the columns with a semicolon: marginals(k; column, ...), such as "
	                    "marginals(2; age, sex, race).");

	e = SpecError("halfspaces(x, y; [1, 2, 3])");
	EXPECT_STREQ(e.what(), "direction 1 of query class halfspaces has 3 weights, expected 2");
	EXPECT_EQ(e.detail(), "A direction must have one weight per column.");

	e = SpecError("halfspaces(x, y; [0, -0])");
	EXPECT_EQ(e.detail(), "The direction has only zero weights; a half-space needs a nonzero direction.");

	e = SpecError("halfspaces(x, y; 1, 2)");
	EXPECT_TRUE(Contains(e.hint(), "[1, -1]")) << e.hint();
	e = SpecError("predicates(age > 40)");
	EXPECT_TRUE(Contains(e.hint(), "single quotes")) << e.hint();
	e = SpecError("predicates('a', '')");
	EXPECT_EQ(e.detail(), "The predicate has no SQL text.");
	e = SpecError("predicates()");
	EXPECT_EQ(e.detail(), "The argument list is empty.");
	EXPECT_EQ(e.hint(), "Write predicates('condition', ...), such as predicates('age > 40', 'sex = 1').");
	EXPECT_EQ(SpecError("boxes(and)").hint(), "Write \"and\" in double quotes to use it as a column name.");
	EXPECT_TRUE(Contains(SpecError("predicates('x").detail(), "two single quotes"));
	EXPECT_TRUE(Contains(SpecError("boxes(\"x").detail(), "two double quotes"));
	EXPECT_TRUE(Contains(SpecError("halfspaces(x; [1.])").detail(), "-3.5"));
}

TEST(ParseClassSpec, MessagesStayShortAndOneLine)
{
	const std::string long_name(5000, 'q');
	Error e = SpecError(long_name + "(a)");
	EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
	EXPECT_LT(std::string(e.what()).size(), 100u) << e.what();
	e = SpecError("\"" + long_name + "\n\"(a)");
	EXPECT_LT(std::string(e.what()).size(), 100u) << e.what();
	ExpectWellFormed(e);
	e = SpecError("boxes(\"a\nb\", \"a\nb\")");
	ExpectWellFormed(e);
	EXPECT_EQ(e.detail().find('\n'), std::string::npos) << e.detail();
	e = SpecError("halfspaces(x; [" + std::string(3000, '9') + "e999])");
	EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
	EXPECT_LT(std::string(e.what()).size(), 150u) << e.what();
	e = SpecError("marginals(" + std::string(3000, '9') + "; a)");
	EXPECT_LT(std::string(e.what()).size(), 150u) << e.what();
	e = SpecError("boxes(" + std::string(300000, 'a') + ", " + std::string(300000, 'a') + ")");
	EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
	EXPECT_LT(std::string(e.what()).size() + e.detail().size(), 300u);
	e = SpecError("predicates('" + std::string(500000, 'x') + "' junk)");
	EXPECT_EQ(PositionOf(e), 500014);
	EXPECT_LT(std::string(e.what()).size(), 400u);
}

// ---------------------------------------------------------------------------------------------------------------
// Limits

std::string
ManyColumns(std::size_t n)
{
	std::string text;
	for (std::size_t i = 0; i < n; ++i)
		text += (i ? ", c" : "c") + std::to_string(i);
	return text;
}

TEST(ParseClassSpec, ColumnLimit)
{
	for (const char *name : {"boxes", "orthants", "stumps"}) {
		EXPECT_EQ(ParseClassSpec(std::string(name) + "(" + ManyColumns(64) + ")").columns.size(), 64u);
		const std::string prefix = std::string(name) + "(" + ManyColumns(64) + ", ";
		const Error e = SpecError(prefix + "c64)");
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
		EXPECT_EQ(e.what(), std::string("query class ") + name + " has more than 64 columns");
		EXPECT_EQ(PositionOf(e), static_cast<long>(prefix.size()));
		ExpectWellFormed(e);
	}
	// Reported as soon as passed, before the rest of the text.
	EXPECT_EQ(SpecError("boxes(" + ManyColumns(1000) + ",,,").kind(), ErrorKind::LimitExceeded);
	EXPECT_EQ(SpecError("marginals(1; " + ManyColumns(65) + ")").kind(), ErrorKind::LimitExceeded);
	EXPECT_EQ(SpecError("halfspaces(" + ManyColumns(65) + "; [1])").kind(), ErrorKind::LimitExceeded);
	std::string weights = "[1";
	for (int i = 1; i < 64; ++i)
		weights += ", 0";
	EXPECT_EQ(ParseClassSpec("halfspaces(" + ManyColumns(64) + "; " + weights + "])").directions[0].size(), 64u);
}

TEST(ParseClassSpec, PredicateAndDirectionLimits)
{
	std::string predicates = "predicates('p0'";
	for (std::size_t i = 1; i < kMaxClassPredicates; ++i)
		predicates += ", 'p" + std::to_string(i) + "'";
	EXPECT_EQ(ParseClassSpec(predicates + ")").predicates.size(), kMaxClassPredicates);
	Error e = SpecError(predicates + ", 'one more')");
	EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	EXPECT_STREQ(e.what(), "query class predicates has more than 1600 predicates");
	EXPECT_EQ(PositionOf(e), static_cast<long>(predicates.size() + 2));
	ExpectWellFormed(e);

	std::string directions = "halfspaces(x, y; [1, 0]";
	for (std::size_t i = 1; i < kMaxClassDirections; ++i)
		directions += ", [1, " + std::to_string(i) + "]";
	EXPECT_EQ(ParseClassSpec(directions + ")").directions.size(), kMaxClassDirections);
	e = SpecError(directions + ", [2, 2])");
	EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	EXPECT_STREQ(e.what(), "query class halfspaces has more than 1600 directions");
	EXPECT_EQ(PositionOf(e), static_cast<long>(directions.size() + 2));
	ExpectWellFormed(e);
}

TEST(ParseClassSpec, TextSizeLimit)
{
	// Exactly 1 MB parses, one predicate almost that long included; one byte more is over the limit.
	const std::string head = "predicates('";
	std::string text = head + std::string(kMaxClassTextBytes - head.size() - 2, 'x') + "')";
	ASSERT_EQ(text.size(), kMaxClassTextBytes);
	EXPECT_EQ(ParseClassSpec(text).predicates[0].size(), kMaxClassTextBytes - head.size() - 2);
	text += " ";
	const Error e = SpecError(text);
	EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	EXPECT_STREQ(e.what(), "query class text of 1048577 bytes exceeds the limit of 1048576 bytes");
	EXPECT_EQ(PositionOf(e), -1);
	ExpectWellFormed(e);
	// A predicate made of escaped quotes only unescapes to half its length.
	std::string quotes;
	while (quotes.size() < kMaxClassTextBytes - 20)
		quotes += "''";
	EXPECT_EQ(ParseClassSpec("predicates('" + quotes + "')").predicates[0].size(), quotes.size() / 2);
}

TEST(ParseClassSpec, PathologicalInputsAreLinear)
{
	EXPECT_TRUE(test::GrowsLinearly(
	    [](std::size_t size) {
		    for (const char unit : {'(', '[', '"', '\'', ',', ';', '1', 'a', ' ', '.', '-', '\xff'}) {
			    for (const std::string prefix : {"", "boxes(", "halfspaces(x; ", "halfspaces(x; [", "predicates(",
			                                     "marginals(", "marginals(1; "}) {
				    const std::string text = prefix + std::string(size - prefix.size(), unit);
				    try {
					    ParseClassSpec(text);
				    } catch (const Error &) {
				    }
			    }
		    }
		    // Long but valid: a long direction list, a long list of weights, one long number.
		    std::string many, ones;
		    while (many.size() < size - 30)
			    many += "[1],";
		    while (ones.size() < size - 30)
			    ones += "1,";
		    try {
			    ParseClassSpec("halfspaces(x; " + many + "[1])");
		    } catch (const Error &) {
		    }
		    try {
			    ParseClassSpec("halfspaces(x; [" + ones + "1])");
		    } catch (const Error &) {
		    }
		    ParseClassSpec("halfspaces(x; [1." + std::string(size - 30, '0') + "1])");
	    },
	    kMaxClassTextBytes));
	// Long but valid: a 1 MB direction list is cut by the limit, a 1 MB weight is one number.
	std::string many;
	while (many.size() < kMaxClassTextBytes - 30)
		many += "[1],";
	EXPECT_EQ(SpecError("halfspaces(x; " + many + "[1])").kind(), ErrorKind::LimitExceeded);
	std::string ones;
	while (ones.size() < kMaxClassTextBytes - 30)
		ones += "1,";
	EXPECT_EQ(SpecError("halfspaces(x; [" + ones + "1])").kind(), ErrorKind::InvalidParameter);
	const std::string long_one = "1." + std::string(kMaxClassTextBytes - 30, '0') + "1";
	EXPECT_EQ(ParseClassSpec("halfspaces(x; [" + long_one + "])").directions[0][0], 1.0);
	const Error tiny = SpecError("halfspaces(x; [0." + std::string(kMaxClassTextBytes - 30, '0') + "1])");
	EXPECT_EQ(tiny.kind(), ErrorKind::InvalidParameter);  // underflows to zero: out of float8's range
}

// ---------------------------------------------------------------------------------------------------------------
// Randomized: any byte sequence returns a valid spec or throws a well-formed Error of the documented kinds.

// The invariants a returned spec promises (class_spec.hpp), checked independently of the parser.
void
ExpectValidSpec(const ClassSpec &s, const std::string &text)
{
	const std::size_t d = s.columns.size();
	std::set<std::string> distinct(s.columns.begin(), s.columns.end());
	EXPECT_EQ(distinct.size(), d) << text;
	EXPECT_LE(d, kMaxClassColumns) << text;
	for (const std::string &c : s.columns)
		EXPECT_FALSE(c.empty()) << text;
	switch (s.kind) {
	case ClassKind::Thresholds:
	case ClassKind::Ranges: EXPECT_EQ(d, 1u) << text; break;
	case ClassKind::Predicates:
		EXPECT_EQ(d, 0u) << text;
		EXPECT_GE(s.predicates.size(), 1u) << text;
		EXPECT_LE(s.predicates.size(), kMaxClassPredicates) << text;
		for (const std::string &p : s.predicates)
			EXPECT_NE(p.find_first_not_of(" \t\n\r\f\v"), std::string::npos) << text;
		break;
	default: EXPECT_GE(d, 1u) << text; break;
	}
	if (s.kind == ClassKind::Marginals) {
		EXPECT_GE(s.k, 1) << text;
		EXPECT_LE(static_cast<std::size_t>(s.k), d) << text;
	} else {
		EXPECT_EQ(s.k, 0) << text;
	}
	if (s.kind == ClassKind::Halfspaces) {
		EXPECT_GE(s.directions.size(), 1u) << text;
		for (const std::vector<double> &w : s.directions) {
			EXPECT_EQ(w.size(), d) << text;
			bool nonzero = false;
			for (const double x : w) {
				EXPECT_TRUE(std::isfinite(x)) << text;
				nonzero = nonzero || x != 0;
			}
			EXPECT_TRUE(nonzero) << text;
		}
	} else {
		EXPECT_TRUE(s.directions.empty()) << text;
	}
	if (s.kind != ClassKind::Predicates) {
		EXPECT_TRUE(s.predicates.empty()) << text;
	}
}

TEST(Randomized, ParserReturnsValidSpecOrThrowsErrorOnAnyInput)
{
	std::mt19937_64 rng(20250612);
	const std::vector<std::string> seeds = {"thresholds(price)",
	                                        "ranges( \"X y\" )",
	                                        "boxes(carat, price)",
	                                        "orthants(\"A\", b, \"and\")",
	                                        "marginals(3; age, workclass, sex, race)",
	                                        "marginals(1;a)",
	                                        "stumps(a, b, c)",
	                                        "halfspaces(x, y; [1, 2], [1, -1])",
	                                        "halfspaces(x;[-.5e-3])",
	                                        "predicates('age > 40 AND income < 1000', 'sex = 1')",
	                                        "predicates('it''s', '\"q\"')"};
	// Bytes that matter to the grammar, weighted up so that random strings get past the first token.
	const std::string grammar = " \t\n\"'()[],;+-.eE0123456789abxyBOXESmarginlstuphdcq_$";
	const auto random_byte = [&]() -> char {
		if (rng() % 4 == 0)
			return static_cast<char>(rng() % 256);
		return grammar[rng() % grammar.size()];
	};
	std::size_t returned = 0;
	std::size_t kinds[3] = {0, 0, 0};
	for (int i = 0; i < 100000; ++i) {
		const std::string text = test::MutatedText(i, 4, 3, rng, seeds, random_byte);
		try {
			const ClassSpec s = ParseClassSpec(text);
			++returned;
			ExpectValidSpec(s, text);
			const std::string canonical = s.CanonicalText();
			ClassSpec back;
			try {
				back = ParseClassSpec(canonical);
			} catch (const Error &e) {
				ADD_FAILURE() << "canonical text \"" << canonical << "\" of \"" << text << "\" fails: " << e.what();
				continue;
			}
			if (back != s)
				ADD_FAILURE() << "\"" << text << "\" -> \"" << canonical << "\" parses differently";
		} catch (const Error &e) {
			const std::string message = e.what();
			const bool documented_kind = e.kind() == ErrorKind::SyntaxError ||
			                             e.kind() == ErrorKind::InvalidParameter ||
			                             e.kind() == ErrorKind::LimitExceeded;
			const long position = PositionOf(e);
			if (!documented_kind || message.empty() || message.back() == '.' || e.detail().empty() ||
			    e.detail().back() != '.' || message.find('\0') != std::string::npos ||
			    message.find('\n') != std::string::npos || position < 0 ||
			    static_cast<std::size_t>(position) > text.size()) {
				ADD_FAILURE() << "malformed error " << KindText(e.kind()) << " \"" << message << "\" / \"" << e.detail()
				              << "\" for input \"" << text << "\"";
			} else {
				++kinds[e.kind() == ErrorKind::SyntaxError ? 0 : e.kind() == ErrorKind::InvalidParameter ? 1 : 2];
			}
		} catch (const std::exception &e) {
			ADD_FAILURE() << "unexpected exception " << e.what() << " for input \"" << text << "\"";
		} catch (...) {
			ADD_FAILURE() << "unexpected non-standard exception for input \"" << text << "\"";
		}
	}
	// The mutations must exercise the accepting paths and both error paths, not only one of them.
	EXPECT_GT(returned, 5000u);
	EXPECT_GT(kinds[0], 20000u);
	EXPECT_GT(kinds[1], 1000u);
}

}  // namespace
// PositiveMultiple: the same half-spaces (halfspace_cover_test.cpp tests the refusal of parallel directions).
TEST(PositiveMultiple, OnlyPositiveScalings)
{
	EXPECT_EQ(PositiveMultiple({2, 4}, {1, 2}), 2.0);
	EXPECT_EQ(PositiveMultiple({-2, -4}, {1, 2}), 0.0);
	EXPECT_EQ(PositiveMultiple({1, 3}, {1, 2}), 0.0);
	EXPECT_EQ(PositiveMultiple({8, -0.0}, {1, 0}), 8.0);
}

}  // namespace pap::core
