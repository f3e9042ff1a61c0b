#include "core/mechanisms/registry.hpp"

#include <set>

#include "core/base/errors.hpp"

namespace pap::core {

// Each defined in its own file (<name>_mechanism.cpp).
const Mechanism &PmwMechanism();
const Mechanism &MwemMechanism();
const Mechanism &IdentityMechanism();
const Mechanism &HierarchicalMechanism();
const Mechanism &MarginalTablesMechanism();

namespace {

std::vector<const Mechanism *>
Checked(std::vector<const Mechanism *> list)
{
	std::set<std::string> names;
	for (const Mechanism *m : list)
		if (std::string(m->Name()) == "auto" || !names.insert(m->Name()).second)
			throw Error(ErrorKind::Internal, std::string("mechanism name \"") + m->Name() + "\" registered twice");
	if (list.empty() || list.size() > kMaxMechanisms)
		throw Error(ErrorKind::Internal, "the registry holds no mechanism or more than a plan has room for");
	return list;
}

}  // namespace

const std::vector<const Mechanism *> &
Mechanisms()
{
	// The one list. pmw first: it carries the paper's guarantee, so auto's exact ties go to it (but MWEM takes its
	// near ties: MwemMechanism's TakesNearTiesFrom, AutoChoice).
	static const std::vector<const Mechanism *> list = Checked({
	    &PmwMechanism(),
	    &MwemMechanism(),
	    &IdentityMechanism(),
	    &HierarchicalMechanism(),
	    &MarginalTablesMechanism(),
	});
	return list;
}

std::optional<std::size_t>
MechanismIndex(const std::string &name)
{
	const std::vector<const Mechanism *> &list = Mechanisms();
	for (std::size_t i = 0; i < list.size(); i++)
		if (name == list[i]->Name())
			return i;
	return std::nullopt;
}

std::vector<MechanismPlan>
PlanEvery(const std::vector<const Mechanism *> &mechanisms, const PlanContext &context)
{
	std::vector<MechanismPlan> plans;
	plans.reserve(mechanisms.size());
	for (const Mechanism *m : mechanisms) {
		const char *refusal = m->ShapeRefusal(context.shape);
		plans.push_back(refusal != nullptr ? NotApplicable(refusal) : m->Plan(context));
	}
	return plans;
}

std::size_t
AutoChoice(const std::vector<const Mechanism *> &mechanisms, const std::vector<MechanismPlan> &plans)
{
	if (mechanisms.size() != plans.size())
		throw Error(ErrorKind::Internal, "auto's choice needs one plan per mechanism");
	// A near tie goes to a prediction that holds whatever the public sample (registry.hpp).
	const std::optional<SteadyChoice> choice = SteadyWithinNearTie(
	    plans.size(), [&](std::size_t m) { return plans[m].predicted_error; },
	    [&](std::size_t m) { return plans[m].applies; },
	    [&](std::size_t m) { return !plans[m].rests_on_public_sample; });
	if (!choice)
		throw Error(ErrorKind::Internal, "no mechanism applies to the release");
	if (choice->steadier)
		return choice->chosen;
	const std::optional<std::size_t> chosen = choice->smallest;
	for (std::size_t m = 0; m < plans.size(); m++)
		if (mechanisms[m]->TakesNearTiesFrom() == mechanisms[*chosen] && plans[m].applies &&
		    plans[m].predicted_error <= kNearTie * plans[*chosen].predicted_error)
			return m;
	return *chosen;
}

}  // namespace pap::core
