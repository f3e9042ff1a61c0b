// The two benchmark references, ReferenceWorkload (cell lists) and MembershipWorkload (every cell tested against
// every query), against ProductWorkload: on small random instances of all three domain kinds (dense grids,
// public support with an outside cell, explicit points), with random query lists (points, intervals, full
// ranges, empty and unconstrained queries) and more than one probe block of queries, the reference gives the same
// answers (Evaluate and EvaluateOne up to rounding, EvaluateCounts exactly) and AddToQueryCells touches exactly
// the same cells. Then the overflow check of EvaluateCounts.
#include "core/workloads/membership_workload.hpp"
#include "core/workloads/reference_workload.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/workloads/product_workload.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

std::vector<AxisConstraint>
RandomQuery(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices)
{
	std::vector<AxisConstraint> query;
	if (gen() % 8 == 0)
		return query;  // TRUE
	for (std::uint32_t a = 0; a < radices.size(); a++) {
		if (gen() % 2)
			continue;
		const std::int32_t r = radices[a];
		std::int32_t lo = std::int32_t(gen() % std::uint64_t(r)), hi = std::int32_t(gen() % std::uint64_t(r));
		if (lo > hi)
			std::swap(lo, hi);
		switch (gen() % 10) {
		case 0:
			lo = 0;
			hi = r - 1;
			break;
		case 1: lo = hi + 1; break;  // empty
		case 2:
		case 3:
		case 4: hi = lo; break;
		default: break;
		}
		query.push_back({a, {lo, hi}});
	}
	return query;
}

CellDomain
RandomDomain(std::mt19937_64 &gen, int kind)
{
	std::vector<std::int32_t> radices(1 + gen() % 4);
	for (std::int32_t &r : radices)
		r = 1 + std::int32_t(gen() % 6);
	if (kind == 0)
		return CellDomain::Dense(radices, kNoLimit);
	std::vector<std::int32_t> points;
	const std::size_t count = gen() % 40;
	for (std::size_t i = 0; i < count; i++)
		for (std::int32_t r : radices)
			points.push_back(std::int32_t(gen() % std::uint64_t(r)));
	return kind == 1 ? CellDomain::Support(radices, points, kNoLimit) : CellDomain::Explicit(radices, points);
}

TEST(ReferenceWorkload, AnswersAsProductWorkload)
{
	std::mt19937_64 gen(6);
	std::uniform_real_distribution<double> u(0.0, 1.0);
	for (int trial = 0; trial < 500; trial++) {
		const CellDomain domain = RandomDomain(gen, trial % 3);
		ProductQueryList queries;
		const std::size_t query_count = gen() % 130;  // up to three probe blocks of 52
		for (std::size_t q = 0; q < query_count; q++)
			queries.Add(RandomQuery(gen, domain.radices()));
		const ProductWorkload product(domain, queries);
		const ReferenceWorkload lists(product);
		const MembershipWorkload membership(domain, queries);
		const std::size_t n = domain.CellCount();
		std::vector<double> weights(n);
		std::vector<std::int64_t> histogram(n);
		for (std::size_t i = 0; i < n; i++) {
			weights[i] = u(gen);
			histogram[i] = std::int64_t(gen() % 1000);
		}
		std::vector<double> a;
		std::vector<std::int64_t> ca;
		product.Evaluate(weights, a);
		product.EvaluateCounts(histogram, ca);
		for (const Workload *reference :
		     {static_cast<const Workload *>(&lists), static_cast<const Workload *>(&membership)}) {
			ASSERT_EQ(reference->QueryCount(), query_count);
			ASSERT_EQ(reference->CellCount(), n);
			std::vector<double> b;
			std::vector<std::int64_t> cb;
			reference->Evaluate(weights, b);
			reference->EvaluateCounts(histogram, cb);
			ASSERT_EQ(b.size(), query_count);
			ASSERT_EQ(cb, ca) << "trial " << trial;
			for (std::size_t q = 0; q < query_count; q++) {
				ASSERT_NEAR(b[q], a[q], 1e-9) << "trial " << trial << " query " << q;
				ASSERT_NEAR(reference->EvaluateOne(q, weights), a[q], 1e-9) << "trial " << trial << " query " << q;
				std::vector<double> pa(n, 0.0), pb(n, 0.0);
				product.AddToQueryCells(q, 0.5, pa);
				reference->AddToQueryCells(q, 0.5, pb);
				ASSERT_EQ(pb, pa) << "trial " << trial << " query " << q;
			}
		}
	}
}

TEST(MembershipWorkload, EvaluationPollsForInterrupts)
{
	const CellDomain domain = CellDomain::Dense({4}, kNoLimit);
	ProductQueryList queries;
	for (int q = 0; q < 300; q++)
		queries.Add(std::vector<AxisConstraint>{{0, {q % 4, q % 4}}});
	const MembershipWorkload interrupted(domain, queries, test::AlwaysInterrupted);
	std::vector<double> answers;
	std::vector<std::int64_t> counts;
	EXPECT_PAP_ERROR(ErrorKind::Cancelled, interrupted.Evaluate({0.25, 0.25, 0.25, 0.25}, answers));
	EXPECT_PAP_ERROR(ErrorKind::Cancelled, interrupted.EvaluateCounts({1, 2, 3, 4}, counts));
	const MembershipWorkload running(domain, queries);
	running.EvaluateCounts({1, 2, 3, 4}, counts);
	EXPECT_EQ(counts[5], 2);
}

TEST(MembershipWorkload, ConstraintOutsideTheDomainIsInternal)
{
	const CellDomain domain = CellDomain::Dense({3, 2}, kNoLimit);
	ProductQueryList outside_axis, outside_radix;
	outside_axis.Add(std::vector<AxisConstraint>{{2, {0, 0}}});
	outside_radix.Add(std::vector<AxisConstraint>{{1, {0, 2}}});
	EXPECT_PAP_ERROR(ErrorKind::Internal, MembershipWorkload(domain, outside_axis));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MembershipWorkload(domain, outside_radix));
}

TEST(ReferenceWorkload, CountsOverflowIsAnError)
{
	const CellDomain domain = CellDomain::Dense({3}, kNoLimit);
	ProductQueryList queries;
	queries.Add(std::vector<AxisConstraint>{});  // TRUE: all three cells
	const ReferenceWorkload lists(ProductWorkload(domain, queries));
	const MembershipWorkload membership(domain, queries);
	const std::int64_t big = std::numeric_limits<std::int64_t>::max() / 2;
	for (const Workload *reference :
	     {static_cast<const Workload *>(&lists), static_cast<const Workload *>(&membership)}) {
		std::vector<std::int64_t> counts;
		EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, reference->EvaluateCounts({big, big, big}, counts));
		reference->EvaluateCounts({big, big, 1}, counts);
		EXPECT_EQ(counts[0], 2 * big + 1);
	}
}

}  // namespace
}  // namespace pap::core
