// The identity mechanism (docs/architecture.md step 5): exact integer noise on every cell's count (replace-one moves
// one row between two cells: l1 = 2, l2^2 = 2), then consistency post-processing: the nearest histogram that is
// non-negative and sums to n (public), normalised to a distribution. Data-independent: its error does not depend
// on the prior or on the public table, only on how many cells a query spans.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/noisy_histogram.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

struct IdentityPlan {
	HistogramNoise noise;
	double predicted_error = 0;  // predicted max error over the cover queries, fraction of n
	PrivacyUsed used;            // HistogramNoiseUsed for l1 = l2^2 = 2
};
// max_query_cells: the most cells any cover query spans; query_cells: the cells each cover query spans, when the
// cover is listed (public: properties of the cover and the domain). With query_cells, the prediction is a union
// bound with each query's own noise; without, every query takes the worst noise of max_query_cells cells.
// open_cells: the cells a row can hold, the only ones measured (input.cells less the closed ones, RunIdentity's
// closed_cells; 0 for every cell); the query sizes then count open cells only.
// Errors as ValidatePlanInput; Error(Internal) for max_query_cells, or an entry of query_cells, > the open cells, or
// open_cells > input.cells.
IdentityPlan PlanIdentity(const PlanInput &input, std::size_t max_query_cells,
                          const std::vector<std::int64_t> &query_cells = {}, std::size_t open_cells = 0);

// The bias the non-negativity step adds to the cover queries' answers, predicted from public information only:
// the public histogram (stand-in: n times stand_in, a distribution over the cells, e.g. PublicPrior) plus the
// plan's noise, projected as RunIdentity projects (clip at a common level tau chosen so the expected total is n).
// Returns max over the workload's queries of |expected answer - stand-in answer|, fraction of n. On a sparse
// domain at small epsilon this dominates: the noise on the many empty cells pushes tau up and takes mass from the
// occupied ones. Uses continuous Laplace / Gaussian tails of the same variance. Terminates for every variance
// (0 included) and n: at most 2 x 1100 bracket doublings and 100 halvings, each O(cells), plus one Evaluate.
// Error(Cancelled) when interrupted() returns true (polled every 2^16 cells). closed (empty, or one entry per cell):
// the cells RunIdentity does not measure, which hold no row and stay 0 (their stand-in must be 0), so they neither
// move nor take part in tau.
double IdentityProjectionBias(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                              const Workload &workload, InterruptCheck interrupted = nullptr,
                              const std::vector<bool> &closed = {});
// The same bias bounded over every set of cells (an upper bound for any class), for a cover too large to list: the
// larger of the summed positive and the summed negative per-cell shifts. Error(Internal) for no cell or n <= 0.
double IdentityProjectionBiasOfAnySet(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                                      InterruptCheck interrupted = nullptr, const std::vector<bool> &closed = {});
// The same bias on single cells: the largest |expected move| of one cell (what a table of noisy counts projected as
// RunIdentity projects shows in its cells: marginal_tables' variant without the prior). Errors as
// IdentityProjectionBiasOfAnySet.
double IdentityProjectionBiasOfAnyCell(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                                       InterruptCheck interrupted = nullptr);
// The bias for a plan: on the cover's queries when the cover is listed, else over every set of cells. closed: as
// IdentityProjectionBias (identity's plan passes context.closed_cells; hierarchical measures every cell).
double IdentityProjectionBiasOnCover(const PlanContext &context, const HistogramNoise &noise,
                                     const std::vector<bool> &closed = {});

// cell_histogram: the private count of every domain cell (sums to n). Returns the synthetic distribution.
// closed (nullptr, or one entry per cell): cells no row can hold (ReleaseLayout::ClosedCells, from the schema):
// they get no draw and 0 in the output whatever their count, and the others are measured and projected as when
// they are all the cells (docs/mechanisms.md §9, "Cells no row can hold").
// Error(Cancelled) when interrupted() returns true; Error(DataException) for n = 0; Error(Internal) for counts
// that are negative or do not sum to n, or a mask of another size. O(cells log cells) time (the projection's
// sort), O(cells) memory.
std::vector<double> RunIdentity(const std::vector<std::int64_t> &cell_histogram, std::int64_t n,
                                const HistogramNoise &noise, RandomBitSource &rng, InterruptCheck interrupted = nullptr,
                                const std::vector<bool> *closed = nullptr);

}  // namespace pap::core

#include "core/base/core_only.hpp"
