// The full query class language (docs/reference.md, "Query classes"), parsed into a structured and validated
// description:
//
//   thresholds(c) · ranges(c) · boxes(c1, ..., ck) · orthants(c1, ..., ck) · marginals(k; c1, ..., cD)
//   stumps(b1, ..., bD) · halfspaces(c1, ..., ck; [w1, ..., wk], ...) · predicates('sql', ...)
//
// Pure language: which columns exist and what their types are is decided by the caller. Identifiers follow SQL
// (folded to lower case unless double-quoted, "" for a double quote inside quotes); class names are
// case-insensitive; whitespace may appear between any two tokens.
//
// Errors (pap::core::Error):
//   SyntaxError       malformed text; the message says "at position N" (0-based byte offset) and what was expected
//   InvalidParameter  well-formed text that is not a valid class: unknown class name (the hint lists the classes),
//                     wrong number of columns, marginals' k outside 1..D, a direction whose length is not the
//                     number of columns or whose weights are all zero, a weight outside float8's range, the same
//                     column twice, no predicate or an empty one; the detail names the position
//                     ("... at position N.", the last such phrase in the detail)
//   LimitExceeded     text over kMaxClassTextBytes, more than kMaxClassColumns columns, more than
//                     kMaxClassPredicates predicates or kMaxClassDirections directions
// Syntax is checked left to right and the first malformed token is reported. Each validity check runs as soon as
// what it concerns is complete: a duplicate column at its second mention, a direction at its closing bracket,
// an empty predicate at its string, the number of columns and marginals' k at the end of the column list, limits
// as soon as they are passed.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pap::core {

enum class ClassKind { Thresholds, Ranges, Boxes, Orthants, Marginals, Stumps, Halfspaces, Predicates };

constexpr std::size_t kMaxClassTextBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxClassColumns = 64;
// A predicates (halfspaces) release reads one column per predicate (direction) beside its count, in one SELECT of
// each table: within the 1,664 columns PostgreSQL allows a target list (MaxTupleAttributeNumber), with room to spare.
constexpr std::size_t kMaxClassPredicates = 1600;
constexpr std::size_t kMaxClassDirections = 1600;

struct ClassSpec {
	ClassKind kind = ClassKind::Thresholds;
	// Column names as SQL identifiers after folding/unquoting; distinct. Empty for predicates, exactly one for
	// thresholds and ranges, 1..kMaxClassColumns otherwise.
	std::vector<std::string> columns;
	// marginals only: the order, 1 <= k <= columns.size(); 0 for every other class.
	int k = 0;
	// halfspaces only: at least one direction, each of columns.size() finite weights, not all zero (-0 is stored
	// as 0). Empty for every other class.
	std::vector<std::vector<double>> directions;
	// predicates only: at least one SQL boolean expression, kept verbatim ('' unescaped to '), each with some
	// non-whitespace character. Empty for every other class.
	std::vector<std::string> predicates;

	// Normal form: lower-case class name, ", " and "; " as separators, identifiers quoted only when needed
	// (QuoteIdentifier), weights in the shortest text that reads back as the same double, predicates in single
	// quotes with ' doubled. ParseClassSpec(CanonicalText()) == *this for every valid spec.
	std::string CanonicalText() const;
};

bool operator==(const ClassSpec &a, const ClassSpec &b);
bool operator!=(const ClassSpec &a, const ClassSpec &b);

// lambda > 0 when v = lambda * w up to a relative 1e-12 of v's largest weight (a positive multiple: the same
// half-spaces w.x <= t), else 0. Used to refuse parallel directions and to match a query's
// coefficients to a direction (halfspace_cover.hpp).
double PositiveMultiple(const std::vector<double> &v, const std::vector<double> &w);

// Parses and validates a class text; see the error contract above.
ClassSpec ParseClassSpec(std::string_view text);

// "thresholds", "ranges", ...: the name as written in class texts.
const char *ClassKindName(ClassKind kind);

}  // namespace pap::core

#include "core/base/core_only.hpp"
