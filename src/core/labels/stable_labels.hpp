// The private part of a labelling (docs/mechanisms.md §17): the chunk assignment, the plan of the sparse vector
// on the vote margins, and the sparse vector itself. Everything else a labelling does is a function of the chunks'
// votes (training) or post-processing of what this releases (the final model).
#pragma once
#include <cstdint>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/noise/random_source.hpp"

#include "core/base/core_only.hpp"

namespace pap::core {

// A uniformly random permutation of 0..n-1 (Fisher-Yates with exact uniform draws).
std::vector<std::int32_t> RandomPermutation(std::int64_t n, RandomBitSource &rng);

// A uniformly random balanced assignment of rows 0..n-1 to chunks 0..k-1 (a random permutation, then position
// mod k): chunk sizes are floor(n/k) or ceil(n/k), and neither depends on any row's value.
std::vector<std::int32_t> AssignChunks(std::int64_t rows, std::int64_t chunks, RandomBitSource &rng);

// A public row's tally: the class most chunks vote for (the lowest on a tie) and its margin over the runner-up
// (its own count when there is a single class).
struct VoteTally {
	std::int32_t top = 0;
	std::int64_t margin = 0;
};
// votes[c] = number of chunks voting c.
VoteTally TallyVotes(const std::vector<std::int64_t> &votes);

// The sparse vector on the margins, rows in the order given: a row is unstable when
// -margin + nu >= -threshold + rho (rho drawn once, nu per row); an unstable row gets -1, a stable one its top
// class; after plan.cutoff unstable rows every later row gets -1 unanswered. reached counts the rows answered.
struct StableLabelsResult {
	std::vector<std::int32_t> labels;
	std::int64_t unstable = 0;
	std::int64_t reached = 0;
	bool cutoff_reached = false;
};
StableLabelsResult StableLabels(const std::vector<VoteTally> &tallies, const LabellingPlan &plan, RandomBitSource &rng);

// P[a unanimous row (margin = chunks) is answered stable] under the plan's noise.
double UnanimousStableProbability(const LabellingPlan &plan, std::int64_t chunks);

}  // namespace pap::core

#include "core/base/core_only.hpp"
