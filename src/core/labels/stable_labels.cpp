#include "core/labels/stable_labels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <boost/math/distributions/binomial.hpp>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/noise/discrete_laplace.hpp"

namespace pap::core {

namespace {

// P[X <= x] for X discrete Laplace of scale b: q^{-x}/(1+q) below 0, 1 - q^{x+1}/(1+q) from 0 (q = e^{-1/b}).
double
DiscreteLaplaceCdf(double x, double b)
{
	const double q = std::exp(-1.0 / b);
	if (x < 0)
		return std::exp(x / b) / (1.0 + q);
	return 1.0 - std::exp(-(std::floor(x) + 1.0) / b) / (1.0 + q);
}

// The smallest integer t >= 0 with P[X >= t] = q^t / (1+q) <= tail for X discrete Laplace of scale b (an upper
// bound: q^t <= tail suffices). The relative margin absorbs the rounding of the logarithm.
std::int64_t
TailPoint(double b, double tail)
{
	const double t = std::ceil(b * std::log(1.0 / tail) * (1.0 + 1e-9));
	if (!(t < 9e15))
		throw Error(ErrorKind::LimitExceeded, "the labelling's threshold is too large to represent");
	return std::max<std::int64_t>(0, std::int64_t(t));
}

}  // namespace

std::vector<std::int32_t>
RandomPermutation(std::int64_t n, RandomBitSource &rng)
{
	if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
		throw Error(ErrorKind::LimitExceeded, "too many rows to permute", "A labelling reads at most 2147483647 rows.");
	std::vector<std::int32_t> p(static_cast<std::size_t>(n));
	std::iota(p.begin(), p.end(), 0);
	std::uint64_t steps = 0;
	for (std::int64_t i = n - 1; i > 0; i--) {
		PollInterrupt(steps);
		std::swap(p[std::size_t(i)], p[std::size_t(SampleUniformBelow(rng, std::uint64_t(i) + 1))]);
	}
	return p;
}

std::vector<std::int32_t>
AssignChunks(std::int64_t rows, std::int64_t chunks, RandomBitSource &rng)
{
	if (chunks < 1 || chunks > std::numeric_limits<std::int32_t>::max())
		throw Error(ErrorKind::Internal, "chunk count out of range");
	// Position i of a uniformly random permutation goes to chunk (its image mod k): every balanced assignment of
	// positions is equally likely.
	std::vector<std::int32_t> chunk = RandomPermutation(rows, rng);
	for (std::int32_t &c : chunk)
		c = std::int32_t(std::int64_t(c) % chunks);
	return chunk;
}

VoteTally
TallyVotes(const std::vector<std::int64_t> &votes)
{
	VoteTally t;
	if (votes.empty())
		return t;
	for (std::size_t c = 1; c < votes.size(); c++)
		if (votes[c] > votes[std::size_t(t.top)])
			t.top = std::int32_t(c);
	std::int64_t second = 0;
	for (std::size_t c = 0; c < votes.size(); c++)
		if (std::int32_t(c) != t.top)
			second = std::max(second, votes[c]);
	t.margin = votes[std::size_t(t.top)] - second;
	return t;
}

LabellingPlan
PlanLabelling(const LabellingRequest &r)
{
	const InterruptScope scope(r.interrupted);
	if (!(r.epsilon > 0.0) || !std::isfinite(r.epsilon))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be positive and finite");
	if (!(r.delta > 0.0) || !(r.delta < 1.0))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1) for a labelling",
		            "A stable label is released exactly; a row whose vote one private row could flip is released "
		            "with a probability of at most delta, so a labelling is (epsilon, delta)-DP with delta > 0.",
		            "Pass a small delta, such as 1e-6.");
	if (!(r.beta > 0.0) || !(r.beta < 1.0))
		throw Error(ErrorKind::InvalidParameter, "beta must be in (0, 1)");
	if (r.cutoff < 1 || r.cutoff > (std::int64_t(1) << 30))
		throw Error(ErrorKind::InvalidParameter, "cutoff must be between 1 and 1073741824");
	if (r.private_rows < 0 || r.public_rows < 0)
		throw Error(ErrorKind::Internal, "negative row count");
	if (r.chunks < 0 || r.chunks > std::numeric_limits<std::int32_t>::max())
		throw Error(ErrorKind::InvalidParameter, "chunks must be between 1 and 2147483647");
	if (r.margin_sensitivity < 1)
		throw Error(ErrorKind::Internal, "margin sensitivity must be positive");
	LabellingPlan p;
	p.cutoff = r.cutoff;
	p.epsilon = r.epsilon;
	p.delta = r.delta;
	// The sparse vector of Lyu, Su and Li (Algorithm 1) on queries of sensitivity s: threshold noise Lap(s/e1),
	// comparison noise Lap(2cs/e2), their optimal split e1 : e2 = 1 : (2c)^(2/3).
	const double c = double(r.cutoff), s = double(r.margin_sensitivity);
	p.epsilon_threshold = r.epsilon / (1.0 + std::pow(2.0 * c, 2.0 / 3.0));
	p.epsilon_compare = r.epsilon - p.epsilon_threshold;
	p.threshold_scale_asked = s / p.epsilon_threshold;
	p.compare_scale_asked = 2.0 * c * s / p.epsilon_compare;
	p.threshold_scale = ScaleAtLeast(p.threshold_scale_asked).value();
	p.compare_scale = ScaleAtLeast(p.compare_scale_asked).value();
	// The threshold w: a fragile row (margin <= s, whose top class a neighbour can change) is answered stable only
	// if nu - rho < s - w, which needs rho >= t1 or nu <= -t2 when w >= t1 + t2 + s; each has probability at most
	// delta/2 (rho once, nu over at most m rows).
	const double rows = double(std::max<std::int64_t>(r.public_rows, 1));
	const std::int64_t t1 = TailPoint(p.threshold_scale, r.delta / 2.0);
	const std::int64_t t2 = TailPoint(p.compare_scale, r.delta / (2.0 * rows));
	p.threshold = t1 + t2 + r.margin_sensitivity;
	// The fewest chunks with which a unanimous row is labelled with probability >= 1 - beta.
	std::int64_t lo = 1, hi = 1;
	while (UnanimousStableProbability(p, hi) < 1.0 - r.beta && hi < (std::int64_t(1) << 50))
		hi *= 2;
	while (lo < hi) {
		const std::int64_t mid = lo + (hi - lo) / 2;
		if (UnanimousStableProbability(p, mid) >= 1.0 - r.beta)
			hi = mid;
		else
			lo = mid + 1;
	}
	p.chunks_needed = lo;
	p.private_rows_needed = double(lo) * double(kMinChunkRows);
	if (r.chunks > 0) {
		if (r.chunks > std::max<std::int64_t>(r.private_rows, 1))
			throw Error(ErrorKind::InvalidParameter, "chunks must not exceed the number of private rows",
			            "The labelling asks for " + std::to_string(r.chunks) + " chunks of " +
			                std::to_string(r.private_rows) + " private rows.");
		p.chunks = r.chunks;
	} else {
		// Twice the fewest: a row is then still labelled when a quarter of the chunks vote against the majority;
		// never more chunks than leave kMinChunkRows rows each.
		const std::int64_t most = std::max<std::int64_t>(1, r.private_rows / kMinChunkRows);
		p.chunks = std::min(most, lo > most / 2 ? most : 2 * lo);
	}
	p.rows_per_chunk = double(r.private_rows) / double(p.chunks);
	// Expected labelled rows when every row is unanimous: each row is stable with probability ps (independently,
	// an approximation: the rows share rho), and the vector halts at the c-th unstable row.
	const double ps = UnanimousStableProbability(p, p.chunks), pu = 1.0 - ps;
	// Row i + 1 is reached when fewer than c of the i before it were unstable, P[Binomial(i, pu) <= c - 1] (1 for
	// i < c), and is then stable with probability ps: the sum over the m rows, one binomial CDF each (time O(m),
	// where a table of the counts so far cost O(m min(c, m))), until the rows left are out of reach.
	// With no unstable row the vector never halts (every row is reached); with no stable one it halts at the c-th.
	const std::int64_t always = pu <= 0.0 ? r.public_rows : std::min(r.cutoff, r.public_rows);
	double reached = double(always);
	std::uint64_t steps = 0;
	for (std::int64_t i = always; i < r.public_rows && pu < 1.0; i++) {
		PollInterrupt(steps);
		const double alive = boost::math::cdf(boost::math::binomial(double(i), pu), double(r.cutoff - 1));
		if (alive < 1e-12)
			break;
		reached += alive;
	}
	const double labelled = ps * reached;
	p.labelled_share_if_unanimous = r.public_rows > 0 ? std::min(1.0, labelled / double(r.public_rows)) : 0.0;
	return p;
}

