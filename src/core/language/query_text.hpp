// Parsers for the two texts a user writes: a query class ("thresholds(price)") and a query
// ("price <= 1000", "price BETWEEN 500 AND 1000"). Pure syntax: which classes and columns exist, and what a
// literal means for a column's type, is decided by the caller. Every malformed input raises
// Error(SyntaxError) naming the position and what was expected.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pap::core {

// name(arg, arg, ...): identifiers are folded to lower case unless double-quoted, as in SQL.
struct ClassText {
	std::string name;                  // lower case, e.g. "thresholds"
	std::vector<std::string> columns;  // column names, e.g. {"price"}
};
ClassText ParseClassText(std::string_view text);

// In: column IN (literal, ...); IsNull and IsNotNull: column IS [NOT] NULL, without literals.
enum class Comparison { LessEqual, Less, GreaterEqual, Greater, Equal, Between, In, IsNull, IsNotNull };

// A cast applied to a literal, as PostgreSQL writes it: 'v'::type, CAST('v' AS type) or type 'v'. The type name is
// kept as written (several words, a schema, modifiers: "timestamp with time zone", "numeric(10, 2)") for the
// caller to resolve with its own type parser.
struct LiteralCast {
	std::string type;
	std::size_t position = 0;  // of the type name's first character
};

struct Literal {
	std::string text;                // the literal as written, without quotes ('' unescaped to ')
	bool quoted = false;             // 'text' rather than a bare number
	std::size_t position = 0;        // 0-based offset in the query text, for error messages
	std::vector<LiteralCast> casts;  // applied in order, innermost first; empty for a plain literal
};

// One term coefficient*column of a linear condition ("1*x + 2*y <= 3.5", "x - 2.5*y > 0", "-x <= 3").
struct LinearTerm {
	double coefficient = 1.0;  // finite (may be 0 or -0); the sign of a "-" before the term is folded in
	std::string column;
	std::size_t position = 0;  // of the term's first character (its sign, coefficient or column), for messages
};

// column op literal, column BETWEEN literal AND literal, or a linear condition: a sum of at least one term
// with an explicit coefficient or at least two terms ("x + y <= 3"; a lone "x <= 3" stays a plain condition),
// compared with <=, <, >= or > against a numeric literal. Bare TRUE and FALSE (any case) are literals too
// (quoted = false, text "true"/"false"), for boolean columns.
// Linear syntax: term := [+|-] [number *] column; the first term needs no sign, every later one has exactly one
// ("x - 2*y", "x -2*y"; not "x - -2*y"); a coefficient comes before its column ("x*2" is refused). A leading
// sign alone makes a condition linear ("-x <= 3", "+x <= 3"). Coefficients are folded to doubles by float8's
// rules (overflow, and underflow to zero, are a SyntaxError) and are not literals. The bound is a number or a
// quoted string (read by the caller, like any literal; TRUE/FALSE are refused). The same column may appear in
// several terms: the consumer sums their coefficients. Linear and plain conditions mix freely with AND.
//
// PostgreSQL's own forms are accepted too: column IN (literal, ...), column IS [NOT] NULL, casts of literals
// (LiteralCast), and parentheses around single conditions and around conjunctions, to any depth ("(a <= 1 AND
// (b > 2))"): AND is associative, so the parentheses only group and the conditions are kept in reading order.
struct Condition {
	std::string column;             // empty for a linear condition
	std::vector<LinearTerm> terms;  // non-empty only for a linear condition
	Comparison op = Comparison::LessEqual;
	Literal value;              // the constant; the lower bound for Between; unused for In, IsNull, IsNotNull
	Literal upper;              // the upper bound for Between only
	std::vector<Literal> list;  // the values of In only, in reading order (at least one)
	std::size_t position = 0;   // of the condition's column, for messages about the whole condition
};

// A conjunction of conditions joined by AND.
struct QueryText {
	std::vector<Condition> conditions;
};
QueryText ParseQueryText(std::string_view text);

// Number of literals a parsed query holds in reading order: two for BETWEEN (lower, then upper), one per value for
// IN, none for IS [NOT] NULL, one for every other condition, a linear one included (its bound; coefficients are
// not literals).
std::size_t LiteralCount(const QueryText &query);
std::size_t LiteralCount(const Condition &condition);

// "<=", "<", ">=", ">", "=", "BETWEEN", "IN", "IS NULL", "IS NOT NULL": for messages.
const char *ComparisonText(Comparison op);

// Quotes an identifier the way PostgreSQL's quote_ident does (only when needed), for text shown to people: the
// core knows only some of PostgreSQL's keywords.
std::string QuoteIdentifier(std::string_view name);
// An identifier for SQL the glue runs: always quoted, so that no name reads as a keyword or a function
// (current_date, user, order), which the core's keyword list cannot rule out.
std::string SqlIdentifier(std::string_view name);

}  // namespace pap::core

#include "core/base/core_only.hpp"
