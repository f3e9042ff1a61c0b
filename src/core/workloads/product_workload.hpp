// Every class's workload (docs/architecture.md): product queries (product_query.hpp) over a CellDomain, evaluated BY
// GROUPS, never query by query. A group is the set S of axes a query constrains. Evaluate makes one pass over
// the cells per group, filling the group's table over the S-subgrid (a marginal table), turns it into |S|-
// dimensional prefix sums when some query of the group has an interval wider than one bin, and answers each
// query of the group by 2^|S'| table reads (S' = its axes with a proper interval). When the S-subgrid is too large
// for a dense table (larger than max(4 * cells, 2^20) entries; on a sparse domain, larger than 4 * cells when all
// of the group's queries are points) the group keeps a hash table of the occupied S-points; a query then sums the
// entries inside its box (a lookup for a point query).
// Queries without constraints (TRUE) are answered by the total, empty ones by 0.
// Cost of Evaluate: O(sum over groups of (N |S| + table size |S'|) + sum over queries of 2^|S'|), memory one
// table at a time (at most max(4N, 2^20) entries); a box query in a hashed group costs O(occupied points |S|).
// On a sparse domain a group whose queries are all points (marginals) is instead answered through a map from
// each cell to its query in the group, built at the second Evaluate (a mechanism that evaluates once would not
// repay them): O(N) per group and call, no table to clear (a table may be far larger than the domain), N int32
// per such group (at most kMaxListedCells in all). Before that, a hashed group of points looks each cell up in an
// index of its queries (a table of twice its query count, built with the workload), not in a table of its cells.
// Dense domains enumerate a query's cells directly in AddToQueryCells and EvaluateOne; sparse ones scan the cells
// the first time a query is touched and keep its cell list (MW steps revisit the same few queries), up to
// kMaxListedCells listed cells in all.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/cells/cell_domain.hpp"
#include "core/cells/cell_grid.hpp"
#include "core/workloads/product_query.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

class ProductWorkload final : public Workload {
public:
	// Copies what it needs of domain (the points of a sparse one). Error(Internal) for a constraint on an axis
	// outside the domain or a non-empty interval outside [0, radix - 1].
	ProductWorkload(const CellDomain &domain, ProductQueryList queries);

	std::size_t QueryCount() const override;
	std::size_t CellCount() const override;
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact; Error(LimitExceeded) on int64 overflow.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	// Dense domain: visits exactly the query's cells (cost: its volume). Sparse: the first call for q scans the
	// cells, O(N |S|), and lists q's cells; later calls cost the list's length. Not thread-safe (the list cache).
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;
	std::size_t GroupCount() const;
	const ProductQueryList &queries() const;

private:
	// The distinct point queries of one group by their S-point key (row-major over the S-subgrid): open addressing,
	// at most half full, small enough to stay in cache while the cells are looked up.
	struct PointIndex {
		struct Slot {
			std::uint64_t key;
			std::int32_t query;  // its index in Group::queries; -1: free
		};
		std::vector<std::uint64_t> strides;  // of each axis of S
		std::vector<Slot> slots;
		std::size_t
		SlotOf(std::uint64_t key) const
		{
			const std::size_t mask = slots.size() - 1;
			std::size_t s = std::size_t((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
			while (slots[s].query >= 0 && slots[s].key != key)
				s = (s + 1) & mask;
			return s;
		}
		std::int32_t
		QueryOf(const std::int32_t *point, const std::uint32_t *axes) const
		{
			std::uint64_t key = 0;
			for (std::size_t j = 0; j < strides.size(); j++)
				key += std::uint64_t(point[axes[j]]) * strides[j];
			return slots[SlotOf(key)].query;
		}
	};
	// One set S of constrained axes. A dense table is the S-subgrid in row-major order (strides below); a hashed
	// group has no layout: its table holds the occupied S-points only, rebuilt in each Evaluate.
	struct Group {
		std::vector<std::uint32_t> axes;  // S, increasing
		bool hashed = false;
		std::size_t table_size = 0;               // dense: the S-subgrid's size
		std::vector<std::size_t> strides;         // dense: stride of axes[j] in the table
		std::vector<std::size_t> domain_strides;  // dense: per DOMAIN axis, its table stride or 0 (not in S)
		std::vector<char> prefix;                 // dense: prefix sums along axes[j] (some query wider than a bin)
		std::vector<std::size_t> queries;         // of this group
		std::vector<std::int32_t> query_of_cell;  // sparse point groups, once mapped: cell -> index in queries, or -1
		std::optional<PointIndex> points;         // hashed groups of distinct point queries
	};
	// false when some query spans more than one bin, two queries are the same point, or the S-subgrid does not
	// fit 63 bits.
	bool IndexPointGroup(const Group &g, PointIndex &index) const;
	void MapPointGroups() const;
	bool MapPointGroup(Group &g) const;
	std::size_t GroupOf(const AxisConstraint *constraints, std::size_t count,
	                    std::map<std::vector<std::uint32_t>, std::size_t> &group_of);
	bool Matches(std::size_t point, std::size_t q) const;
	template <typename F> void ForEachQueryCell(std::size_t q, F &&f) const;
	template <typename T> void FillDenseTable(const Group &g, const std::vector<T> &cells, T *table) const;
	template <typename T, typename Sum> void EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const;

	std::vector<std::int32_t> radices_;
	std::size_t cell_count_ = 0;
	bool has_outside_ = false;
	std::optional<CellGrid> grid_;      // Dense domains
	std::vector<std::int32_t> points_;  // sparse domains: point i (= cell i), axis a at i * AxisCount() + a
	std::size_t point_count_ = 0;       // sparse domains: cells with coordinates (all but the outside cell)
	ProductQueryList queries_;
	mutable std::vector<Group> groups_;  // mutable: the cell maps of MapPointGroups
	mutable bool point_groups_mapped_ = false;
	mutable std::size_t evaluations_ = 0;    // Evaluate calls so far
	std::vector<std::size_t> true_queries_;  // no constraint: the total
	// Sparse domains: the cells of the queries touched so far by AddToQueryCells / EvaluateOne.
	mutable std::unordered_map<std::size_t, std::vector<std::uint32_t>> listed_cells_;
	mutable std::size_t listed_total_ = 0;
};

// At most this many (query, cell) pairs listed by a sparse ProductWorkload (256 MiB); further queries are scanned.
constexpr std::size_t kMaxListedCells = std::size_t(1) << 26;

}  // namespace pap::core

#include "core/base/core_only.hpp"
