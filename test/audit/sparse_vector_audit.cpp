// Empirical privacy audit of PMW and of its sparse vector (docs/audit.md; reference/anchors-reliability.md §3,
// §8 ). Black box: every sample is one call of the product's RunPmw with PmwParameters from the
// product's PmwNoiseFor and PmwThreshold, on one of two neighbouring histograms (one row moved between two
// cells, n fixed). The output observed is a function of RunPmw's result only (the synthetic vector, the update
// count, the passes, whether the cut-off was reached).
//
// Method (DP-Sniper / StatDP style, with an exact "classifier" since the outputs are discrete): the runs of each
// side are split in two halves. On the first half the outcomes are sorted by their empirical likelihood ratio
// and the best prefix set E (the Neyman-Pearson family), in either direction, is chosen by its Clopper-Pearson
// bound; that one event is then evaluated on the second half, which it never saw:
//   eps_lb = ln((p1_lcb - delta) / p2_ucb),
// p1_lcb the one-sided lower bound on P[M(D) in E] and p2_ucb the upper bound on P[M(D') in E], each at
// 97.5% (union bound: the pair holds with 95%). A mechanism is accepted when eps_lb <= claimed epsilon; a
// deliberately broken variant is caught when eps_lb > claimed epsilon.
//
// Usage: sparse_vector_audit [--full] [--runs N] [--threads T] [--only SUBSTRING] [--seed S]
#include <boost/math/distributions/beta.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/discrete_laplace.hpp"
#include "core/pmw.hpp"
#include "core/pmw_plan.hpp"
#include "core/random_source.hpp"
#include "core/workload.hpp"

using namespace pap::core;

namespace {

constexpr double kConfidence = 0.95;  // joint, for the pair (p1_lcb, p2_ucb)
// Events seen fewer times than this on the selection half (numerator side) are not candidates: a union of
// outcomes that happened a dozen times with no counterpart wins the selection by chance and then has no power
// on the evaluation half (DP-Sniper likewise ignores events below a probability c).
constexpr std::uint64_t kMinEventCount = 100;

// ---------------------------------------------------------------------------------------------------------
// Instances

enum class Expect { Private, Violation, Informational };

struct Instance {
	std::string mechanism;   // column "mechanism" of the table
	std::string name;        // column "instance"
	double epsilon = 1.0;    // claimed
	double delta = 0.0;      // claimed
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

	// ---- PMW, approximate accounting (DR14 Sparse, threshold redrawn after every update), delta = 1e-3.
	auto approx = [&](std::int64_t c, bool core_only, const std::string &name, const Pattern &pat, double level) {
		Instance in;
		in.mechanism = core_only ? "SV core (approx)" : "PMW (approx)";
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Approximate, c, 0, 0, eps, delta);
		if (core_only)
			CoreOnly(in.params);
		in.params.threshold = PmwThreshold(in.params, pat.sign.size(), beta);
		in.name = "c=" + std::to_string(c) + ", " + name;
		add(in, pat, level);
	};
	approx(1, true, "8 one above rest below", one_above_rest_below(8, -1, 0), 1.0);
	approx(2, true, "8 x-shape", x_shape(8), 1.0);
	approx(3, true, "8 all above at T", Uniform(8, +1, 0), 1.0);
	approx(2, false, "8 half-half at T", half_half(8), 1.0);
	approx(2, false, "8 one above rest below at 4T", one_above_rest_below(8, -1, 0), 4.0);

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
	{  // (3a) approximate accounting without redrawing the threshold noise after an update.
		Instance in;
		in.mechanism = "VARIANT 3a: approx, no redraw";
		in.expect = Expect::Informational;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Approximate, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.resample_threshold = false;
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=2 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
	}
	{  // (3b) approximate accounting, comparison noise Lap(1/eps): the sparse vector's 2 sigma replaced by the
	   // scale of a single Laplace count (threshold noise correct and redrawn).
		Instance in;
		in.mechanism = "BROKEN 3b: approx, cmp 1/eps";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Approximate, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.compare_noise = ScaleAtLeast(1.0 / eps);
		in.params.threshold = PmwThreshold(in.params, 16, beta);
		in.name = "c=2 core, 16 x-shape";
		add(in, x_shape(16), 1.0);
	}
	{  // (3b') the same with Lap(2/eps): a real violation (c AboveThresholds at eps + 1/sigma each: up to
	   // 2 eps + 2/sigma) that these instances do not reach; kept to show the limit of the harness.
		Instance in;
		in.mechanism = "VARIANT 3b': approx, cmp 2/eps";
		in.expect = Expect::Informational;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Approximate, 2, 0, 0, eps, delta);
		CoreOnly(in.params);
		in.params.compare_noise = ScaleAtLeast(2.0 / eps);
		in.params.threshold = PmwThreshold(in.params, 8, beta);
		in.name = "c=2 core, 8 x-shape";
		add(in, x_shape(8), 1.0);
	}
	{  // (3c) approximate accounting with sigma in fractions of n (DR14's normalised queries) applied to
	   // counts: the comparison noise divided by n. The threshold stays where the pattern put it (public).
		Instance in;
		in.mechanism = "BROKEN 3c: approx, cmp/n";
		in.expect = Expect::Violation;
		in.epsilon = eps;
		in.delta = delta;
		in.params = PmwNoiseFor(SparseVectorAccounting::Approximate, 2, 0, 0, eps, delta);
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
	return all;
}

