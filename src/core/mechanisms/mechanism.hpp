// The contract every mechanism over the cells keeps (docs/mechanisms.md §10): it is planned from public inputs only
// (whether it applies, its predicted error, what it spends and the parameters its run will use), then run on the
// private counts with exactly those parameters. The registry (registry.hpp) lists the mechanisms; the release
// engine plans every one on the same inputs, chooses, and runs the chosen one through this interface.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

class CellDomain;
class ProductQueryList;

// What a plan's noise actually spends, from the exact rational scales the samplers draw with, rounded up: never
// more than the request (epsilon, delta), and delta 0 for a pure mechanism. accounting names the analysis (a
// static string: "pure (Lyu-Su-Li sparse vector)", "zCDP sparse vector (tight conversion)", ...).
struct PrivacyUsed {
	double epsilon = 0, delta = 0;
	const char *accounting = "";
	// A zCDP-accounted plan's rho (its epsilon and delta are then the conversion's); 0 for a pure plan, whose zCDP
	// cost is epsilon^2 / 2 (docs/mechanisms.md, "zCDP budgets").
	double rho = 0;
};

// The sizes and parameters every planner reads, all public.
struct PlanInput {
	std::int64_t private_rows = 0;  // n (public under replace-one neighbours)
	std::int64_t public_rows = 0;   // m, rows of the public table (NULLs included)
	std::size_t cover_size = 0;     // |H~|
	std::size_t cells = 0;          // |X~|
	int vc_dimension = 1;           // of the query class
	double epsilon = 0.0;
	double delta = 0.0;
	// > 0 for a run on a zCDP budget (docs/mechanisms.md, "zCDP budgets"): rho = epsilon^2 / 2, what a pure plan at
	// epsilon costs, and the zCDP budget the zCDP variants spend instead of the tight conversion's of (epsilon,
	// delta); delta is then the budget's, at which their cost is reported.
	double rho = 0.0;
	double alpha = 0.05;
	double beta = 0.05;  // the chance the mechanism's noise may exceed its prediction
	// The request's beta when beta above is only its noise's share (the engine plans with half of it, the data
	// parts of the error model take the other half: error_model.hpp); 0 when beta is the request's.
	double request_beta = 0;
	bool uniform_prior = false;  // MW starts from uniform instead of the public prior
	// How many CDF values answer a query of the class (thresholds 1, ranges 2; 0 for other classes): the prior's
	// sampling error is then Dvoretzky-Kiefer-Wolfowitz's rather than a union over the cover.
	int cdf_count = 0;
	// The prior's sampling error estimated from the public sample (prior_bootstrap.hpp, fraction), which
	// PublicOnlyError takes when below its union bound; negative when not estimated (a uniform prior, a cover too
	// large to list or to resample within the bootstrap's budget).
	double prior_sampling_estimate = -1.0;
	// The public rows the prior stands on: those in the cells a row can hold (a public row in a closed cell, a NULL
	// where the private column is NOT NULL, is no private row's and the prior is conditioned away from it); negative:
	// all public_rows.
	std::int64_t prior_public_rows = -1;
	std::int64_t
	PriorPublicRows() const
	{
		return prior_public_rows >= 0 ? prior_public_rows : public_rows;
	}
	double
	RequestBeta() const
	{
		return request_beta > 0 ? request_beta : beta;
	}
};

// The smallest epsilon, delta > 0 and beta accepted, and the largest epsilon (docs/reference.md). kMinEpsilon: PMW's
// sparse vector at cut-off 1 needs a discrete Laplace of scale about 3.26 / epsilon, and the exact sampler represents
// scales up to 2^32 (about 4.29e9), so every plan has PMW from 1e-9 up (MWEM, identity and hierarchical too, where
// their noise fits; otherwise they do not apply). kMinDelta keeps ln(1/delta) finite; kMinBeta keeps beta's logarithms,
// its quotients by the comparison count and the normal quantile at beta / |H~| inside a double. (1e-9 and 1e-300 less
// a relative 1e-12: a run of epsilon 1e-9 uses the double just below the ledger's decimal 1e-09, and a delta of
// 1e-300, whose double is above the decimal, is rounded down to the ledger's 15 digits before it is checked again.)
constexpr double kMinEpsilon = 1e-9 * (1.0 - 1e-12);
constexpr double kMaxEpsilon = 1e300;  // 2 x the zCDP rho of an epsilon near the double maximum overflows
constexpr double kMinDelta = 1e-300 * (1.0 - 1e-12);
constexpr double kMinBeta = 1e-100;

