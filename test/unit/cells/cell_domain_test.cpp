// CellDomain: the dense grid's index <-> coordinates against a row-major decoding written out here, the sparse
// domains (Support, Explicit) against a std::set of the points, Choose's three outcomes with their sentences,
// and the errors for malformed input.
#include "core/cells/cell_domain.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
constexpr std::int32_t kBig = std::numeric_limits<std::int32_t>::max();

std::vector<std::int32_t>
Decode(std::size_t index, const std::vector<std::int32_t> &radices)
{
	std::vector<std::int32_t> c(radices.size());
	for (std::size_t a = radices.size(); a-- > 0;) {
		c[a] = std::int32_t(index % std::size_t(radices[a]));
		index /= std::size_t(radices[a]);
	}
	return c;
}

std::size_t
GridCells(const std::vector<std::int32_t> &radices)
{
	std::size_t n = 1;
	for (std::int32_t r : radices)
		n *= std::size_t(r);
	return n;
}

std::vector<std::int32_t>
RandomRadices(std::mt19937_64 &gen)
{
	std::vector<std::int32_t> radices(1 + gen() % 4);
	for (std::int32_t &r : radices)
		r = 1 + std::int32_t(gen() % 5);
	return radices;
}

// count random grid points, flat, with repeats.
std::vector<std::int32_t>
RandomPoints(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices, std::size_t count)
{
	std::vector<std::int32_t> flat;
	for (std::size_t i = 0; i < count; i++)
		for (std::int32_t r : radices)
			flat.push_back(std::int32_t(gen() % std::uint64_t(r)));
	return flat;
}

std::set<std::vector<std::int32_t>>
PointSet(const std::vector<std::int32_t> &flat, std::size_t d)
{
	std::set<std::vector<std::int32_t>> set;
	for (std::size_t i = 0; i < flat.size(); i += d)
		set.emplace(flat.begin() + std::ptrdiff_t(i), flat.begin() + std::ptrdiff_t(i + d));
	return set;
}

TEST(CellDomain, DenseMatchesRowMajorDecoding)
{
	std::mt19937_64 gen(11);
	for (int trial = 0; trial < 200; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const CellDomain domain = CellDomain::Dense(radices, kNoLimit);
		const std::size_t n = GridCells(radices);
		ASSERT_EQ(domain.kind(), DomainKind::Dense);
		ASSERT_EQ(domain.CellCount(), n);
		EXPECT_EQ(domain.GridSize(), double(n));
		EXPECT_FALSE(domain.HasOutsideCell());
		EXPECT_TRUE(domain.points().empty());
		std::vector<std::int32_t> c(radices.size());
		for (std::size_t i = 0; i < n; i++) {
			const std::vector<std::int32_t> expected = Decode(i, radices);
			ASSERT_TRUE(domain.CoordinatesOf(i, c.data()));
			ASSERT_EQ(c, expected);
			ASSERT_EQ(domain.CellOf(expected.data()), i);
		}
		EXPECT_PAP_ERROR(ErrorKind::Internal, domain.CoordinatesOf(n, c.data()));
	}
}

TEST(CellDomain, DenseLimitAndNoAxes)
{
	EXPECT_EQ(CellDomain::Dense({3, 4}, 12).CellCount(), 12u);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellDomain::Dense({3, 4}, 11));
	// Beyond 64 bits: the size is a double, the limit check cannot wrap.
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellDomain::Dense({kBig, kBig, kBig}, kNoLimit));
	EXPECT_DOUBLE_EQ(CellDomain::Choose({kBig, kBig, kBig}, {1, 2, 3}, 10).GridSize(), double(kBig) * kBig * kBig);
	const CellDomain none = CellDomain::Dense({}, 1);
	EXPECT_EQ(none.CellCount(), 1u);
	EXPECT_EQ(none.CellOf(nullptr), 0u);
	EXPECT_TRUE(none.CoordinatesOf(0, nullptr));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Dense({3, 0}, kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Dense({-2}, kNoLimit));
}

