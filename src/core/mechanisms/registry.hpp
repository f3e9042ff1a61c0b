// The mechanisms a release can run, in one list (registry.cpp): adding a mechanism is its own file implementing
// Mechanism (mechanism.hpp) and its line in that list (docs/development.md, "Adding a mechanism"). The list's order
// is the order of pap.plan's predictions, and auto's ties go to the earlier mechanism.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/near_tie.hpp"

namespace pap::core {

// The most mechanisms a plan has room for (its predictions are a fixed array: a plan is plain data).
constexpr std::size_t kMaxMechanisms = 8;

// The registered mechanisms, in order (at most kMaxMechanisms, distinct names, none "auto").
const std::vector<const Mechanism *> &Mechanisms();
// The position in Mechanisms() of the mechanism with that name, if any.
std::optional<std::size_t> MechanismIndex(const std::string &name);

// Plans each of the mechanisms on the same context, in order: NotApplicable(its ShapeRefusal) when the release's
// shape refuses it, else its Plan (whose errors propagate).
std::vector<MechanismPlan> PlanEvery(const std::vector<const Mechanism *> &mechanisms, const PlanContext &context);
// Auto's choice among plans (one per mechanism, in order): the position of the plan with the smallest predicted error
// among those that apply, ties to the earlier one; except, first, that where that one rests on the public sample
// (MechanismPlan::rests_on_public_sample) and a plan that does not applies with a prediction within kNearTie of it,
// the smallest such (docs/mechanisms.md §10, "A near tie goes to a prediction that does not rest on the public
// sample"): its prediction holds whatever the public sample, the other's only for a sample drawn like the private
// table; and then, that where another mechanism takes near ties from that one (Mechanism::TakesNearTiesFrom) and
// applies with a prediction within kNearTie of it, that other one (the earliest such). MWEM takes them from PMW
// (docs/mechanisms.md §10, "MWEM takes a near tie with PMW"): PMW stops correcting an answer once its error is under
// the threshold its prediction is made of, while MWEM keeps spending its rounds on the largest error, so its prediction
// (the exponential mechanism's worst case over every cover query) is the one further above what it measures.
// Error(Internal) when none applies (identity always applies within the validated ranges).
std::size_t AutoChoice(const std::vector<const Mechanism *> &mechanisms, const std::vector<MechanismPlan> &plans);

}  // namespace pap::core

#include "core/base/core_only.hpp"
