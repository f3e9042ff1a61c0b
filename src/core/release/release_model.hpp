// Internal to the answering side (release_model.cpp), exposed for its tests: the fast path of query parsing.
#pragma once
#include <string_view>

#include "core/language/query_text.hpp"

namespace pap::core {

// The shape pap.answer sees most, "col op number [AND col op number ...]" with op one of <=, <, >=, >, = and an
// unsigned decimal number (digits, optionally a dot and digits), parsed in one pass without the lexer. Returns
// false, with out unspecified, for anything else (quotes, signs, exponents, BETWEEN, keywords as columns, other
// white space, texts over 4 KiB...): the caller then uses ParseQueryText. When it returns true, out equals
// ParseQueryText(text).
bool ParseSimpleQueryText(std::string_view text, QueryText &out);

}  // namespace pap::core

#include "core/base/core_only.hpp"
