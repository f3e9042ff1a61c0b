// Tests of the numeric axis (docs/architecture.md step 1): cut points learned from public values in PostgreSQL's float8
// order, and the bin of a value, checked against counting by hand.
#include "core/axes/numeric_axis.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

using test::kInf;
using test::kNaN;
using test::PgEq;
using test::PgLe;
using test::PgLt;
using test::SameDouble;

// Distinct values in PostgreSQL order, by selection rather than by sorting: repeatedly take the smallest value
// not yet taken. -0.0 is reported as 0.0.
std::vector<double>
BruteDistinctSorted(const std::vector<double> &values)
{
	std::vector<double> out;
	std::vector<bool> taken(values.size(), false);
	for (;;) {
		std::size_t best = values.size();
		for (std::size_t i = 0; i < values.size(); i++)
			if (!taken[i] && (best == values.size() || PgLt(values[i], values[best])))
				best = i;
		if (best == values.size())
			break;
		const double v = values[best];
		for (std::size_t i = 0; i < values.size(); i++)
			if (PgEq(values[i], v))
				taken[i] = true;
		out.push_back(v == 0.0 ? 0.0 : v);
	}
	return out;
}

std::size_t
BruteCountBelow(const std::vector<double> &cuts, double x)
{
	std::size_t n = 0;
	for (double c : cuts)
		n += PgLt(c, x) ? 1 : 0;
	return n;
}

std::size_t
BruteCountAtMost(const std::vector<double> &cuts, double x)
{
	std::size_t n = 0;
	for (double c : cuts)
		n += PgLe(c, x) ? 1 : 0;
	return n;
}

void
ExpectCutsEqual(const std::vector<double> &actual, const std::vector<double> &expected)
{
	ASSERT_EQ(actual.size(), expected.size());
	for (std::size_t i = 0; i < actual.size(); i++)
		EXPECT_TRUE(SameDouble(actual[i], expected[i])) << "cut " << i << ": " << actual[i] << " vs " << expected[i];
}

TEST(PgFloatLess, IsPostgresFloat8Order)
{
	EXPECT_TRUE(PgFloatLess(kInf, kNaN));
	EXPECT_FALSE(PgFloatLess(kNaN, kInf));
	EXPECT_FALSE(PgFloatLess(kNaN, kNaN));
	EXPECT_FALSE(PgFloatLess(-0.0, 0.0));
	EXPECT_FALSE(PgFloatLess(0.0, -0.0));
	EXPECT_TRUE(PgFloatLess(-kInf, -1e308));
	for (double a : test::ProbeValues())
		for (double b : test::ProbeValues())
			EXPECT_EQ(PgFloatLess(a, b), PgLt(a, b)) << a << " < " << b;
}

TEST(NumericAxisFromPublicValues, SortsAndDedupsInFloat8Order)
{
	const NumericAxis axis = NumericAxis::FromPublicValues({3.0, kNaN, -kInf, kInf, 0.0, -0.0, 3.0, kNaN, 1.0, -0.0});
	ExpectCutsEqual(axis.cuts(), {-kInf, 0.0, 1.0, 3.0, kInf, kNaN});
	EXPECT_EQ(axis.cut_count(), 6u);
}

TEST(NumericAxisFromPublicValues, NegativeZeroIsStoredAsZero)
{
	for (const std::vector<double> &values : {std::vector<double>{-0.0}, {-0.0, 0.0}, {0.0, -0.0}, {-0.0, -0.0, 1.0}}) {
		const NumericAxis axis = NumericAxis::FromPublicValues(values);
		ASSERT_GE(axis.cut_count(), 1u);
		EXPECT_EQ(axis.cuts()[0], 0.0);
		EXPECT_FALSE(std::signbit(axis.cuts()[0]));
		EXPECT_EQ(axis.cut_count(), values.size() == 3 ? 2u : 1u);
	}
}

TEST(NumericAxisFromPublicValues, OnlyNaNIsOneCut)
{
	const NumericAxis axis = NumericAxis::FromPublicValues({kNaN, kNaN, -kNaN});
	ASSERT_EQ(axis.cut_count(), 1u);
	EXPECT_TRUE(std::isnan(axis.cuts()[0]));
	EXPECT_EQ(axis.BinOf(kNaN), 0);
	EXPECT_EQ(axis.BinOf(kInf), 0);
	EXPECT_EQ(axis.BinOf(-kInf), 0);
}

TEST(NumericAxisFromPublicValues, RandomSamplesMatchBruteForce)
{
	std::mt19937_64 gen(20240601);
	for (int trial = 0; trial < 500; trial++) {
		const std::vector<double> values = test::RandomPublicSample(gen, 1 + gen() % 20);
		const NumericAxis axis = NumericAxis::FromPublicValues(values);
		ExpectCutsEqual(axis.cuts(), BruteDistinctSorted(values));
		for (std::size_t i = 1; i < axis.cut_count(); i++)
			EXPECT_TRUE(PgLt(axis.cuts()[i - 1], axis.cuts()[i]));
	}
}

TEST(NumericAxisFromPublicValues, EmptyIsDataException)
{
	EXPECT_PAP_ERROR(ErrorKind::DataException, NumericAxis::FromPublicValues({}));
}

