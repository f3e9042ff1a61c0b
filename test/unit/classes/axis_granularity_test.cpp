// Tests of the alpha-driven cover granularity: MovableEdges per class, MaxBinRows' formula, and ChooseCuts
// against its contract on random public marginals with ties of counts (every bin holds at most the limit unless
// it is one value, the cuts are a sorted subset holding the highest value, the greedy rule, the finest cover for
// limits at or below zero or below every count) and its Internal errors.
#include "core/classes/axis_granularity.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"

namespace pap::core {
namespace {

using test::PgLt;

TEST(MovableEdges, PerClass)
{
	EXPECT_EQ(MovableEdges(ParseClassSpec("thresholds(x)")), 1);
	EXPECT_EQ(MovableEdges(ParseClassSpec("ranges(x)")), 2);
	EXPECT_EQ(MovableEdges(ParseClassSpec("orthants(x, y, z)")), 3);
	EXPECT_EQ(MovableEdges(ParseClassSpec("boxes(x, y, z)")), 6);
	EXPECT_EQ(MovableEdges(ParseClassSpec("halfspaces(x, y; [1, 2], [0, 1])")), 1);
	EXPECT_EQ(MovableEdges(ParseClassSpec("marginals(1; x, y)")), 0);
	EXPECT_EQ(MovableEdges(ParseClassSpec("stumps(x, y)")), 0);
	EXPECT_EQ(MovableEdges(ParseClassSpec("predicates('x > 1')")), 0);
}

TEST(MaxBinRows, AlphaOverFourSOfTheRows)
{
	EXPECT_DOUBLE_EQ(MaxBinRows(ParseClassSpec("ranges(x)"), 0.1, 1000), 12.5);
	EXPECT_DOUBLE_EQ(MaxBinRows(ParseClassSpec("boxes(x, y)"), 0.2, 800), 10.0);
	EXPECT_EQ(MaxBinRows(ParseClassSpec("marginals(1; x)"), 0.2, 800), 0.0);
	EXPECT_EQ(MaxBinRows(ParseClassSpec("thresholds(x)"), 0.0, 800), 0.0);  // the finest
	EXPECT_EQ(MaxBinRows(ParseClassSpec("thresholds(x)"), 0.5, 0), 0.0);
}

TEST(ChooseCuts, ContractOnRandomMarginals)
{
	std::mt19937_64 gen(31);
	for (int round = 0; round < 2000; round++) {
		// a sorted distinct marginal from the special pool, counts 1..6
		std::vector<double> values = test::SpecialPool();
		std::shuffle(values.begin(), values.end(), gen);
		values.resize(gen() % (values.size() + 1));
		std::sort(values.begin(), values.end(), PgLt);
		values.erase(std::unique(values.begin(), values.end(), [](double a, double b) { return test::PgEq(a, b); }),
		             values.end());
		std::vector<std::int64_t> counts;
		for (std::size_t i = 0; i < values.size(); i++)
			counts.push_back(std::int64_t(1 + gen() % 6));
		const double limit = round % 5 == 0 ? -double(gen() % 3) : double(gen() % 20) + (gen() % 2 ? 0.5 : 0.0);
		const std::vector<double> cuts = ChooseCuts(values, counts, limit);
		if (limit <= 0.0) {
			ASSERT_EQ(cuts.size(), values.size());
			continue;
		}
		if (values.empty()) {
			EXPECT_TRUE(cuts.empty());
			continue;
		}
		EXPECT_TRUE(test::SameDouble(cuts.back(), values.back())) << "the highest value is a cut";
		// walk the values: each cut is one of them, in order; bins are the runs up to each cut
		std::size_t next = 0;
		std::int64_t bin_rows = 0, bin_values = 0;
		for (std::size_t i = 0; i < values.size(); i++) {
			bin_rows += counts[i];
			bin_values++;
			if (next < cuts.size() && test::SameDouble(cuts[next], values[i])) {
				EXPECT_TRUE(double(bin_rows) <= limit || bin_values == 1) << "round " << round;
				// greedy: the next value would have pushed the bin over the limit
				if (i + 1 < values.size()) {
					EXPECT_GT(double(bin_rows + counts[i + 1]), limit) << "round " << round;
				}
				next++;
				bin_rows = bin_values = 0;
			} else if (i + 1 < values.size()) {
				EXPECT_LE(double(bin_rows + counts[i + 1]), limit) << "round " << round << ": no cut while it fits";
			}
		}
		EXPECT_EQ(next, cuts.size()) << "cuts are a sorted subset of the values";
		if (limit < double(*std::min_element(counts.begin(), counts.end()))) {
			EXPECT_EQ(cuts.size(), values.size()) << "below every count: the finest";
		}
	}
}

TEST(ChooseCuts, RejectsBadMarginals)
{
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseCuts({2, 1}, {1, 1}, 3));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseCuts({1, 1}, {1, 1}, 3));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseCuts({1, test::kNaN, test::kNaN}, {1, 1, 1}, 3));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseCuts({1, 2}, {1, 0}, 3));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ChooseCuts({1, 2}, {1}, 3));
	EXPECT_EQ(ChooseCuts({1, 2, 3, 4}, {2, 2, 5, 1}, 4), (std::vector<double>{2, 3, 4}));
}

