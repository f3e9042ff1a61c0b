// The stand-in for the private histogram in identity's bias (docs/mechanisms.md §9, "The stand-in").
#include "core/mechanisms/public_stand_in.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/cells/cell_domain.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

TEST(PublicStandIn, WithoutSingletonsIsThePublicShares)
{
	const CellDomain domain = CellDomain::Dense({2, 3}, kNoLimit);
	const std::vector<std::int64_t> histogram{2, 0, 4, 0, 2, 2};
	const std::vector<double> stand_in = PublicStandIn(histogram, domain);
	for (std::size_t i = 0; i < histogram.size(); i++)
		EXPECT_DOUBLE_EQ(stand_in[i], double(histogram[i]) / 10.0) << i;
}

TEST(PublicStandIn, AllSingletonsIsTheProductOfTheMarginals)
{
	// Rows alone at (0,0), (0,1), (1,0): marginals (2/3, 1/3) and (2/3, 1/3); Good-Turing's missing mass is 1.
	const CellDomain domain = CellDomain::Dense({2, 2}, kNoLimit);
	const std::vector<double> stand_in = PublicStandIn({1, 1, 1, 0}, domain);
	EXPECT_DOUBLE_EQ(stand_in[0], 4.0 / 9.0);
	EXPECT_DOUBLE_EQ(stand_in[1], 2.0 / 9.0);
	EXPECT_DOUBLE_EQ(stand_in[2], 2.0 / 9.0);
	EXPECT_DOUBLE_EQ(stand_in[3], 1.0 / 9.0);  // a grid point no public row shows gets its share
}

TEST(PublicStandIn, MixesByTheShareOfSingletons)
{
	// 4 rows, one alone at (0,0), three at (1,1): missing mass 1/4 spread by the marginals (1/4, 3/4) on both axes.
	const CellDomain domain = CellDomain::Dense({2, 2}, kNoLimit);
	const std::vector<double> stand_in = PublicStandIn({1, 0, 0, 3}, domain);
	EXPECT_DOUBLE_EQ(stand_in[0], 0.75 * 0.25 + 0.25 * (1.0 / 16.0));
	EXPECT_DOUBLE_EQ(stand_in[1], 0.25 * (3.0 / 16.0));
	EXPECT_DOUBLE_EQ(stand_in[2], 0.25 * (3.0 / 16.0));
	EXPECT_DOUBLE_EQ(stand_in[3], 0.75 * 0.75 + 0.25 * (9.0 / 16.0));
}

TEST(PublicStandIn, SupportDomainSendsTheRestToTheOutsideCell)
{
	// Points (0,0) alone and (1,1) twice on a 2 x 2 grid: missing mass 1/3, marginals (1/3, 2/3) both; the
	// product's mass at (0,1) and (1,0), 4/9, lies outside the support.
	const CellDomain domain = CellDomain::Support({2, 2}, {0, 0, 1, 1}, kNoLimit);
	ASSERT_EQ(domain.CellCount(), 3u);
	const std::vector<double> stand_in = PublicStandIn({1, 2, 0}, domain);
	EXPECT_DOUBLE_EQ(stand_in[0], (2.0 / 3.0) * (1.0 / 3.0) + (1.0 / 3.0) * (1.0 / 9.0));
	EXPECT_DOUBLE_EQ(stand_in[1], (2.0 / 3.0) * (2.0 / 3.0) + (1.0 / 3.0) * (4.0 / 9.0));
	EXPECT_NEAR(stand_in[2], (1.0 / 3.0) * (4.0 / 9.0), 1e-15);
	EXPECT_NEAR(std::accumulate(stand_in.begin(), stand_in.end(), 0.0), 1.0, 1e-15);
}

TEST(PublicStandIn, RefusesWhatDoesNotFit)
{
	const CellDomain domain = CellDomain::Dense({2, 2}, kNoLimit);
	EXPECT_PAP_ERROR(ErrorKind::Internal, PublicStandIn({1, 1, 1}, domain));
	EXPECT_PAP_ERROR(ErrorKind::Internal, PublicStandIn({0, 0, 0, 0}, domain));
	EXPECT_PAP_ERROR(ErrorKind::Internal, PublicStandIn({1, -1, 0, 0}, domain));
	EXPECT_PAP_ERROR(ErrorKind::Internal, PublicStandIn({1}, CellDomain::Explicit({2, 2}, {0, 0})));
}

TEST(PublicStandIn, IsCancellable)
{
	const CellDomain domain = CellDomain::Dense({400, 400}, kNoLimit);
	const InterruptScope scope(test::AlwaysInterrupted);
	EXPECT_PAP_ERROR(ErrorKind::Cancelled, PublicStandIn(std::vector<std::int64_t>(160000, 1), domain));
}

}  // namespace
}  // namespace pap::core
