// The cover H~ of marginals(k; c1..cD) and stumps(b1..bD) (DESIGN.md §2 steps 2-3, Algorithm 3 steps 1-4 of
// reference/seeds.md §1.4) over D categorical axes given only by their radices: axis a has bins 0..radix[a]-1 and,
// by convention, its LAST bin radix[a]-1 is NULL (for a categorical axis the bin before it is "other", every
// category not seen publicly; for a boolean axis, radix 3, the bins are false, true, NULL).
//
// The class: every conjunction of k equalities "c_a = v" on k distinct axes, v any bin except NULL (SQL's "= value"
// is never true for NULL), "other" included. ClassSize() = e_k(radix[a] - 1), the k-th elementary symmetric
// polynomial. stumps(b1..bD) is the case k = 1 over boolean axes: "b = true" and "b = false" for each b.
//
// Dedup (Algorithm 3, literally): T = the distinct public cells (two public rows in one cell agree on every query of
// the class, which reads bins only). A query's labeling is the set of points of T it is true on. The cover holds
// ONE query per distinct labeling realised by the class, across attribute sets too: "a = 1" and "b = 7" are one
// cover query when exactly the same public points have a = 1 as have b = 7. In particular every query whose value
// tuple no public point has (a category absent from the public sample, "other" when nobody public is "other", a
// combination never seen together) labels every point false: all of them are ONE cover query, the empty pattern.
// The representative of a labeling is its FIRST query in the canonical order: attribute sets in lexicographic order
// of their sorted axes, then value tuples in mixed-radix order. Cover queries are listed in that order too.
// Project() maps any query of the class to the cover query with its labeling (the paper's unique match).
//
// Domains (step 3): the dense grid when the product of the radices is at most the cell limit; otherwise the public
// support: domain cell i < m^ is the i-th distinct public cell (in grid-index order) and domain cell m^ is ONE
// extra "outside support" cell. The outside cell belongs to no query (its workload coordinates are all NULL, which
// no query matches): it collects the private mass outside the support, so the domain histogram still sums to n.
// Consequently the TRUE answers of a support domain must NOT be read from the domain histogram (a private row
// outside the support that satisfies a query would be lost): TrueCounts() evaluates the cover over the private
// rows' full-grid cells; DomainHistogram() / DomainCellOf*() give the mechanism's histogram over the domain.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/marginal_workload.hpp"

namespace pap::core {

class MarginalCover {
public:
	// radices: D >= 1 axes, each radix >= 2 (a value bin and NULL); 1 <= k <= D; public_cells: the public rows'
	// bin coordinates (one per axis, inside its radix), duplicates allowed, none at all allowed (then the cover is
	// the single empty-pattern query). Error(Internal) for malformed input. Error(LimitExceeded) when the number of
	// attribute sets C(D, k) or the number of cover queries exceeds query_limit (the work is C(D, k) times m^).
	MarginalCover(std::vector<std::int32_t> radices, int k, const std::vector<std::vector<std::int32_t>> &public_cells,
	              std::uint64_t query_limit);
	// stumps(b1..bD): k = 1 over axis_count boolean axes of radix 3 (0 = false, 1 = true, 2 = NULL).
	static MarginalCover Stumps(std::size_t axis_count, const std::vector<std::vector<std::int32_t>> &public_cells,
	                            std::uint64_t query_limit);

	const std::vector<std::int32_t> &Radices() const { return radices_; }
	int K() const { return k_; }
	// Number of queries of the class before dedup, saturated at UINT64_MAX.
	std::uint64_t ClassSize() const { return class_size_; }
	// The cover H~, in canonical order (see above).
	std::size_t QueryCount() const { return queries_.size(); }
	const MarginalQuery &Query(std::size_t q) const { return queries_[q]; }
	const std::vector<MarginalQuery> &Queries() const { return queries_; }
	// Grouping by attribute set: the distinct axis sets of the cover queries, in canonical order; GroupOf(q) is the
	// index of query q's set. Evaluation (MarginalWorkload) builds one marginal table per set.
	std::size_t AttributeSetCount() const { return attribute_sets_.size(); }
	const std::vector<std::size_t> &AttributeSet(std::size_t g) const { return attribute_sets_[g]; }
	std::size_t GroupOf(std::size_t q) const { return group_of_[q]; }
	// The cover query with the empty labeling, or QueryCount() when every query of the class is true on some
	// public point.
	std::size_t EmptyPatternQuery() const { return empty_query_; }