// Every whole value (docs/mechanisms.md §20): each multiple of the step between the lowest and highest public value,
// the ones the sample never showed with 0 rows; only where some are missing, the values are multiples, and they
// number at most max_values.
TEST(EveryWholeValue, AddsTheWholeValuesThePublicSampleNeverShowed)
{
	const std::optional<WholeValueMarginal> w = EveryWholeValue({-1, 0, 2, 5}, {3, 1, 2, 5}, 1.0, 100.0);
	ASSERT_TRUE(w.has_value());
	EXPECT_EQ(w->values, (std::vector<double>{-1, 0, 1, 2, 3, 4, 5}));
	EXPECT_EQ(w->counts, (std::vector<std::int64_t>{3, 1, 0, 2, 0, 0, 5}));
	// Dates: whole days in microseconds.
	const double day = 86400.0 * 1e6;
	const std::optional<WholeValueMarginal> d = EveryWholeValue({9000 * day, 9003 * day}, {1, 2}, day, 100.0);
	ASSERT_TRUE(d.has_value());
	EXPECT_EQ(d->values, (std::vector<double>{9000 * day, 9001 * day, 9002 * day, 9003 * day}));
	EXPECT_EQ(d->counts, (std::vector<std::int64_t>{1, 0, 0, 2}));
	// Exactly at the limit, and one above it.
	EXPECT_TRUE(EveryWholeValue({-1, 0, 2, 5}, {3, 1, 2, 5}, 1.0, 7.0).has_value());
	EXPECT_FALSE(EveryWholeValue({-1, 0, 2, 5}, {3, 1, 2, 5}, 1.0, 6.0).has_value());
	// Nothing missing: finest's cuts already are every whole value.
	EXPECT_FALSE(EveryWholeValue({1, 2, 3}, {1, 1, 1}, 1.0, 100.0).has_value());
	// A continuous axis, a value off the multiples, not finite, or beyond 2^52.
	EXPECT_FALSE(EveryWholeValue({1, 5}, {1, 1}, 0.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({1, 2.5, 5}, {1, 1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({1, 5, test::kInf}, {1, 1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({1, 5, test::kNaN}, {1, 1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({9007199254740000.0, 9007199254740004.0}, {1, 1}, 1.0, 100.0).has_value());
	// The limit is StepFloor's 2^52, on both sides of 0.
	const double two52 = 4503599627370496.0;
	EXPECT_TRUE(EveryWholeValue({two52 - 2, two52}, {1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({two52, two52 + 2}, {1, 1}, 1.0, 100.0).has_value());
	EXPECT_TRUE(EveryWholeValue({-two52, -two52 + 2}, {1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({-two52 - 2, -two52}, {1, 1}, 1.0, 100.0).has_value());
	EXPECT_FALSE(EveryWholeValue({}, {}, 1.0, 100.0).has_value());
	EXPECT_PAP_ERROR(ErrorKind::Internal, EveryWholeValue({1, 5}, {1, 0}, 1.0, 100.0));
	EXPECT_PAP_ERROR(ErrorKind::Internal, EveryWholeValue({5, 1}, {1, 1}, 1.0, 100.0));
}

}  // namespace
}  // namespace pap::core
