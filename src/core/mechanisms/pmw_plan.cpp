#include "core/mechanisms/pmw_plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/noise/discrete_gaussian.hpp"

namespace pap::core {

namespace {

struct Candidate {
	PmwParameters parameters;
	double e_threshold = 0, e_compare = 0;
	double predicted_error = INFINITY;  // what the planner ranks the candidates by (fraction)
	bool converges = false;
	bool beats_start = false;         // the updates are predicted to leave less than the start's error
	double updated_count = INFINITY;  // UpdatedCount, not capped at the start: breaks ties of capped predictions
};

// The (1-beta) quantile of the noise at a query's deciding comparison after the last pass: its own comparison
// noise (the largest of 2K draws, both directions) and the threshold's noise.
double
DecidingNoise(const PmwParameters &p, const PlanInput &in)
{
	return p.compare_noise.value() * std::log(2.0 * double(in.cover_size) / in.beta) +
	       p.threshold_noise.value() * std::log(1.0 / in.beta);
}

// What the updates of scheduled parameters leave of a start's error (counts): c updates leave start sqrt(2/c)
// (equal to tau exactly when c = 2 (start / tau)^2), never less than the threshold, plus the (1-beta) quantile of
// the noise at the deciding comparison (docs/mechanisms.md §5).
double
UpdatedCount(const PmwParameters &p, const PlanInput &in, double start_count)
{
	const double residual = start_count * std::min(1.0, std::sqrt(2.0 / double(p.cutoff)));
	return std::max(p.threshold, residual) + DecidingNoise(p, in);
}

// The predicted max error (fraction) from a start's error: what the updates leave, and never more than the start's
// error itself (a threshold above it makes no update at all).
double
PredictedFrom(const PmwParameters &p, const PlanInput &in, double start_count)
{
	return std::min(1.0, std::min(start_count, UpdatedCount(p, in, start_count)) / double(in.private_rows));
}

// The error model (docs/mechanisms.md §5): updates move an answer by half the threshold; an error curve of height
// start (counts) needs about 2 (start / tau)^2 of them (pins of a Brownian bridge, each worth half a step). Once
// they fit under the cut-off, the max error is tau plus the (1-beta) quantile of the noise at the deciding
// comparison. guard (counts) is added to the noise quantile in the threshold: 0 when PMW refines the prior, the
// prior's error bound when it guards it.
Candidate
Evaluate(PmwParameters p, const PlanInput &in, double start_count, double guard_count)
{
	Candidate c;
	SetPmwSchedule(p, in.cover_size, in.beta, in.private_rows, guard_count);
	const double tau = p.threshold;
	const double needed = 2.0 * (start_count / tau) * (start_count / tau);
	c.converges = double(p.cutoff) >= needed;
	c.updated_count = UpdatedCount(p, in, start_count);
	c.beats_start = c.updated_count < start_count;
	c.predicted_error = PredictedFrom(p, in, start_count);
	c.parameters = p;
	return c;
}

// The candidate of cut-off c with the lowest prediction, pure accounting and, when delta > 0, zCDP accounting
// (pure on ties). Throws LimitExceeded when the noise of pure accounting cannot be sampled exactly.
Candidate
BestAccounting(std::int64_t c, const PlanInput &in, double start_count, double guard_count)
{
	// Lyu et al.'s optimal split for Alg. 1: e_thr : e_cmp = 1 : (2c)^(2/3).
	double e_thr, e_cmp;
	PureSplit(c, in.epsilon, e_thr, e_cmp);
	Candidate chosen = Evaluate(PmwNoiseFor(SparseVectorAccounting::Pure, c, e_thr, e_cmp, in.epsilon, 0.0), in,
	                            start_count, guard_count);
	chosen.e_threshold = e_thr;
	chosen.e_compare = e_cmp;
	if (in.delta > 0.0) {
		// zCDP accounting is an alternative only: noise too large for it leaves pure accounting.
		try {
			Candidate zcdp = Evaluate(PmwNoiseFor(SparseVectorAccounting::Zcdp, c, 0, 0, in.epsilon, in.delta, in.rho),
			                          in, start_count, guard_count);
			if (zcdp.predicted_error < chosen.predicted_error)
				chosen = zcdp;
		} catch (const Error &e) {
			if (e.kind() != ErrorKind::LimitExceeded)
				throw;
		}
	}
	return chosen;
}

// The threshold grows with c and the updates needed shrink: the predicted error is lowest near the smallest
// cut-off whose updates fit. Every cut-off on a grid growing by 2% is tried; the lowest prediction wins. Where
// predictions tie at the start's error (no cut-off is predicted to lower it), the lowest count before that cap wins,
// so that the choice, and a guarding plan's prediction, still fall as epsilon and the rows grow; then the smaller
// cut-off.
Candidate
BestCutoff(const PlanInput &in, double start_count, double guard_count)
{
	Candidate best;
	const std::int64_t max_cutoff = std::int64_t(std::min(double(in.cover_size) * kPmwMaxPasses, 1.0e5));
	for (std::int64_t c = 1; c <= max_cutoff; c = std::max(c + 1, std::int64_t(double(c) * 1.02))) {
		Candidate chosen;
		try {
			chosen = BestAccounting(c, in, start_count, guard_count);
		} catch (const Error &e) {
			// Noise this large cannot be sampled exactly; larger cut-offs only need more. Refuse only when
			// not even c = 1 fits (an epsilon far too small).
			if (e.kind() != ErrorKind::LimitExceeded || c == 1)
				throw;
			break;
		}
		if (chosen.predicted_error < best.predicted_error ||
		    (chosen.predicted_error == best.predicted_error && chosen.updated_count < best.updated_count))
			best = chosen;
	}
	return best;
}

}  // namespace

double
LaplaceEpsilon(double sensitivity, const RationalScale &scale)
{
	const long double e = (long double)sensitivity * (long double)scale.denominator / (long double)scale.numerator;
	return double(e * (1.0L + (long double)kReportMargin));
}

double
ReportedZcdpDelta(double rho, double epsilon, double delta)
{
	return std::min(delta, ZcdpDelta(rho, epsilon * (1.0 - kReportMargin)) * (1.0 + kReportMargin));
}

double
ZcdpBudget(double epsilon, double delta, double zcdp_budget)
{
	return zcdp_budget > 0 ? zcdp_budget : LargestZcdpRho(epsilon, delta);
}

void
PureSplit(std::int64_t cutoff, double epsilon, double &e_thr, double &e_cmp)
{
	e_thr = epsilon / (1.0 + std::pow(2.0 * double(cutoff), 2.0 / 3.0));
	e_cmp = epsilon - e_thr;
	// The exact sum of the two doubles (Knuth's TwoSum: s + err) must not exceed epsilon.
	for (;;) {
		const double s = e_thr + e_cmp, bb = s - e_thr;
		const double err = (e_thr - (s - bb)) + (e_cmp - bb);
		if (s < epsilon || (s == epsilon && err <= 0.0))
			return;
		e_cmp = std::nextafter(e_cmp, 0.0);
	}
}

PmwParameters
PmwNoiseFor(SparseVectorAccounting accounting, std::int64_t cutoff, double e_thr, double e_cmp, double epsilon,
            double delta, double zcdp_budget)
{
	PmwParameters p;
	p.accounting = accounting;
	p.cutoff = cutoff;
	p.max_passes = kPmwMaxPasses;
	p.first_pass_factor = kPmwFirstPassFactor;
	const double c = double(cutoff);
	if (accounting == SparseVectorAccounting::Pure) {
		// Lyu, Su & Li 2017, Alg. 1: threshold Lap(1/e_thr) once, comparisons Lap(2c/e_cmp) (difference
		// queries are not monotonic); epsilon-DP with epsilon = e_thr + e_cmp, for adaptively chosen queries.
		p.threshold_noise = ScaleAtLeast(1.0 / e_thr);
		p.compare_noise = ScaleAtLeast(2.0 * c / e_cmp);
		p.resample_threshold = false;
	} else {
		// c AboveThreshold instances (Dwork & Roth's Sparse: threshold Lap(2/eps0) redrawn after every update,
		// comparisons Lap(4/eps0)), each eps0-DP, so eps0^2/2-zCDP (Bun & Steinke 2016, Prop. 1.4); c of them
		// compose to c eps0^2 / 2 = rho, the zCDP budget of (epsilon, delta) under the tight conversion.
		const double eps0 = std::sqrt(2.0 * ZcdpBudget(epsilon, delta, zcdp_budget) / c);
		p.threshold_noise = ScaleAtLeast(2.0 / eps0);
		p.compare_noise = ScaleAtLeast(4.0 / eps0);
		p.resample_threshold = true;
	}
	return p;
}

PrivacyUsed
PmwPrivacyUsed(const PmwParameters &p, double epsilon, double delta, double *rho_out)
{
	PrivacyUsed used;
	const double c = double(p.cutoff);
	if (p.accounting == SparseVectorAccounting::Pure) {
		used.epsilon = LaplaceEpsilon(1.0, p.threshold_noise) + LaplaceEpsilon(2.0 * c, p.compare_noise);
		used.epsilon *= 1.0 + 1e-15;  // the sum's rounding (the terms carry kReportMargin)
		used.accounting = "pure (Lyu-Su-Li sparse vector)";
		if (rho_out)
			*rho_out = 0;
		return used;
	}
	const double eps0 = (LaplaceEpsilon(1.0, p.threshold_noise) + LaplaceEpsilon(2.0, p.compare_noise)) * (1.0 + 1e-15);
	const double rho = c * eps0 * eps0 / 2.0 * (1.0 + 1e-15);
	used.epsilon = epsilon;
	used.delta = ReportedZcdpDelta(rho, epsilon, delta);
	used.accounting = "zCDP sparse vector (tight conversion)";
	used.rho = rho;
	if (rho_out)
		*rho_out = rho;
	return used;
}

void
SetPmwSchedule(PmwParameters &p, std::size_t cover_size, double beta, std::int64_t rows, double guard_count)
{
	// The schedule's passes enter the threshold's union bound, and the threshold sets how many halvings the first
	// pass needs: a first threshold from the shortest schedule, then the schedule it asks for. A longer schedule
	// only raises the threshold, which needs no more halvings, so the union covers every pass the run can make.
	const double first = kUninformedPriorError * double(rows);
	p.max_passes = kPmwMaxPasses;
	p.first_pass_factor = kPmwFirstPassFactor;
	for (int round = 0; round < 2; round++) {
		p.threshold = PmwThreshold(p, cover_size, beta) + guard_count;
		p.first_pass_factor = std::max(kPmwFirstPassFactor, first / p.threshold);
		if (round == 0)
			p.max_passes = kPmwFinalPasses + int(std::ceil(std::log2(p.first_pass_factor)));
	}
}

double
PmwThreshold(const PmwParameters &p, std::size_t cover_size, double beta)
{
	const double comparisons = 2.0 * double(cover_size) * double(p.max_passes);
	const double threshold_draws = p.resample_threshold ? double(p.cutoff) + 1.0 : 1.0;
	return p.compare_noise.value() * std::log(comparisons / beta) +
	       p.threshold_noise.value() * std::log(threshold_draws / beta);
}

double
PmwConvergedError(const PmwParameters &p, std::size_t cover_size, double beta, std::int64_t rows)
{
	if (rows <= 0)
		return 1.0;
	return std::min(1.0, (p.threshold + PmwThreshold(p, cover_size, beta) + 1.0) / double(rows));
}

double
PublicOnlyBound(const PlanInput &in)
{
	// The public rows in the open cells (PlanInput::prior_public_rows). With none, the conditioned public prior is the
	// uniform one over the open cells (the pseudo-row alone), and is taken as the uniform prior is (PriorError).
	if (in.PriorPublicRows() <= 0)
		return kUninformedPriorError;
	return PriorSamplingError(in.PriorPublicRows(), in.private_rows, in.cover_size, in.cdf_count,
	                          DataPartBeta(in.RequestBeta()));
}

double
PublicOnlyError(const PlanInput &in)
{
	// The public sample's own estimate, where there is one: never above the bound (docs/mechanisms.md §10 (d)).
	const double bound = PublicOnlyBound(in);
	return in.prior_sampling_estimate >= 0.0 ? std::min(bound, in.prior_sampling_estimate) : bound;
}

double
PriorError(const PlanInput &in)
{
	// A uniform start knows nothing: assume the error of a fair coin's guess, 1/2, rather than anything measured.
	return in.uniform_prior ? kUninformedPriorError : PublicOnlyError(in);
}

PmwPlan
PlanPmw(const PlanInput &in)
{
	ValidatePlanInput(in);
	PmwPlan plan;
	plan.public_only_error = PublicOnlyError(in);
	plan.prior_error = PriorError(in);
	const double n = double(in.private_rows);
	// The parameters are sized for the prior's error bound, which holds for every population (the union bound, or
	// 1/2 for the uniform prior); the prediction takes the public sample's estimate where it is smaller. A cut-off
	// sized for an estimate would leave a sample off by more than its estimate without the updates to correct it
	// (docs/mechanisms.md §5, "The prior's error").
	const double bound_count = (in.uniform_prior ? kUninformedPriorError : PublicOnlyBound(in)) * n;

	// Refine: the threshold is the noise quantile alone, and the cut-off is sized for the prior's error; the
	// updates bring the answers from e0 down to about the threshold plus the noise (docs/mechanisms.md §5).
	Candidate best = BestCutoff(in, bound_count, 0.0);
	plan.noise_beta = in.beta;
	plan.guards_prior = !best.beats_start;
	if (plan.guards_prior) {
		// Guard: no refinement beats the prior's own error, so an update is worth making only where the prior is
		// off by more than its sampling error can explain. The threshold adds the bound to the noise quantile: a
		// public sample within it makes no update w.p. 1 - beta and keeps its answers (error e0). What the cut-off
		// serves is a shifted sample, off by an amount no public number shows: it is sized for a start that knows
		// nothing (PriorError's 1/2 for the uniform prior), which costs the good sample nothing, its threshold only
		// gating. The prediction is the larger of the good sample's e0 and what the search minimised, what the updates
		// leave of that start: no public number tells a good sample from a shifted one, and the threshold hides any
		// shift below it (docs/mechanisms.md §5, "Predicted error").
		best = BestCutoff(in, std::max(bound_count, kUninformedPriorError * n), bound_count);
		best.predicted_error = std::max(plan.prior_error, best.predicted_error);
	} else {
		// Never above e0' itself (counts and back may differ in the last bit).
		best.predicted_error = std::min(plan.prior_error, PredictedFrom(best.parameters, in, plan.prior_error * n));
	}
	plan.parameters = best.parameters;
	plan.epsilon_threshold = best.e_threshold;
	plan.epsilon_compare = best.e_compare;
	plan.predicted_error = best.predicted_error;
	plan.converges = best.converges;
	plan.used = PmwPrivacyUsed(plan.parameters, in.epsilon, in.delta, &plan.rho);

	const double lnN = std::log(std::max<double>(2.0, double(in.cells)));
	const double lnK = std::log(std::max<double>(1.0, double(in.cover_size)));
	const double beta = in.RequestBeta(), a2 = in.alpha / 2.0, b2 = beta / 2.0;
	if (in.delta > 0.0)
		plan.book_private_rows = 200.0 * std::sqrt(lnN * std::log(2.0 / in.delta)) *
		                         (lnK + std::log(128.0 * lnN / (a2 * a2 * b2))) / (in.epsilon * a2 * a2);
	else
		plan.book_private_rows =
		    32.0 * lnN * (lnK + std::log(32.0 * lnN / (a2 * a2 * b2))) / (in.epsilon * a2 * a2 * a2);
	plan.book_public_rows = (double(in.vc_dimension) * std::log(1.0 / in.alpha) + std::log(1.0 / beta)) / in.alpha;
	plan.book_cutoff = 4.0 * lnN / (a2 * a2);
	return plan;
}

}  // namespace pap::core
