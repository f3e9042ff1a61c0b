// The empirical privacy audit's estimator (docs/audit.md),
// shared by every audited mechanism. A case is a black box: a sampler that runs the product's mechanism once on
// side 0 (D) or side 1 (D', a replace-one neighbour) with the random source it is given, and returns a 64-bit key
// of what it observed (a function of the released output only: post-processing, so any event on the key is an
// event on the output).
//
// Method (DP-Sniper / StatDP style, with an exact "classifier" since the keys are discrete): the runs of each
// side are split in two halves. On the first half the keys are sorted by their empirical likelihood ratio (for
// an ordered key: by the key itself, giving threshold events) and the best prefix set E, in either direction, is
// chosen by its Clopper-Pearson bound; that one event is then evaluated on the second half, which it never saw:
//   eps_lb = ln((p1_lcb - delta) / p2_ucb),
// p1_lcb the one-sided lower bound on P[M(D) in E] and p2_ucb the upper bound on P[M(D') in E], each at 97.5%
// (union bound: the pair holds with 95%). A mechanism is accepted when eps_lb <= claimed epsilon; a deliberately
// broken variant is caught when eps_lb > claimed epsilon.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/noise/random_source.hpp"

namespace pap::audit {

enum class Expect { Private, Violation, Informational };

// side 0 = D, side 1 = D'. Called concurrently from several threads: must not mutate shared state.
using Sampler = std::function<std::uint64_t(int side, pap::core::RandomBitSource &rng)>;

struct AuditCase {
	std::string mechanism;  // column "mechanism" of the table
	std::string name;       // column "instance"
	double epsilon = 1.0;   // claimed
	double delta = 0.0;     // claimed
	Expect expect = Expect::Private;
	double runs_scale = 1.0;   // multiplies the per-side run count of the mode
	bool ordered_key = false;  // keys are OrderedKey values: the candidates are {key >= t} and {key <= t}
	// The claim is epsilon-bounded range (delta 0), which an epsilon-DP exponential mechanism's zCDP accounting
	// (epsilon^2 / 8) rests on: ln P[M(D) = o] / P[M(D') = o] varies by at most epsilon over the outcomes o. eps_lb
	// is then a lower bound on that range (audit_estimator.cpp, Analyse).
	bool bounded_range = false;
	Sampler sample;
};

struct AuditOptions {
	bool full = false;
	std::uint64_t runs_override = 0;  // runs per side of a case with runs_scale 1; 0 = the mode's
	unsigned threads = 1;
	std::string only;  // run the cases whose "mechanism name" contains this
	std::uint64_t seed = 20240601;
};

// SplitMix64's finaliser: seeds and digests.
std::uint64_t Mix(std::uint64_t x);

// Digest of a vector of doubles, bit for bit (the exact serialisation of an output), chained onto h.
std::uint64_t HashDoubles(std::uint64_t h, const std::vector<double> &values);

// An order-preserving key for a scalar statistic: round(x / quantum), as an unsigned key whose order is the
// order of the statistic. Error(Internal)-free: a non-finite x maps to the largest key.
std::uint64_t OrderedKey(double x, double quantum);

// Runs every case (index k gets the seed Mix(seed ^ Mix(k + 1)), run i of side s the random source
// SeededRandomSource(Mix(case_seed ^ Mix(2 i + s)))), prints the table, returns the number of failures (a
// violation or a missed broken variant).
int RunAudit(const std::vector<AuditCase> &cases, const AuditOptions &options);

}  // namespace pap::audit
