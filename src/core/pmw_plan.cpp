#include "core/pmw_plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/interval_cover.hpp"

namespace pap::core {

namespace {

void
Require(bool ok, const std::string &message, const std::string &hint = {})
{
	if (!ok)
		throw Error(ErrorKind::InvalidParameter, message, {}, hint);
}

struct Prediction {
	double error;        // max of the three terms below
	double noise_error;  // 2 tau: the worst lazy answer once converged
	double residual;     // what c updates leave of the prior's error
};

// Predicted max error over the cover, in fractions, for given noise (reference: docs/mechanisms.md).
// Every term is a (1 - beta) quantile: the union bound over the k comparison draws, the threshold draws
// and the c measurements.
Prediction
Predict(const PmwParameters &p, const PmwPlanInput &in, double public_only_error)
{
	const double n = double(in.private_rows);
	const double comparisons = 2.0 * double(in.cover_size) * double(kPmwMaxPasses);
	const double threshold_draws = p.resample_threshold ? double(p.cutoff) + 1.0 : 1.0;
	const double e_cmp = p.compare_noise.value() * std::log(comparisons / in.beta);
	const double e_thr = p.threshold_noise.value() * std::log(threshold_draws / in.beta);
	const double e_val = p.measure_noise.value() * std::log(std::max(1.0, double(p.cutoff)) / in.beta);
	const double tau = e_cmp + e_thr;
	Prediction out;
	out.noise_error = std::max(2.0 * tau, e_val) / n;
	// Each update pins one cover query to its measured value; pinning c well-spread points of an error
	// curve of height e0 leaves about e0 / sqrt(c) between them (a Brownian bridge between pins).
	out.residual = public_only_error / std::sqrt(double(p.cutoff));
	out.error = std::max(out.noise_error, out.residual);
	return out;
}

}  // namespace

PmwParameters
PmwNoiseFor(SparseVectorAccounting accounting, std::int64_t cutoff, double e_thr, double e_cmp, double e_val,
            double epsilon, double delta)
{
	PmwParameters p;
	p.accounting = accounting;
	p.cutoff = cutoff;
	p.max_passes = kPmwMaxPasses;
	const double c = double(cutoff);
	if (accounting == SparseVectorAccounting::Pure) {
		// Lyu, Su & Li 2017, Alg. 1: threshold Lap(1/e_thr) once, comparisons Lap(2c/e_cmp) (difference
		// queries are not monotonic); c measurements Lap(c/e_val) compose to e_val. Total e_thr+e_cmp+e_val.
		p.threshold_noise = ScaleAtLeast(1.0 / e_thr);
		p.compare_noise = ScaleAtLeast(2.0 * c / e_cmp);
		p.measure_noise = ScaleAtLeast(c / e_val);
		p.resample_threshold = false;
	} else {
		// Dwork & Roth 2014, NumericSparse (Alg. 3, Thm 3.27) with delta > 0.
		const double root512 = std::sqrt(512.0);
		const double e1 = epsilon * root512 / (root512 + 1.0);
		const double e2 = epsilon * 2.0 / (root512 + 1.0);
		const double sigma_numerator = std::sqrt(32.0 * c * std::log(2.0 / delta));
		p.threshold_noise = ScaleAtLeast(sigma_numerator / e1);
		p.compare_noise = ScaleAtLeast(2.0 * sigma_numerator / e1);
		p.measure_noise = ScaleAtLeast(sigma_numerator / e2);
		p.resample_threshold = true;
	}
	return p;
}

PmwPlan
PlanPmw(const PmwPlanInput &in)
{
	Require(std::isfinite(in.epsilon) && in.epsilon > 0.0,
	        "epsilon must be finite and positive, got " + FormatFloat8(in.epsilon));
	Require(std::isfinite(in.delta) && in.delta >= 0.0 && in.delta < 1.0,
	        "delta must be in [0, 1), got " + FormatFloat8(in.delta));
	Require(std::isfinite(in.alpha) && in.alpha > 0.0 && in.alpha < 1.0,
	        "alpha must be in (0, 1), got " + FormatFloat8(in.alpha));
	Require(std::isfinite(in.beta) && in.beta > 0.0 && in.beta < 1.0,
	        "beta must be in (0, 1), got " + FormatFloat8(in.beta));
	if (in.private_rows <= 0)
		throw Error(ErrorKind::DataException, "private table has no rows",
		            "A release needs at least one private row.");
	if (in.public_rows <= 0 || in.cover_size == 0 || in.cells == 0)
		throw Error(ErrorKind::DataException, "public table has no usable rows");

	PmwPlan plan;
	// Dvoretzky-Kiefer-Wolfowitz (Massart's constant): the public sample's CDF is within this of the
	// population's w.p. 1 - beta; an interval is a difference of two CDF values.
	plan.public_only_error = std::sqrt(std::log(2.0 / in.beta) / (2.0 * double(in.public_rows))) *
	                         (in.vc_dimension == 1 ? 1.0 : 2.0);

	const double max_cutoff = std::min(double(in.cover_size) * kPmwMaxPasses, 1.0e5);
	std::vector<std::int64_t> candidates;
	for (double c = 1; c <= max_cutoff; c = std::max(c + 1.0, std::floor(c * 1.05)))
		candidates.push_back(std::int64_t(c));

	double best = INFINITY;
	for (std::int64_t c : candidates) {
		// Pure accounting: the share of epsilon for measurements is searched on a grid; the rest is split
		// between threshold and comparisons as 1 : (2c)^(2/3), Lyu et al.'s optimum for Alg. 1.
		for (double measure_share = 0.05; measure_share < 0.51; measure_share += 0.05) {
			const double e_val = in.epsilon * measure_share;
			const double ratio = std::pow(2.0 * double(c), 2.0 / 3.0);
			const double e_thr = (in.epsilon - e_val) / (1.0 + ratio);
			const double e_cmp = in.epsilon - e_val - e_thr;
			PmwParameters p = PmwNoiseFor(SparseVectorAccounting::Pure, c, e_thr, e_cmp, e_val, in.epsilon, 0.0);
			const Prediction pred = Predict(p, in, plan.public_only_error);
			if (pred.error < best) {
				best = pred.error;
				plan.parameters = p;
				plan.epsilon_threshold = e_thr;
				plan.epsilon_compare = e_cmp;
				plan.epsilon_measure = e_val;
				plan.predicted_error = pred.error;
				plan.predicted_noise_error = pred.noise_error;
			}
		}
		if (in.delta > 0.0) {
			PmwParameters p = PmwNoiseFor(SparseVectorAccounting::Approximate, c, 0, 0, 0, in.epsilon, in.delta);
			const Prediction pred = Predict(p, in, plan.public_only_error);
			if (pred.error < best) {
				best = pred.error;
				plan.parameters = p;
				plan.epsilon_threshold = plan.epsilon_compare = plan.epsilon_measure = 0.0;
				plan.predicted_error = pred.error;
				plan.predicted_noise_error = pred.noise_error;
			}
		}
	}
	// tau: the (1 - beta) quantile of the comparison and threshold noise, so that a query whose synthetic
	// answer is already right triggers an update only with probability beta.
	{
		const PmwParameters &p = plan.parameters;
		const double comparisons = 2.0 * double(in.cover_size) * double(kPmwMaxPasses);
		const double threshold_draws = p.resample_threshold ? double(p.cutoff) + 1.0 : 1.0;
		plan.parameters.threshold = p.compare_noise.value() * std::log(comparisons / in.beta) +
		                            p.threshold_noise.value() * std::log(threshold_draws / in.beta);
	}

	const double lnN = std::log(std::max<double>(2.0, double(in.cells)));
	const double lnK = std::log(std::max<double>(1.0, double(in.cover_size)));
	const double a2 = in.alpha / 2.0, b2 = in.beta / 2.0;
	if (in.delta > 0.0)
		plan.book_private_rows = 200.0 * std::sqrt(lnN * std::log(2.0 / in.delta)) *
		                         (lnK + std::log(128.0 * lnN / (a2 * a2 * b2))) / (in.epsilon * a2 * a2);
	else
		plan.book_private_rows =
		    32.0 * lnN * (lnK + std::log(32.0 * lnN / (a2 * a2 * b2))) / (in.epsilon * a2 * a2 * a2);
	plan.book_public_rows =
	    (double(in.vc_dimension) * std::log(1.0 / in.alpha) + std::log(1.0 / in.beta)) / in.alpha;
	plan.book_cutoff = 4.0 * lnN / (a2 * a2);
	return plan;
}

}  // namespace pap::core
