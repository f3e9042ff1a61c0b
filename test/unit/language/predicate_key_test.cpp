// Tests of PredicateKey (predicate_key.hpp): which texts share a key (the same conjunction, whatever the order,
// case of unquoted words, spacing and parentheses of its conjuncts) and which never do.
#include "core/language/predicate_key.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pap::core {
namespace {

std::string
KeyOf(std::string_view text)
{
	const std::optional<std::string> key = PredicateKey(text);
	return key ? *key : "<none>";
}

TEST(PredicateKey, ConjunctsInAnyOrderShareTheKey)
{
	const std::string key = KeyOf("smoker AND age < 40");
	EXPECT_NE(key, "<none>");
	for (const char *text : {"age < 40 AND smoker", "(age < 40) AND (smoker)", "  AGE<40 and Smoker ",
	                         "((smoker AND age < 40))", "smoker AND (age < 40 AND smoker)"})
		EXPECT_EQ(KeyOf(text), key) << text;
}

TEST(PredicateKey, DifferentExpressionsHaveDifferentKeys)
{
	// OR binds looser than AND: only the parenthesised disjunction is a conjunct.
	EXPECT_NE(KeyOf("(a OR b) AND c"), KeyOf("a OR b AND c"));
	EXPECT_NE(KeyOf("(a OR b) AND c"), KeyOf("a OR (b AND c)"));
	EXPECT_EQ(KeyOf("(a OR b) AND c"), KeyOf("c AND (a OR b)"));
	// BETWEEN's AND joins no conjuncts.
	EXPECT_NE(KeyOf("x BETWEEN 1 AND 2 AND y"), KeyOf("2 AND y AND x BETWEEN 1"));
	EXPECT_EQ(KeyOf("x BETWEEN 1 AND 2 AND y"), KeyOf("y AND x BETWEEN 1 AND 2"));
	// Nor does an AND inside CASE ... END, nor one inside parentheses of a function call.
	EXPECT_NE(KeyOf("CASE WHEN a AND b THEN c END"), KeyOf("b AND CASE WHEN a THEN c END"));
	EXPECT_NE(KeyOf("f(a AND b)"), KeyOf("f(b AND a)"));
	// Strings and quoted names keep their case; unquoted words fold.
	EXPECT_NE(KeyOf("sex = 'F'"), KeyOf("sex = 'f'"));
	EXPECT_NE(KeyOf("\"Age\" > 1"), KeyOf("age > 1"));
	EXPECT_EQ(KeyOf("\"age\" > 1 AND x"), KeyOf("x AND \"age\" > 1"));
	EXPECT_NE(KeyOf("(a) = (b)"), KeyOf("a) = (b"));
}

TEST(PredicateKey, TextsItCannotReadHaveNoKey)
{
	for (const char *text :
	     {"a = $1", "a = $$x AND y$$", "a = E'x\\' AND b'", "a -- AND b", "a /* AND */ AND b", "a = 'x' 'y'",
	      "a = 'unterminated", "", "   ", "()", "AND a", "a AND", "a AND AND b", "a = U&'x'",
	      // A backslash in a string escapes when standard_conforming_strings is off: no key reads it either way.
	      "a = 'x\\' AND b = 'y'", "a = 'x\\'"})
		EXPECT_EQ(KeyOf(text), "<none>") << text;
}

}  // namespace
}  // namespace pap::core
