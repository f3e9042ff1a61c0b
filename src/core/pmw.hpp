// Private Multiplicative Weights over the cells (DESIGN.md §2 step 5; reference/seeds.md §2.4-2.6): Online MW
// driven by a sparse-vector (NumericSparse) instance over every cover query, in passes until a pass makes no
// update or the cut-off is reached. All private arithmetic is on integer counts with exact discrete Laplace
// noise; everything else (synthetic answers, the update) is post-processing of public state and released values.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/discrete_laplace.hpp"
#include "core/random_source.hpp"
#include "core/workload.hpp"

namespace pap::core {

// How the sparse vector is accounted (docs/mechanisms.md derives both):
// Pure: Lyu, Su & Li 2017 Alg. 1 (threshold noise drawn once) plus c separately measured answers; epsilon-DP
//       by basic composition. Approximate: Dwork & Roth 2014 NumericSparse (threshold noise redrawn after every
//       update, scales from advanced composition); (epsilon, delta)-DP.
enum class SparseVectorAccounting { Pure, Approximate };

struct PmwParameters {
	SparseVectorAccounting accounting = SparseVectorAccounting::Pure;
	std::int64_t cutoff = 1;       // c: the mechanism halts after c updates
	double threshold = 0.0;        // tau, in counts (public)
	int max_passes = 1;            // passes over all queries; stops earlier after a pass without update
	RationalScale threshold_noise{1, 1};  // scale of the noise on the threshold
	RationalScale compare_noise{1, 1};    // scale of the noise on each comparison
	RationalScale measure_noise{1, 1};    // scale of the noise on each released measurement
	bool resample_threshold = false;      // true for Approximate (Dwork & Roth's Sparse)
};

struct PmwResult {
	std::vector<double> synthetic;   // distribution over the cells, sums to 1
	std::int64_t updates = 0;        // sparse-vector "above threshold" answers (never more than cutoff)
	int passes = 0;
	bool cutoff_reached = false;
	std::int64_t comparisons = 0;    // sparse-vector queries asked
};

// Polled between queries; returns true when the caller wants the work abandoned (Error(Cancelled) is thrown).
using InterruptCheck = bool (*)();

// histogram[i] = private count of cell i (n = its sum, public under replace-one neighbours); prior: a
// distribution over the cells with every weight > 0, from public data only.
PmwResult RunPmw(const Workload &workload, const std::vector<std::int64_t> &histogram,
                 const std::vector<double> &prior, const PmwParameters &parameters, RandomBitSource &rng,
                 InterruptCheck interrupted = nullptr);

// The order in which a pass visits the queries: a van der Corput (bit-reversal) permutation, so that early
// updates on ordered classes spread over the whole axis. Depends on the query count only.
std::vector<std::size_t> PassOrder(std::size_t query_count);

// The public prior over the cells: public counts smoothed by adding 1/2 to every cell (the Krichevsky-Trofimov
// estimator), which keeps every weight positive so that MW can move mass anywhere.
std::vector<double> PublicPrior(const std::vector<std::int64_t> &public_histogram);
std::vector<double> UniformPrior(std::size_t cells);

}  // namespace pap::core

#include "core/core_only.hpp"