	// T: the distinct public cells, sorted lexicographically (= increasing full-grid index).
	const std::vector<std::vector<std::int32_t>> &DistinctPublicCells() const { return distinct_public_; }
	// Indexes into DistinctPublicCells() of the points where query is true, increasing.
	std::vector<std::size_t> Labeling(const MarginalQuery &query) const;
	// Error(QueryOutsideClass) unless query has k distinct sorted axes in range and no NULL (or out-of-range) value;
	// otherwise the index of the cover query with the same labeling. O(k log) after construction.
	std::size_t Project(const MarginalQuery &query) const;

	// Exact true counts of every cover query over private rows given by full-grid coordinates (duplicates are
	// summed): counts[q] = sum of private_counts[i] over the i with private_cells[i] satisfying Query(q). Valid for
	// either domain. Error(Internal) for malformed cells, Error(LimitExceeded) on int64 overflow.
	std::vector<std::int64_t> TrueCounts(const std::vector<std::vector<std::int32_t>> &private_cells,
	                                     const std::vector<std::int64_t> &private_counts) const;

private:
	void CheckCell(const std::vector<std::int32_t> &cell) const;
	static std::vector<std::int32_t> Key(const std::vector<std::size_t> &axes, const std::vector<std::int32_t> &values);
	struct KeyHash {
		std::size_t operator()(const std::vector<std::int32_t> &key) const;
	};

	std::vector<std::int32_t> radices_;
	int k_ = 1;
	std::uint64_t class_size_ = 0;
	std::vector<std::vector<std::int32_t>> distinct_public_;
	std::vector<MarginalQuery> queries_;
	std::vector<std::vector<std::size_t>> attribute_sets_;
	std::vector<std::size_t> group_of_;
	std::size_t empty_query_ = 0;
	// Every realised (axes, values) of the class -> its cover query. Key: axes then values.
	std::unordered_map<std::vector<std::int32_t>, std::size_t, KeyHash> realised_;
};

enum class MarginalDomainKind { Dense, PublicSupport };

class MarginalDomain {
public:
	// Dense when the full grid has at most cell_limit cells; otherwise the public support plus the outside cell.
	// Error(LimitExceeded) when even that (m^ + 1 cells) exceeds cell_limit. Keeps a reference to cover: the cover
	// must outlive the domain.
	MarginalDomain(const MarginalCover &cover, std::uint64_t cell_limit);

	MarginalDomainKind Kind() const { return kind_; }
	std::size_t CellCount() const { return cell_count_; }
	// PublicSupport only: the outside cell (= CellCount() - 1). Error(Internal) for a dense domain.
	std::size_t OutsideCell() const;
	// Domain cell of a full-grid cell given by coordinates: dense, its grid index; support, its public cell (binary
	// search over the sorted distinct public cells, O(D log m^)) or the outside cell. Error(Internal) for malformed
	// coordinates.
	std::size_t DomainCellOf(const std::vector<std::int32_t> &coordinates) const;
	// The same from a full-grid index (row-major, first axis most significant, as CellGrid). Error(Internal) when
	// the index is outside the grid, or when the full grid has more than 2^64 cells (then use coordinates).
	std::size_t DomainCellOfGridIndex(std::uint64_t grid_index) const;
	bool GridIndexFits() const { return grid_fits_; }
	// The mechanism's histogram: private rows (full-grid coordinates with counts) mapped by DomainCellOf.
	std::vector<std::int64_t> DomainHistogram(const std::vector<std::vector<std::int32_t>> &private_cells,
	                                          const std::vector<std::int64_t> &private_counts) const;
	// The cover as a grouped workload over this domain (MarginalWorkload(grid, queries) when dense, the sparse
	// constructor over the support cells plus an all-NULL outside cell otherwise).
	MarginalWorkload MakeWorkload() const;

private:
	const MarginalCover &cover_;
	MarginalDomainKind kind_ = MarginalDomainKind::Dense;
	std::size_t cell_count_ = 0;
	bool grid_fits_ = false;
	std::uint64_t grid_cells_ = 0;        // full grid, when it fits in 64 bits
	std::optional<CellGrid> grid_;        // dense only
	std::vector<std::uint64_t> strides_;  // full grid, when it fits in 64 bits
};

}  // namespace pap::core

#include "core/core_only.hpp"
