// MWEM behind the Mechanism interface (docs/mechanisms.md §8): planned by PlanMwem, run on the cover's true counts.
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/mwem.hpp"

namespace pap::core {

const Mechanism &PmwMechanism();  // pmw_mechanism.cpp

namespace {

class Mwem final : public Mechanism {
public:
	const char *
	Name() const override
	{
		return "mwem";
	}

	// Both start from the same prior and read the same estimate of its error, but PMW's prediction is its threshold
	// (what it leaves uncorrected), MWEM's the exponential mechanism's worst case over every cover query
	// (docs/mechanisms.md §10, "MWEM takes a near tie with PMW").
	const Mechanism *
	TakesNearTiesFrom() const override
	{
		return &PmwMechanism();
	}

	MechanismPlan
	Plan(const PlanContext &context) const override
	{
		if (context.cover == nullptr)
			return NotApplicable(kCoverTooLarge);  // its rounds select among every cover query
		const std::optional<MwemPlan> mwem = UnlessLimitExceeded([&] { return PlanMwem(context.input); });
		if (!mwem)
			return NotApplicable(kNoiseTooLarge);
		MechanismPlan plan;
		plan.applies = true;
		SetErrorParts(plan, context, mwem->predicted_error, mwem->prior_error, true);
		plan.used = mwem->used;
		plan.parameters = MechanismParameters::Of(*mwem);
		plan.detail = "rounds";
		plan.detail_value = mwem->parameters.rounds;
		return plan;
	}

	MechanismRun
	Run(const MechanismParameters &parameters, const RunInput &in) const override
	{
		const MwemPlan plan = parameters.As<MwemPlan>();
		const std::vector<std::int64_t> truth = in.cover_counts();
		const std::vector<double> start = in.prior();
		const Workload &workload = in.workload();
		MwemResult result = RunMwemOnCounts(workload, truth, in.rows, start, plan.parameters, *in.rng, in.interrupted);
		MechanismRun run;
		run.synthetic = std::move(result.synthetic);
		run.statistics.updates = result.rounds;
		return run;
	}
};

}  // namespace

const Mechanism &
MwemMechanism()
{
	static const Mwem mechanism;
	return mechanism;
}

}  // namespace pap::core