TEST(NumericAxis, BinCountNullBinTopBin)
{
	const NumericAxis axis = NumericAxis::FromPublicValues({5.0, 1.0, 3.0, 3.0});
	EXPECT_EQ(axis.cut_count(), 3u);
	EXPECT_EQ(axis.TopBin(), 3);
	EXPECT_EQ(axis.NullBin(), 4);
	EXPECT_EQ(axis.BinCount(), 5);
	// (-inf, 1], (1, 3], (3, 5], (5, NaN]: every non-NULL value lands in 0..TopBin, never in the NULL bin.
	EXPECT_EQ(axis.BinOf(-kInf), 0);
	EXPECT_EQ(axis.BinOf(1.0), 0);
	EXPECT_EQ(axis.BinOf(1.0000001), 1);
	EXPECT_EQ(axis.BinOf(3.0), 1);
	EXPECT_EQ(axis.BinOf(4.0), 2);
	EXPECT_EQ(axis.BinOf(5.0), 2);
	EXPECT_EQ(axis.BinOf(5.5), 3);
	EXPECT_EQ(axis.BinOf(kInf), 3);
	EXPECT_EQ(axis.BinOf(kNaN), 3);
	for (double x : test::ProbeValues()) {
		EXPECT_GE(axis.BinOf(x), 0);
		EXPECT_LE(axis.BinOf(x), axis.TopBin());
		EXPECT_NE(axis.BinOf(x), axis.NullBin());
	}
}

TEST(NumericAxis, ZerosShareABin)
{
	const NumericAxis axis = NumericAxis::FromPublicValues({-1.0, 0.0, 1.0});
	EXPECT_EQ(axis.BinOf(-0.0), axis.BinOf(0.0));
	EXPECT_EQ(axis.BinOf(-0.0), 1);
	EXPECT_EQ(axis.CountBelow(-0.0), axis.CountBelow(0.0));
	EXPECT_EQ(axis.CountAtMost(-0.0), 2u);
}

TEST(NumericAxis, BinOfCountBelowCountAtMostMatchBruteForce)
{
	std::mt19937_64 gen(7);
	std::uniform_real_distribution<double> uniform(-10.0, 10.0);
	std::vector<double> probes = test::ProbeValues();
	for (int trial = 0; trial < 300; trial++) {
		std::vector<double> values = test::RandomPublicSample(gen, 1 + gen() % 12);
		for (int i = 0; i < 5; i++)
			values.push_back(std::round(uniform(gen) * 4) / 4);  // ties with the probes below
		const NumericAxis axis = NumericAxis::FromPublicValues(values);
		const std::vector<double> &cuts = axis.cuts();
		std::vector<double> xs = probes;
		for (int i = 0; i < 40; i++) {
			xs.push_back(uniform(gen));
			xs.push_back(std::round(uniform(gen) * 4) / 4);
		}
		for (double x : xs) {
			const std::size_t below = BruteCountBelow(cuts, x);
			EXPECT_EQ(axis.CountBelow(x), below) << "x = " << x;
			EXPECT_EQ(axis.CountAtMost(x), BruteCountAtMost(cuts, x)) << "x = " << x;
			EXPECT_EQ(std::size_t(axis.BinOf(x)), below) << "x = " << x;
			EXPECT_EQ(CountBelowSorted(cuts.data(), cuts.size(), x), std::size_t(axis.BinOf(x))) << "x = " << x;
			// x is in bin j = (w_j, w_{j+1}]: above the cut before it, at most the cut after it.
			const std::int32_t j = axis.BinOf(x);
			if (j > 0) {
				EXPECT_TRUE(PgLt(cuts[std::size_t(j) - 1], x));
			}
			if (std::size_t(j) < cuts.size()) {
				EXPECT_TRUE(PgLe(x, cuts[std::size_t(j)]));
			}
		}
	}
}

TEST(CountBelowSorted, EmptyAndEdges)
{
	const double cuts[] = {-kInf, 2.0, kNaN};
	EXPECT_EQ(CountBelowSorted(cuts, 0, 5.0), 0u);
	EXPECT_EQ(CountBelowSorted(cuts, 3, -kInf), 0u);
	EXPECT_EQ(CountBelowSorted(cuts, 3, -1e308), 1u);
	EXPECT_EQ(CountBelowSorted(cuts, 3, 2.0), 1u);
	EXPECT_EQ(CountBelowSorted(cuts, 3, kInf), 2u);
	EXPECT_EQ(CountBelowSorted(cuts, 3, kNaN), 2u);
}

TEST(NumericAxisFromCuts, AcceptsStoredAxis)
{
	const std::vector<double> cuts = {-kInf, -1.0, 0.0, 2.5, kInf, kNaN};
	const NumericAxis axis = NumericAxis::FromCuts(cuts);
	ExpectCutsEqual(axis.cuts(), cuts);
	const NumericAxis again = NumericAxis::FromCuts(NumericAxis::FromPublicValues({3.0, 1.0, kNaN, 1.0}).cuts());
	ExpectCutsEqual(again.cuts(), {1.0, 3.0, kNaN});
}

TEST(NumericAxisFromCuts, RejectsUnsortedDuplicateOrEmpty)
{
	for (const std::vector<double> &bad : {std::vector<double>{2.0, 1.0},
	                                       {1.0, 1.0},
	                                       {0.0, -0.0},
	                                       {-0.0, 0.0},
	                                       {1.0, kNaN, 2.0},
	                                       {kNaN, kNaN},
	                                       {kNaN, kInf},
	                                       {kInf, -kInf},
	                                       {1.0, 2.0, 3.0, 2.5},
	                                       {}})
		EXPECT_PAP_ERROR(ErrorKind::Internal, NumericAxis::FromCuts(bad));
}

}  // namespace
}  // namespace pap::core
