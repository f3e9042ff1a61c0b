// PredicateKey (predicate_key.hpp). Iterative: a work list of token ranges, so that no text exhausts the stack.
#include "core/language/predicate_key.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "core/language/text_lexer.hpp"

namespace pap::core {
namespace {

bool
IsWordByte(char c)
{
	return IsIdentChar(c) || (static_cast<unsigned char>(c) & 0x80) != 0;
}
bool
IsWordStart(char c)
{
	return IsIdentStart(c) || (static_cast<unsigned char>(c) & 0x80) != 0;
}
bool
IsOperatorByte(char c)
{
	return c != '\0' && std::strchr("+-*/<>=~!@#%^&|`?", c) != nullptr;
}

// The text's tokens, or nothing when a construct the key does not read is present.
std::optional<std::vector<std::string>>
Tokens(std::string_view text)
{
	std::vector<std::string> tokens;
	bool last_was_string = false;
	std::size_t i = 0;
	while (i < text.size()) {
		const char c = text[i];
		if (IsSpace(c)) {
			i++;
			continue;
		}
		const char next = i + 1 < text.size() ? text[i + 1] : '\0';
		if ((c == '-' && next == '-') || (c == '/' && next == '*') || c == '$' || c == '\\')
			return std::nullopt;  // comments, dollar quotes and parameters, escapes
		const std::size_t start = i;
		bool is_string = false;
		if (c == '\'' || c == '"') {
			for (i++;; i++) {
				if (i >= text.size())
					return std::nullopt;  // unterminated
				if (c == '\'' && text[i] == '\\')
					return std::nullopt;  // with standard_conforming_strings off, a backslash escapes
				if (text[i] == c) {
					if (i + 1 < text.size() && text[i + 1] == c) {
						i++;
						continue;
					}
					i++;
					break;
				}
			}
			is_string = c == '\'';
			if (is_string && last_was_string)
				return std::nullopt;  // 'a' 'b' across lines is one string in SQL
			tokens.emplace_back(text.substr(start, i - start));
		} else if (IsWordStart(c)) {
			while (i < text.size() && IsWordByte(text[i]))
				i++;
			if (i < text.size() && (text[i] == '\'' || text[i] == '&'))
				return std::nullopt;  // E'...', B'...', X'...', N'...', U&'...'
			tokens.push_back(LowerAscii(text.substr(start, i - start)));
		} else if (IsDigit(c) || (c == '.' && IsDigit(next))) {
			while (i < text.size() &&
			       (IsWordByte(text[i]) || text[i] == '.' ||
			        ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E'))))
				i++;
			tokens.emplace_back(text.substr(start, i - start));
		} else if (IsOperatorByte(c)) {
			while (i < text.size() && IsOperatorByte(text[i]))
				i++;
			if (text.substr(start, i - start).find("--") != std::string_view::npos ||
			    text.substr(start, i - start).find("/*") != std::string_view::npos)
				return std::nullopt;
			tokens.emplace_back(text.substr(start, i - start));
		} else {
			if (c == ':' && next == ':') {
				tokens.emplace_back("::");
				i += 2;
			} else {
				tokens.emplace_back(1, c);
				i++;
			}
		}
		last_was_string = is_string;
	}
	return tokens;
}

bool
Opens(const std::string &t)
{
	return t == "(" || t == "[" || t == "case";
}
bool
Closes(const std::string &t)
{
	return t == ")" || t == "]" || t == "end";
}

using Range = std::pair<std::size_t, std::size_t>;  // [first, last) of the token list

// Drops parentheses around the whole range, as often as they are there.
Range
Unwrap(const std::vector<std::string> &tokens, Range r)
{
	while (r.second - r.first >= 2 && tokens[r.first] == "(" && tokens[r.second - 1] == ")") {
		std::size_t depth = 0;
		bool whole = true;
		for (std::size_t i = r.first; i < r.second; i++) {
			if (Opens(tokens[i]))
				depth++;
			else if (Closes(tokens[i]) && depth > 0)
				depth--;
			if (depth == 0 && i + 1 < r.second) {
				whole = false;  // "(a) = (b)": the first parenthesis closes before the end
				break;
			}
		}
		if (!whole)
			break;
		r = {r.first + 1, r.second - 1};
	}
	return r;
}

// The positions of the top-level ANDs that join conjuncts, or nothing when OR is at the top level.
std::optional<std::vector<std::size_t>>
TopLevelAnds(const std::vector<std::string> &tokens, Range r)
{
	std::vector<std::size_t> ands;
	std::size_t depth = 0;
	bool between = false;  // a BETWEEN waits for its AND
	for (std::size_t i = r.first; i < r.second; i++) {
		const std::string &t = tokens[i];
		if (Opens(t)) {
			depth++;
		} else if (Closes(t)) {
			if (depth > 0)
				depth--;
		} else if (depth == 0 && t == "or") {
			return std::nullopt;
		} else if (depth == 0 && t == "between") {
			between = true;
		} else if (depth == 0 && t == "and") {
			if (between)
				between = false;
			else
				ands.push_back(i);
		}
	}
	return ands;
}

std::string
Join(const std::vector<std::string> &tokens, Range r)
{
	std::string out;
	for (std::size_t i = r.first; i < r.second; i++) {
		if (i > r.first)
			out += ' ';
		out += tokens[i];
	}
	return out;
}

}  // namespace

std::optional<std::string>
PredicateKey(std::string_view text)
{
	const std::optional<std::vector<std::string>> tokens = Tokens(text);
	if (!tokens || tokens->empty())
		return std::nullopt;
	std::vector<std::string> conjuncts;
	std::vector<Range> work{{0, tokens->size()}};
	while (!work.empty()) {
		const Range r = Unwrap(*tokens, work.back());
		work.pop_back();
		if (r.first == r.second)
			return std::nullopt;  // "()": not an expression
		const std::optional<std::vector<std::size_t>> ands = TopLevelAnds(*tokens, r);
		if (!ands) {
			// A disjunction: one conjunct, in parentheses so that "(a OR b) AND c" and "a OR b AND c" differ.
			conjuncts.push_back("(" + Join(*tokens, r) + ")");
			continue;
		}
		if (ands->empty()) {
			conjuncts.push_back(Join(*tokens, r));
			continue;
		}
		std::size_t first = r.first;
		for (const std::size_t at : *ands) {
			if (at == first)
				return std::nullopt;  // "AND" with nothing before it
			work.emplace_back(first, at);
			first = at + 1;
		}
		if (first == r.second)
			return std::nullopt;
		work.emplace_back(first, r.second);
	}
	std::sort(conjuncts.begin(), conjuncts.end());
	conjuncts.erase(std::unique(conjuncts.begin(), conjuncts.end()), conjuncts.end());
	// Every unquoted word is lower case, so the upper-case separator cannot be read as part of a conjunct.
	std::string key;
	for (const std::string &c : conjuncts)
		key += (key.empty() ? "" : " AND ") + c;
	return key;
}

}  // namespace pap::core
