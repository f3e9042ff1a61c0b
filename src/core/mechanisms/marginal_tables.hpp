// The marginal-tables mechanism (docs/mechanisms.md §13): select-measure-reconstruct for marginals(k; c1..cD) on a
// full grid. Select (public): every k-way table of the class's D axes, and, for k > 1, first every 1-way table.
// Measure: each table's private counts with exact integer noise (discrete Laplace for epsilon-DP, the discrete
// Gaussian under zCDP when delta > 0 and its predicted error is the smaller). Reconstruct (post-processing): starting
// from the public prior, each table's estimate is its noisy count combined cell by cell with the current model's answer
// (inverse-variance weights from the public sample's size and the noise's variance, as JAM-PGM chooses between the
// public and the private measurement); the 1-way stage trusts its noisy tables alone where they show the public
// sample is off by more than its sampling error and the noise explain (a shifted public sample). The 1-way tables
// share no axis: iterative proportional fitting meets each one's projected estimate exactly. The k-way tables
// overlap: one distribution is fitted to all their estimates at once by weighted least squares (entropic mirror
// descent, as Private-PGM estimates), so the released distribution is consistent without projecting each table on
// its own first, which would shift the sub-marginals the tables share by different amounts. Where it predicts better
// (a public sample too small or too noisy to weigh), the plan measures the k-way tables alone at the whole budget
// and fits them without the prior (docs/mechanisms.md §13, "The variant without the prior").
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/interrupt_scope.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/noisy_histogram.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {

// The shares of the budget the planner tries for the 1-way stage when k > 1 (docs/mechanisms.md §13, "Choosing the
// variant, the split and the noise"): the one with the smallest predicted error is used; the k-way tables have the
// rest.
constexpr double kCalibrationShares[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9};
// Sweeps of iterative proportional fitting of the 1-way stage (each sweep fits every table of the stage once).
constexpr int kFittingSweeps = 30;
// Steps of mirror descent of the k-way stage's least-squares fit (fewer once no step lowers the loss).
constexpr int kLeastSquaresSteps = 400;

struct MarginalTablesPlan {
	int order = 1;                 // k: the tables the queries read
	int axes = 1;                  // D
	bool calibrate = false;        // a 1-way stage first (k > 1, and only when the tables' targets weigh the prior)
	double calibration_share = 0;  // its share of the budget (0 without it)
	HistogramNoise calibration;    // per cell of a 1-way table (when calibrate)
	HistogramNoise tables;         // per cell of a k-way table
	// m, for the weights; 0 for the noisy tables alone: the uniform prior, or the variant that does not weigh the
	// public prior (docs/mechanisms.md §13, "The variant without the prior").
	std::int64_t public_rows = 0;
	double beta = 0.05;          // the 1-way stage's test: the chance any unshifted table is taken as shifted
	double predicted_error = 0;  // the max error over the k-way tables' cells, fraction of n, w.p. 1 - beta
	PrivacyUsed used;
};

// The attribute sets of `order` axes among `axes`, in lexicographic order. Error(Internal) unless
// 1 <= order <= axes; Error(LimitExceeded) above kMaxAttributeSets.
constexpr std::size_t kMaxAttributeSets = std::size_t(1) << 20;
std::vector<std::vector<int>> AttributeSets(int axes, int order);

// One marginal table over a dense grid (radices row-major, first axis most significant): the cell of the table each
// grid cell falls in. Error(Internal) for axes out of range or not increasing; Error(LimitExceeded) when the table
// has more cells than the grid.
class MarginalTable {
public:
	MarginalTable(const std::vector<std::int32_t> &radices, std::vector<int> axes);
	std::size_t
	size() const
	{
		return size_;
	}
	const std::vector<int> &
	axes() const
	{
		return axes_;
	}
	// Sums of values over each table cell (values over the grid's cells).
	std::vector<double> Of(const std::vector<double> &values, InterruptCheck interrupted) const;
	std::vector<std::int64_t> Counts(const std::vector<std::int64_t> &histogram, InterruptCheck interrupted) const;
	// values[c] *= factors[table cell of c], for every grid cell c.
	void Scale(const std::vector<double> &factors, std::vector<double> &values, InterruptCheck interrupted) const;

	// The step of the table cell when the grid coordinate of `axis` rises by one (0 for an axis not in the table).
	std::size_t
	stride(std::size_t axis) const
	{
		return table_strides_[axis];
	}

private:
	template <typename F> void ForEachCell(std::size_t cells, F &&f, InterruptCheck interrupted) const;
	std::vector<std::int32_t> radices_;
	std::vector<int> axes_;
	std::vector<std::size_t> grid_strides_, table_strides_;
	std::size_t size_ = 1;
};

// The marginal tables of several attribute sets of one grid, read in one pass over the grid's cells (one odometer
// keeps every table's cell): what the least-squares fit reads and writes at every step. Errors as MarginalTable's;
// Of and SumBack: Error(Internal) for a vector that is not of the grid's size (or of the tables').
class MarginalTableSet {
public:
	MarginalTableSet(const std::vector<std::int32_t> &radices, const std::vector<std::vector<int>> &sets);
	const std::vector<MarginalTable> &
	tables() const
	{
		return tables_;
	}
	// Of(values)[t] = tables()[t].Of(values).
	std::vector<std::vector<double>> Of(const std::vector<double> &values, InterruptCheck interrupted) const;
	// out[c] = sum over the tables t of per_table[t][table cell of c], for every grid cell c.
	void SumBack(const std::vector<std::vector<double>> &per_table, std::vector<double> &out,
	             InterruptCheck interrupted) const;

private:
	template <typename F> void ForEachCell(std::size_t cells, F &&f, InterruptCheck interrupted) const;
	std::vector<std::int32_t> radices_;
	std::vector<MarginalTable> tables_;
	std::vector<std::vector<std::size_t>> axis_strides_;  // [axis][table]: MarginalTable::stride, by axis
	std::size_t cells_ = 1;
};

// One table's estimate for the least-squares fit: fractions (may be negative: the noise is kept unclipped, so that
// it averages out over the tables sharing a sub-marginal) and the inverse of each one's variance (fractions^-2).
struct TableEstimate {
	std::vector<double> values;
	std::vector<double> inverse_variance;
};

// The estimate of one k-way table: per cell w y + (1 - w) n p over n, with the weights of CombinedTargets, and the
// variance of that combination, v s2 / (v + s2) (s2 alone without a public sample), at least 1/12 (rounding's).
// Error(Internal) for sizes that disagree, n <= 0 or s2 < 0.
TableEstimate CombinedEstimate(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                               std::int64_t public_rows, double noise_variance);

// Moves model (a distribution, every weight > 0) toward the distribution x minimising
// sum_t sum_i inverse_variance[t][i] (x_t[i] - values[t][i])^2 / 2 over the tables' marginals x_t: entropic mirror
// descent (x <- x exp(-eta grad) normalised) with a backtracking step (Armijo: a step is taken when it lowers the
// loss by at least half its first-order decrease), for `steps` steps or until no step lowers the loss; a weight the
// steps drive below the smallest double ends at 0 (a release may hold empty cells). Returns the loss reached.
// Error(Internal) when the estimates and the tables disagree in size, or no weight is finite and
// positive (no table, or a table of weights 0).
double FitLeastSquares(const MarginalTableSet &tables, const std::vector<TableEstimate> &estimates, int steps,
                       std::vector<double> &model, InterruptCheck interrupted);

// A table's targets (fractions, summing to 1) from its noisy counts and the model's shares of the same cells: per
// cell w y + (1 - w) n p with w = v / (v + s2), v = n^2 max(p (1 - p), 1/m) (1/m + 1/n) the public sample's
// sampling variance and s2 the noise's; w = 1 for every cell when trust_noisy (or m = 0). Then the nearest
// non-negative table of n rows (ProjectOntoSimplex), raised to a floor of half a row spread over the table (so that
// every cell keeps some weight), normalised. Error(Internal) for sizes that disagree or n <= 0.
std::vector<double> CombinedTargets(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                                    std::int64_t public_rows, double noise_variance, bool trust_noisy);
// The same with the choice made cell by cell: w = 1 where trusted[i] (the cells CellsOffThePrior flags).
std::vector<double> CombinedTargets(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                                    std::int64_t public_rows, double noise_variance, const std::vector<bool> &trusted);
// The 1-way stage's test: true when sum |y - n p| exceeds its mean under an unshifted public sample by more than
// the normal quantile at beta times its standard deviation (each cell's difference taken as normal with the
// variance s2 + v above).
bool PublicSampleShifted(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                         std::int64_t public_rows, double noise_variance, double beta);

// The test of a stage without a 1-way stage before it (k = 1), cell by cell: true for a cell whose |y - n p| exceeds
// z sqrt(s2 + v) (v the public sample's sampling variance above), which then takes its noisy count alone; every cell
// without a public sample. A test per cell sees a shift of the cell itself, where a test of the whole table sees
// only the table's summed distance (docs/mechanisms.md §13). Errors as CombinedTargets.
std::vector<bool> CellsOffThePrior(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                                   std::int64_t public_rows, double noise_variance, double z);
// The z of that test for a stage of `cells` cells: the two-sided normal quantile at beta / cells, so that an
// unshifted public sample sends about beta of the stage's cells to their noisy counts alone (none, mostly).
double CellTestQuantile(double beta, std::size_t cells);

// Per table of `sets` (attribute sets of the grid of these radices, each increasing), the variance of one of its cells
// after the least-squares fit of the tables measured with equal noise (the total n known), as a share of one noisy
// count's variance: in the orthogonal contrasts of the axes every table measures the contrast of each subset S of its
// axes, the fit averages the tables holding S, and a cell is the sum of its contrasts (docs/mechanisms.md §13, "The
// variant without the prior"). 1 - 1/K for a table of K cells that shares no axis with another. The fit's error on a
// cell is a combination of the noise draws with coefficients at most 1 whose squares sum to this share (the fit is
// an orthogonal projection), as MaxErrorOverCover's draws. Error(Internal) for an axis out of range.
std::vector<double> LeastSquaresVarianceShares(const std::vector<std::int32_t> &radices,
                                               const std::vector<std::vector<int>> &sets);

// From public inputs only: radices of the dense grid (D axes), k = order, the public histogram over its cells. The
// variant (the tables' targets weighing the public prior, with for k > 1 a 1-way stage at a share from
// kCalibrationShares; or the noisy k-way tables alone at the whole budget, no 1-way stage) and the noise (Laplace,
// or with delta > 0 the discrete Gaussian) are MarginalTablesVariantChoice's among MarginalTablesCandidates.
// closed: ReleaseLayout::ClosedCells's mask (nullptr or empty: none), the tables then planned on the open subgrid
// (OpenSubgrid: each axis's open bins; the prior and the public distribution conditioned on the open cells, the
// public rows those in them), as RunMarginalTables runs them.
// Errors as ValidatePlanInput; Error(LimitExceeded) when the noise cannot be sampled exactly; Error(Internal) for an
// order outside 1..D, a histogram of another size, or a mask OpenSubgrid refuses.
MarginalTablesPlan PlanMarginalTables(const PlanInput &input, const std::vector<std::int32_t> &radices, int order,
                                      const std::vector<std::int64_t> &public_histogram,
                                      const std::vector<bool> *closed = nullptr);
// Every candidate plan whose noise can be sampled exactly (none when no noise can: an empty list), each with its
// prediction and what it spends, in a fixed order: per noise (Laplace, then with delta > 0 the discrete Gaussian)
// the variants weighing the prior by kCalibrationShares (one for k = 1), then the one without it. Errors as
// PlanMarginalTables's, except the LimitExceeded.
std::vector<MarginalTablesPlan> MarginalTablesCandidates(const PlanInput &input,
                                                         const std::vector<std::int32_t> &radices, int order,
                                                         const std::vector<std::int64_t> &public_histogram,
                                                         const std::vector<bool> *closed = nullptr);
// The candidate a plan takes (its position): the smallest predicted error, ties to the earlier; except that where
// that one weighs the public prior (public_rows > 0) over k > 1 and a candidate without it (public_rows 0) predicts
// within kNearTie (near_tie.hpp) of it, the best of those without it (docs/mechanisms.md §13, "A near tie goes to
// the variant without the prior"): its prediction holds whatever the public sample, the other's k-way part only for
// a sample drawn like the private table, which public information cannot confirm. For k = 1 the per-cell test puts
// both on that footing (OneWayTablesError), and the smallest wins. Error(Internal) for no candidate.
std::size_t MarginalTablesVariantChoice(const std::vector<MarginalTablesPlan> &candidates);

// cell_histogram: private counts over the dense grid (sums to n); prior: the distribution the reconstruction starts
// from (every weight > 0). Returns the synthetic distribution over the same cells. closed: the plan's mask (nullptr
// or empty: none); only the open cells are read, measured and fitted (on the open subgrid, the prior conditioned on
// them, the total n), and every closed cell is released as 0 whatever it holds. Error(Cancelled) when
// interrupted() returns true; Error(DataException) for n = 0; Error(Internal) when the inputs and the plan
// disagree. Time O((D kFittingSweeps + |tables| kLeastSquaresSteps) cells), memory O(cells + the tables' cells).
std::vector<double> RunMarginalTables(const std::vector<std::int64_t> &cell_histogram,
                                      const std::vector<std::int32_t> &radices, std::int64_t n,
                                      const std::vector<double> &prior, const MarginalTablesPlan &plan,
                                      RandomBitSource &rng, InterruptCheck interrupted = nullptr,
                                      const std::vector<bool> *closed = nullptr);

}  // namespace pap::core

#include "core/base/core_only.hpp"
