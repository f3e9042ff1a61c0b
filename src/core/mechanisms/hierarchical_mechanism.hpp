// The hierarchical mechanism (docs/architecture.md step 5; Hay et al. 2010, Qardaji, Yang & Li 2013): a tree of
// intervals over one ordered axis, or the product of two such trees over two ordered axes, with exact integer
// noise on every node's count, then consistency post-processing (least squares over the tree, then a monotone CDF
// on one axis under thresholds or ranges, else the nearest non-negative histogram summing to n). Applies to dense grids
// of one or two ordered axes (numeric or linear; the caller decides which axes are ordered). A range query is answered
// from O(log) nodes per axis, so its error grows polylogarithmically with the bins instead of with the square root of
// the cells it spans.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mechanisms/noisy_histogram.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"

namespace pap::core {

struct HierarchicalPlan {
	int branching = 2;           // children per node
	std::vector<int> levels;     // per axis: tree levels below the root
	HistogramNoise noise;        // per node; sensitivity from the number of (level, level) node sets a row is in
	double predicted_error = 0;  // predicted max error over the cover queries, fraction of n
	// One axis under thresholds or ranges (PlanInput::cdf_count 1 or 2): the run's last step makes the CDF monotone
	// (isotonic_cdf.hpp) instead of projecting onto the simplex, and the prediction is cdf_count times the largest
	// prefix error.
	bool monotone_cdf = false;
	PrivacyUsed used;  // HistogramNoiseUsed for the node sets' sensitivity; nothing for a single cell
};
// radices: the dense grid's bins per axis (1 or 2 axes; Error(InvalidParameter) otherwise). The branching is the
// one in [2, kMaxBranching] that minimises the predicted error (public: from the radices, epsilon, delta, beta and
// the cover size only), among those that pad no axis to more than twice its bins.
HierarchicalPlan PlanHierarchical(const PlanInput &input, const std::vector<std::int32_t> &radices);

// cell_histogram: private counts over the dense grid, row-major (first axis most significant), sums to n.
// Returns the synthetic distribution over the same cells. closed (nullptr, or one flag per cell, a mask
// ReleaseLayout::ClosedCells makes): the trees are built over the open subgrid (OpenSubgrid), whose radices the plan
// was made for, its counts alone are read, n stays the root, and every closed cell is released as 0 (docs/mechanisms.md
// §9, "Cells no row can hold"). Error(Cancelled) when interrupted() returns true; Error(DataException) for n = 0;
// Error(Internal) when the histogram, the radices and the plan disagree. O(nodes) time and memory (nodes <= cells x 4
// x (b / (b - 1))^axes with the padding limit), plus the final projection's O(cells log cells).
std::vector<double> RunHierarchical(const std::vector<std::int64_t> &cell_histogram,
                                    const std::vector<std::int32_t> &radices, std::int64_t n,
                                    const HierarchicalPlan &plan, RandomBitSource &rng,
                                    InterruptCheck interrupted = nullptr, const std::vector<bool> *closed = nullptr);

// --- the pieces, declared for their tests ---------------------------------------------------------------------
constexpr int kMaxBranching = 64;

// The complete tree of intervals over one axis of `radix` bins, padded on the right with empty leaves to
// branching^levels leaves. Nodes are stored level by level from the root (level 0), left to right.
struct AxisTree {
	int branching = 2;
	int levels = 0;                             // below the root: the smallest with branching^levels >= radix
	std::int64_t leaves = 1;                    // branching^levels
	std::int64_t nodes = 1;                     // (branching^(levels+1) - 1) / (branching - 1)
	std::int64_t LevelOffset(int level) const;  // index of the first node of a level
};
AxisTree AxisTreeFor(std::int32_t radix, int branching);

// The largest variance, in units of one node's noise variance, of the least-squares estimate of a prefix of the
// first k of radix bins (1 <= k < radix; 0 for a single bin), as RunHierarchical computes it on one axis (the root
// known to be n, the leaves shifted to sum to n). A^T A over the tree's leaves is a sum of nested block
// projections, so its eigenspaces E_j (vectors constant on the blocks of level j and summing to 0 in those of level
// j - 1) carry lambda_j = s_j + ... + s_h (s_j the leaves under a node of level j), and the estimate's covariance
// is the sum over j >= 1 of the projection onto E_j over lambda_j. Each node draw's coefficient in a prefix is
// below 1 in absolute value (docs/mechanisms.md §9, "The variance of a prefix"). O(radix x levels). Error(Internal) for
// a tree with fewer leaves than bins; Error(Cancelled) when the current interrupt check fires.
double LeastSquaresPrefixDraws(const AxisTree &tree, std::int32_t radix);

// An upper bound on LeastSquaresPrefixDraws for any number of bins, in closed form, O(levels): a prefix's variance is
// g_0 / lambda_1 + the sum over 1 <= j < h of g_j (1 / lambda_{j+1} - 1 / lambda_j), each g_j = r (s_j - r) / s_j
// (r the prefix's length mod s_j) at most s_j / 4. Within 12% of the exact value on the trees a plan takes over 10
// bins or more (docs/mechanisms.md §9, "The variance of a prefix"). 0 for a tree of no levels.
double LeastSquaresPrefixDrawsBound(const AxisTree &tree);

// Node sets a row is in (every pair of levels, root x root excluded): a replacement changes two nodes in each,
// so l1 = l2^2 = 2 * this.
int HierarchicalNodeSets(const std::vector<int> &levels);

// The count of every node pair (node of axis 0, node of axis 1), row-major, from the cell histogram (row-major over
// radices). One axis: the second tree is the single root (radix 1). Error(LimitExceeded) above 2^40 node pairs.
std::vector<std::int64_t> ProductTreeCounts(const std::vector<std::int64_t> &cells,
                                            const std::vector<std::int32_t> &radices, const AxisTree &first,
                                            const AxisTree &second, InterruptCheck interrupted = nullptr);

// Ordinary least squares for the padded leaves (first.leaves x second.leaves, row-major) from one noisy value per
// node pair with the root pair known to be n (its entry in `nodes` is ignored): Hay et al. 2010's two passes along
// each axis in turn, then the same shift of every leaf so that they sum to n. O(nodes) time.
std::vector<double> ProductTreeLeastSquares(const std::vector<double> &nodes, const AxisTree &first,
                                            const AxisTree &second, double n, InterruptCheck interrupted = nullptr);

}  // namespace pap::core

#include "core/base/core_only.hpp"