// Support and Explicit against the set of distinct points: sorted order, the outside cell, absent points.
TEST(CellDomain, SparseDomainsMatchThePointSet)
{
	std::mt19937_64 gen(12);
	for (int trial = 0; trial < 300; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::size_t d = radices.size(), n = GridCells(radices);
		const std::vector<std::int32_t> flat = RandomPoints(gen, radices, gen() % (n + 3));
		const std::set<std::vector<std::int32_t>> set = PointSet(flat, d);
		const bool support = trial % 2 == 0;
		const CellDomain domain =
		    support ? CellDomain::Support(radices, flat, kNoLimit) : CellDomain::Explicit(radices, flat);
		ASSERT_EQ(domain.kind(), support ? DomainKind::Support : DomainKind::Explicit);
		ASSERT_EQ(domain.HasOutsideCell(), support);
		ASSERT_EQ(domain.CellCount(), set.size() + (support ? 1 : 0));
		ASSERT_EQ(domain.radices(), radices);
		// points(): exactly the set, in its (lexicographic) order.
		std::vector<std::int32_t> expected_flat;
		for (const std::vector<std::int32_t> &p : set)
			expected_flat.insert(expected_flat.end(), p.begin(), p.end());
		ASSERT_EQ(domain.points(), expected_flat);
		std::vector<std::int32_t> c(d);
		std::size_t k = 0;
		for (const std::vector<std::int32_t> &p : set) {
			ASSERT_TRUE(domain.CoordinatesOf(k, c.data()));
			ASSERT_EQ(c, p);
			ASSERT_EQ(domain.CellOf(p.data()), k);
			k++;
		}
		// Every grid point not in the set: the outside cell, or CellCount() for Explicit.
		for (std::size_t i = 0; i < n; i++) {
			const std::vector<std::int32_t> p = Decode(i, radices);
			if (set.count(p) == 0) {
				ASSERT_EQ(domain.CellOf(p.data()), support ? domain.OutsideCell() : domain.CellCount());
			}
		}
		if (support) {
			ASSERT_EQ(domain.OutsideCell(), set.size());
			c.assign(d, -7);
			EXPECT_FALSE(domain.CoordinatesOf(domain.OutsideCell(), c.data()));
			EXPECT_EQ(c, std::vector<std::int32_t>(d, -7));  // nothing written
		}
		EXPECT_PAP_ERROR(ErrorKind::Internal, domain.CoordinatesOf(domain.CellCount(), c.data()));
		std::vector<std::int32_t> outside(radices);  // one past the last bin on every axis
		EXPECT_PAP_ERROR(ErrorKind::Internal, domain.CellOf(outside.data()));
	}
}

TEST(CellDomain, SupportLimitCountsTheOutsideCell)
{
	const std::vector<std::int32_t> flat = {0, 1, 2, 3, 0, 1, 4, 4};  // 3 distinct points on 2 axes
	EXPECT_EQ(CellDomain::Support({5, 5}, flat, 4).CellCount(), 4u);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, CellDomain::Support({5, 5}, flat, 3));
	// Explicit has no limit and no outside cell; no points at all is a valid, empty domain.
	EXPECT_EQ(CellDomain::Explicit({5, 5}, flat).CellCount(), 3u);
	EXPECT_EQ(CellDomain::Explicit({5, 5}, {}).CellCount(), 0u);
	EXPECT_EQ(CellDomain::Support({5, 5}, {}, 1).CellCount(), 1u);
}

TEST(CellDomain, SparseMalformedInput)
{
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Support({5, 5}, {1, 2, 3}, kNoLimit));  // 1.5 points
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Explicit({5, 5}, {1, 5}));              // outside radix
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Explicit({5, 5}, {-1, 0}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Explicit({5, 0}, {}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Explicit({}, {}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, CellDomain::Choose({5, 5}, {1, 7}, 3));
}

TEST(CellDomain, ChooseDenseWhenTheGridFits)
{
	const CellDomain domain = CellDomain::Choose({8, 18139}, {0, 0}, 1000000);
	EXPECT_EQ(domain.kind(), DomainKind::Dense);
	EXPECT_EQ(domain.CellCount(), 145112u);
	EXPECT_EQ(domain.reason(), "The full grid of 145112 cells fits pap_release.max_cells (1000000).");
	EXPECT_EQ(CellDomain::Choose({8, 18139}, {}, 145112).kind(), DomainKind::Dense);  // at the limit
}

TEST(CellDomain, ChooseSupportWhenTheGridDoesNot)
{
	// 4521 distinct points of a 1.2e15 grid, each twice.
	std::vector<std::int32_t> flat;
	for (int copy = 0; copy < 2; copy++)
		for (std::int32_t i = 0; i < 4521; i++) {
			flat.push_back(i * 7 % 1000000);
			flat.push_back(999999 - i);
			flat.push_back(i % 1200);
		}
	const CellDomain domain = CellDomain::Choose({1000000, 1000000, 1200}, flat, 1000000);
	EXPECT_EQ(domain.kind(), DomainKind::Support);
	EXPECT_EQ(domain.CellCount(), 4522u);
	EXPECT_EQ(domain.reason(), "The full grid of 1.2e+15 cells exceeds pap_release.max_cells (1000000); the domain is "
	                           "the 4521 grid points holding public rows plus one outside cell.");
	// The support at exactly the limit still fits; one cell less does not.
	EXPECT_EQ(CellDomain::Choose({1000000, 1000000, 1200}, flat, 4522).kind(), DomainKind::Support);
	try {
		CellDomain::Choose({1000000, 1000000, 1200}, flat, 4521);
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
		EXPECT_EQ(std::string(e.what()), "too many representative cells");
		EXPECT_EQ(e.detail(), "The full grid of 1.2e+15 cells and even the 4521 grid points holding public rows plus "
		                      "one outside cell exceed pap_release.max_cells (4521).");
		EXPECT_EQ(e.hint(),
		          "Release fewer columns, or a larger alpha for coarser numeric axes, or have a superuser raise "
		          "pap_release.max_cells.");
	}
	// A grid beyond 64 bits takes the same path.
	EXPECT_EQ(CellDomain::Choose({kBig, kBig, kBig}, {1, 2, 3, 1, 2, 3}, 100).CellCount(), 2u);
}

}  // namespace
}  // namespace pap::core
