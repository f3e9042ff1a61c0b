// The textbook evaluation of a product-query workload, kept for benchmarks (pap_release.reference_workload =
// membership): every answer is a sum over ALL cells of the weights of those that satisfy the query's constraints,
// query by query: no grouping, no prefix sums, no index of a query's cells. This is the "straightforward reference
// implementation" docs/bench.md measures the grouped ProductWorkload against; ReferenceWorkload (cell lists) is a
// stronger reference that precomputes each query's cells.
// Same cells and answers as ProductWorkload over the same domain and queries: a dense domain's cells are its grid
// points in CellGrid order; a support domain's outside cell lies only in the queries without constraints.
// Cost: Evaluate and EvaluateCounts O(Q N k) (k constraints per query), EvaluateOne and AddToQueryCells O(N k);
// memory N x axes coordinates. Error(Internal) for a constraint outside the domain's axes or radices. A whole
// evaluation can take very long: it polls interrupted every 256 queries (Error(Cancelled)).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/interrupt_scope.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/workloads/product_query.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

class MembershipWorkload final : public Workload {
public:
	MembershipWorkload(const CellDomain &domain, ProductQueryList queries, InterruptCheck interrupted = nullptr);

	std::size_t
	QueryCount() const override
	{
		return queries_.size();
	}
	std::size_t
	CellCount() const override
	{
		return cell_count_;
	}
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact; Error(LimitExceeded) on int64 overflow.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;

private:
	bool Contains(std::size_t q, std::size_t cell) const;
	template <typename T> T Sum(std::size_t q, const std::vector<T> &values) const;

	std::size_t axis_count_;
	std::size_t cell_count_;
	std::size_t located_cells_;         // cells with coordinates: all but a support domain's outside cell
	std::vector<std::int32_t> points_;  // cell i's bin on axis a at i * axis_count_ + a
	ProductQueryList queries_;
	InterruptCheck interrupted_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
