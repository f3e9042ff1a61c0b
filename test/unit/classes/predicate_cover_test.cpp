// MergePredicates against brute force on random label matrices (identical columns merge, the first predicate of a
// labeling represents it), and MakePredicateCover: one query per axis, projection of every listed predicate (with
// surrounding whitespace) to its representative, Render, errors.
#include "core/classes/predicate_cover.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"

namespace pap::core {
namespace {

TEST(PredicateCover, MergeAgainstBruteForce)
{
	std::mt19937_64 gen(7);
	for (int trial = 0; trial < 500; trial++) {
		const std::size_t p_count = 1 + gen() % 8;
		const std::size_t bits = gen() % 3;  // few distinct columns: many merges
		std::set<std::vector<std::int32_t>> rows;
		const std::size_t m = gen() % (trial % 50 == 0 ? 200 : 8);
		for (std::size_t i = 0; i < m; i++) {
			std::vector<std::int32_t> row(p_count);
			for (std::int32_t &x : row)
				x = std::int32_t(gen() % (bits + 2) == 0);
			rows.insert(row);
		}
		std::vector<std::int32_t> flat;
		for (const auto &r : rows)
			flat.insert(flat.end(), r.begin(), r.end());
		const PredicateMerge merge = MergePredicates(p_count, flat);
		ASSERT_EQ(merge.axis_of.size(), p_count);
		const auto column = [&](std::size_t p) {
			std::vector<std::int32_t> c;
			for (const auto &r : rows)
				c.push_back(r[p]);
			return c;
		};
		std::vector<std::size_t> expected;
		for (std::size_t p = 0; p < p_count; p++) {
			bool is_first = true;
			for (std::size_t q = 0; q < p; q++)
				is_first = is_first && column(q) != column(p);
			if (is_first)
				expected.push_back(p);
		}
		ASSERT_EQ(merge.representatives, expected);
		for (std::size_t p = 0; p < p_count; p++) {
			ASSERT_GE(merge.axis_of[p], 0);
			ASSERT_LT(std::size_t(merge.axis_of[p]), expected.size());
			EXPECT_EQ(column(expected[std::size_t(merge.axis_of[p])]), column(p));
		}
	}
	EXPECT_PAP_ERROR(ErrorKind::Internal, MergePredicates(0, {}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MergePredicates(2, {0, 1, 1}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MergePredicates(2, {0, 2}));
}

// The merge granularity auto plans beside MergePredicates': only one condition shares an axis (equal keys, or equal
// trimmed texts where a text has no key), whatever the public rows show.
TEST(PredicateCover, MergeEquivalentPredicatesKeepsDistinctConditionsApart)
{
	const std::vector<std::string> predicates = {
	    "a > 1", " a > 1 ", "b = 2", "b = 2 AND a > 1", "(a > 1) and B = 2", "$$x$$ = c", "$$x$$ = c  "};
	const PredicateMerge merge = MergeEquivalentPredicates(predicates);
	EXPECT_EQ(merge.representatives, (std::vector<std::size_t>{0, 2, 3, 5}));
	EXPECT_EQ(merge.axis_of, (std::vector<std::int32_t>{0, 0, 1, 2, 2, 3, 3}));
	EXPECT_TRUE(MergesOnlyEquivalentPredicates(predicates, merge.axis_of));
	EXPECT_TRUE(MergesOnlyEquivalentPredicates(predicates, {0, 1, 2, 3, 4, 5, 6}));
	// 'a > 1' and 'b = 2' labelled alike by the public rows, as MergePredicates would merge them: not one condition.
	EXPECT_FALSE(MergesOnlyEquivalentPredicates(predicates, {0, 0, 0, 1, 1, 2, 2}));
	EXPECT_FALSE(MergesOnlyEquivalentPredicates({"a > 1", "a >= 1"}, {0, 0}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MergesOnlyEquivalentPredicates(predicates, {0, 0}));
	EXPECT_TRUE(MergeEquivalentPredicates({}).representatives.empty());
}

TEST(PredicateCover, ProjectRenderErrors)
{
	const ClassSpec spec = ParseClassSpec("predicates('a > 1', '  b = 2 ', 'a>1', 'c IS NULL', 'a > 1')");
	// Public label points: 'a > 1' ~ 'a>1' (and its repeat), 'b = 2' ~ 'c IS NULL'.
	const PredicateMerge merge = MergePredicates(5, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
	ASSERT_EQ(merge.representatives, (std::vector<std::size_t>{0, 1}));
	std::vector<ReleaseAxis> axes;
	for (std::size_t r : merge.representatives) {
		ReleaseAxis axis;
		axis.kind = AxisKind::Predicate;
		axis.label = spec.predicates[r];
		axes.push_back(axis);
	}
	const std::vector<std::int32_t> points = {1, 0, 0, 1};
	const std::vector<std::int64_t> counts = {3, 4};
	CoverInput input{&spec, &axes, &points, &counts, &merge.axis_of, 100};
	const std::unique_ptr<Cover> cover = MakePredicateCover(input);
	ASSERT_EQ(cover->QueryCount(), 2u);
	for (std::size_t r = 0; r < 2; r++) {
		ASSERT_EQ(cover->Queries().ConstraintCount(r), 1u);
		EXPECT_EQ(cover->Queries().begin(r)->axis, r);
		EXPECT_EQ(cover->Queries().begin(r)->bins.lo, 1);
		EXPECT_EQ(cover->Queries().begin(r)->bins.hi, 1);
		EXPECT_EQ(cover->Project(cover->Render(r), nullptr, {}), r);
	}
	EXPECT_EQ(cover->Render(1), "  b = 2 ");
	EXPECT_EQ(cover->Project("a > 1", nullptr, {}), 0u);
	EXPECT_EQ(cover->Project("\ta>1\n", nullptr, {}), 0u);
	EXPECT_EQ(cover->Project("b = 2", nullptr, {}), 1u);
	EXPECT_EQ(cover->Project("c IS NULL ", nullptr, {}), 1u);
	EXPECT_EQ(cover->VcDimension(), 2);  // 5 predicates: floor(log2 5)
	// Spacing, case and the order of conjuncts do not matter (PredicateKey); the text still must be a listed one.
	EXPECT_EQ(cover->Project("a  > 1", nullptr, {}), 0u);
	EXPECT_EQ(cover->Project("(A > 1)", nullptr, {}), 0u);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, cover->Project("a > 1 AND b = 2", nullptr, {}));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, cover->Project("", nullptr, {}));
	try {
		cover->Project("b = 3", nullptr, {});
		FAIL();
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()), "query is not one of the predicates of the release");
		EXPECT_NE(e.hint().find("answers exactly its listed predicates"), std::string::npos);
	}
	EXPECT_PAP_ERROR(ErrorKind::Internal, cover->Render(2));
	// Limit; malformed inputs.
	input.max_queries = 1;
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MakePredicateCover(input));
	input.max_queries = 100;
	std::vector<std::int32_t> bad_axis = merge.axis_of;
	bad_axis[2] = 2;
	input.predicate_axis = &bad_axis;
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakePredicateCover(input));
	bad_axis = {0, 0, 0, 0, 0};  // axis 1 has no predicate
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakePredicateCover(input));
	input.predicate_axis = nullptr;
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakePredicateCover(input));
}

