// Tests of the bucketed cut lookup (cut_lookup.hpp) and the branchless binary search: both must return exactly
// CountBelowSorted (PostgreSQL's float8 order) for every value, on random and adversarial sorted cut arrays.
#include "core/axes/cut_lookup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/axes/numeric_axis.hpp"

namespace pap::core {
namespace {

using test::kInf;
using test::kNaN;

constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kMinNormal = std::numeric_limits<double>::min();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();

// A lookup in a block of exactly BytesFor bytes, so that AddressSanitizer sees any access past it.
struct OwnedLookup {
	std::unique_ptr<void, void (*)(void *)> memory;
	const CutLookup *lookup;
	explicit OwnedLookup(const std::vector<double> &cuts)
	    : memory(::operator new(CutLookup::BytesFor(cuts.size())), [](void *p) { ::operator delete(p); }),
	      lookup(CutLookup::Build(cuts.data(), cuts.size(), memory.get()))
	{
	}
};

// Values worth probing for these cuts: the specials, every cut, its neighbours and midpoints.
std::vector<double>
Probes(const std::vector<double> &cuts)
{
	std::vector<double> xs = {kNaN,       -kInf, kInf,  0.0, -0.0, kDenormMin, -kDenormMin,
	                          kMinNormal, kMax,  -kMax, 1.0, -1.0, 1e-300,     1e300};
	for (std::size_t i = 0; i < cuts.size(); i++) {
		const double c = cuts[i];
		xs.push_back(c);
		xs.push_back(std::nextafter(c, -kInf));
		xs.push_back(std::nextafter(c, kInf));
		xs.push_back(-c);
		if (i + 1 < cuts.size())
			xs.push_back(c / 2 + cuts[i + 1] / 2);
	}
	return xs;
}

// Every probe (and extra values) through the lookup and the branchless searches against CountBelowSorted and
// std::upper_bound in PostgreSQL's order.
void
ExpectSameBins(const std::vector<double> &cuts, const std::vector<double> &extra = {})
{
	const OwnedLookup owned(cuts);
	ASSERT_EQ(owned.lookup->count(), cuts.size());
	std::vector<double> xs = Probes(cuts);
	xs.insert(xs.end(), extra.begin(), extra.end());
	for (double x : xs) {
		const std::size_t expected = CountBelowSorted(cuts.data(), cuts.size(), x);
		ASSERT_EQ(owned.lookup->Index(x), expected) << "x = " << x << " among " << cuts.size() << " cuts";
		ASSERT_EQ(BranchlessCountBelow(cuts.data(), cuts.size(), x), expected) << "x = " << x;
		const std::size_t at_most =
		    std::size_t(std::upper_bound(cuts.begin(), cuts.end(), x, PgFloatLess) - cuts.begin());
		ASSERT_EQ(BranchlessCountAtMost(cuts.data(), cuts.size(), x), at_most) << "x = " << x;
	}
}

std::vector<double>
Sorted(std::vector<double> cuts)
{
	std::sort(cuts.begin(), cuts.end(), PgFloatLess);
	return cuts;
}

TEST(CutLookup, EmptyAndOneCut)
{
	EXPECT_FALSE(OwnedLookup({}).lookup->bucketed());
	ExpectSameBins({});
	EXPECT_FALSE(OwnedLookup({2.5}).lookup->bucketed());
	ExpectSameBins({2.5});
	ExpectSameBins({kNaN});
	ExpectSameBins({-kInf});
	ExpectSameBins({0.0});
	EXPECT_EQ(OwnedLookup({2.5}).lookup->Index(2.5), 0u);
	EXPECT_EQ(OwnedLookup({2.5}).lookup->Index(3.0), 1u);
	EXPECT_EQ(OwnedLookup({2.5}).lookup->Index(kNaN), 1u);
}

TEST(CutLookup, BucketsUniformCuts)
{
	std::vector<double> cuts;
	for (int i = 0; i < 100; i++)
		cuts.push_back(i * 0.25 - 7);
	EXPECT_TRUE(OwnedLookup(cuts).lookup->bucketed());
	ExpectSameBins(cuts);
	// A value equal to a cut is not below it; the next double above is.
	const OwnedLookup owned(cuts);
	EXPECT_EQ(owned.lookup->Index(-7.0), 0u);
	EXPECT_EQ(owned.lookup->Index(std::nextafter(-7.0, kInf)), 1u);
	EXPECT_EQ(owned.lookup->Index(cuts.back()), 99u);
	EXPECT_EQ(owned.lookup->Index(kInf), 100u);
	EXPECT_EQ(owned.lookup->Index(kNaN), 100u);
}

TEST(CutLookup, Duplicates)
{
	ExpectSameBins({1, 1, 1, 1, 1, 1, 1, 1, 1, 1});  // width 0: binary search
	EXPECT_FALSE(OwnedLookup({1, 1, 1}).lookup->bucketed());
	const std::vector<double> cuts = {0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 9};
	EXPECT_TRUE(OwnedLookup(cuts).lookup->bucketed());
	ExpectSameBins(cuts);
}

TEST(CutLookup, SignedZeros)
{
	// -0.0 and 0.0 are one value to PostgreSQL: either may appear, in either order.
	ExpectSameBins({-1.0, -0.0, 0.0, 1.0});
	ExpectSameBins({-1.0, 0.0, -0.0, 1.0});
	ExpectSameBins({-0.0, 0.0, kDenormMin, 2 * kDenormMin, kMinNormal});
	EXPECT_EQ(OwnedLookup({-1.0, -0.0, 1.0}).lookup->Index(0.0), 1u);
	EXPECT_EQ(OwnedLookup({-1.0, 0.0, 1.0}).lookup->Index(-0.0), 1u);
}

TEST(CutLookup, NonFiniteEndsFallBack)
{
	const std::vector<double> nan_last = {1, 2, 3, 4, 5, kNaN};
	EXPECT_FALSE(OwnedLookup(nan_last).lookup->bucketed());
	ExpectSameBins(nan_last);
	ExpectSameBins({1, 2, 3, kNaN, kNaN});
	ExpectSameBins({-kInf, 1, 2, 3});
	ExpectSameBins({1, 2, 3, kInf});
	ExpectSameBins({-kInf, kInf});
	ExpectSameBins({-kInf, -1, 0, 1, kInf, kNaN});
	EXPECT_EQ(OwnedLookup(nan_last).lookup->Index(kNaN), 5u);
	EXPECT_EQ(OwnedLookup(nan_last).lookup->Index(kInf), 5u);
}

TEST(CutLookup, HugeAndTinyRanges)
{
	// The width overflows: binary search.
	EXPECT_FALSE(OwnedLookup({-kMax, 0, kMax}).lookup->bucketed());
	ExpectSameBins({-kMax, -1e300, 0, 1e300, kMax});
	// The width is finite but huge, and values beyond the ends overflow (v - lo) to infinity: clamped.
	EXPECT_TRUE(OwnedLookup({-1e307, 0, 1e307}).lookup->bucketed());
	ExpectSameBins({-1e307, -5, 0, 5, 1e307}, {-kMax, kMax, 5e307, -5e307});
	ExpectSameBins({0, kMax / 2, kMax});
	// Adjacent doubles, and a subnormal width whose scale would overflow.
	const double one_up = std::nextafter(1.0, 2.0);
	EXPECT_TRUE(OwnedLookup({1.0, one_up}).lookup->bucketed());
	ExpectSameBins({1.0, one_up, std::nextafter(one_up, 2.0)});
	EXPECT_FALSE(OwnedLookup({0.0, kDenormMin}).lookup->bucketed());
	ExpectSameBins({0.0, kDenormMin, 2 * kDenormMin, 3 * kDenormMin});
	ExpectSameBins({-kDenormMin, 0.0, kDenormMin});
	ExpectSameBins({0.0, 1e-300, 2e-300}, {1e-310, 1.5e-300});
}

TEST(CutLookup, ClusteredCutsTakeTheLongBucket)
{
	// 1000 cuts within 1e-9 of 0 and one at 1e9: they share one bucket, larger than the window.
	std::vector<double> cuts;
	for (int i = 0; i < 1000; i++)
		cuts.push_back(i * 1e-12);
	cuts.push_back(1e9);
	EXPECT_TRUE(OwnedLookup(cuts).lookup->bucketed());
	std::vector<double> extra;
	for (int i = 0; i < 2000; i++)
		extra.push_back(i * 0.5e-12 - 1e-13);
	ExpectSameBins(cuts, extra);
	// Exactly the window, and one more, in one bucket.
	ExpectSameBins({0, 1e-9, 2e-9, 3e-9, 1});
	ExpectSameBins({0, 1e-9, 2e-9, 3e-9, 4e-9, 1});
	ExpectSameBins({0, 1 - 4e-9, 1 - 3e-9, 1 - 2e-9, 1 - 1e-9, 1});
}

TEST(CutLookup, ValuesAtBucketEdges)
{
	// Cuts on the bucket edges of a power-of-two range, and values just around each edge.
	std::vector<double> cuts;
	for (int i = 0; i <= 64; i++)
		cuts.push_back(i / 64.0);
	const OwnedLookup owned(cuts);
	EXPECT_TRUE(owned.lookup->bucketed());
	std::vector<double> extra;
	for (int i = -2; i <= 260; i++) {
		const double edge = i / 256.0;
		extra.push_back(edge);
		extra.push_back(std::nextafter(edge, -kInf));
		extra.push_back(std::nextafter(edge, kInf));
	}
	ExpectSameBins(cuts, extra);
}

TEST(CutLookup, RandomArrays)
{
	std::mt19937_64 rng(20261122);
	std::uniform_int_distribution<int> size_of(0, 300), kind_of(0, 5), coin(0, 9);
	std::normal_distribution<double> normal(0.0, 1.0);
	std::exponential_distribution<double> exponential(1.0);
	std::uniform_real_distribution<double> uniform(-1e6, 1e6);
	const auto draw = [&](int kind) -> double {
		switch (kind) {
		case 0: return normal(rng);
		case 1: return std::exp(exponential(rng) * 8) + 300;  // heavy tail, like prices
		case 2: return std::floor(normal(rng) * 4);           // many duplicates
		case 3: return uniform(rng);
		case 4: return normal(rng) * 1e-300;                         // near and among subnormals
		default: return coin(rng) == 0 ? 1e12 : normal(rng) * 1e-6;  // a cluster and an outlier
		}
	};
	std::size_t bucketed = 0;
	for (int round = 0; round < 2000; round++) {
		const int kind = kind_of(rng);
		std::vector<double> cuts(std::size_t(size_of(rng)));
		for (double &c : cuts)
			c = draw(kind);
		if (coin(rng) == 0)
			cuts.push_back(kNaN);
		if (coin(rng) == 0)
			cuts.push_back(coin(rng) < 5 ? kInf : -kInf);
		cuts = Sorted(cuts);
		std::vector<double> extra(200);
		for (double &x : extra)
			x = draw(kind);
		bucketed += OwnedLookup(cuts).lookup->bucketed() ? 1 : 0;
		ExpectSameBins(cuts, extra);
		if (HasFatalFailure())
			return;
	}
	EXPECT_GT(bucketed, 1000u);  // the fast path is what was tested
}

TEST(CutLookup, ManyCutsCapTheBuckets)
{
	// 2^20 buckets at most: 3e6 cuts of [0, 1) put about three in each.
	std::vector<double> cuts(3000000);
	std::mt19937_64 rng(7);
	std::uniform_real_distribution<double> uniform(0.0, 1.0);
	for (double &c : cuts)
		c = uniform(rng);
	cuts = Sorted(cuts);
	const OwnedLookup owned(cuts);
	EXPECT_TRUE(owned.lookup->bucketed());
	EXPECT_LT(CutLookup::BytesFor(cuts.size()),
	          sizeof(double) * cuts.size() + sizeof(std::uint32_t) * ((1u << 20) + 2) + 256);
	for (int i = 0; i < 100000; i++) {
		const double x = uniform(rng);
		ASSERT_EQ(owned.lookup->Index(x), CountBelowSorted(cuts.data(), cuts.size(), x)) << x;
	}
}

}  // namespace
}  // namespace pap::core