// ---------------------------------------------------------------------------------------------------------
// Sampling

std::uint64_t
Mix(std::uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

// The observed output: a 64-bit digest of everything RunPmw returns that is not a count of comparisons
// (the synthetic vector bit for bit, the update count, the passes, whether the cut-off was reached).
std::uint64_t
OutputKey(const PmwResult &r)
{
	std::uint64_t h = Mix(std::uint64_t(r.updates) * 1315423911ULL + std::uint64_t(r.passes) * 2654435761ULL +
	                      (r.cutoff_reached ? 7 : 0));
	for (double x : r.synthetic) {
		std::uint64_t bits;
		std::memcpy(&bits, &x, sizeof bits);
		h = Mix(h ^ bits);
	}
	return h;
}

struct Counts {
	std::uint64_t c[2][2] = {{0, 0}, {0, 0}};  // [side][half]
};
using Tally = std::unordered_map<std::uint64_t, Counts>;

// Runs [begin, end) of side `side`; run i uses its own seed and goes to half i & 1.
void
Sample(const Instance &in, const IntervalWorkload &w, const std::vector<double> &prior, int side,
       std::uint64_t base_seed, std::uint64_t begin, std::uint64_t end, Tally &tally)
{
	const std::vector<std::int64_t> &hist = side == 0 ? in.d1 : in.d2;
	for (std::uint64_t i = begin; i < end; i++) {
		SeededRandomSource rng(Mix(base_seed ^ Mix(i * 2 + std::uint64_t(side))));
		const PmwResult r = RunPmw(w, hist, prior, in.params, rng);
		tally[OutputKey(r)].c[side][i & 1]++;
	}
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

// One-sided Clopper-Pearson bounds at level 1 - a.
double
LowerBound(std::uint64_t x, std::uint64_t n, double a)
{
	if (x == 0)
		return 0.0;
	return boost::math::quantile(boost::math::beta_distribution<double>(double(x), double(n - x + 1)), a);
}

double
UpperBound(std::uint64_t x, std::uint64_t n, double a)
{
	if (x >= n)
		return 1.0;
	return boost::math::quantile(boost::math::beta_distribution<double>(double(x + 1), double(n - x)), 1.0 - a);
}

// ln((p1_lcb - delta) / p2_ucb), each bound at 1 - (1 - kConfidence)/2.
double
EpsilonLowerBound(std::uint64_t x1, std::uint64_t n1, std::uint64_t x2, std::uint64_t n2, double delta)
{
	const double a = (1.0 - kConfidence) / 2.0;
	const double lo = LowerBound(x1, n1, a) - delta;
	if (!(lo > 0.0))
		return -INFINITY;
	return std::log(lo / UpperBound(x2, n2, a));
}

struct Verdict {
	double eps_lb = -INFINITY;       // on the evaluation half
	double eps_point = NAN;          // ln(p1_hat / p2_hat) of the same event on the evaluation half
	double select_lb = -INFINITY;    // on the selection half
	int direction = 0;               // 0: P[M(D) in E] / P[M(D') in E]; 1: the reverse
	std::size_t event_size = 0;      // outcomes in E
	std::size_t outcomes = 0;
	double p_num = 0, p_den = 0;     // empirical probabilities on the evaluation half
};

Verdict
Analyse(const Tally &tally, std::uint64_t per_half, double delta)
{
	struct Row {
		std::uint64_t sel[2], ev[2];
	};
	std::vector<Row> rows;
	rows.reserve(tally.size());
	for (const auto &kv : tally)
		rows.push_back({{kv.second.c[0][0], kv.second.c[1][0]}, {kv.second.c[0][1], kv.second.c[1][1]}});
	Verdict v;
	v.outcomes = rows.size();
	std::vector<std::size_t> chosen;
	for (int dir = 0; dir < 2; dir++) {
		const int num = dir, den = 1 - dir;
		std::vector<std::size_t> idx(rows.size());
		for (std::size_t i = 0; i < idx.size(); i++)
			idx[i] = i;
		// Two orders of the outcomes, each giving a nested family of events (its prefixes): by the smoothed
		// empirical ratio, and by the outcome's own Clopper-Pearson bound (which keeps rare outcomes last).
		for (int order = 0; order < 2; order++) {
		std::vector<double> key(rows.size());
		for (std::size_t i = 0; i < rows.size(); i++)
			key[i] = order == 0 ? (double(rows[i].sel[num]) + 0.5) / (double(rows[i].sel[den]) + 0.5)
			                    : EpsilonLowerBound(rows[i].sel[num], per_half, rows[i].sel[den], per_half, 0.0);
		std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return key[a] > key[b]; });
		std::uint64_t x = 0, y = 0;
		for (std::size_t k = 0; k < idx.size(); k++) {
			x += rows[idx[k]].sel[num];
			y += rows[idx[k]].sel[den];
			if (x < kMinEventCount)
				continue;
			const double lb = EpsilonLowerBound(x, per_half, y, per_half, delta);
			if (lb > v.select_lb) {
				v.select_lb = lb;
				v.direction = dir;
				chosen.assign(idx.begin(), idx.begin() + std::ptrdiff_t(k + 1));
			}
		}
		}
	}
	const int num = v.direction, den = 1 - v.direction;
	std::uint64_t x = 0, y = 0;
	for (std::size_t i : chosen) {
		x += rows[i].ev[num];
		y += rows[i].ev[den];
	}
	v.event_size = chosen.size();
	v.eps_lb = chosen.empty() ? -INFINITY : EpsilonLowerBound(x, per_half, y, per_half, delta);
	v.p_num = double(x) / double(per_half);
	v.p_den = double(y) / double(per_half);
	v.eps_point = std::log(v.p_num / v.p_den);
	return v;
}

