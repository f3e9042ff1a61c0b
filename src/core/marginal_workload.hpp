// Conjunctions of equalities on some axes (marginals(k; c1..cD), one bin per categorical axis) over a domain
// given as a list of cells: the whole grid, or only the grid points that hold public rows ("public support",
// DESIGN.md §2 step 3). Queries are grouped by attribute set S; Evaluate makes ONE pass over the cells per group,
// filling that group's marginal table, and answers every query of the group by lookup: O(N sum_g |S_g| + Q).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/cell_grid.hpp"
#include "core/workload.hpp"

namespace pap::core {

// The cells where axes[j] equals values[j] for every j. axes strictly increasing; no axes is the query "all".
struct MarginalQuery {
	std::vector<std::size_t> axes;
	std::vector<std::int32_t> values;
};

class MarginalWorkload final : public Workload {
public:
	// A sparse domain: cell i has coordinates cells[i] (one per axis, inside its radix; cells are expected to be
	// distinct grid points). Error(Internal) for a malformed cell or query (axes not strictly increasing or out of
	// range, a value outside its radix, sizes that disagree, a radix < 1).
	MarginalWorkload(std::vector<std::int32_t> radices, const std::vector<std::vector<std::int32_t>> &cells,
	                 std::vector<MarginalQuery> queries);
	// The dense domain: every cell of the grid, cell i = grid index i. AddToQueryCells then enumerates the
	// query's sub-box directly instead of scanning.
	MarginalWorkload(const CellGrid &grid, std::vector<MarginalQuery> queries);

	std::size_t QueryCount() const override { return queries_.size(); }
	std::size_t CellCount() const override { return cell_count_; }
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact. Error(LimitExceeded) when an entry of a marginal table overflows an int64.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	// Dense domain: visits exactly the query's cells. Sparse domain: scans every cell, O(N |S|); PMW follows each
	// update by a full Evaluate, which costs at least that much, so a per-query cell index would not pay.
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;

	std::size_t GroupCount() const { return groups_.size(); }
	const MarginalQuery &query(std::size_t q) const { return queries_[q]; }

private:
	struct TupleHash {
		std::size_t operator()(const std::vector<std::int32_t> &t) const;
	};
	// One attribute set. Dense table: slot = mixed-radix number of the cell's values on S (when the S-subgrid is
	// small next to the domain). Otherwise a hash table keyed by the values, holding only the tuples queried.
	struct Group {
		std::vector<std::size_t> axes;
		bool dense = true;
		std::vector<std::size_t> strides;  // dense: the S-subgrid's strides
		std::size_t table_size = 0;
		std::unordered_map<std::vector<std::int32_t>, std::size_t, TupleHash> slots;  // hashed
		std::vector<std::size_t> queries;  // of this group, for answering right after its pass
	};
	void Build();
	bool Matches(std::size_t cell, const MarginalQuery &query) const;
	template <typename F>
	void ForEachQueryCell(std::size_t q, F &&f) const;
	template <typename T>
	void EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const;

	std::vector<std::int32_t> radices_;
	std::size_t cell_count_ = 0;
	std::vector<std::int32_t> coordinates_;  // cell i, axis a at i * axes + a
	std::optional<CellGrid> grid_;           // set for the dense domain
	std::vector<MarginalQuery> queries_;
	std::vector<Group> groups_;
	std::vector<std::size_t> query_slot_;  // the query's entry in its group's table
};

}  // namespace pap::core

#include "core/core_only.hpp"
