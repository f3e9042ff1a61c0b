// Empirical privacy audit of PMW and of its sparse vector: the instances (docs/audit.md; the estimator is
// audit_estimator.hpp). Black box: every sample is one call of the product's RunPmw with PmwParameters from the
// product's PmwNoiseFor and PmwThreshold, on one of two neighbouring histograms (one row moved between two
// cells, n fixed). The output observed is a function of RunPmw's result only (the synthetic vector, the update
// count, the passes, whether the cut-off was reached).
#include "audit_cases.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

using namespace pap::core;
using pap::audit::AuditCase;
using pap::audit::Expect;

namespace {

struct Instance {
	std::string mechanism;  // column "mechanism" of the table
	std::string name;       // column "instance"
	double epsilon = 1.0;   // claimed
	double delta = 0.0;     // claimed
	Expect expect = Expect::Private;
	std::size_t cells = 0;
	std::vector<CellInterval> queries;
	std::vector<std::int64_t> d1, d2;  // neighbours: d2 = d1 with one row moved
	PmwParameters params;
	double runs_scale = 1.0;  // multiplies the per-side run count of the mode
};

// The exact synthetic answers RunPmw starts from with the uniform prior (same arithmetic: equal log-weights
// normalise to exp(0) / cells).
std::vector<double>
StartingAnswers(const IntervalWorkload &w)
{
	const std::size_t cells = w.CellCount();
	std::vector<double> weights(cells);
	double sum = 0.0;
	for (std::size_t i = 0; i < cells; i++) {
		weights[i] = std::exp(0.0);
		sum += weights[i];
	}
	for (double &x : weights)
		x /= sum;
	std::vector<double> answers;
	w.Evaluate(weights, answers);
	return answers;
}

// A StatDP-style pattern on K prefix queries [0, j] over K+1 cells (cell K is in no query: the slack that
// keeps n fixed). D' is built so that the deciding comparison of query j, at the threshold T_pass of the given
// pass level, sits exactly `offset[j]` counts from firing:
//   sign[j] = +1: t_j - g_j is compared ("synthetic too low"):  t_j = ceil(T_pass + g_j) + offset[j];
//   sign[j] = -1: g_j - t_j is compared ("synthetic too high"): t_j = -ceil(T_pass - g_j) - offset[j].
// offset 0 = exactly at the threshold. D = D' with one row moved from cell K to cell `into` (0 <= into < K):
// every prefix j >= into gains 1 in D, i.e. the compared value of a sign +1 query is one higher in D and that
// of a sign -1 query one lower. Prefixes j < into are equal in D and D'.
struct Pattern {
	std::vector<int> sign;
	std::vector<std::int64_t> offset;
	std::size_t into = 0;
};

void
BuildFromPattern(Instance &inst, const Pattern &pat, double pass_factor)
{
	const std::size_t K = pat.sign.size();
	inst.cells = K + 1;
	inst.queries.clear();
	for (std::size_t j = 0; j < K; j++)
		inst.queries.push_back({0, std::int32_t(j)});
	const double T = inst.params.threshold * pass_factor;
	// n = (K+1) m with m large enough that every cell count stays non-negative.
	std::int64_t m = std::int64_t(std::ceil(2.0 * T)) + 8;
	for (std::int64_t o : pat.offset)
		m += std::llabs(o);
	const std::int64_t n = std::int64_t(K + 1) * m;
	// g_j = n (j+1)/(K+1) as RunPmw computes it.
	std::vector<double> start = StartingAnswers(IntervalWorkload(inst.queries, inst.cells));
	std::vector<std::int64_t> t(K);
	for (std::size_t j = 0; j < K; j++) {
		const double g = start[j] * double(n);
		t[j] = pat.sign[j] > 0 ? std::int64_t(std::ceil(T + g)) + pat.offset[j]
		                       : -std::int64_t(std::ceil(T - g)) - pat.offset[j];
	}
	std::vector<std::int64_t> h2(K + 1);
	std::int64_t prev = 0;
	for (std::size_t j = 0; j < K; j++) {
		h2[j] = t[j] - prev;
		prev = t[j];
	}
	h2[K] = n - prev;
	for (std::int64_t h : h2)
		if (h < 1) {
			std::fprintf(stderr, "internal: pattern %s gives a cell count %" PRId64 "\n", inst.name.c_str(), h);
			std::exit(2);
		}
	inst.d2 = h2;
	inst.d1 = h2;
	inst.d1[K] -= 1;
	inst.d1[pat.into] += 1;
}

// Product noise for pure accounting with LSL17's split (as PlanPmw chooses it).
PmwParameters
PureNoise(std::int64_t c, double eps)
{
	const double e_thr = eps / (1.0 + std::pow(2.0 * double(c), 2.0 / 3.0));
	return PmwNoiseFor(SparseVectorAccounting::Pure, c, e_thr, eps - e_thr, eps, 0.0);
}

std::pair<double, double>
PureSplit(std::int64_t c, double eps)
{
	const double e_thr = eps / (1.0 + std::pow(2.0 * double(c), 2.0 / 3.0));
	return {e_thr, eps - e_thr};
}

// The sparse vector on its own: one pass, one threshold, and the cut-off.
void
CoreOnly(PmwParameters &p)
{
	p.max_passes = 1;
	p.first_pass_factor = 1.0;
}

Pattern
Uniform(std::size_t K, int sign, std::int64_t offset, std::size_t into = 0)
{
	return Pattern{std::vector<int>(K, sign), std::vector<std::int64_t>(K, offset), into};
}

std::vector<Instance>
MakeInstances()
{
	std::vector<Instance> all;
	const double beta = 0.5;  // PmwThreshold's beta: only places T; privacy does not depend on it
	auto add = [&](Instance inst, const Pattern &pat, double pass_factor) {
		BuildFromPattern(inst, pat, pass_factor);
		all.push_back(std::move(inst));
	};

	// One-above-rest-below, in the sign structure of PMW: the query that fires (sign +1) is one higher in D, the
	// K-1 queries that must stay below the threshold (sign -1) are one lower in D, so the threshold coupling
	// cannot help (LSL17's worst case: eps1 + eps2 in the limit). K a power of two: PassOrder visits K-1 last,
	// and that is where the firing query goes. Read in the other direction (D'/D) it is one-below-rest-above.
	auto one_above_rest_below = [](std::size_t K, std::int64_t top, std::int64_t rest) {
		Pattern p{std::vector<int>(K, -1), std::vector<std::int64_t>(K, rest), 0};
		p.sign[K - 1] = +1;
		p.offset[K - 1] = top;
		return p;
	};
	// x-shape: alternating signs, offsets -1 / +1 around the threshold in D' (all exactly at it in D).
	auto x_shape = [](std::size_t K) {
		Pattern p{std::vector<int>(K), std::vector<std::int64_t>(K), 0};
		for (std::size_t j = 0; j < K; j++) {
			p.sign[j] = j % 2 ? -1 : +1;
			p.offset[j] = j % 2 ? 1 : -1;
		}
		return p;
	};
	// half-half: alternating signs, all exactly at the threshold in D'.
	auto half_half = [](std::size_t K) {
		Pattern p{std::vector<int>(K), std::vector<std::int64_t>(K, 0), 0};
		for (std::size_t j = 0; j < K; j++)
			p.sign[j] = j % 2 ? -1 : +1;
		return p;
	};
	// One query differs (the row moves into the cell of the last prefix only); the rest equal, at T.
	auto one_differs = [](std::size_t K) {
		Pattern p = Uniform(K, +1, 0, K - 1);
		return p;
	};

	const double eps = 1.0, delta = 1e-3;

	// ---- Sparse-vector core, pure accounting (LSL17 Alg. 1 as PMW runs it): one pass, one threshold.
	auto core = [&](std::int64_t c, const std::string &name, const Pattern &pat) {
		Instance in;
		in.mechanism = "SV core (pure)";
		in.epsilon = eps;
		in.params = PureNoise(c, eps);
		CoreOnly(in.params);
		in.params.threshold = PmwThreshold(in.params, pat.sign.size(), beta);
		in.name = "c=" + std::to_string(c) + ", " + name;
		add(in, pat, 1.0);
	};
	core(1, "1 query at T", Uniform(1, +1, 0));
	core(1, "8 all above (+1 in D) at T", Uniform(8, +1, 0));
	core(1, "8 all below (-1 in D) at T", Uniform(8, -1, 0));
	core(1, "8 one above rest below", one_above_rest_below(8, -1, 0));
	core(1, "16 one above rest below", one_above_rest_below(16, -2, -1));
	core(1, "8 one differs at T", one_differs(8));
	core(1, "8 half-half at T", half_half(8));
	core(1, "8 x-shape", x_shape(8));
	core(2, "8 one above rest below", one_above_rest_below(8, -1, 0));
	core(2, "8 x-shape", x_shape(8));
	core(3, "8 all above (+1 in D) at T", Uniform(8, +1, 0));
	core(3, "8 x-shape", x_shape(8));

	// ---- PMW, pure accounting, the product's schedule (8 passes, thresholds 4T, 2T, then T).
	auto pmw = [&](std::int64_t c, const std::string &name, const Pattern &pat, double level) {
		Instance in;
		in.mechanism = "PMW (pure)";
		in.epsilon = eps;
		in.params = PureNoise(c, eps);
		in.params.threshold = PmwThreshold(in.params, pat.sign.size(), beta);
		in.name = "c=" + std::to_string(c) + ", " + name;
		add(in, pat, level);
	};
	pmw(1, "8 one above rest below at 4T", one_above_rest_below(8, -1, 0), 4.0);
	pmw(1, "8 one above rest below at T", one_above_rest_below(8, -1, 0), 1.0);
	pmw(2, "8 half-half at 2T", half_half(8), 2.0);
	pmw(2, "8 x-shape at T", x_shape(8), 1.0);
	pmw(3, "8 all above at T", Uniform(8, +1, 0), 1.0);

	// ---- PMW, zCDP accounting (c AboveThreshold instances, threshold redrawn after every update, rho converted
	// by the tight conversion), delta = 1e-3.
	auto zcdp = [&](std::int64_t c, bool core_only, const std::string &name, const Pattern &pat, double level) {
		Instance in;
		in.mechanism = core_only ? "SV core (zCDP)" : "PMW (zCDP)";
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, c, 0, 0, eps, delta);
		if (core_only)
			CoreOnly(in.params);
		in.params.threshold = PmwThreshold(in.params, pat.sign.size(), beta);
		in.name = "c=" + std::to_string(c) + ", " + name;
		add(in, pat, level);
	};
	zcdp(1, true, "8 one above rest below", one_above_rest_below(8, -1, 0), 1.0);
	zcdp(2, true, "8 x-shape", x_shape(8), 1.0);
	zcdp(3, true, "8 all above at T", Uniform(8, +1, 0), 1.0);
	zcdp(2, false, "8 half-half at T", half_half(8), 1.0);
	zcdp(2, false, "8 one above rest below at 4T", one_above_rest_below(8, -1, 0), 4.0);

