// Private Multiplicative Weights over the cells (docs/architecture.md step 5; docs/mechanisms.md §3): MW driven by
// a sparse vector over every cover query, in passes until a pass makes no update or the cut-off is reached.
// The private data is touched only by the sparse vector's comparisons, on integer counts with exact discrete
// Laplace noise; the synthetic distribution and its updates are post-processing of public state and of the
// sparse vector's answers (docs/mechanisms.md derives every choice).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/interrupt_scope.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

// How the sparse vector is accounted (docs/mechanisms.md §3, "Why it is private", and §11):
// Pure: Lyu, Su & Li 2017, Alg. 1 (threshold noise drawn once, comparison noise scaled by 2c); epsilon-DP.
// Zcdp: c AboveThreshold instances (Dwork & Roth 2014, Sparse: the threshold noise redrawn after every update),
//   each eps0-DP hence eps0^2/2-zCDP; c eps0^2/2 in all, converted to (epsilon, delta) by the tight conversion
//   (CKS20 Corollary 13). Dwork & Roth's advanced-composition bound is valid only for epsilon <= 4 ln(1/delta),
//   and there it needs more noise than this one, so it is not offered.
enum class SparseVectorAccounting { Pure, Zcdp };

struct PmwParameters {
	SparseVectorAccounting accounting = SparseVectorAccounting::Pure;
	std::int64_t cutoff = 1;  // c: the mechanism halts after c updates
	double threshold = 0.0;   // tau, in counts (public): the threshold of the final passes
	// Pass p compares against threshold * max(1, first_pass_factor / 2^(p-1)): early passes update only on large
	// errors, with large steps, and later passes refine (coarse to fine). A public schedule: the sparse vector
	// allows a different threshold for every query at no privacy cost.
	double first_pass_factor = 1.0;
	int max_passes = 1;  // passes over all queries; stops earlier after a final-threshold pass without update
	RationalScale threshold_noise{1, 1};  // scale of the noise on the threshold
	RationalScale compare_noise{1, 1};    // scale of the noise on each comparison
	bool resample_threshold = false;      // true for Zcdp (Dwork & Roth's Sparse)
};

struct PmwResult {
	std::vector<double> synthetic;  // distribution over the cells, sums to 1
	std::int64_t updates = 0;       // sparse-vector "above threshold" answers (never more than cutoff)
	int passes = 0;
	bool cutoff_reached = false;
	// The last pass, at the final threshold, made no update: every query's deciding comparison stayed below it
	// (what bounds the answers whatever the prior, PmwConvergedError).
	bool converged = false;
	std::int64_t comparisons = 0;  // sparse-vector queries asked
};

// histogram[i] = private count of cell i (n = its sum, public under replace-one neighbours); prior: a
// distribution over the cells with every weight > 0, from public data only.
PmwResult RunPmw(const Workload &workload, const std::vector<std::int64_t> &histogram, const std::vector<double> &prior,
                 const PmwParameters &parameters, RandomBitSource &rng, InterruptCheck interrupted = nullptr);

// The same from the private data already reduced to what PMW reads: the exact count of every query (truth[q])
// and n. A public-support domain needs this form: its outside cell is in no query, so the true counts must come
// from the private rows' grid points rather than from the domain histogram (cell_domain.hpp).
PmwResult RunPmwOnCounts(const Workload &workload, const std::vector<std::int64_t> &truth, std::int64_t n,
                         const std::vector<double> &prior, const PmwParameters &parameters, RandomBitSource &rng,
                         InterruptCheck interrupted = nullptr);
// The order in which a pass visits the queries: a van der Corput (bit-reversal) permutation, so that early
// updates on ordered classes spread over the whole axis. Depends on the query count only.
std::vector<std::size_t> PassOrder(std::size_t query_count);

// The public prior over the cells: the public counts plus one pseudo-row spread evenly over the cells (Perks'
// prior), which keeps every weight positive so that MW can move mass anywhere (ConditionedOnOpenCells then zeroes the
// cells no row can hold).
std::vector<double> PublicPrior(const std::vector<std::int64_t> &public_histogram);
std::vector<double> UniformPrior(std::size_t cells);
// A prior conditioned on the cells a row can hold (closed: ReleaseLayout::ClosedCells, one flag per cell, or empty
// for none): each closed cell 0, each open one its weight over the open cells' sum. MW keeps a weight of 0 at 0, so
// the MW mechanisms never put mass where no private row can be (docs/mechanisms.md §9, "Cells no row can hold").
// Error(Internal) for a mask of another size, or no open cell with positive weight.
std::vector<double> ConditionedOnOpenCells(std::vector<double> prior, const std::vector<bool> &closed);

// The log-weights MW starts from (log_weights sized like prior): ln of each weight, -inf for a weight of 0, which
// every MW step (adding a finite amount) keeps at -inf, so the cell stays at 0. Error(Internal) for a weight that is
// negative or not finite, or no positive weight. Shared by the multiplicative-weights mechanisms.
void LogWeightsOfPrior(const std::vector<double> &prior, std::vector<double> &log_weights);
// Turns log-weights into a distribution (weights), re-centring the log-weights so exp never overflows. Shared by
// the multiplicative-weights mechanisms.
void NormaliseLogWeights(std::vector<double> &log_weights, std::vector<double> &weights);

}  // namespace pap::core

#include "core/base/core_only.hpp"