// Error(InvalidParameter) unless epsilon is in [kMinEpsilon, kMaxEpsilon] and delta is 0 or in [kMinDelta, 1).
// Every finite epsilon above is planned (the noise scales round to the samplers' smallest, 2^-20).
void ValidatePrivacyParameters(double epsilon, double delta);
// Error(InvalidParameter) unless alpha is in (0, 1) and beta in [kMinBeta, 1): define_release checks them before
// anything is stored, every planner again.
void ValidateAccuracyParameters(double alpha, double beta);
// Its check of beta alone, for what takes no alpha (a private quantile's guard rail).
void ValidateBeta(double beta);
// Every planner's checks: the privacy parameters, alpha and beta in (0, 1) (Error(InvalidParameter));
// Error(DataException) for no private rows, no public rows, no cover query or no cell.
void ValidatePlanInput(const PlanInput &input);
// A plan's spend against what its request allows, before any report caps it: a pure plan (rho 0) at most epsilon
// and no delta; a zCDP plan at most allowed_rho, the rho its noise was calibrated to (LargestZcdpRho(epsilon,
// delta), or epsilon^2 / 2 on a zCDP budget). Error(Internal) otherwise: a plan above its request is a bug, refused
// before any charge rather than charged as the request. A relative 1e-9 is left for the last bits of the
// conversions, far below any rounding margin of the noise.
void RequireSpendWithinRequest(const PrivacyUsed &used, double epsilon, double allowed_rho);

// The release's public shape, read from its stored layout alone: whether a mechanism can run on it is decided from
// this before anything is charged.
struct ReleaseShape {
	bool full_grid = false;             // every grid point is a cell (not the public support)
	std::vector<std::int32_t> radices;  // bins per axis
	std::vector<bool> ordered;          // per axis: its bins are ordered (a numeric column or a halfspace direction)
	// The order k of the marginal tables every query of the class reads one cell of: k for marginals(k; ...), 1 for
	// stumps and predicates (one bin of one axis); 0 for the other classes.
	int marginal_order = 0;
};

// Everything a mechanism plans from, all public.
struct PlanContext {
	PlanInput input;
	ReleaseShape shape;
	std::size_t max_query_cells = 0;  // the most cells one cover query spans
	// The cells each listed cover query spans, in the cover's order (empty when the cover is too large to list: the
	// widest queries then stand for all, through max_query_cells).
	std::vector<std::int64_t> cover_query_cells;
	const CellDomain *domain = nullptr;  // the release's cells
	// Per cell: no row can hold it (ReleaseLayout::ClosedCells: the "other" bin of a closed categorical axis), empty
	// when none is. Identity measures only the others; max_query_cells and cover_query_cells count only the others.
	std::vector<bool> closed_cells;
	// Its cover queries over them, or nullptr when the cover has more than pap_release.max_cover_queries queries
	// (input.cover_size): a mechanism that reads every cover query then does not apply (kCoverTooLarge), the
	// others plan from the sizes and the cells (docs/query-classes.md, "Covers too large to list").
	const ProductQueryList *cover = nullptr;
	// The public table's rows per domain cell, computed when a planner asks for it.
	std::function<std::vector<std::int64_t>()> public_histogram;
	// The data parts of the error model that depend on the release alone (error_model.hpp): a query of the class
	// against its cover query, and the private mass outside a public-support domain.
	double projection_error = 0;
	double outside_mass_error = 0;
	// A query of the class can be answered from its own cells (marginals and stumps on a full grid, without a
	// declared domain): a mechanism that measures every cell then answers every query of the class with its noise
	// part alone, no projection part but own_cells_error (docs/mechanisms.md §10, "The answer mode").
	bool cells_answerable = false;
	// Part (a) of such answers: a query naming a value its column's categories do not hold (unseen, or folded to fit
	// the cell limit) reads half its axis's "other" bin (release/answer_mode.hpp's AnswerModeErrors::own_cells).
	double own_cells_error = 0;
};

// What a plan fixes for its run, opaque to all but its mechanism: a trivially copyable value of the mechanism's own
// type, held by value, so that a plan stays plain data the glue can hold across PostgreSQL calls
// (docs/architecture.md, "The wall").
class MechanismParameters {
public:
	static constexpr std::size_t kCapacity = 256;

	template <typename T>
	static MechanismParameters
	Of(const T &value)
	{
		static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kCapacity &&
		                  alignof(T) <= alignof(std::max_align_t),
		              "a mechanism's parameters are a small trivially copyable value");
		MechanismParameters p;
		p.tag_ = &kTag<T>;
		std::memcpy(p.bytes_, &value, sizeof(T));
		return p;
	}

	// The value Of stored; Error(Internal) when it was stored as another type (a plan of another mechanism).
	template <typename T>
	T
	As() const
	{
		if (tag_ != &kTag<T>)
			throw Error(ErrorKind::Internal, "a mechanism was given the parameters of another");
		T value;
		std::memcpy(&value, bytes_, sizeof(T));
		return value;
	}

private:
	template <typename T>
	static constexpr char kTag = 0;  // one address per type (an inline variable: the same in every file)
	const char *tag_ = nullptr;
	alignas(std::max_align_t) unsigned char bytes_[kCapacity] = {};
};

