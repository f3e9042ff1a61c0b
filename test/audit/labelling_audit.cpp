// Empirical privacy audit of a labelling's private step (docs/audit.md, docs/mechanisms.md §17): the product's
// StableLabels with the plan of the product's PlanLabelling, on the vote tallies of two neighbouring private tables.
// One private row changes one chunk, so one vote of every public row: each margin moves by at most 2, in either
// direction. The instances put the margins where the sparse vector's worst case is (LSL17's non-monotone queries:
// rows whose margin is 2 higher in D, which the threshold coupling keeps stable for free, interleaved with rows whose
// margin is 2 lower in D, each of which then pays in its comparison noise when it is unstable), near the plan's
// threshold w. The margins stay far above 2, so the released classes are the same on both sides: the output is the
// sparse vector's answers, and the key (which rows were answered, and which of them were stable) determines it.
#include "audit_cases.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/labels/stable_labels.hpp"
#include "core/noise/random_source.hpp"

using namespace pap::core;
using pap::audit::AuditCase;
using pap::audit::Expect;

namespace {

LabellingPlan
Plan(std::size_t rows, std::int64_t cutoff, std::int64_t sensitivity)
{
	LabellingRequest r;
	r.private_rows = 100000;
	r.public_rows = std::int64_t(rows);
	r.chunks = 1000;
	r.cutoff = cutoff;
	r.epsilon = 1.0;
	r.delta = 1e-6;
	r.margin_sensitivity = sensitivity;
	return PlanLabelling(r);
}

// K rows alternating: even rows at margin w + stable_offset in D' and 2 higher in D; odd rows at w + unstable_offset
// in D' and 2 lower in D.
AuditCase
Case(std::string mechanism, std::size_t rows, std::int64_t cutoff, std::int64_t sensitivity, std::int64_t stable_offset,
     std::int64_t unstable_offset, Expect expect)
{
	const LabellingPlan plan = Plan(rows, cutoff, sensitivity);
	std::vector<VoteTally> d1(rows), d2(rows);
	for (std::size_t i = 0; i < rows; i++) {
		const bool favours_stable = i % 2 == 0;
		d2[i] = VoteTally{1, plan.threshold + (favours_stable ? stable_offset : unstable_offset)};
		d1[i] = VoteTally{1, d2[i].margin + (favours_stable ? 2 : -2)};
	}
	AuditCase c;
	c.mechanism = std::move(mechanism);
	c.name = "c=" + std::to_string(cutoff) + ", " + std::to_string(rows) + " rows alternating, offsets " +
	         std::to_string(stable_offset) + "/" + std::to_string(unstable_offset);
	c.epsilon = 1.0;
	c.delta = plan.delta;
	c.expect = expect;
	c.sample = [plan, d1, d2](int side, RandomBitSource &rng) -> std::uint64_t {
		const StableLabelsResult r = StableLabels(side == 0 ? d1 : d2, plan, rng);
		std::uint64_t key = std::uint64_t(r.reached);
		for (std::size_t i = 0; i < r.labels.size(); i++)
			key = key << 1 | (r.labels[i] >= 0 ? 1u : 0u);
		return key;
	};
	return c;
}

}  // namespace

std::vector<AuditCase>
LabellingAuditCases()
{
	std::vector<AuditCase> all;
	all.push_back(Case("Labels (margin sens 2)", 8, 1, 2, 0, 0, Expect::Private));
	all.push_back(Case("Labels (margin sens 2)", 8, 4, 2, 0, 0, Expect::Private));
	all.push_back(Case("Labels (margin sens 2)", 8, 4, 2, -5, 0, Expect::Private));
	// The broken variant: the margin's sensitivity taken as 1 (one private row moves one vote, but the margin is the
	// difference of two counts, so it moves by 2): every noise scale halves.
	AuditCase broken = Case("BROKEN: labels margin sens 1", 8, 4, 1, -5, 0, Expect::Violation);
	broken.runs_scale = 2.0;
	all.push_back(std::move(broken));
	return all;
}
