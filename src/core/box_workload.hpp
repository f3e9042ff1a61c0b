// Box queries over a dense cell grid: each query is a product of inclusive bin intervals, one per axis (an
// axis the query does not constrain is "all", [0, radix - 1]). This covers boxes(c1..ck) and, with every lower
// end at 0, orthants. Every answer comes from ONE d-dimensional prefix-sum table built in one pass per axis
// (O(N d)), then 2^k table reads per query, k = the query's axes with a lower end above 0 (DESIGN.md §2).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cell_grid.hpp"
#include "core/workload.hpp"

namespace pap::core {

class BoxWorkload final : public Workload {
public:
	// boxes[q][axis]: the bin interval of query q on that axis. Error(Internal) when a box does not have one
	// interval per axis or a non-empty interval leaves [0, radix - 1]. An empty interval (lo > hi) on any
	// axis makes the whole query empty: its answer is 0 and it has no cells.
	BoxWorkload(CellGrid grid, const std::vector<std::vector<CellInterval>> &boxes);
	static CellInterval All(std::int32_t radix) { return {0, radix - 1}; }

	std::size_t QueryCount() const override { return plans_.size(); }
	std::size_t CellCount() const override { return grid_.CellCount(); }
	// Prefix sums in doubles: each answer carries a rounding error of about 2^k N ulp of the total weight.
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact. Error(LimitExceeded) when a prefix sum (so the total of the histogram) overflows an int64.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	// Visits exactly the query's cells: cost = its volume.
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	// Direct sum over the query's cells (PMW calls it once per update, on the current weights).
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;

	const CellGrid &grid() const { return grid_; }
	const CellInterval *box(std::size_t q) const { return &intervals_[q * grid_.AxisCount()]; }
	bool empty(std::size_t q) const { return plans_[q].empty; }

private:
	// Inclusion-exclusion plan of one query: corner index = upper - (sum of the chosen lower offsets); a lower
	// offset (hi - lo + 1) * stride exists only on axes with lo > 0 (at lo = 0 the lower corner is outside).
	struct Plan {
		std::size_t upper = 0;         // index of the cell (hi_0, ..., hi_{d-1})
		std::size_t offsets_begin = 0; // into offsets_
		std::uint32_t offset_count = 0;
		bool direct = false;           // fewer cells than corners: sum the cells instead
		bool empty = false;
	};
	template <typename T, typename Sum>
	void EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const;

	CellGrid grid_;
	std::vector<CellInterval> intervals_;  // query q, axis a at q * AxisCount() + a
	std::vector<Plan> plans_;
	std::vector<std::size_t> offsets_;
};

}  // namespace pap::core

#include "core/core_only.hpp"