	// ---- Broken variants: the harness must catch each (eps_lb > claimed eps).
	{  // (1) comparison and threshold noise halved (the scales of 2 eps), eps claimed.
		Instance in;
		in.mechanism = "BROKEN 1: noise halved";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.params = PureNoise(1, eps);
		CoreOnly(in.params);
		in.params.threshold_noise.denominator *= 2;
		in.params.compare_noise.denominator *= 2;
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=1 core, 8 one above rest below";
		add(in, one_above_rest_below(8, -1, 0), 1.0);
	}
	{  // (1') the same inside the full PMW schedule (8 passes, 4T, 2T, T).
		Instance in;
		in.mechanism = "BROKEN 1: noise halved";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.params = PureNoise(1, eps);
		in.params.threshold_noise.denominator *= 2;
		in.params.compare_noise.denominator *= 2;
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=1 PMW, 8 one above rest below at T";
		add(in, one_above_rest_below(8, -1, 0), 1.0);
	}
	{  // (2) Lee & Clifton: comparison noise Lap(1/eps2), not scaled by the cut-off (c = 3).
		Instance in;
		in.mechanism = "BROKEN 2: Lee-Clifton";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		const std::int64_t c = 3;
		in.params = PureNoise(c, eps);
		CoreOnly(in.params);
		in.params.compare_noise = ScaleAtLeast(1.0 / PureSplit(c, eps).second);
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=3 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
	}
	{  // (3a) zCDP accounting without redrawing the threshold noise after an update.
		Instance in;
		in.mechanism = "VARIANT 3a: zCDP, no redraw";
		in.expect = Expect::Informational;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.resample_threshold = false;
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=2 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
	}
	{  // (3b) zCDP accounting, comparison noise Lap(1/eps): the sparse vector's 4/eps0 replaced by the scale of a
	   // single Laplace count (threshold noise correct and redrawn).
		Instance in;
		in.mechanism = "BROKEN 3b: zCDP, cmp 1/eps";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.compare_noise = ScaleAtLeast(1.0 / eps);
		in.params.threshold = PmwThreshold(in.params, 16, beta);
		in.name = "c=2 core, 16 x-shape";
		add(in, x_shape(16), 1.0);
	}
	{  // (3b') the same with Lap(2/eps): a real violation (c AboveThresholds at eps + eps0/2 each: up to
	   // 2 eps + c eps0) that these instances do not reach; kept to show the limit of the harness.
		Instance in;
		in.mechanism = "VARIANT 3b': zCDP, cmp 2/eps";
		in.expect = Expect::Informational;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.compare_noise = ScaleAtLeast(2.0 / eps);
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=2 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
	}
	{  // (3c) zCDP accounting with the scales in fractions of n (DR14's normalised queries) applied to counts:
	   // the comparison noise divided by n. The threshold stays where the pattern put it (public).
		Instance in;
		in.mechanism = "BROKEN 3c: zCDP, cmp/n";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=2 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
		Instance &b = all.back();
		std::int64_t n = 0;
		for (std::int64_t h : b.d1)
			n += h;
		b.params.compare_noise = ScaleAtLeast(b.params.compare_noise.value() / double(n));
	}

