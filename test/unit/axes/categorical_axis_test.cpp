// Tests of the categorical axis: byte-order categories, the "other" bin for unseen texts, the NULL bin, the boolean
// axis, stored axes, against brute force on random texts.
#include "core/axes/categorical_axis.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

TEST(CategoricalAxis, BinsOtherAndNull)
{
	const CategoricalAxis axis = CategoricalAxis::FromPublicValues({"red", "blue", "red", "Green", "", "blue"});
	EXPECT_EQ(axis.categories(), (std::vector<std::string>{"", "Green", "blue", "red"}));  // byte order
	EXPECT_EQ(axis.BinCount(), 6);
	EXPECT_EQ(axis.OtherBin(), 4);
	EXPECT_EQ(axis.NullBin(), 5);
	EXPECT_EQ(axis.BinOfNull(), 5);
	EXPECT_EQ(axis.BinOf(""), 0);
	EXPECT_EQ(axis.BinOf("Green"), 1);
	EXPECT_EQ(axis.BinOf("red"), 3);
	for (const char *other : {"green", "reds", "re", "zzz", " ", "RED"})
		EXPECT_EQ(axis.BinOf(other), axis.OtherBin()) << other;
	EXPECT_EQ(axis.BinOf(std::string("red\0x", 5)), axis.OtherBin());
	EXPECT_EQ(axis.Category(2), "blue");
	EXPECT_TRUE(axis.IsOtherBin(4));
	EXPECT_PAP_ERROR(ErrorKind::Internal, axis.Category(4));
	EXPECT_PAP_ERROR(ErrorKind::Internal, axis.Category(5));
	EXPECT_PAP_ERROR(ErrorKind::Internal, axis.Category(-1));
	EXPECT_PAP_ERROR(ErrorKind::DataException, CategoricalAxis::FromPublicValues({}));

	const CategoricalAxis stored = CategoricalAxis::FromCategories(axis.categories());
	EXPECT_EQ(stored.categories(), axis.categories());
	EXPECT_PAP_ERROR(ErrorKind::Internal, CategoricalAxis::FromCategories({"b", "a"}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CategoricalAxis::FromCategories({"a", "a"}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CategoricalAxis::FromCategories({}));

	const CategoricalAxis boolean = CategoricalAxis::Boolean();
	EXPECT_EQ(boolean.categories(), (std::vector<std::string>{"false", "true"}));
	EXPECT_EQ(boolean.BinOf("false"), 0);
	EXPECT_EQ(boolean.BinOf("true"), 1);
	EXPECT_EQ(boolean.BinOf("t"), boolean.OtherBin());
	EXPECT_EQ(boolean.NullBin(), 3);
}

// Random texts: the bin of a value is its rank among the distinct public texts, or "other" when unseen.
TEST(CategoricalAxis, RandomTextsMatchBruteForce)
{
	std::mt19937_64 gen(77);
	const std::vector<std::string> pool = {"", "a", "A", "ab", "b", "ba", "\xff", "a b", "0", "10", "9"};
	for (int trial = 0; trial < 50; trial++) {
		std::vector<std::string> values;
		for (std::size_t i = 0, n = 1 + gen() % 8; i < n; i++)
			values.push_back(pool[gen() % pool.size()]);
		const CategoricalAxis axis = CategoricalAxis::FromPublicValues(values);
		const std::set<std::string> seen(values.begin(), values.end());
		ASSERT_EQ(axis.CategoryCount(), seen.size());
		for (const std::string &v : pool) {
			std::int32_t rank = 0;
			for (const std::string &s : seen)
				rank += s < v ? 1 : 0;
			const std::int32_t expected = seen.count(v) ? rank : axis.OtherBin();
			EXPECT_EQ(axis.BinOf(v), expected) << v;
			if (seen.count(v)) {
				EXPECT_EQ(axis.Category(expected), v);
			}
		}
	}
}

}  // namespace
}  // namespace pap::core