double
UnanimousStableProbability(const LabellingPlan &plan, std::int64_t chunks)
{
	// Stable iff nu - rho < chunks - w, i.e. nu <= chunks - w - 1 + rho: summed over rho within 50 scales.
	const double b1 = plan.threshold_scale, b2 = plan.compare_scale;
	const double x = double(chunks) - double(plan.threshold) - 1.0;
	const std::int64_t reach = std::int64_t(std::ceil(50.0 * b1)) + 1;
	if (reach > 2000000) {
		// Too wide to sum (epsilon near 0): the comparison noise alone, a prediction only.
		return DiscreteLaplaceCdf(x, b2);
	}
	double p = 0.0;
	std::uint64_t steps = 0;
	for (std::int64_t r = -reach; r <= reach; r++) {
		PollInterrupt(steps);
		p += DiscreteLaplacePmf(r, b1) * DiscreteLaplaceCdf(x + double(r), b2);
	}
	return std::clamp(p, 0.0, 1.0);
}

StableLabelsResult
StableLabels(const std::vector<VoteTally> &tallies, const LabellingPlan &plan, RandomBitSource &rng)
{
	StableLabelsResult out;
	out.labels.assign(tallies.size(), -1);
	const DiscreteLaplaceSampler threshold_noise(ScaleAtLeast(plan.threshold_scale_asked));
	const DiscreteLaplaceSampler compare_noise(ScaleAtLeast(plan.compare_scale_asked));
	const std::int64_t rho = threshold_noise(rng);
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < tallies.size(); i++) {
		PollInterrupt(steps);
		if (out.unstable >= plan.cutoff) {
			out.cutoff_reached = true;
			break;
		}
		const std::int64_t nu = compare_noise(rng);
		out.reached++;
		// Integers throughout: -margin + nu >= -w + rho.
		if (-tallies[i].margin + nu >= -plan.threshold + rho)
			out.unstable++;
		else
			out.labels[i] = tallies[i].top;
	}
	if (out.unstable >= plan.cutoff)
		out.cutoff_reached = true;
	return out;
}

}  // namespace pap::core
