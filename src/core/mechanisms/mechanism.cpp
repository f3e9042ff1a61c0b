#include "core/mechanisms/mechanism.hpp"

#include <cmath>
#include <string>

#include "core/base/errors.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

void
Require(bool ok, const std::string &message)
{
	if (!ok)
		throw Error(ErrorKind::InvalidParameter, message);
}

}  // namespace

void
ValidatePrivacyParameters(double epsilon, double delta)
{
	Require(std::isfinite(epsilon) && epsilon > 0.0,
	        "epsilon must be finite and positive, got " + FormatFloat8(epsilon));
	if (!(epsilon >= kMinEpsilon))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be at least 1e-09, got " + FormatFloat8(epsilon),
		            "Below it the sparse vector's noise exceeds the largest scale the exact sampler represents "
		            "(about 4.29e9).");
	if (!(epsilon <= kMaxEpsilon))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be at most 1e+300, got " + FormatFloat8(epsilon),
		            "Above it the planners' products of epsilon leave the range of a double.");
	Require(std::isfinite(delta) && delta >= 0.0 && delta < 1.0, "delta must be in [0, 1), got " + FormatFloat8(delta));
	if (delta > 0.0 && !(delta >= kMinDelta))
		throw Error(ErrorKind::InvalidParameter, "delta must be 0 or at least 1e-300, got " + FormatFloat8(delta),
		            "Below it ln(1/delta) is not a finite double.");
}

void
RequireSpendWithinRequest(const PrivacyUsed &used, double epsilon, double allowed_rho)
{
	constexpr double kLastBits = 1e-9;
	if (used.rho == 0.0 && !(used.epsilon <= epsilon * (1 + kLastBits) && used.delta == 0.0))
		throw Error(ErrorKind::Internal, "the chosen plan spends epsilon " + FormatFloat8(used.epsilon) +
		                                     " and delta " + FormatFloat8(used.delta) +
		                                     ", above its request's epsilon " + FormatFloat8(epsilon) +
		                                     " and no delta");
	if (used.rho != 0.0 && !(used.rho <= allowed_rho * (1 + kLastBits)))
		throw Error(ErrorKind::Internal, "the chosen plan spends rho " + FormatFloat8(used.rho) + ", above the rho " +
		                                     FormatFloat8(allowed_rho) + " its request allows");
}

void
ValidateAccuracyParameters(double alpha, double beta)
{
	Require(std::isfinite(alpha) && alpha > 0.0 && alpha < 1.0, "alpha must be in (0, 1), got " + FormatFloat8(alpha));
	ValidateBeta(beta);
}

void
ValidateBeta(double beta)
{
	Require(std::isfinite(beta) && beta > 0.0 && beta < 1.0, "beta must be in (0, 1), got " + FormatFloat8(beta));
	if (!(beta >= kMinBeta))
		throw Error(
		    ErrorKind::InvalidParameter, "beta must be at least 1e-100, got " + FormatFloat8(beta),
		    "The planners and guard rails divide by beta and take its logarithm and normal quantiles; below 1e-100 "
		    "they leave the range of a double.");
}

void
ValidatePlanInput(const PlanInput &in)
{
	ValidatePrivacyParameters(in.epsilon, in.delta);
	ValidateAccuracyParameters(in.alpha, in.beta);
	if (in.private_rows <= 0)
		throw Error(ErrorKind::DataException, "private table has no rows", "A release needs at least one private row.");
	if (in.public_rows <= 0 || in.cover_size == 0 || in.cells == 0)
		throw Error(ErrorKind::DataException, "public table has no usable rows");
}

MechanismPlan
NotApplicable(const char *reason)
{
	MechanismPlan plan;
	plan.applies = false;
	plan.reason = reason;
	return plan;
}

void
SetErrorParts(MechanismPlan &plan, const PlanContext &context, double noise, double prior_error,
              bool fits_cover_answers)
{
	plan.answers_from_cells = context.cells_answerable && !fits_cover_answers;
	plan.parts.projection = plan.answers_from_cells ? context.own_cells_error : context.projection_error;
	plan.parts.outside_mass = fits_cover_answers ? 0.0 : context.outside_mass_error;
	plan.parts.noise = noise;
	plan.parts.prior = prior_error;
	// A public prior with no public row in the open cells is the uniform one there (PublicOnlyBound): it rests on none.
	plan.rests_on_public_sample =
	    prior_error > 0.0 && !context.input.uniform_prior && context.input.PriorPublicRows() > 0;
	plan.predicted_error = plan.parts.Total();
}

}  // namespace pap::core