// ---------------------------------------------------------------------------------------------------------

std::string
Fmt(double x, const char *f = "%.3f")
{
	if (std::isinf(x))
		return x > 0 ? "inf" : "-inf";
	if (std::isnan(x))
		return "nan";
	char buf[64];
	std::snprintf(buf, sizeof buf, f, x);
	return buf;
}

}  // namespace

int
main(int argc, char **argv)
{
	bool full = false;
	std::uint64_t runs_override = 0, seed = 20240601;
	unsigned threads = std::max(1u, std::thread::hardware_concurrency());
	std::string only;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		auto next = [&]() -> std::string {
			if (i + 1 >= argc) {
				std::fprintf(stderr, "missing value after %s\n", a.c_str());
				std::exit(2);
			}
			return argv[++i];
		};
		if (a == "--full")
			full = true;
		else if (a == "--runs")
			runs_override = std::stoull(next());
		else if (a == "--threads")
			threads = unsigned(std::stoul(next()));
		else if (a == "--only")
			only = next();
		else if (a == "--seed")
			seed = std::stoull(next());
		else {
			std::fprintf(stderr, "usage: %s [--full] [--runs N] [--threads T] [--only SUBSTRING] [--seed S]\n",
			             argv[0]);
			return 2;
		}
	}
	// Runs per side (both halves together); the full run uses 10x the bounded one.
	const std::uint64_t base_runs = runs_override ? runs_override : (full ? 1000000 : 200000);
	std::vector<Instance> instances = MakeInstances();

	std::printf("PMW / sparse-vector privacy audit: %s mode, %u threads, seed %" PRIu64 ", confidence %.0f%% "
	            "(Clopper-Pearson, one-sided, union bound over p1 and p2)\n",
	            full ? "full" : "bounded", threads, seed, kConfidence * 100);
	std::printf("%-30s | %-38s | %5s | %6s | %6s | %9s | %8s | %-s\n", "mechanism", "instance", "eps", "delta",
	            "eps_lb", "point", "runs/side", "verdict");
	std::printf("%s\n", std::string(150, '-').c_str());

	int failures = 0;
	const auto t_all = std::chrono::steady_clock::now();
	for (std::size_t k = 0; k < instances.size(); k++) {
		const Instance &in = instances[k];
		if (!only.empty() && (in.mechanism + " " + in.name).find(only) == std::string::npos)
			continue;
		const std::uint64_t runs = std::uint64_t(double(base_runs) * in.runs_scale) & ~std::uint64_t(1);
		const IntervalWorkload w(in.queries, in.cells);
		const std::vector<double> prior = UniformPrior(in.cells);
		const std::uint64_t inst_seed = Mix(seed ^ Mix(k + 1));
		const auto t0 = std::chrono::steady_clock::now();
		std::vector<Tally> tallies(threads);
		std::vector<std::thread> pool;
		std::exception_ptr error;
		for (unsigned t = 0; t < threads; t++) {
			pool.emplace_back([&, t]() {
				try {
					const std::uint64_t b = runs * t / threads, e = runs * (t + 1) / threads;
					for (int side = 0; side < 2; side++)
						Sample(in, w, prior, side, inst_seed, b, e, tallies[t]);
				} catch (...) {
					error = std::current_exception();
				}
			});
		}
		for (std::thread &th : pool)
			th.join();
		if (error)
			std::rethrow_exception(error);
		Tally &tally = tallies[0];
		for (unsigned t = 1; t < threads; t++)
			for (const auto &kv : tallies[t])
				for (int s = 0; s < 2; s++)
					for (int h = 0; h < 2; h++)
						tally[kv.first].c[s][h] += kv.second.c[s][h];
		const Verdict v = Analyse(tally, runs / 2, in.delta);
		const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

		std::string verdict;
		const double margin = v.eps_lb - in.epsilon;
		switch (in.expect) {
		case Expect::Private:
			verdict = margin <= 0 ? "PASS (eps_lb <= eps)" : "FAIL: violation";
			failures += margin > 0;
			break;
		case Expect::Violation:
			verdict = margin > 0 ? "CAUGHT by " + Fmt(margin) : "MISSED: harness too weak";
			failures += margin <= 0;
			break;
		case Expect::Informational:
			verdict = margin <= 0 ? "not detected (informational)" : "detected by " + Fmt(margin);
			break;
		}
		std::printf("%-30s | %-38s | %5s | %6s | %6s | %9s | %9" PRIu64 " | %s  [E: %zu of %zu outcomes, %s, "
		            "p=%.4f/%.4f, select %s, %.1fs]\n",
		            in.mechanism.c_str(), in.name.c_str(), Fmt(in.epsilon, "%.2f").c_str(),
		            Fmt(in.delta, "%.0e").c_str(), Fmt(v.eps_lb).c_str(), Fmt(v.eps_point).c_str(), runs,
		            verdict.c_str(), v.event_size, v.outcomes, v.direction == 0 ? "D/D'" : "D'/D", v.p_num, v.p_den,
		            Fmt(v.select_lb).c_str(), secs);
		std::fflush(stdout);
	}
	const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();
	std::printf("%s\n", std::string(150, '-').c_str());
	std::printf("audit: %s, %.1f s\n", failures ? "FAILED" : "all mechanisms within claimed epsilon, all broken "
	                                                            "variants caught",
	            total);
	return failures ? 1 : 0;
}
