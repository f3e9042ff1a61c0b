#include "core/mechanisms/marginal_tables.hpp"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/base/errors.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/cells/open_subgrid.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/mechanisms/near_tie.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"

namespace pap::core {

std::vector<std::vector<int>>
AttributeSets(int axes, int order)
{
	if (order < 1 || order > axes)
		throw Error(ErrorKind::Internal, "a marginal's order must be between 1 and the number of axes");
	std::vector<std::vector<int>> sets;
	std::vector<int> combination(static_cast<std::size_t>(order));
	for (int i = 0; i < order; i++)
		combination[std::size_t(i)] = i;
	for (;;) {
		if (sets.size() >= kMaxAttributeSets)
			throw Error(ErrorKind::LimitExceeded, "too many marginal tables");
		sets.push_back(combination);
		// The next combination in lexicographic order: raise the last element that can still rise.
		int i = order - 1;
		while (i >= 0 && combination[std::size_t(i)] == axes - order + i)
			i--;
		if (i < 0)
			return sets;
		combination[std::size_t(i)]++;
		for (int j = i + 1; j < order; j++)
			combination[std::size_t(j)] = combination[std::size_t(j - 1)] + 1;
	}
}

MarginalTable::MarginalTable(const std::vector<std::int32_t> &radices, std::vector<int> axes)
    : radices_(radices), axes_(std::move(axes)), grid_strides_(radices.size()), table_strides_(radices.size(), 0)
{
	std::size_t stride = 1;
	for (std::size_t a = radices_.size(); a-- > 0;) {
		if (radices_[a] < 1)
			throw Error(ErrorKind::Internal, "a radix must be at least 1");
		grid_strides_[a] = stride;
		if (__builtin_mul_overflow(stride, std::size_t(radices_[a]), &stride))
			throw Error(ErrorKind::LimitExceeded, "the grid has too many cells");
	}
	for (std::size_t i = 0; i < axes_.size(); i++)
		if (axes_[i] < 0 || std::size_t(axes_[i]) >= radices_.size() || (i > 0 && axes_[i] <= axes_[i - 1]))
			throw Error(ErrorKind::Internal, "a marginal table's axes must be increasing axes of the grid");
	for (std::size_t i = axes_.size(); i-- > 0;) {
		table_strides_[std::size_t(axes_[i])] = size_;
		size_ *= std::size_t(radices_[std::size_t(axes_[i])]);  // at most the grid's size, which fits
	}
}

// Calls f(grid cell, table cell) for every grid cell in order, the table cell kept by an odometer over the
// coordinates (no division per cell).
template <typename F>
void
MarginalTable::ForEachCell(std::size_t cells, F &&f, InterruptCheck interrupted) const
{
	const std::size_t d = radices_.size();
	std::vector<std::int32_t> coordinates(d, 0);
	std::size_t table_cell = 0;
	std::uint64_t steps = 0;
	for (std::size_t c = 0; c < cells; c++) {
		CountSteps(interrupted, steps);
		f(c, table_cell);
		for (std::size_t a = d; a-- > 0;) {
			if (++coordinates[a] < radices_[a]) {
				table_cell += table_strides_[a];
				break;
			}
			table_cell -= table_strides_[a] * std::size_t(radices_[a] - 1);
			coordinates[a] = 0;
		}
	}
}

std::vector<double>
MarginalTable::Of(const std::vector<double> &values, InterruptCheck interrupted) const
{
	std::vector<double> sums(size_, 0.0);
	ForEachCell(
	    values.size(), [&](std::size_t c, std::size_t t) { sums[t] += values[c]; }, interrupted);
	return sums;
}

std::vector<std::int64_t>
MarginalTable::Counts(const std::vector<std::int64_t> &histogram, InterruptCheck interrupted) const
{
	std::vector<std::int64_t> sums(size_, 0);
	ForEachCell(
	    histogram.size(), [&](std::size_t c, std::size_t t) { AddToAnswer(sums[t], histogram[c]); }, interrupted);
	return sums;
}

void
MarginalTable::Scale(const std::vector<double> &factors, std::vector<double> &values, InterruptCheck interrupted) const
{
	ForEachCell(
	    values.size(), [&](std::size_t c, std::size_t t) { values[c] *= factors[t]; }, interrupted);
}

MarginalTableSet::MarginalTableSet(const std::vector<std::int32_t> &radices, const std::vector<std::vector<int>> &sets)
    : radices_(radices), axis_strides_(radices.size())
{
	tables_.reserve(sets.size());
	for (const std::vector<int> &set : sets)
		tables_.emplace_back(radices, set);
	for (std::size_t a = 0; a < radices_.size(); a++) {
		for (const MarginalTable &table : tables_)
			axis_strides_[a].push_back(table.stride(a));
		cells_ *= std::size_t(radices_[a]);  // fits: each table checked the grid's size
	}
}

// Calls f(grid cell, every table's cell) for every grid cell in order (MarginalTable::ForEachCell for all tables).
template <typename F>
void
MarginalTableSet::ForEachCell(std::size_t cells, F &&f, InterruptCheck interrupted) const
{
	if (cells != cells_)
		throw Error(ErrorKind::Internal, "a vector over the grid has another size than the grid");
	const std::size_t d = radices_.size(), count = tables_.size();
	std::vector<std::int32_t> coordinates(d, 0);
	std::vector<std::size_t> table_cells(count, 0);
	std::uint64_t steps = 0;
	for (std::size_t c = 0; c < cells; c++) {
		CountSteps(interrupted, steps, count);
		f(c, table_cells);
		for (std::size_t a = d; a-- > 0;) {
			const std::vector<std::size_t> &strides = axis_strides_[a];
			if (++coordinates[a] < radices_[a]) {
				for (std::size_t t = 0; t < count; t++)
					table_cells[t] += strides[t];
				break;
			}
			for (std::size_t t = 0; t < count; t++)
				table_cells[t] -= strides[t] * std::size_t(radices_[a] - 1);
			coordinates[a] = 0;
		}
	}
}

std::vector<std::vector<double>>
MarginalTableSet::Of(const std::vector<double> &values, InterruptCheck interrupted) const
{
	std::vector<std::vector<double>> sums;
	for (const MarginalTable &table : tables_)
		sums.emplace_back(table.size(), 0.0);
	ForEachCell(
	    values.size(),
	    [&](std::size_t c, const std::vector<std::size_t> &cells) {
		    for (std::size_t t = 0; t < cells.size(); t++)
			    sums[t][cells[t]] += values[c];
	    },
	    interrupted);
	return sums;
}

void
MarginalTableSet::SumBack(const std::vector<std::vector<double>> &per_table, std::vector<double> &out,
                          InterruptCheck interrupted) const
{
	if (per_table.size() != tables_.size())
		throw Error(ErrorKind::Internal, "per-table values for another set of marginal tables");
	for (std::size_t t = 0; t < tables_.size(); t++)
		if (per_table[t].size() != tables_[t].size())
			throw Error(ErrorKind::Internal, "per-table values for another set of marginal tables");
	ForEachCell(
	    out.size(),
	    [&](std::size_t c, const std::vector<std::size_t> &cells) {
		    double sum = 0.0;
		    for (std::size_t t = 0; t < cells.size(); t++)
			    sum += per_table[t][cells[t]];
		    out[c] = sum;
	    },
	    interrupted);
}

namespace {

// The public sample's sampling variance of a share p, in counts of n: both tables samples of one population.
double
PublicVariance(double p, double n, std::int64_t public_rows)
{
	const double m = double(public_rows);
	return n * n * std::max(p * (1.0 - p), 1.0 / m) * (1.0 / m + 1.0 / n);
}

void
RequireSameSize(const std::vector<double> &noisy, const std::vector<double> &model, double n)
{
	if (noisy.size() != model.size() || noisy.empty() || !(n > 0.0))
		throw Error(ErrorKind::Internal, "a marginal table's noisy counts and model disagree");
}

// The inverse-variance combination of a noisy count (variance s2) with the model's count n p (the public sample's
// sampling variance v): the noisy count's weight and the combination's variance (counts^2).
struct Blend {
	double weight = 1.0;
	double variance = 0.0;
};

Blend
BlendOf(double p, double n, std::int64_t public_rows, double noise_variance)
{
	if (public_rows <= 0)
		return {1.0, noise_variance};
	const double v = PublicVariance(p, n, public_rows);
	return {v / (v + noise_variance), v * noise_variance / (v + noise_variance)};
}

}  // namespace

std::vector<double>
CombinedTargets(const std::vector<double> &noisy, const std::vector<double> &model, double n, std::int64_t public_rows,
                double noise_variance, bool trust_noisy)
{
	return CombinedTargets(noisy, model, n, public_rows, noise_variance, std::vector<bool>(noisy.size(), trust_noisy));
}

std::vector<double>
CombinedTargets(const std::vector<double> &noisy, const std::vector<double> &model, double n, std::int64_t public_rows,
                double noise_variance, const std::vector<bool> &trusted)
{
	RequireSameSize(noisy, model, n);
	if (trusted.size() != noisy.size())
		throw Error(ErrorKind::Internal, "a marginal table's noisy counts and model disagree");
	std::vector<double> combined(noisy.size());
	for (std::size_t i = 0; i < noisy.size(); i++) {
		const double w = trusted[i] ? 1.0 : BlendOf(model[i], n, public_rows, noise_variance).weight;
		combined[i] = w * noisy[i] + (1.0 - w) * n * model[i];
	}
	// The nearest non-negative table of n rows (identity's consistency step): a common shift, rather than clipping
	// alone, so that the noise on empty cells does not add mass to the table.
	std::vector<double> targets = ProjectOntoSimplex(combined, n);
	const double floor = 0.5 / (n * double(noisy.size()));
	double sum = 0.0;
	for (double &t : targets) {
		t = std::max(floor, t / n);
		sum += t;
	}
	for (double &t : targets)
		t /= sum;
	return targets;
}

TableEstimate
CombinedEstimate(const std::vector<double> &noisy, const std::vector<double> &model, double n, std::int64_t public_rows,
                 double noise_variance)
{
	RequireSameSize(noisy, model, n);
	if (!(noise_variance >= 0.0))
		throw Error(ErrorKind::Internal, "a marginal table's noise variance must be non-negative");
	TableEstimate estimate;
	estimate.values.resize(noisy.size());
	estimate.inverse_variance.resize(noisy.size());
	for (std::size_t i = 0; i < noisy.size(); i++) {
		const Blend blend = BlendOf(model[i], n, public_rows, noise_variance);
		estimate.values[i] = (blend.weight * noisy[i] + (1.0 - blend.weight) * n * model[i]) / n;
		// An exact count (no noise: a huge epsilon) is known to the integer: its variance is taken as rounding's,
		// 1/12, so that every weight stays finite.
		estimate.inverse_variance[i] = n * n / std::max(blend.variance, 1.0 / 12.0);
	}
	return estimate;
}

namespace {

// The least-squares loss of a distribution's marginals (per table, as MarginalTableSet::Of) against the estimates;
// gradient[t][i] receives the loss's derivative in the marginal x_t[i].
double
LeastSquaresLoss(const std::vector<std::vector<double>> &marginals, const std::vector<TableEstimate> &estimates,
                 std::vector<std::vector<double>> &gradient)
{
	double loss = 0.0;
	gradient = marginals;
	for (std::size_t t = 0; t < estimates.size(); t++)
		for (std::size_t i = 0; i < gradient[t].size(); i++) {
			const double residual = marginals[t][i] - estimates[t].values[i];
			loss += 0.5 * estimates[t].inverse_variance[i] * residual * residual;
			gradient[t][i] = estimates[t].inverse_variance[i] * residual;
		}
	return loss;
}

// Halvings of the step before the fit stops (no step lowers the loss: the fit has converged to rounding).
constexpr int kMaxStepHalvings = 30;

}  // namespace

double
FitLeastSquares(const MarginalTableSet &tables, const std::vector<TableEstimate> &estimates, int steps,
                std::vector<double> &model, InterruptCheck interrupted)
{
	if (estimates.size() != tables.tables().size())
		throw Error(ErrorKind::Internal, "the estimates are not of the marginal tables fitted");
	double curvature = 0.0;  // bounds the loss's curvature on the simplex: the first step size is its inverse
	for (std::size_t t = 0; t < estimates.size(); t++) {
		const TableEstimate &e = estimates[t];
		if (e.values.size() != tables.tables()[t].size() || e.inverse_variance.size() != e.values.size())
			throw Error(ErrorKind::Internal, "the estimates are not of the marginal tables fitted");
		curvature += *std::max_element(e.inverse_variance.begin(), e.inverse_variance.end());
	}
	if (!(curvature > 0.0) || !std::isfinite(curvature))
		throw Error(ErrorKind::Internal, "the least-squares fit needs estimates with finite positive weights");
	std::vector<std::vector<double>> gradient_tables, trial_gradient;
	double loss = LeastSquaresLoss(tables.Of(model, interrupted), estimates, gradient_tables);
	double eta = 1.0 / curvature;
	std::vector<double> gradient(model.size()), trial(model.size());
	std::uint64_t poll = 0;
	for (int step = 0; step < steps; step++) {
		tables.SumBack(gradient_tables, gradient, interrupted);
		// Shifting the gradient by a constant leaves the normalised step unchanged and keeps every factor <= 1.
		const double lowest = *std::min_element(gradient.begin(), gradient.end());
		bool moved = false;
		for (int halving = 0; halving < kMaxStepHalvings && !moved; halving++) {
			double sum = 0.0;
			for (std::size_t c = 0; c < model.size(); c++) {
				CountSteps(interrupted, poll);
				trial[c] = model[c] * std::exp(-eta * (gradient[c] - lowest));
				sum += trial[c];
			}
			double decrease = 0.0;  // the first-order decrease <gradient, model - trial>, >= 0
			for (std::size_t c = 0; c < model.size(); c++) {
				trial[c] /= sum;
				decrease += gradient[c] * (model[c] - trial[c]);
			}
			const double trial_loss = LeastSquaresLoss(tables.Of(trial, interrupted), estimates, trial_gradient);
			if (trial_loss < loss && trial_loss <= loss - 0.5 * decrease) {
				model.swap(trial);
				gradient_tables.swap(trial_gradient);
				loss = trial_loss;
				moved = true;
				eta *= 1.5;  // try a longer step next: the curvature bound above is loose
			} else
				eta *= 0.5;
		}
		if (!moved)
			break;
	}
	return loss;
}

bool
PublicSampleShifted(const std::vector<double> &noisy, const std::vector<double> &model, double n,
                    std::int64_t public_rows, double noise_variance, double beta)
{
	RequireSameSize(noisy, model, n);
	if (public_rows <= 0)
		return true;
	double distance = 0.0, mean = 0.0, variance = 0.0;
	for (std::size_t i = 0; i < noisy.size(); i++) {
		const double v = noise_variance + PublicVariance(model[i], n, public_rows);
		distance += std::abs(noisy[i] - n * model[i]);
		mean += std::sqrt(2.0 / M_PI) * std::sqrt(v);  // E|Z| for Z normal of variance v
		variance += (1.0 - 2.0 / M_PI) * v;
	}
	const double z = std::sqrt(2.0) * boost::math::erfc_inv(2.0 * std::clamp(beta, kMinBeta, 0.5));
	return distance > mean + z * std::sqrt(variance);
}

std::vector<bool>
CellsOffThePrior(const std::vector<double> &noisy, const std::vector<double> &model, double n, std::int64_t public_rows,
                 double noise_variance, double z)
{
	RequireSameSize(noisy, model, n);
	std::vector<bool> off(noisy.size(), true);
	if (public_rows <= 0)
		return off;
	for (std::size_t i = 0; i < noisy.size(); i++) {
		const double spread = std::sqrt(noise_variance + PublicVariance(model[i], n, public_rows));
		off[i] = std::abs(noisy[i] - n * model[i]) > z * spread;
	}
	return off;
}

double
CellTestQuantile(double beta, std::size_t cells)
{
	return MaxErrorOverCover(1.0, cells, std::clamp(beta, kMinBeta, 1.0));
}

namespace {

// Calls f(S, R) for every non-empty subset S of a table's axes whose radices all exceed 1 (an axis of one bin has no
// contrast), R the product of the radices of the table's other axes.
template <typename F>
void
ForEachContrast(const std::vector<std::int32_t> &radices, const std::vector<int> &set, F &&f)
{
	std::vector<int> varying;
	for (int axis : set) {
		if (axis < 0 || std::size_t(axis) >= radices.size())
			throw Error(ErrorKind::Internal, "a marginal table's axis is not an axis of the grid");
		if (radices[std::size_t(axis)] > 1)
			varying.push_back(axis);
	}
	// 2^|varying| <= the table's cells, which the run measures: the subsets cost no more than one pass over them.
	const std::size_t subsets = std::size_t(1) << varying.size();
	std::vector<int> subset;
	for (std::size_t mask = 1; mask < subsets; mask++) {
		subset.clear();
		double rest = 1.0;
		for (std::size_t i = 0; i < varying.size(); i++)
			if (mask >> i & 1U)
				subset.push_back(varying[i]);
			else
				rest *= double(radices[std::size_t(varying[i])]);
		f(subset, rest);
	}
}

}  // namespace

std::vector<double>
LeastSquaresVarianceShares(const std::vector<std::int32_t> &radices, const std::vector<std::vector<int>> &sets)
{
	// A table A holds the contrast of S scaled by 1 / sqrt(R_A\S) in each of its orthonormal coordinates, each with
	// the noise's variance: the equally weighted fit estimates it with precision sum over the tables A holding S of
	// 1 / R_A\S.
	std::map<std::vector<int>, double> precision;
	std::uint64_t steps = 0;
	for (const std::vector<int> &set : sets)
		ForEachContrast(radices, set, [&](const std::vector<int> &subset, double rest) {
			CountSteps(CurrentInterruptCheck(), steps);
			precision[subset] += 1.0 / rest;
		});
	// Table B's fitted coordinate of S has the share (1 / R_B\S) / precision(S) of a noisy count's variance; a cell
	// of B has the squared length prod over S of (1 - 1/r) / R_B\S in those coordinates. The total (S empty) is n.
	std::vector<double> shares;
	shares.reserve(sets.size());
	for (const std::vector<int> &set : sets) {
		double share = 0.0;
		ForEachContrast(radices, set, [&](const std::vector<int> &subset, double rest) {
			double length = 1.0;
			for (int axis : subset)
				length *= 1.0 - 1.0 / double(radices[std::size_t(axis)]);
			share += length / (rest * rest * precision[subset]);
		});
		shares.push_back(std::min(1.0, share));
	}
	return shares;
}

namespace {

// The noise of every table of one stage: `tables` tables, each of l1 = l2^2 = 2 under replace-one (a row moves
// between two of its cells), at a share of epsilon (Laplace) or of rho (Gaussian).
HistogramNoise
StageNoise(bool gaussian, std::size_t tables, double share, double epsilon, double rho)
{
	HistogramNoise noise;
	noise.gaussian = gaussian;
	if (gaussian)
		noise.variance = VarianceAtLeast(double(tables) / (share * rho));  // rho per table 2 / (2 sigma^2)
	else
		noise.laplace = ScaleAtLeast(2.0 * double(tables) / (share * epsilon));
	return noise;
}

// What the stages spend, from the exact scales: Laplace sum of tables x 2 / b; Gaussian rho = sum of tables / sigma^2.
// Either above its budget (epsilon; the rho the Gaussian was calibrated to) is a broken invariant: the reported
// amounts are capped at the request (ReportedZcdpDelta, the engine's rho), so an overspend must stop here.
PrivacyUsed
StagesUsed(const MarginalTablesPlan &plan, std::size_t calibration_tables, std::size_t tables, double epsilon,
           double delta, double rho_budget)
{
	PrivacyUsed used;
	if (!plan.tables.gaussian) {
		double spent = double(tables) * LaplaceEpsilon(2.0, plan.tables.laplace);
		if (plan.calibrate)
			spent += double(calibration_tables) * LaplaceEpsilon(2.0, plan.calibration.laplace);
		if (!(spent <= epsilon))
			throw Error(ErrorKind::Internal, "marginal tables' noise spends more than epsilon");
		used.epsilon = spent;
		used.accounting = "pure (discrete Laplace)";
		return used;
	}
	auto rho_of = [](std::size_t count, const RationalVariance &v) {
		return (long double)count * (long double)v.denominator / (long double)v.numerator;
	};
	long double rho = rho_of(tables, plan.tables.variance);
	if (plan.calibrate)
		rho += rho_of(calibration_tables, plan.calibration.variance);
	if (!(rho <= (long double)rho_budget))
		throw Error(ErrorKind::Internal, "marginal tables' noise spends more than its rho");
	used.epsilon = epsilon;
	used.rho = double(rho * (1.0L + 1e-15L));
	used.delta = ReportedZcdpDelta(used.rho, epsilon, delta);
	used.accounting = "zCDP (discrete Gaussian, tight conversion)";
	return used;
}

struct VarianceBucket {
	double count = 0;
	double smallest = std::numeric_limits<double>::infinity();
	double largest = 0;
};

// Buckets per octave of v: the cells of a bucket differ in v by at most 2^(1/4).
constexpr double kBucketsPerOctave = 4.0;

// The key of a quarter of an octave of a non-negative number (0 has its own).
int
OctaveKey(double x)
{
	return x > 0.0 ? int(std::floor(kBucketsPerOctave * std::log2(x))) : std::numeric_limits<int>::min();
}

// What the prediction reads of the public prior over the k-way tables (all from public information).
struct PublicTables {
	// The variances v of the public sample's share of the k-way cells (counts of n), in buckets of a quarter of an
	// octave: each bucket's count and range (none without a public sample). The prediction's union bound goes bucket
	// by bucket, each bucket's cells taken at the worst v of its range.
	std::map<int, VarianceBucket> buckets;
	// The largest share of a k-way cell within a 1-way cell it lies in: fitting a 1-way table scales every k-way
	// cell inside one of its cells by one factor, so a k-way cell moves by at most this times the 1-way cell's move.
	double largest_ratio = 0;
	// k = 1, per cell: v and the number of cells of its table (OneWayTablesError).
	std::vector<double> sampling_variance, table_cells;
	std::size_t cells = 0;  // of the k-way tables
	// Per k-way table, its cells and LeastSquaresVarianceShares: the noise of the tables fitted without weighing the
	// prior (the noisy tables alone); and the public sample's shares of its cells, the stand-in of its private
	// counts for the bias of the non-negativity (the public prior, whatever prior the run starts from).
	std::vector<NoiseGroup> fitted;
	std::vector<std::vector<double>> stand_in;
};

PublicTables
PublicTablesOf(const std::vector<std::int32_t> &radices, const std::vector<std::vector<int>> &sets,
               const std::vector<double> &prior, const std::vector<double> &stand_in, double n,
               std::int64_t public_rows)
{
	std::vector<std::vector<double>> one_way;
	for (std::size_t a = 0; a < radices.size(); a++)
		one_way.push_back(MarginalTable(radices, {int(a)}).Of(prior, CurrentInterruptCheck()));
	PublicTables result;
	const std::vector<double> shares = LeastSquaresVarianceShares(radices, sets);
	for (const std::vector<int> &set : sets) {
		const MarginalTable table(radices, set);
		result.fitted.push_back({double(table.size()), shares[result.fitted.size()], 0.0, 0.0});
		result.stand_in.push_back(table.Of(stand_in, CurrentInterruptCheck()));
		result.cells += table.size();
		const std::vector<double> shares = table.Of(prior, CurrentInterruptCheck());
		for (std::size_t t = 0; t < shares.size(); t++) {
			const double p = shares[t];
			if (public_rows > 0) {
				const double v = PublicVariance(p, n, public_rows);
				VarianceBucket &bucket = result.buckets[OctaveKey(v)];
				bucket.count += 1.0;
				bucket.smallest = std::min(bucket.smallest, v);
				bucket.largest = std::max(bucket.largest, v);
				if (set.size() == 1) {
					result.sampling_variance.push_back(v);
					result.table_cells.push_back(double(shares.size()));
				}
			}
			// The table cell's coordinates, last axis fastest (MarginalTable's order).
			std::size_t rest = t;
			for (std::size_t i = set.size(); i-- > 0;) {
				const std::size_t axis = std::size_t(set[i]), radix = std::size_t(radices[axis]);
				const double parent = one_way[axis][rest % radix];
				rest /= radix;
				if (parent > 0.0)
					result.largest_ratio = std::max(result.largest_ratio, std::min(1.0, p / parent));
			}
		}
	}
	return result;
}

// The k-way part of the prediction (counts): per cell the combination w Z + (1 - w) S of one noise draw Z and the
// public sample's sampling error S, w = v / (v + s2), of variance v s2 / (v + s2), taken as normal (the Laplace part
// of weight w has a heavier tail: docs/mechanisms.md §13 says what this leaves out); it grows with v, so each bucket
// of v is taken at its largest. A union bound over the k-way cells, bucket by bucket.
double
CombinedTablesError(const HistogramNoise &noise, const PublicTables &public_tables, double beta)
{
	if (public_tables.buckets.empty())
		return MaxErrorOverCover(noise, 1.0, public_tables.cells, beta);
	const double s2 = noise.Variance();
	std::vector<NoiseGroup> groups;
	for (const auto &[key, bucket] : public_tables.buckets)
		groups.push_back({bucket.count, 0.0, bucket.largest * s2 / (bucket.largest + s2), 0.0});
	return MaxErrorOverCells(noise, groups, beta);
}

// One table of k = 1 as OneWayTablesError's union bound reads it: the groups of its cells while the per-cell test flags
// none of them; the probability that it flags one; and two bounds on the table's errors on that event: groups of
// variables of which the errors are at most flagged_scale times the largest (each tail counted flagged_factor times),
// and groups of the noise with an offset.
struct OneWayTableBound {
	std::vector<NoiseGroup> kept, flagged, offset;
	double flag_probability = 0;
	double flagged_scale = 1;
	double flagged_factor = 1;
};

// The terms ChanceFlagProbability sums in one prediction, beyond which it takes Chernoff's bound instead (about a
// second of erfc calls at most, for tables of many cells at large noise).
constexpr double kFlagTermBudget = double(1 << 24);

// A bound on the probability that the per-cell test flags a cell of an unshifted sample: P[|Z + S| > tau] for Z one
// draw of the noise and S normal of variance v. The Gaussian's is exact (normal of variance s2 + v). For the discrete
// Laplace (P[Z = k] = (1 - q) / (1 + q) q^|k|, q = e^(-1/b)) the sum over k of P[Z = k] P[|k + S| > tau] for |k| <= K
// = tau + 12 sqrt(v) plus the mass P[|Z| > K] (there P[...] <= 1): Chernoff's bound on the sum is several times
// above it, where the test's threshold is a few standard deviations. The sum's K + 1 terms come out of `budget`;
// NoiseTail (Chernoff) once it would run out.
double
ChanceFlagProbability(const HistogramNoise &noise, double v, double tau, double &budget, std::uint64_t &steps)
{
	if (noise.gaussian)
		return std::erfc(tau / std::sqrt(2.0 * (noise.Variance() + v)));
	const double q = std::exp(-1.0 / noise.laplace.value());
	const double reach = std::ceil(tau + 12.0 * std::sqrt(v));
	if (!(reach + 1.0 <= budget))
		return NoiseTail(noise, 1.0, v, tau);
	budget -= reach + 1.0;
	const double spread = std::sqrt(2.0 * v);
	const auto crosses = [&](double k) {  // P[|k + S| > tau]
		if (spread == 0.0)
			return std::abs(k) > tau ? 1.0 : 0.0;
		return 0.5 * std::erfc((tau - k) / spread) + 0.5 * std::erfc((tau + k) / spread);
	};
	const double at = (1.0 - q) / (1.0 + q);  // P[Z = 0]; P[Z = k] = at q^|k|
	double sum = at * crosses(0.0), weight = at;
	for (double k = 1.0; k <= reach; k += 1.0) {
		PollInterrupt(steps);
		weight *= q;
		sum += 2.0 * weight * crosses(k);
	}
	sum += 2.0 * weight * q / (1.0 - q);  // P[|Z| > reach] = 2 at q^(reach + 1) / (1 - q)
	return std::min(1.0, sum * (1.0 + 1e-9));
}

// Adds a cell's (draws, normal variance) to a table's groups, one per quarter of an octave of each, at its largest.
void
AddToGroups(std::map<std::pair<int, int>, NoiseGroup> &groups, double draws, double normal_variance, double count)
{
	NoiseGroup &group = groups[{OctaveKey(draws), OctaveKey(normal_variance)}];
	group.count += count;
	group.draws = std::max(group.draws, draws);
	group.normal_variance = std::max(group.normal_variance, normal_variance);
}

std::vector<NoiseGroup>
GroupList(const std::map<std::pair<int, int>, NoiseGroup> &groups)
{
	std::vector<NoiseGroup> list;
	for (const auto &[key, group] : groups)
		list.push_back(group);
	return list;
}

// The part of k = 1 (counts), for a public sample of the private rows' population (docs/mechanisms.md §13). A table
// the per-cell test leaves alone has every target w y + (1 - w) n p, off by e = w Z - (1 - w) S (Z its noise, S the
// public sample's sampling error, of variance v; w = v / (v + s2)); the projection onto the tables of n rows subtracts
// the mean of its K cells' errors, so a cell is off by (1 - 1/K) e_i - sum over the others e_j / K: noise coefficients
// whose squares sum to at most (K - 1) / K w^2, and for K = 2 (S_0 = -S_1, equal weights) the sampling part (1 - w)
// S_i, bounded by the cell's (1 - w)^2 v; a table of two cells counts once, its cells being off by opposite amounts.
// The test flags a cell of an unshifted sample by chance with a probability the noise's tail bounds (the Laplace's is
// heavier than the normal quantile the test uses, so it is not negligible at small epsilon), and a flagged cell takes
// its noisy count, off by Z. On that event a cell's error is bounded two ways, and the smaller tail counts:
//   - every |e_j| is at most X_j = |Z_j| + (1 - w_j) |S_j|, so a cell is off by at most (1 - 1/K) X_i + sum over the
//     others X_j / K: for K = 2 at most (|Z_0| + |Z_1|) / 2 + (1 - w) |S|, whose tail is at most 4 times that of (Z_0 +
//     Z_1) / 2 + (1 - w) S (independent symmetric variables agree in sign with probability 1/4); for K > 2 at most
//     2 (1 - 1/K) max_j X_j, the tail of X_j at most twice that of Z_j + (1 - w_j) S_j;
//   - e_j = Z_j - (1 - w_j) d_j for a cell the test keeps (d_j = y_j - n p_j, |d_j| <= its threshold tau_j) and Z_j for
//     a flagged one, so a cell is off by the projected noise (coefficients' squares summing to (K - 1) / K) plus at
//     most (1 - 1/K) (1 - w_i) tau_i + sum over the others (1 - w_j) tau_j / K (for K = 2, one cell at most is kept:
//     (1 - w) tau / 2).
// A table counts P[no flag, error >= t] + min(P[a flag], P[a bound on the flag's errors >= t]); the smallest t whose
// sum over the tables is at most beta.
double
OneWayTablesError(const HistogramNoise &noise, const PublicTables &public_tables, double beta)
{
	if (public_tables.sampling_variance.empty())
		return MaxErrorOverCover(noise, 1.0, public_tables.cells, beta);
	const double s2 = noise.Variance();
	const double z = CellTestQuantile(beta / 2.0, public_tables.cells);  // the run's test (Fit)
	std::vector<OneWayTableBound> tables;
	double largest = 0.0;  // of the cells' standard deviations: the bracket's scale
	std::uint64_t steps = 0;
	double budget = kFlagTermBudget;
	std::map<double, double> flag_probabilities;  // per v: a table's cells often share it (v reads p (1 - p) only)
	for (std::size_t c = 0; c < public_tables.sampling_variance.size();) {
		const auto k = std::size_t(public_tables.table_cells[c]);
		OneWayTableBound table;
		std::map<std::pair<int, int>, NoiseGroup> kept, flagged;
		double offsets = 0.0, largest_offset = 0.0;  // sum and largest of (1 - w_j) tau_j over the table
		for (std::size_t i = c; i < c + k; i++) {
			PollInterrupt(steps);
			const double v = public_tables.sampling_variance.at(i), w = v / (v + s2), tau = z * std::sqrt(s2 + v);
			const double sampling = (1.0 - w) * (1.0 - w) * v;
			AddToGroups(kept, w * w * (double(k) - 1.0) / double(k), sampling, k == 2 ? 0.5 : 1.0);
			if (k != 2)
				AddToGroups(flagged, 1.0, sampling, 1.0);
			auto [known, added] = flag_probabilities.try_emplace(v, 0.0);
			if (added)
				known->second = ChanceFlagProbability(noise, v, tau, budget, steps);
			table.flag_probability += known->second;
			offsets += (1.0 - w) * tau;
			largest_offset = std::max(largest_offset, (1.0 - w) * tau);
			largest = std::max(largest, std::sqrt(s2 + v));
		}
		const double projected = (double(k) - 1.0) / double(k);
		if (k == 2) {
			const double v = public_tables.sampling_variance.at(c), w = v / (v + s2);
			table.flagged = {{1.0, 0.5, (1.0 - w) * (1.0 - w) * v, 0.0}};
			table.flagged_factor = 4.0;
			table.offset = {{1.0, projected, 0.0, largest_offset / 2.0}};
		} else {
			table.flagged = GroupList(flagged);
			table.flagged_scale = 2.0 * projected;
			table.flagged_factor = 2.0;
			// Each cell's offset at most (1 - 1/K) of the largest plus 1/K of the others: the sum / K plus (1 - 2/K)
			// of the largest.
			table.offset = {
			    {double(k), projected, 0.0, offsets / double(k) + (1.0 - 2.0 / double(k)) * largest_offset}};
		}
		table.kept = GroupList(kept);
		table.flag_probability = std::min(1.0, table.flag_probability);
		tables.push_back(std::move(table));
		c += k;
	}
	const auto failure = [&](double t) {
		double sum = 0.0;
		for (const OneWayTableBound &table : tables) {
			PollInterrupt(steps);
			for (const NoiseGroup &g : table.kept)
				sum += g.count * NoiseTail(noise, g.draws, g.normal_variance, t);
			double by_variables = 0.0, by_offset = 0.0;
			for (const NoiseGroup &g : table.flagged)
				by_variables += table.flagged_factor * g.count *
				                NoiseTail(noise, g.draws, g.normal_variance, t / table.flagged_scale);
			for (const NoiseGroup &g : table.offset)
				by_offset += g.count * NoiseTail(noise, g.draws, g.normal_variance, t - g.offset);
			sum += std::min({table.flag_probability, by_variables, by_offset});
		}
		return sum;
	};
	// Bracket: doubling from the largest cell's spread until the union bound holds (it falls to 0 as t grows).
	double low = 0.0, high = std::max(largest, 1.0);
	for (int i = 0; i < 200 && failure(high) > beta; i++)
		low = high, high *= 2.0;
	for (int i = 0; i < 60 && high - low > 1e-9 * high; i++) {
		const double middle = 0.5 * (low + high);
		(failure(middle) <= beta ? high : low) = middle;
	}
	return high;
}

// The part of the variant without the prior (counts): each table's cells off by the fitted noise
// (LeastSquaresVarianceShares) plus the non-negativity's bias, identity's on the table's stand-in cells (the fit over
// distributions clips a table's noisy counts as the projection onto the non-negative tables of n rows does;
// docs/mechanisms.md §13). A union bound over the cells, table by table.
double
FittedTablesError(const HistogramNoise &noise, const PublicTables &public_tables, double n, double beta)
{
	std::vector<NoiseGroup> groups = public_tables.fitted;
	for (std::size_t t = 0; t < groups.size(); t++)
		groups[t].offset = n * IdentityProjectionBiasOfAnyCell(public_tables.stand_in[t], std::int64_t(n), noise,
		                                                       CurrentInterruptCheck());
	return MaxErrorOverCells(noise, groups, beta);
}

// The predicted max error (fraction of n) of a plan whose noises are set: the tables the queries read (k = 1:
// OneWayTablesError; k > 1: CombinedTablesError); and, with a 1-way stage, what its noise leaves where it corrects
// a shifted public sample (its noisy tables alone, a union bound over their cells with the normal quantile, times
// the largest share of a k-way cell in its 1-way cell); the two added in quadrature (independent noises).
double
PredictedError(const MarginalTablesPlan &plan, const PublicTables &public_tables, std::size_t calibration_cells,
               double n, double beta)
{
	const double tables = plan.public_rows == 0 ? FittedTablesError(plan.tables, public_tables, n, beta)
	                      : plan.order > 1      ? CombinedTablesError(plan.tables, public_tables, beta)
	                                            : OneWayTablesError(plan.tables, public_tables, beta);
	const double calibration =
	    plan.calibrate
	        ? public_tables.largest_ratio * MaxErrorOverCover(plan.calibration.Variance(), calibration_cells, beta)
	        : 0.0;
	return std::min(1.0, std::hypot(tables, calibration) / n);
}

// The distribution of values over the cells they are given for, scaled to sum to 1 (every value > 0).
std::vector<double>
Normalized(std::vector<double> values)
{
	double total = 0;
	for (double v : values)
		total += v;
	for (double &v : values)
		v /= total;
	return values;
}

// What the candidates are planned on: the grid's radices, the prior the run starts from, the public distribution
// (the stand-in for the private one) and the public rows behind it; on the open subgrid when cells are closed, each
// distribution conditioned on the open cells as the run conditions its prior.
struct PlanningGrid {
	std::vector<std::int32_t> radices;
	std::vector<double> prior, stand_in;
	std::int64_t public_rows = 0;
};

PlanningGrid
PlanningGridOf(const PlanInput &input, const std::vector<std::int32_t> &radices,
               const std::vector<std::int64_t> &public_histogram, const std::vector<bool> *closed)
{
	PlanningGrid grid;
	// The prior the run starts from: the public one, or the uniform one (prior => 'uniform').
	grid.prior = input.uniform_prior ? UniformPrior(public_histogram.size()) : PublicPrior(public_histogram);
	grid.stand_in = PublicPrior(public_histogram);
	grid.public_rows = input.uniform_prior ? 0 : input.public_rows;
	grid.radices = radices;
	if (closed == nullptr || closed->empty())
		return grid;
	const OpenSubgrid open(radices, *closed);
	grid.radices = open.radices();
	grid.prior = Normalized(open.Restrict(grid.prior));
	grid.stand_in = Normalized(open.Restrict(grid.stand_in));
	// A public row in a closed cell (a public NULL where the private column is NOT NULL) is no private row's: the
	// public sample the prior stands on is its rows in the open cells.
	if (!input.uniform_prior) {
		grid.public_rows = 0;
		for (std::int64_t c : open.Restrict(public_histogram))
			grid.public_rows += c;
	}
	return grid;
}

}  // namespace

std::vector<MarginalTablesPlan>
MarginalTablesCandidates(const PlanInput &input, const std::vector<std::int32_t> &full_radices, int order,
                         const std::vector<std::int64_t> &public_histogram, const std::vector<bool> *closed)
{
	ValidatePlanInput(input);
	if (order < 1 || order > int(full_radices.size()) || public_histogram.size() != input.cells)
		throw Error(ErrorKind::Internal, "marginal tables: the order or the public histogram does not fit the grid");
	const PlanningGrid grid = PlanningGridOf(input, full_radices, public_histogram, closed);
	const std::vector<std::int32_t> &radices = grid.radices;
	const int axes = int(radices.size());
	const std::vector<std::vector<int>> sets = AttributeSets(axes, order);
	const std::size_t calibration_tables = order > 1 ? std::size_t(axes) : 0;
	std::size_t calibration_cells = 0;
	for (int a = 0; a < axes && order > 1; a++)
		calibration_cells += std::size_t(radices[std::size_t(a)]);

	MarginalTablesPlan base;
	base.order = order;
	base.axes = axes;
	base.public_rows = grid.public_rows;
	base.beta = input.beta;
	const double n = double(input.private_rows);
	const std::vector<double> &prior = grid.prior;
	// The variants (docs/mechanisms.md §13, "Choosing the variant"): the targets weigh the prior (for k > 1 after a
	// 1-way stage that corrects its marginals, at each share of kCalibrationShares), or they are the noisy tables
	// alone, at the whole budget, with no 1-way stage (there is no prior to correct) and a prediction that holds
	// whatever the public sample. With the uniform prior the targets never weigh it: the 1-way stage is kept as a
	// candidate there, as before the variant without it was.
	struct Variant {
		bool weighs_prior;
		double share;  // of the 1-way stage; 0 without it
	};
	std::vector<Variant> variants;
	for (double share : kCalibrationShares)
		if (order > 1 || share == kCalibrationShares[0])
			variants.push_back({true, order > 1 ? share : 0.0});
	variants.push_back({false, 0.0});
	const PublicTables public_tables = PublicTablesOf(radices, sets, prior, grid.stand_in, n, base.public_rows);
	// Every candidate (a variant; the Laplace, and with delta > 0 the discrete Gaussian) is planned from public
	// numbers only, and MarginalTablesVariantChoice takes one.
	const double rho = input.delta > 0.0 ? ZcdpBudget(input.epsilon, input.delta, input.rho) : 0.0;
	std::vector<MarginalTablesPlan> candidates;
	for (bool gaussian : {false, true}) {
		if (gaussian && input.delta == 0.0)
			continue;
		for (const Variant &variant : variants) {
			const std::optional<MarginalTablesPlan> candidate = UnlessLimitExceeded([&] {
				MarginalTablesPlan p = base;
				p.calibrate = variant.share > 0.0;
				p.calibration_share = variant.share;
				if (!variant.weighs_prior)
					p.public_rows = 0;
				p.tables = StageNoise(gaussian, sets.size(), 1.0 - p.calibration_share, input.epsilon, rho);
				if (p.calibrate)
					p.calibration = StageNoise(gaussian, calibration_tables, p.calibration_share, input.epsilon, rho);
				p.predicted_error = PredictedError(p, public_tables, calibration_cells, n, input.beta);
				return p;
			});
			if (candidate) {
				candidates.push_back(*candidate);
				candidates.back().used =
				    StagesUsed(*candidate, calibration_tables, sets.size(), input.epsilon, input.delta, rho);
			}
		}
	}
	return candidates;
}

MarginalTablesPlan
PlanMarginalTables(const PlanInput &input, const std::vector<std::int32_t> &radices, int order,
                   const std::vector<std::int64_t> &public_histogram, const std::vector<bool> *closed)
{
	const std::vector<MarginalTablesPlan> candidates =
	    MarginalTablesCandidates(input, radices, order, public_histogram, closed);
	if (candidates.empty())
		throw Error(ErrorKind::LimitExceeded, "noise for this epsilon is too large to sample exactly", {},
		            "Use a larger epsilon.");
	return candidates[MarginalTablesVariantChoice(candidates)];
}

std::size_t
MarginalTablesVariantChoice(const std::vector<MarginalTablesPlan> &candidates)
{
	if (candidates.empty())
		throw Error(ErrorKind::Internal, "marginal tables: no variant to choose from");
	// The variant without the prior holds whatever the public sample; a near tie goes to it over k-way tables.
	const SteadyChoice choice = *SteadyWithinNearTie(
	    candidates.size(), [&](std::size_t c) { return candidates[c].predicted_error; },
	    [](std::size_t) { return true; }, [&](std::size_t c) { return candidates[c].public_rows == 0; });
	return candidates[choice.smallest].order > 1 ? choice.chosen : choice.smallest;
}

namespace {

// One measured table: its noisy counts.
struct Measurement {
	MarginalTable table;
	std::vector<double> noisy;
};

std::vector<Measurement>
Measure(const std::vector<std::vector<int>> &sets, const std::vector<std::int32_t> &radices,
        const std::vector<std::int64_t> &histogram, const HistogramNoise &noise, RandomBitSource &rng,
        InterruptCheck interrupted)
{
	std::vector<Measurement> measured;
	measured.reserve(sets.size());
	std::uint64_t steps = 0;
	for (const std::vector<int> &set : sets) {
		Measurement m{MarginalTable(radices, set), {}};
		const std::vector<std::int64_t> counts = m.table.Counts(histogram, interrupted);
		m.noisy.resize(counts.size());
		// One draw per table cell, in order, whatever the counts: exact integers, then post-processing in double.
		for (std::size_t i = 0; i < counts.size(); i++) {
			CountSteps(interrupted, steps);
			std::int64_t y;
			if (__builtin_add_overflow(counts[i], noise.Sample(rng), &y))
				throw Error(ErrorKind::Internal, "a noisy marginal count overflows");
			m.noisy[i] = double(y);
		}
		measured.push_back(std::move(m));
	}
	return measured;
}

// How a stage tests the public prior against its noisy tables: the 1-way stage before k-way tables tests each table
// as a whole; the only stage of k = 1 tests each cell, the cells the queries read.
enum class ShiftTest { PerTable, PerCell };

// Iterative proportional fitting of the model to one target per table (fractions, each table's summing to 1),
// kFittingSweeps sweeps (fewer once every table is within a relative 1e-9 of its target), then normalised.
void
FitTargets(const std::vector<Measurement> &stage, const std::vector<std::vector<double>> &targets,
           std::vector<double> &model, InterruptCheck interrupted)
{
	for (int sweep = 0; sweep < kFittingSweeps; sweep++) {
		double largest_gap = 0.0;
		for (std::size_t t = 0; t < stage.size(); t++) {
			std::vector<double> factors = stage[t].table.Of(model, interrupted);
			for (std::size_t i = 0; i < factors.size(); i++) {
				const double current = factors[i];
				largest_gap = std::max(largest_gap, std::abs(current - targets[t][i]) / targets[t][i]);
				factors[i] = current > 0.0 ? targets[t][i] / current : 1.0;
			}
			stage[t].table.Scale(factors, model, interrupted);
		}
		if (largest_gap < 1e-9)
			break;
	}
	double sum = 0.0;
	for (double w : model)
		sum += w;
	for (double &w : model)
		w /= sum;
}

// Moves the model onto one stage's tables: targets from the model at the stage's start, then FitTargets.
void
Fit(const std::vector<Measurement> &stage, const HistogramNoise &noise, ShiftTest test, const MarginalTablesPlan &plan,
    double n, std::vector<double> &model, InterruptCheck interrupted)
{
	std::vector<std::vector<double>> targets;
	const double beta = plan.beta / double(std::max<std::size_t>(stage.size(), 1));
	std::size_t cells = 0;
	for (const Measurement &m : stage)
		cells += m.table.size();
	// The per-cell test at half of beta: the prediction's union bound takes the other half (OneWayTablesError).
	const double z = CellTestQuantile(plan.beta / 2.0, cells);
	for (const Measurement &m : stage) {
		const std::vector<double> shares = m.table.Of(model, interrupted);
		const std::vector<bool> trusted =
		    test == ShiftTest::PerCell
		        ? CellsOffThePrior(m.noisy, shares, n, plan.public_rows, noise.Variance(), z)
		        : std::vector<bool>(m.noisy.size(),
		                            PublicSampleShifted(m.noisy, shares, n, plan.public_rows, noise.Variance(), beta));
		targets.push_back(CombinedTargets(m.noisy, shares, n, plan.public_rows, noise.Variance(), trusted));
	}
	FitTargets(stage, targets, model, interrupted);
}

// The k-way stage: every table's combined estimate from the model at the stage's start, then one least-squares fit
// of the model to all of them. The fit starts from the model fitted (FitTargets) to each table's estimate projected
// onto the non-negative tables of n rows: mirror descent's multiplicative steps grow a cell the prior barely weighs
// (one the public sample never shows) by a small factor each, and from the prior itself its steps ran out far from
// such cells' counts (docs/mechanisms.md §13); the start changes where the fit begins, not what it minimises.
void
FitOverlapping(const std::vector<Measurement> &stage, const std::vector<std::int32_t> &radices,
               const MarginalTablesPlan &plan, double n, std::vector<double> &model, InterruptCheck interrupted)
{
	const MarginalTableSet tables(radices, AttributeSets(plan.axes, plan.order));
	const std::vector<std::vector<double>> shares = tables.Of(model, interrupted);
	std::vector<TableEstimate> estimates;
	std::vector<std::vector<double>> targets;
	for (std::size_t t = 0; t < stage.size(); t++) {
		estimates.push_back(CombinedEstimate(stage[t].noisy, shares[t], n, plan.public_rows, plan.tables.Variance()));
		targets.push_back(
		    CombinedTargets(stage[t].noisy, shares[t], n, plan.public_rows, plan.tables.Variance(), false));
	}
	FitTargets(stage, targets, model, interrupted);
	FitLeastSquares(tables, estimates, kLeastSquaresSteps, model, interrupted);
}

// RunMarginalTables on a grid whose histogram may sum to less than n (the open cells of a grid).
std::vector<double>
RunOnGrid(const std::vector<std::int64_t> &cell_histogram, const std::vector<std::int32_t> &radices, std::int64_t n,
          const std::vector<double> &prior, const MarginalTablesPlan &plan, RandomBitSource &rng,
          InterruptCheck interrupted)
{
	// Every table is measured before any is fitted: the noise is drawn in one fixed order for a seed.
	std::vector<Measurement> calibration;
	if (plan.calibrate)
		calibration = Measure(AttributeSets(plan.axes, 1), radices, cell_histogram, plan.calibration, rng, interrupted);
	const std::vector<Measurement> tables =
	    Measure(AttributeSets(plan.axes, plan.order), radices, cell_histogram, plan.tables, rng, interrupted);

	std::vector<double> model = prior;
	const double rows = double(n);
	if (plan.calibrate)
		Fit(calibration, plan.calibration, ShiftTest::PerTable, plan, rows, model, interrupted);
	if (plan.order == 1)
		Fit(tables, plan.tables, ShiftTest::PerCell, plan, rows, model, interrupted);  // 1-way tables share no axis
	else
		FitOverlapping(tables, radices, plan, rows, model, interrupted);
	return model;
}

}  // namespace

std::vector<double>
RunMarginalTables(const std::vector<std::int64_t> &cell_histogram, const std::vector<std::int32_t> &radices,
                  std::int64_t n, const std::vector<double> &prior, const MarginalTablesPlan &plan,
                  RandomBitSource &rng, InterruptCheck interrupted, const std::vector<bool> *closed)
{
	RequireHistogramOfRows(cell_histogram, n);
	if (int(radices.size()) != plan.axes || prior.size() != cell_histogram.size() ||
	    GridSizeOf(radices) != double(cell_histogram.size()) || (plan.calibrate && plan.order == 1))
		throw Error(ErrorKind::Internal, "marginal tables: the plan, the grid and the prior disagree");
	// The prior is positive on every open cell; a closed one may hold 0 (ConditionedOnOpenCells), never read.
	const bool masked = closed != nullptr && !closed->empty();
	if (masked && closed->size() != prior.size())
		throw Error(ErrorKind::Internal, "marginal tables: a closed-cell mask of another size");
	for (std::size_t i = 0; i < prior.size(); i++)
		if (!(prior[i] > 0.0) && !(masked && (*closed)[i] && prior[i] == 0.0))
			throw Error(ErrorKind::Internal, "prior weight must be positive in every open cell");
	if (closed == nullptr || closed->empty())
		return RunOnGrid(cell_histogram, radices, n, prior, plan, rng, interrupted);
	// Only the open cells are read: their histogram changes by at most what the whole one does when a row is
	// replaced, so every table keeps its sensitivity; a closed cell is released as 0 whatever it holds, and n
	// (public) stays the total the tables are fitted to.
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());  // OpenSubgrid polls
	const OpenSubgrid open(radices, *closed);
	return open.Embed(RunOnGrid(open.Restrict(cell_histogram), open.radices(), n, Normalized(open.Restrict(prior)),
	                            plan, rng, interrupted));
}

}  // namespace pap::core
