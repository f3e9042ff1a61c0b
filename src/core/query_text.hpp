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

enum class Comparison { LessEqual, Less, GreaterEqual, Greater, Equal, Between };

struct Literal {
	std::string text;       // the literal as written, without quotes ('' unescaped to ')
	bool quoted = false;    // 'text' rather than a bare number
	std::size_t position = 0;  // 0-based offset in the query text, for error messages
};

struct Condition {
	std::string column;
	Comparison op = Comparison::LessEqual;
	Literal value;  // the constant; the lower bound for Between
	Literal upper;  // the upper bound for Between only
};

// A conjunction of conditions joined by AND.
struct QueryText {
	std::vector<Condition> conditions;
};
QueryText ParseQueryText(std::string_view text);

// "<=", "<", ">=", ">", "=", "BETWEEN": for messages.
const char *ComparisonText(Comparison op);

// Quotes an identifier the way PostgreSQL's quote_ident does (only when needed).
std::string QuoteIdentifier(std::string_view name);

}  // namespace pap::core

#include "core/core_only.hpp"
