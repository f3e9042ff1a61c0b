// The bootstrap of the prior's sampling error (docs/mechanisms.md §10 (d)): against Kolmogorov's limit for the
// thresholds of a uniform sample, its fallback, its budget, its determinism, its errors and its cancellation.
#include "core/mechanisms/prior_bootstrap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/workloads/product_workload.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

// The thresholds x <= j of a one-axis grid: the cover of the thresholds class.
ProductWorkload
Thresholds(const CellDomain &domain, std::int32_t cells)
{
	ProductQueryList queries;
	for (std::int32_t j = 0; j < cells; j++)
		queries.Add({{0, {0, j}}});
	return ProductWorkload(domain, queries);
}

TEST(PriorBootstrap, MatchesKolmogorovsQuantileForThresholds)
{
	// One public row per cell of 2000: the empirical CDF of a uniform sample, whose sup deviation is
	// Kolmogorov-distributed, sqrt(m) D -> K; K's 0.95 quantile is 1.3581 (its 0.05 upper tail).
	const std::int32_t cells = 2000;
	const CellDomain domain = CellDomain::Dense({cells}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, cells);
	const std::vector<std::int64_t> histogram(cells, 1);
	const double private_rows = 1e12;  // the private table's own sampling negligible
	const double estimate = BootstrapPriorSamplingError(histogram, workload, std::int64_t(private_rows), 0.05);
	const double kolmogorov = 1.3581 / std::sqrt(double(cells));
	EXPECT_GT(estimate, 0.8 * kolmogorov);
	EXPECT_LT(estimate, 1.25 * kolmogorov);
	// Far below Hoeffding's union over the 2000 thresholds at the same confidence.
	EXPECT_LT(estimate, 0.7 * std::sqrt(std::log(2.0 * cells / 0.05) / (2.0 * cells)));
}

TEST(PriorBootstrap, PrivateSamplingWidensBySqrtOnePlusMOverN)
{
	const std::int32_t cells = 500;
	const CellDomain domain = CellDomain::Dense({cells}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, cells);
	const std::vector<std::int64_t> histogram(cells, 2);  // m = 1000
	const double alone = BootstrapPriorSamplingError(histogram, workload, std::int64_t(1e12), 0.05);
	const double equal = BootstrapPriorSamplingError(histogram, workload, 1000, 0.05);
	EXPECT_NEAR(equal, alone * std::sqrt(2.0), 1e-9);
}

TEST(PriorBootstrap, IsDeterministic)
{
	const CellDomain domain = CellDomain::Dense({40}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, 40);
	std::vector<std::int64_t> histogram(40);
	for (std::size_t i = 0; i < histogram.size(); i++)
		histogram[i] = std::int64_t(i % 7);
	EXPECT_EQ(BootstrapPriorSamplingError(histogram, workload, 5000, 0.01),
	          BootstrapPriorSamplingError(histogram, workload, 5000, 0.01));
}

TEST(PriorBootstrap, BeyondTheResamplesTakesMcDiarmidsDeviationFromTheMean)
{
	// 256 resamples cannot resolve a 1e-6 quantile: the mean plus McDiarmid's deviation, at least the deviation.
	const std::int32_t cells = 100;
	const CellDomain domain = CellDomain::Dense({cells}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, cells);
	const std::vector<std::int64_t> histogram(cells, 3);
	const double m = 300, n = 10000, beta = 1e-6;
	const double estimate = BootstrapPriorSamplingError(histogram, workload, std::int64_t(n), beta);
	const double deviation = std::sqrt(std::log(1.0 / beta) * (1.0 / m + 1.0 / n) / 2.0);
	EXPECT_GT(estimate, deviation);
	EXPECT_LT(estimate, deviation + 0.2);
	// At a quantile the resamples resolve, the order statistic: below the fallback's deviation alone here.
	EXPECT_LT(BootstrapPriorSamplingError(histogram, workload, std::int64_t(n), 0.01),
	          std::sqrt(std::log(1.0 / 0.01) * (1.0 / m + 1.0 / n) / 2.0) + 0.2);
}

TEST(PriorBootstrap, ASampleOfOneValueIsNotExact)
{
	// Every resample of 1000 rows at one value is the sample itself; the population may still hold other values.
	const CellDomain domain = CellDomain::Dense({3}, kNoLimit);
	const double estimate = BootstrapPriorSamplingError({0, 1000, 0}, Thresholds(domain, 3), 5000, 0.01);
	EXPECT_DOUBLE_EQ(estimate, PrivateShareBound(0.0, 1000, 5000, std::log(2.0 / 0.01)));
	EXPECT_GT(estimate, 0.004);
}

TEST(PriorBootstrap, ResamplesFollowTheCostBudget)
{
	EXPECT_EQ(BootstrapResamples(10, 10), kBootstrapMaxResamples);
	EXPECT_EQ(BootstrapResamples(std::size_t(kBootstrapCostBudget / 100), 0), 100);
	EXPECT_EQ(BootstrapResamples(std::size_t(kBootstrapCostBudget), 0), 0);
	EXPECT_EQ(BootstrapResamples(std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max()), 0);
}

TEST(PriorBootstrap, RefusesWhatDoesNotFit)
{
	const CellDomain domain = CellDomain::Dense({4}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, 4);
	EXPECT_PAP_ERROR(ErrorKind::Internal, BootstrapPriorSamplingError({1, 1, 1}, workload, 10, 0.05));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BootstrapPriorSamplingError({0, 0, 0, 0}, workload, 10, 0.05));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BootstrapPriorSamplingError({1, -1, 1, 1}, workload, 10, 0.05));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BootstrapPriorSamplingError({1, 1, 1, 1}, workload, 0, 0.05));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BootstrapPriorSamplingError({1, 1, 1, 1}, workload, 10, 0.0));
	EXPECT_PAP_ERROR(ErrorKind::Internal,
	                 BootstrapPriorSamplingError({1, 1, 1, 1}, workload, 10, std::numeric_limits<double>::quiet_NaN()));
}

TEST(PriorBootstrap, IsCancellable)
{
	const CellDomain domain = CellDomain::Dense({1000}, kNoLimit);
	const ProductWorkload workload = Thresholds(domain, 1000);
	const std::vector<std::int64_t> histogram(1000, 100);
	const InterruptScope scope(test::AlwaysInterrupted);
	EXPECT_PAP_ERROR(ErrorKind::Cancelled, BootstrapPriorSamplingError(histogram, workload, 1000, 0.05));
}

}  // namespace
}  // namespace pap::core
