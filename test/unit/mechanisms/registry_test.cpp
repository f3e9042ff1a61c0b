// Tests of the mechanism registry and its contracts: every registered name is found again at its position and the
// order is pap.plan's; auto's choice over registries of fakes takes the smallest predicted error among the plans
// that apply, ties to the earlier, and never a plan that does not apply; a refusing shape skips the planner; the
// opaque parameters come back only as the type they were stored as.
#include "core/mechanisms/registry.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

TEST(MechanismRegistry, NamesRoundTripInPlanOrder)
{
	const std::vector<const Mechanism *> &list = Mechanisms();
	ASSERT_GE(list.size(), 1u);
	ASSERT_LE(list.size(), kMaxMechanisms);
	std::set<std::string> names;
	for (std::size_t i = 0; i < list.size(); i++) {
		const std::string name = list[i]->Name();
		EXPECT_TRUE(names.insert(name).second) << name << " registered twice";
		EXPECT_NE(name, "auto");
		EXPECT_FALSE(name.empty());
		for (char c : name)  // a plain SQL word: lowercase letters, words joined by underscores
			EXPECT_TRUE(std::islower(static_cast<unsigned char>(c)) || c == '_') << name;
		ASSERT_TRUE(MechanismIndex(name).has_value()) << name;
		EXPECT_EQ(*MechanismIndex(name), i);
	}
	// The order of pap.plan's predictions and of auto's ties (expected outputs depend on it).
	const std::vector<std::string> order = {"pmw", "mwem", "identity", "hierarchical", "marginal_tables"};
	ASSERT_EQ(list.size(), order.size());
	for (std::size_t i = 0; i < order.size(); i++)
		EXPECT_EQ(list[i]->Name(), order[i]);
	for (const char *unknown : {"", "auto", "PMW", "pmw ", "laplace"})
		EXPECT_FALSE(MechanismIndex(unknown).has_value()) << '"' << unknown << '"';
}

// A mechanism whose plan is fixed in advance; counts its Plan calls.
class FakeMechanism final : public Mechanism {
public:
	FakeMechanism(std::string name, bool applies, double error, const char *refusal = nullptr,
	              const Mechanism *takes_near_ties_from = nullptr, bool rests_on_public_sample = false)
	    : name_(std::move(name)), applies_(applies), error_(error), refusal_(refusal),
	      takes_near_ties_from_(takes_near_ties_from), rests_on_public_sample_(rests_on_public_sample)
	{
	}
	const char *
	Name() const override
	{
		return name_.c_str();
	}
	const char *
	ShapeRefusal(const ReleaseShape &) const override
	{
		return refusal_;
	}
	MechanismPlan
	Plan(const PlanContext &) const override
	{
		planned_++;
		if (!applies_)
			return NotApplicable(kNoiseTooLarge);
		MechanismPlan plan;
		plan.applies = true;
		plan.predicted_error = error_;
		plan.rests_on_public_sample = rests_on_public_sample_;
		plan.parameters = MechanismParameters::Of(error_);
		return plan;
	}
	MechanismRun
	Run(const MechanismParameters &, const RunInput &) const override
	{
		throw Error(ErrorKind::Internal, "a fake does not run");
	}
	const Mechanism *
	TakesNearTiesFrom() const override
	{
		return takes_near_ties_from_;
	}
	int
	Planned() const
	{
		return planned_;
	}

private:
	std::string name_;
	bool applies_;
	double error_;
	const char *refusal_;
	const Mechanism *takes_near_ties_from_;
	bool rests_on_public_sample_;
	mutable int planned_ = 0;
};

std::size_t
Choose(const std::vector<const Mechanism *> &registry)
{
	return AutoChoice(registry, PlanEvery(registry, PlanContext{}));
}

