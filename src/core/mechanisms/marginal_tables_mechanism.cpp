// The marginal-tables mechanism behind the Mechanism interface (docs/mechanisms.md §13): marginal classes
// (marginals, stumps, predicates) on a full grid.
#include <optional>

#include "core/mechanisms/error_model.hpp"
#include "core/mechanisms/marginal_tables.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/pmw_plan.hpp"

namespace pap::core {

namespace {

constexpr const char *kMarginalClassesOnly =
    "marginal_tables measures marginal tables: it answers marginals, stumps and predicates only";
constexpr const char *kFullGridOnly = "marginal_tables needs a full grid: its tables are sums over every grid point, "
                                      "and this release's cells are the public support (the full grid exceeds "
                                      "pap_release.max_cells)";

class MarginalTables final : public Mechanism {
public:
	const char *
	Name() const override
	{
		return "marginal_tables";
	}

	const char *
	ShapeRefusal(const ReleaseShape &shape) const override
	{
		if (shape.marginal_order < 1 || std::size_t(shape.marginal_order) > shape.radices.size())
			return kMarginalClassesOnly;
		return shape.full_grid ? nullptr : kFullGridOnly;
	}

	MechanismPlan
	Plan(const PlanContext &context) const override
	{
		const std::optional<MarginalTablesPlan> planned = UnlessLimitExceeded([&] {
			return PlanMarginalTables(context.input, context.shape.radices, context.shape.marginal_order,
			                          context.public_histogram(), &context.closed_cells);
		});
		if (!planned)
			return NotApplicable(kNoiseTooLarge);
		// The combined estimate already holds the public sample's sampling error; the prior part is shown, as the
		// MW mechanisms show theirs.
		const double prior = planned->public_rows > 0 ? PublicOnlyError(context.input) : 0.0;
		MechanismPlan plan;
		plan.applies = true;
		SetErrorParts(plan, context, planned->predicted_error, prior, false);
		plan.used = planned->used;
		plan.parameters = MechanismParameters::Of(*planned);
		plan.detail = "tables";
		plan.detail_value = std::int64_t(AttributeSets(planned->axes, planned->order).size());
		return plan;
	}

	MechanismRun
	Run(const MechanismParameters &parameters, const RunInput &in) const override
	{
		const MarginalTablesPlan plan = parameters.As<MarginalTablesPlan>();
		MechanismRun run;
		run.synthetic = RunMarginalTables(*in.cell_histogram, *in.radices, in.rows, in.prior(), plan, *in.rng,
		                                  in.interrupted, in.closed_cells);
		return run;
	}
};

}  // namespace

const Mechanism &
MarginalTablesMechanism()
{
	static const MarginalTables mechanism;
	return mechanism;
}

}  // namespace pap::core
