// PMW behind the Mechanism interface (docs/mechanisms.md §3, §5): its plan is PlanPmw's, kept whole in the
// parameters (pap.plan shows PMW's cut-off, threshold and the book's guarantee whatever is chosen).
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"

namespace pap::core {

namespace {

class Pmw final : public Mechanism {
public:
	const char *
	Name() const override
	{
		return "pmw";
	}

	// Applies within the validated ranges whenever the cover is listed: its errors (the input's validation first)
	// propagate. A cover too large to list keeps the plan's parameters (pap.plan describes PMW's plan whatever is
	// chosen) but the plan does not apply: the run reads every cover query.
	MechanismPlan
	Plan(const PlanContext &context) const override
	{
		const PmwPlan pmw = PlanPmw(context.input);
		MechanismPlan plan;
		plan.applies = context.cover != nullptr;
		plan.reason = plan.applies ? "" : kCoverTooLarge;
		SetErrorParts(plan, context, pmw.predicted_error, pmw.prior_error, true);
		plan.used = pmw.used;
		plan.parameters = MechanismParameters::Of(pmw);
		return plan;
	}

	MechanismRun
	Run(const MechanismParameters &parameters, const RunInput &in) const override
	{
		const PmwPlan plan = parameters.As<PmwPlan>();
		const std::vector<std::int64_t> truth = in.cover_counts();
		const std::vector<double> start = in.prior();
		const Workload &workload = in.workload();
		PmwResult result = RunPmwOnCounts(workload, truth, in.rows, start, plan.parameters, *in.rng, in.interrupted);
		MechanismRun run;
		run.synthetic = std::move(result.synthetic);
		run.statistics.updates = result.updates;
		run.statistics.comparisons = result.comparisons;
		run.statistics.passes = result.passes;
		run.statistics.cutoff_reached = result.cutoff_reached;
		// The run's outcome is the sparse vector's public output: after a pass without update every cover query is
		// within PmwConvergedError of the truth, however far the prior was (a shifted public sample included);
		// a run stopped by its cut-off or its passes says nothing of what it left (docs/mechanisms.md §18).
		run.statistics.bound_noise =
		    result.converged ? PmwConvergedError(plan.parameters, workload.QueryCount(), plan.noise_beta, in.rows)
		                     : 1.0;
		return run;
	}
};

}  // namespace

const Mechanism &
PmwMechanism()
{
	static const Pmw mechanism;
	return mechanism;
}

}  // namespace pap::core
