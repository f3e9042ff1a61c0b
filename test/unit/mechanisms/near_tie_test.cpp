// Tests of the choice every near tie shares (near_tie.hpp, SteadyWithinNearTie): the smallest prediction among the
// eligible candidates, the first of equal ones; where it rests on the public sample, the smallest steady one within
// kNearTie of it instead, and not one beyond; nothing when no candidate is eligible.
#include "core/mechanisms/near_tie.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace pap::core {
namespace {

struct Candidate {
	double predicted;
	bool eligible, steady;
};

std::optional<SteadyChoice>
Choose(const std::vector<Candidate> &c)
{
	return SteadyWithinNearTie(
	    c.size(), [&](std::size_t i) { return c[i].predicted; }, [&](std::size_t i) { return c[i].eligible; },
	    [&](std::size_t i) { return c[i].steady; });
}

TEST(SteadyWithinNearTie, NothingWhenNoCandidateIsEligible)
{
	EXPECT_FALSE(Choose({}).has_value());
	EXPECT_FALSE(Choose({{1.0, false, true}, {2.0, false, false}}).has_value());
}

TEST(SteadyWithinNearTie, TheSmallestWhenItIsSteadyOrNoSteadyOneIsNear)
{
	std::optional<SteadyChoice> c = Choose({{2.0, true, false}, {1.0, true, true}, {1.05, true, false}});
	ASSERT_TRUE(c.has_value());
	EXPECT_EQ(c->smallest, 1u);
	EXPECT_EQ(c->chosen, 1u);
	EXPECT_FALSE(c->steadier);
	// The steady one just beyond the tie (1.1 times and a little more) does not take it.
	c = Choose({{1.0, true, false}, {1.1 * 1.0 + 1e-9, true, true}});
	EXPECT_EQ(c->chosen, 0u);
	EXPECT_FALSE(c->steadier);
	// Equal predictions: the first keeps its place.
	c = Choose({{1.0, true, true}, {1.0, true, true}});
	EXPECT_EQ(c->smallest, 0u);
	EXPECT_EQ(c->chosen, 0u);
}

TEST(SteadyWithinNearTie, TheSmallestSteadyOneWithinTheTieOfOneThatRestsOnTheSample)
{
	// 0 rests on the sample; 2 and 3 are steady and within 1.1 of it; 3 is the smaller. 1 is smaller still but not
	// eligible.
	const std::optional<SteadyChoice> c =
	    Choose({{1.0, true, false}, {0.5, false, true}, {1.08, true, true}, {1.06, true, true}});
	ASSERT_TRUE(c.has_value());
	EXPECT_EQ(c->smallest, 0u);
	EXPECT_EQ(c->chosen, 3u);
	EXPECT_TRUE(c->steadier);
	// At exactly kNearTie times the smallest the tie holds.
	const std::optional<SteadyChoice> edge = Choose({{2.0, true, false}, {2.0 * kNearTie, true, true}});
	EXPECT_EQ(edge->chosen, 1u);
}

}  // namespace
}  // namespace pap::core