// A mechanism's plan for one release.
struct MechanismPlan {
	bool applies = false;
	const char *reason = "";  // when it does not apply: why not (a static sentence without its final period)
	// Max error over the whole query class, fraction of n, w.p. 1 - beta of the request: parts.Total().
	double predicted_error = 0;
	ErrorParts parts;
	PrivacyUsed used;  // what its run spends (a run is charged this)
	MechanismParameters parameters;
	const char *detail = nullptr;  // the name of one number pap.plan shows beside the prediction, or nullptr
	std::int64_t detail_value = 0;
	// Its answers read each query's own cells (the answer mode "refine"): set on a cells-answerable release for the
	// mechanisms that measure every cell.
	bool answers_from_cells = false;
	// Its prediction holds a part for a prior estimated from the public sample (parts.prior > 0 from the public
	// prior): that part is the sampling error of a sample drawn like the private table, which no public information
	// confirms (docs/mechanisms.md §10, "A near tie goes to a prediction that does not rest on the public sample").
	bool rests_on_public_sample = false;
};
MechanismPlan NotApplicable(const char *reason);
// Sets a plan's parts and its total from the mechanism's own max error over the cover queries (noise) and the prior
// it starts from (prior_error, 0 for none): the release's projection part for every mechanism; the outside mass
// only for those that release the cell histogram (identity, hierarchical, marginal_tables): the MW mechanisms fit
// the cover queries' true answers, which count the rows outside the support (docs/mechanisms.md §10). The
// mechanisms that release the cell histogram measure every cell (or every marginal table of the class), so on a
// cells-answerable release they answer from each query's own cells, without the projection part; the MW mechanisms
// correct the cover queries only, and answer by projection.
void SetErrorParts(MechanismPlan &plan, const PlanContext &context, double noise, double prior_error,
                   bool fits_cover_answers);
constexpr const char *kNoiseTooLarge = "its noise at this epsilon is too large to sample exactly";
constexpr const char *kCoverTooLarge = "it reads every cover query, and the cover (cover_size) has more queries than "
                                       "pap_release.max_cover_queries lets a plan list";

// What a run reads. The private rows come in the forms the mechanisms read, those that cost a pass computed only
// when the chosen mechanism asks for them.
struct RunInput {
	std::int64_t rows = 0;                                      // n >= 1 (public under replace-one)
	const std::vector<std::int64_t> *cell_histogram = nullptr;  // private rows per domain cell (sums to n)
	const std::vector<std::int32_t> *radices = nullptr;         // the grid's bins per axis
	const std::vector<bool> *closed_cells = nullptr;            // PlanContext::closed_cells; nullptr: none
	// The exact private count of every cover query (a row outside a public-support domain counts in them too).
	std::function<std::vector<std::int64_t>()> cover_counts;
	std::function<std::vector<double>()> prior;  // the distribution MW starts from: public
	// The cover over the domain's cells, built when asked for: the mechanism's timing starts there (the true
	// counts and the prior are not the mechanism's work).
	std::function<const Workload &()> workload;
	RandomBitSource *rng = nullptr;
	InterruptCheck interrupted = nullptr;
};

// Counts of the mechanism's own steps, for the run's details (public: functions of its private output).
struct RunStatistics {
	std::int64_t updates = 0, comparisons = 0;  // pmw; mwem: updates = rounds
	int passes = 0;
	bool cutoff_reached = false;
	// The noise part of answers' error bounds as the run's outcome shows it, replacing the plan's noise_error
	// (docs/mechanisms.md §18); NaN where the plan's part stands. PMW: PmwConvergedError after a run that
	// converged, else 1 (a run stopped by its cut-off bounds nothing it did not correct).
	double bound_noise = std::numeric_limits<double>::quiet_NaN();
};

struct MechanismRun {
	std::vector<double> synthetic;  // over the domain's cells, sums to 1
	RunStatistics statistics;
};

class Mechanism {
public:
	virtual ~Mechanism() = default;
	// Its name in SQL (mechanism => '...', pap.plan's predictions), lowercase.
	virtual const char *Name() const = 0;
	// nullptr when it can run on a release of this shape, otherwise why not (a static sentence without its final
	// period). Checked before the charge, and by the plan before Plan is called.
	virtual const char *
	ShapeRefusal(const ReleaseShape &) const
	{
		return nullptr;
	}
	// From public inputs only. Invalid inputs throw as ValidatePlanInput; noise too large to sample exactly is a plan
	// that does not apply (kNoiseTooLarge), except for a mechanism that always applies within the validated ranges.
	virtual MechanismPlan Plan(const PlanContext &context) const = 0;
	// Runs with the parameters of its own plan (a MechanismPlan::parameters of this mechanism) on n >= 1 rows.
	// Throws only Error(Cancelled), std::bad_alloc, Error(RandomSourceFailure) and Error(Internal).
	virtual MechanismRun Run(const MechanismParameters &parameters, const RunInput &input) const = 0;
	// The mechanism whose near ties (near_tie.hpp's kNearTie) auto gives to this one when that one predicts the
	// smallest error, or nullptr: where this one's prediction is known to stand further above what it measures than
	// that one's (registry.hpp, AutoChoice). Public, fixed per mechanism.
	virtual const Mechanism *
	TakesNearTiesFrom() const
	{
		return nullptr;
	}
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
