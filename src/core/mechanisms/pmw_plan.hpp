// Chooses PMW's cut-off, threshold and privacy split from public information only, and predicts its error
// (docs/mechanisms.md, "Choosing the parameters"). Privacy holds for every choice; only accuracy depends on it.
// Also computes what the source papers require, so that `pap.plan` can show the book's guarantee beside ours.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/pmw.hpp"

namespace pap::core {

// The ledger stores amounts as numeric with 15 significant digits (a relative error up to 5e-15 either way):
// what a plan reports is rounded up by a relative 1e-13, so that the stored amount never falls below what the
// noise spends. Far below the 1e-12 margin of the scales, so a reported epsilon stays within the request.
constexpr double kReportMargin = 1e-13;

// sensitivity / b for the rational scale b = numerator / denominator, rounded up (long double, then
// kReportMargin): the epsilon a discrete Laplace of that scale spends on a query of that sensitivity.
double LaplaceEpsilon(double sensitivity, const RationalScale &scale);

// The delta reported for a rho-zCDP mechanism charged (epsilon, delta), rho within LargestZcdpRho(epsilon,
// delta): ZcdpDelta at epsilon (1 - kReportMargin) (so it holds for any epsilon the ledger may store), rounded
// up by kReportMargin; delta itself where that would exceed delta (delta is valid too: rho is within its
// budget, and the true delta grows with rho).
double ReportedZcdpDelta(double rho, double epsilon, double delta);

// The rho a zCDP variant is calibrated to: zcdp_budget when > 0 (a run on a zCDP budget, PlanInput::rho), else the
// tight conversion's budget of (epsilon, delta), LargestZcdpRho.
double ZcdpBudget(double epsilon, double delta, double zcdp_budget);

struct PmwPlan {
	PmwParameters parameters;
	double epsilon_threshold = 0, epsilon_compare = 0;  // the split of epsilon (pure accounting; 0 for zCDP)
	double rho = 0;                                     // zCDP: c eps0^2 / 2 of the scales drawn (0 for pure)
	PrivacyUsed used;                                   // PmwPrivacyUsed of the parameters
	// Predicted max error over the cover queries, fraction of n, w.p. 1 - beta; when PMW guards the prior, also of a
	// shifted public sample (docs/mechanisms.md §5, "Predicted error").
	double predicted_error = 0;
	double public_only_error = 0;  // PublicOnlyError: the public table's answers on the cover, fraction
	double prior_error = 0;        // PriorError: the error the planner assumes for MW's starting point, fraction
	bool converges = false;        // the cut-off allows the updates the error model needs
	// How the threshold treats the prior (docs/mechanisms.md §5, "Refine or guard"): false, PMW refines it
	// (threshold: the noise quantile; cut-off: for the prior's error bound, PublicOnlyBound); true, no refinement is
	// predicted to beat that bound, and PMW guards the prior (threshold: the noise quantile plus the bound, so that a
	// public sample within it makes no update, whatever its population; cut-off: for a start that knows nothing, to
	// correct a shifted sample). The prediction starts from prior_error, the public sample's estimate where lower.
	bool guards_prior = false;
	double noise_beta = 0;  // the beta the noise was planned at (PlanInput::beta), for PmwConvergedError
	// The book's guarantee (docs/mechanisms.md §5): what Algorithm 3 needs for error alpha w.p. 1-beta.
	double book_private_rows = 0;  // Lemma 7 with (alpha/2, beta/2); Dwork-Roth Thm 4.14 when delta = 0
	double book_public_rows = 0;   // Lemma 11 with its hidden constant taken as 1
	double book_cutoff = 0;        // c = 4 ln|X~| / (alpha/2)^2
};

// How far the public table's answers to the cover queries may be from the private table's (fraction), both tables
// samples of one population, at confidence 1 - beta / 6 of the request (error_model.hpp, PriorSamplingError).
// The public sample's estimate (PlanInput::prior_sampling_estimate) where it is below PublicOnlyBound.
double PublicOnlyError(const PlanInput &input);
// The same at every population: PriorSamplingError's union bound (or DKW). PMW sizes its parameters for it.
double PublicOnlyBound(const PlanInput &input);
// The error the MW planners (PlanPmw, PlanMwem) predict with (fraction): PublicOnlyError for the public prior, 1/2 for
// the uniform one. Their threshold, cut-off and rounds are sized for PublicOnlyBound (1/2 for the uniform prior). A
// public sample shifted from the private table's population is not visible in public information: the run's updates
// correct a shift as far as its cut-off allows, and a guarding plan's prediction covers it (docs/mechanisms.md §10).
double PriorError(const PlanInput &input);
// The error assumed for a start that knows nothing (a fair coin's guess): the uniform prior's PriorError, and the
// start a guarding PMW sizes its cut-off for (no public number shows how far a shifted sample is off).
constexpr double kUninformedPriorError = 0.5;

// Validates the input (ValidatePlanInput) and returns the plan.
PmwPlan PlanPmw(const PlanInput &input);

// Noise scales (in counts) for a cut-off and split. Pure: e_threshold + e_compare <= epsilon (PureSplit).
// Zcdp: every AboveThreshold instance at eps0 = sqrt(2 rho / c), rho = LargestZcdpRho(epsilon, delta) (or
// zcdp_budget when > 0: a run on a zCDP budget), split evenly (Dwork & Roth's Lap(2/eps0) threshold, Lap(4/eps0)
// comparisons); e_threshold and e_compare are ignored.
PmwParameters PmwNoiseFor(SparseVectorAccounting accounting, std::int64_t cutoff, double e_threshold, double e_compare,
                          double epsilon, double delta, double zcdp_budget = 0);

// Lyu et al.'s split of epsilon for cut-off c, e_threshold : e_compare = 1 : (2c)^(2/3), with e_compare lowered
// by an ulp where the double sum would exceed epsilon: e_threshold + e_compare <= epsilon exactly.
void PureSplit(std::int64_t cutoff, double epsilon, double &e_threshold, double &e_compare);

// What parameters from PmwNoiseFor spend: Pure: epsilon 1/b_thr + 2c/b_cmp (delta 0). Zcdp: rho = c eps0^2 / 2
// with eps0 = 1/b_thr + 2/b_cmp, reported as (epsilon, min(delta, ZcdpDelta(rho, epsilon))). rho is set to it (0
// for Pure) when not null.
PrivacyUsed PmwPrivacyUsed(const PmwParameters &parameters, double epsilon, double delta, double *rho = nullptr);

// The threshold (counts) that a query whose synthetic answer is exact crosses with probability at most beta
// over all comparisons of parameters.max_passes passes: the (1-beta) quantile of the comparison and threshold
// noise (docs/mechanisms.md).
double PmwThreshold(const PmwParameters &noise, std::size_t cover_size, double beta);

// The largest error (fraction of n rows) of any cover query after a run that converged (PmwResult::converged), with
// probability 1 - beta over the noise, whatever the prior: in the pass that made no update, each query's true and
// synthetic counts differed by less than the threshold plus its noise at that comparison and the threshold's, and
// every such noise is within its (1 - beta) quantile over all comparisons of the run (PmwThreshold), plus the
// count the integer comparison rounds up (docs/mechanisms.md §18). At most 1.
double PmwConvergedError(const PmwParameters &parameters, std::size_t cover_size, double beta, std::int64_t rows);

// The shortest schedule of passes (4T, 2T, then T; the accuracy analysis pays log(passes)), and the passes at the
// final threshold T any schedule ends with.
constexpr int kPmwMaxPasses = 8;
constexpr double kPmwFirstPassFactor = 4.0;
constexpr int kPmwFinalPasses = 6;

// The coarse-to-fine schedule (docs/mechanisms.md §5): threshold = the noise quantile of the schedule's comparisons
// plus guard_count (counts), the first pass at the largest error a start may have (rows / 2, never below
// kPmwFirstPassFactor times the threshold), halved every pass down to the threshold, then kPmwFinalPasses passes
// at it. Sets threshold, first_pass_factor and max_passes; public.
void SetPmwSchedule(PmwParameters &parameters, std::size_t cover_size, double beta, std::int64_t rows,
                    double guard_count);

}  // namespace pap::core

#include "core/base/core_only.hpp"