TEST(MechanismRegistry, AutoTakesTheSmallestPredictionThatApplies)
{
	const FakeMechanism a("a", true, 0.30), b("b", true, 0.10), c("c", true, 0.20);
	EXPECT_EQ(Choose({&a, &b, &c}), 1u);
	EXPECT_EQ(Choose({&c, &a}), 0u);
	// A plan that does not apply is never chosen, however small its (unset) prediction.
	const FakeMechanism never("never", false, 0.0);
	EXPECT_EQ(Choose({&never, &a}), 1u);
	EXPECT_EQ(Choose({&a, &never, &c}), 2u);
	// Ties go to the earlier mechanism (pmw first in the real registry).
	const FakeMechanism tie1("tie1", true, 0.10), tie2("tie2", true, 0.10);
	EXPECT_EQ(Choose({&tie1, &tie2}), 0u);
	EXPECT_EQ(Choose({&a, &tie2, &tie1}), 1u);
	// None applies: an internal error (pmw always applies in the real registry).
	EXPECT_PAP_ERROR(ErrorKind::Internal, Choose({&never}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, Choose({}));
}

// A mechanism takes the near ties of the one it names (within kNearTie of that one's prediction, either side), in
// either order of the list; beyond it, or where it does not apply, or against any other mechanism, the smallest
// prediction wins. Names play no part: the fakes are named alike.
TEST(MechanismRegistry, AMechanismTakesTheNearTiesOfTheOneItNames)
{
	const FakeMechanism pmw("x", true, 0.100);
	const FakeMechanism mwem_near("x", true, 0.109, nullptr, &pmw), mwem_far("x", true, 0.111, nullptr, &pmw);
	const FakeMechanism mwem_lower("x", true, 0.090, nullptr, &pmw), mwem_off("x", false, 0.100, nullptr, &pmw);
	const FakeMechanism identity("x", true, 0.105), identity_low("x", true, 0.095);
	EXPECT_EQ(Choose({&pmw, &mwem_near}), 1u);
	EXPECT_EQ(Choose({&mwem_near, &pmw}), 0u);
	EXPECT_EQ(Choose({&pmw, &mwem_far}), 0u);
	EXPECT_EQ(Choose({&pmw, &mwem_lower}), 1u);
	EXPECT_EQ(Choose({&pmw, &mwem_off}), 0u);
	// Only the named one's near tie: another mechanism's smaller prediction still wins over both, and a near tie of
	// another mechanism with the taker does not move the choice to it.
	EXPECT_EQ(Choose({&pmw, &mwem_near, &identity_low}), 2u);
	EXPECT_EQ(Choose({&identity, &mwem_near}), 0u);
	EXPECT_EQ(Choose({&pmw, &mwem_near, &identity}), 1u);
	// Two takers within the factor: the earlier one, even where the later predicts less.
	const FakeMechanism second_near("x", true, 0.101, nullptr, &pmw);
	EXPECT_EQ(Choose({&pmw, &mwem_near, &second_near}), 1u);
	EXPECT_EQ(Choose({&pmw, &second_near, &mwem_near}), 1u);
	// One plan per mechanism.
	EXPECT_PAP_ERROR(ErrorKind::Internal, AutoChoice({&pmw}, {}));
}

// Where the smallest prediction rests on the public sample (a prior part estimated from it), the best prediction that
// does not takes a near tie with it (within kNearTie), before any mechanism takes the near ties of the one it names;
// beyond the factor, where it does not apply, or where the smallest does not rest on the sample, the smallest wins.
TEST(MechanismRegistry, ANearTieGoesToAPredictionThatDoesNotRestOnThePublicSample)
{
	const FakeMechanism sampled("x", true, 0.100, nullptr, nullptr, true);
	const FakeMechanism steady_near("x", true, 0.109), steady_far("x", true, 0.111), steady_off("x", false, 0.101);
	const FakeMechanism steady_nearer("x", true, 0.105);
	EXPECT_EQ(Choose({&sampled, &steady_near}), 1u);
	EXPECT_EQ(Choose({&steady_near, &sampled}), 0u);
	EXPECT_EQ(Choose({&sampled, &steady_far}), 0u);
	EXPECT_EQ(Choose({&sampled, &steady_off}), 0u);
	// The best of those that do not rest on the sample, in either order.
	EXPECT_EQ(Choose({&sampled, &steady_near, &steady_nearer}), 2u);
	EXPECT_EQ(Choose({&sampled, &steady_nearer, &steady_near}), 1u);
	// Another plan resting on the sample within the factor does not take the tie.
	const FakeMechanism sampled_near("x", true, 0.105, nullptr, nullptr, true);
	EXPECT_EQ(Choose({&sampled, &sampled_near}), 0u);
	// Where the smallest does not rest on the sample, it stays, however close a plan that does.
	const FakeMechanism steady("x", true, 0.100), sampled_close("x", true, 0.101, nullptr, nullptr, true);
	EXPECT_EQ(Choose({&sampled_close, &steady}), 1u);
	// Before the near ties a mechanism takes from the one it names: MWEM's from PMW, both from the public prior.
	const FakeMechanism mwem_near("x", true, 0.105, nullptr, &sampled, true);
	EXPECT_EQ(Choose({&sampled, &mwem_near, &steady_near}), 2u);
	EXPECT_EQ(Choose({&sampled, &mwem_near, &steady_far}), 1u);
}

// A plan rests on the public sample where its prior part is the public prior's: not without a prior part, and not
// from the uniform prior, whose part (1/2) holds whatever the sample.
TEST(MechanismRegistry, APlanRestsOnThePublicSampleThroughItsPriorPart)
{
	PlanContext context;
	context.input.public_rows = 100;
	MechanismPlan plan;
	SetErrorParts(plan, context, 0.01, 0.02, true);
	EXPECT_TRUE(plan.rests_on_public_sample);
	SetErrorParts(plan, context, 0.01, 0.0, false);
	EXPECT_FALSE(plan.rests_on_public_sample);
	// No public row in the open cells: the public prior is the uniform one there (PlanInput::prior_public_rows).
	context.input.prior_public_rows = 0;
	SetErrorParts(plan, context, 0.01, 0.5, true);
	EXPECT_FALSE(plan.rests_on_public_sample);
	context.input.prior_public_rows = 40;
	SetErrorParts(plan, context, 0.01, 0.02, true);
	EXPECT_TRUE(plan.rests_on_public_sample);
	context.input.uniform_prior = true;
	SetErrorParts(plan, context, 0.01, 0.5, true);
	EXPECT_FALSE(plan.rests_on_public_sample);
}

// In the real registry MWEM takes PMW's near ties (docs/mechanisms.md §10), and no other mechanism takes any.
TEST(MechanismRegistry, OnlyMwemTakesNearTiesAndFromPmw)
{
	const std::vector<const Mechanism *> &list = Mechanisms();
	for (const Mechanism *m : list) {
		if (std::string(m->Name()) == "mwem") {
			ASSERT_NE(m->TakesNearTiesFrom(), nullptr);
			EXPECT_STREQ(m->TakesNearTiesFrom()->Name(), "pmw");
			EXPECT_EQ(m->TakesNearTiesFrom(), list.at(*MechanismIndex("pmw")));
		} else {
			EXPECT_EQ(m->TakesNearTiesFrom(), nullptr) << m->Name();
		}
	}
}

TEST(MechanismRegistry, RefusingShapeSkipsThePlanner)
{
	const FakeMechanism refused("refused", true, 0.01, "needs another shape"), other("other", true, 0.5);
	const std::vector<MechanismPlan> plans = PlanEvery({&refused, &other}, PlanContext{});
	ASSERT_EQ(plans.size(), 2u);
	EXPECT_FALSE(plans[0].applies);
	EXPECT_STREQ(plans[0].reason, "needs another shape");
	EXPECT_EQ(refused.Planned(), 0);
	EXPECT_EQ(other.Planned(), 1);
	EXPECT_EQ(AutoChoice({&refused, &other}, plans), 1u);
}

// Random registries of fakes: the choice applies, no applicable prediction is smaller, and no earlier applicable
// one is equal (predictions drawn from a few values, so ties are common).
TEST(MechanismRegistry, AutoOnRandomRegistries)
{
	std::mt19937_64 gen(7);
	std::uniform_int_distribution<int> size(1, int(kMaxMechanisms)), level(0, 3);
	std::bernoulli_distribution applies(0.6);
	for (int trial = 0; trial < 2000; trial++) {
		std::vector<FakeMechanism> fakes;
		const int count = size(gen);
		fakes.reserve(std::size_t(count));
		for (int i = 0; i < count; i++)
			fakes.emplace_back("m" + std::to_string(i), i == 0 || applies(gen), 0.1 * level(gen));
		std::vector<const Mechanism *> registry;
		for (const FakeMechanism &f : fakes)
			registry.push_back(&f);
		const std::vector<MechanismPlan> plans = PlanEvery(registry, PlanContext{});
		const std::size_t chosen = AutoChoice(registry, plans);
		ASSERT_LT(chosen, plans.size());
		EXPECT_TRUE(plans[chosen].applies);
		for (std::size_t m = 0; m < plans.size(); m++) {
			if (!plans[m].applies)
				continue;
			EXPECT_LE(plans[chosen].predicted_error, plans[m].predicted_error);
			if (m < chosen) {
				EXPECT_LT(plans[chosen].predicted_error, plans[m].predicted_error);
			}
		}
	}
}

TEST(MechanismParameters, ComeBackOnlyAsTheirOwnType)
{
	struct Own {
		std::int64_t a;
		double b;
	};
	struct Other {
		std::int64_t a;
		double b;
	};
	const MechanismParameters p = MechanismParameters::Of(Own{42, 0.5});
	EXPECT_EQ(p.As<Own>().a, 42);
	EXPECT_EQ(p.As<Own>().b, 0.5);
	EXPECT_PAP_ERROR(ErrorKind::Internal, p.As<Other>());
	EXPECT_PAP_ERROR(ErrorKind::Internal, MechanismParameters().As<Own>());
	// A copy keeps its type (a plan is copied from the plan summary into the run).
	const MechanismParameters copy = p;
	EXPECT_EQ(copy.As<Own>().a, 42);
}

// Every registered mechanism refuses parameters planned by another.
TEST(MechanismRegistry, RunRefusesAnotherMechanismsParameters)
{
	const MechanismParameters foreign = MechanismParameters::Of(0.25);
	RunInput in;
	for (const Mechanism *m : Mechanisms())
		EXPECT_PAP_ERROR(ErrorKind::Internal, m->Run(foreign, in)) << m->Name();
}

}  // namespace
}  // namespace pap::core
