// The query classes a release can be defined over, and their canonical text. Foundation: one-dimensional
// thresholds(col) = {col <= t} and ranges(col) = {intervals of col}, over a numeric, date or timestamp column.
#pragma once
#include <string>
#include <string_view>

#include "core/query_text.hpp"

namespace pap::core {

enum class QueryClassKind { Thresholds, Ranges };

struct QueryClass {
	QueryClassKind kind;
	std::string column;
	std::string Text() const;  // canonical, e.g. "thresholds(price)"
	int VcDimension() const;   // of the class (thresholds 1, ranges 2): used by the planner's public-sample bounds
};

// Parses and checks a class text: known name, right number of columns. Error(InvalidParameter) otherwise.
QueryClass ParseQueryClass(std::string_view text);

}  // namespace pap::core

#include "core/core_only.hpp"