	// ---- The zCDP accounting at a small epsilon (0.25, delta 1e-3), where a conversion error is a large factor:
	// the product's noise passes; the same instance with the conversion to (epsilon, delta) skipped (rho =
	// epsilon, so eps0 = sqrt(2 epsilon / c): 2.8 epsilon for c = 1) must be caught.
	const double small_eps = 0.25;
	auto small = [&](const std::string &mechanism, Expect expect, double rho_claimed) {
		Instance in;
		in.mechanism = mechanism;
		in.expect = expect;
		in.epsilon = small_eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Zcdp, 1, 0, 0, small_eps, delta);
		if (rho_claimed > 0) {  // the broken variant: eps0 = sqrt(2 rho / c) from the wrong rho
			const double eps0 = std::sqrt(2.0 * rho_claimed);
			in.params.threshold_noise = ScaleAtLeast(2.0 / eps0);
			in.params.compare_noise = ScaleAtLeast(4.0 / eps0);
		}
		CoreOnly(in.params);
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=1 core, 8 one above rest below";
		add(in, one_above_rest_below(8, -1, 0), 1.0);
	};
	small("SV core (zCDP, eps 0.25)", Expect::Private, 0);
	small("BROKEN 4: zCDP, rho = eps", Expect::Violation, small_eps);
	return all;
}

