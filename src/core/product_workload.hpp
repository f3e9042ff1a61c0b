// Every class's workload (DESIGN.md §2): product queries (product_query.hpp) over a CellDomain, evaluated BY
// GROUPS, never query by query. A group is the set S of axes a query constrains. Evaluate makes one pass over
// the cells per group, filling the group's table over the S-subgrid (a marginal table), turns it into |S|-
// dimensional prefix sums when some query of the group has an interval wider than one bin, and answers each
// query of the group by 2^|S'| table reads (S' = its axes with a proper interval). When the S-subgrid is too large
// for a dense table (larger than max(4 * cells, 2^20) entries) the group keeps a hash table of the occupied
// S-points; a query then sums the entries inside its box (a lookup for a point query).
// Queries without constraints (TRUE) are answered by the total, empty ones by 0.
// Dense domains enumerate a query's cells directly in AddToQueryCells; sparse ones scan the cells.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cell_domain.hpp"
#include "core/product_query.hpp"
#include "core/workload.hpp"

namespace pap::core {

class ProductWorkload final : public Workload {
public:
	// Copies what it needs of domain. Error(Internal) for a constraint on an axis outside the domain or a
	// non-empty interval outside [0, radix - 1].
	ProductWorkload(const CellDomain &domain, ProductQueryList queries);

	std::size_t QueryCount() const override;
	std::size_t CellCount() const override;
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact; Error(LimitExceeded) on int64 overflow.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;
	std::size_t GroupCount() const;
	const ProductQueryList &queries() const;

private:
	// implementation-defined
};

}  // namespace pap::core

#include "core/core_only.hpp"