// Two listed predicates with one key but different public labelings (possible only for predicates that are not
// deterministic): each still matches its own text, and neither is matched by the key alone.
TEST(PredicateCover, AKeySharedByTwoAxesMatchesNeither)
{
	const ClassSpec spec = ParseClassSpec("predicates('a AND b', 'b AND a', 'c')");
	const PredicateMerge merge = MergePredicates(3, {1, 0, 1, 0, 1, 0});
	ASSERT_EQ(merge.representatives, (std::vector<std::size_t>{0, 1}));
	std::vector<ReleaseAxis> axes;
	for (std::size_t r : merge.representatives) {
		ReleaseAxis axis;
		axis.kind = AxisKind::Predicate;
		axis.label = spec.predicates[r];
		axes.push_back(axis);
	}
	const std::vector<std::int32_t> points = {1, 0, 0, 1};
	const std::vector<std::int64_t> counts = {3, 4};
	CoverInput input{&spec, &axes, &points, &counts, &merge.axis_of, 100};
	const std::unique_ptr<Cover> cover = MakePredicateCover(input);
	EXPECT_EQ(cover->Project("a AND b", nullptr, {}), 0u);
	EXPECT_EQ(cover->Project(" b AND a", nullptr, {}), 1u);
	EXPECT_EQ(cover->Project("(C)", nullptr, {}), 0u);  // 'c' shares the labeling of 'a AND b'
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, cover->Project("(a) AND (b)", nullptr, {}));
}

}  // namespace
}  // namespace pap::core