// The observed output: a 64-bit digest of everything RunPmw returns that is not a count of comparisons
// (the synthetic vector bit for bit, the update count, the passes, whether the cut-off was reached).
std::uint64_t
OutputKey(const PmwResult &r)
{
	const std::uint64_t h = pap::audit::Mix(std::uint64_t(r.updates) * 1315423911ULL +
	                                        std::uint64_t(r.passes) * 2654435761ULL + (r.cutoff_reached ? 7 : 0));
	return pap::audit::HashDoubles(h, r.synthetic);
}

}  // namespace

std::vector<AuditCase>
SparseVectorAuditCases()
{
	std::vector<AuditCase> cases;
	for (Instance &inst : MakeInstances()) {
		auto in = std::make_shared<const Instance>(std::move(inst));
		auto w = std::make_shared<const IntervalWorkload>(in->queries, in->cells);
		auto prior = std::make_shared<const std::vector<double>>(UniformPrior(in->cells));
		AuditCase c;
		c.mechanism = in->mechanism;
		c.name = in->name;
		c.epsilon = in->epsilon;
		c.delta = in->delta;
		c.expect = in->expect;
		c.runs_scale = in->runs_scale;
		c.sample = [in, w, prior](int side, RandomBitSource &rng) {
			return OutputKey(RunPmw(*w, side == 0 ? in->d1 : in->d2, *prior, in->params, rng));
		};
		cases.push_back(std::move(c));
	}
	return cases;
}
