// The entry points of private labelling for the glue (docs/mechanisms.md §17): describe the features of a public
// table, plan a labelling from public numbers, run it on the private rows, and predict with the final model.
// Plain data crosses; every function may throw pap::core::Error.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/base/interrupt_scope.hpp"

namespace pap::core {

using LabelAllocate = void *(*)(std::size_t bytes);

// The learners a labelling may train: "cells" (the majority label of each cell of an axes layout learned from the
// public table) and "logistic" (multinomial logistic regression, numeric features standardised by their public
// mean and spread, categorical ones one-hot over their public categories).
enum class LearnerKind { Cells, Logistic };
LearnerKind ParseLearner(const char *name);  // Error(InvalidParameter) for an unknown name
const char *LearnerName(LearnerKind kind);

// Rows of feature values, row-major: numbers[r * feature_count + f] for a numeric feature (NaN for NULL),
// texts[...] for a categorical one (nullptr for NULL). The other array's entry is ignored.
struct LabelRows {
	std::size_t row_count = 0;
	std::size_t feature_count = 0;
	const bool *categorical = nullptr;  // per feature
	const double *numbers = nullptr;
	const char *const *texts = nullptr;
	// When set, categorical features come as bins instead of texts: 0..C-1 the feature's categories (byte order),
	// C "other", C + 1 NULL, as pap.category_index returns them (the private rows: their texts never reach C).
	const std::int32_t *bins = nullptr;
};

// What pap.label_data stores of the public table: per feature its centre and spread (numeric: public mean and
// standard deviation, 1 when zero), its cut points (numeric: the public quartiles; concatenated, cut_counts per
// feature) and its categories (categorical: the public categories in byte order; concatenated).
struct LabelSchemaData {
	std::size_t feature_count = 0;
	const bool *categorical = nullptr;
	const double *centers = nullptr;
	const double *spreads = nullptr;
	const std::int32_t *cut_counts = nullptr;
	const double *cuts = nullptr;
	std::size_t cut_total = 0;
	const std::int32_t *category_counts = nullptr;
	const char *const *categories = nullptr;
	std::size_t category_total = 0;
	std::int64_t cell_count = 0;  // cells of the layout (the cells learner's size)
};

// Learns the schema from the public rows (at least one; each feature needs a non-NULL public value). The arrays
// are allocated with allocate. Error(LimitExceeded) when the cells learner's layout has more than cell_limit cells.
LabelSchemaData DescribeLabelSchema(const LabelRows &public_rows, LearnerKind learner, std::uint64_t cell_limit,
                                    LabelAllocate allocate);

// Error(LimitExceeded) when a run over this schema, these classes and this many public rows would hold more than a
// run may (the cells learner's layout past 2^24 cells, or more than 2^26 counts in one chunk's model, in the votes
// or in the logistic weights). Public numbers only: define and run call it before anything is charged.
void RequireLabellingFits(const LabelSchemaData &schema, LearnerKind learner, std::int32_t class_count,
                          std::int64_t public_rows);
// Error(LimitExceeded) when the run's training and votes would take more than 2^36 steps (minutes of work after the
// charge): k chunk models (cells x classes each for the cells learner; 200 steps over the weights and the chunk's
// rows for the logistic one) and m x k votes. Public numbers only: the run calls it before the charge.
void RequireLabellingWorkFits(const LabelSchemaData &schema, LearnerKind learner, std::int32_t class_count,
                              std::int64_t public_rows, std::int64_t private_rows, std::int64_t chunks);

// --- plan: public numbers only -----------------------------------------------------------------------------------
struct LabellingRequest {
	std::int64_t private_rows = 0;  // n, public under replace-one (docs/mechanisms.md §1)
	std::int64_t public_rows = 0;   // m
	std::int64_t chunks = 0;        // k; 0: chosen from the other numbers (LabellingPlan.chunks)
	std::int64_t cutoff = 0;        // c: unstable rows before the sparse vector halts (>= 1)
	double epsilon = 0, delta = 0, beta = 0.05;
	// Sensitivity of the vote margin: 2 (one private row changes one chunk, so one vote). Tests set 1 to build
	// the broken variant the privacy audit must catch; the glue never sets it.
	std::int64_t margin_sensitivity = 2;
	InterruptCheck interrupted = nullptr;  // polled by the plan's sums (a small epsilon makes them long)
};
struct LabellingPlan {
	std::int64_t chunks = 0;
	std::int64_t cutoff = 0;
	double epsilon = 0, delta = 0;
	double epsilon_threshold = 0, epsilon_compare = 0;          // the sparse vector's split
	double threshold_scale = 0, compare_scale = 0;              // discrete Laplace scales, as sampled (rounded up)
	double threshold_scale_asked = 0, compare_scale_asked = 0;  // before rounding: the run rounds them alike
	std::int64_t threshold = 0;                                 // w: a row is labelled when its margin beats w + noise
	std::int64_t chunks_needed = 0;      // the fewest chunks with which a unanimous row is labelled w.p. >= 1 - beta
	double private_rows_needed = 0;      // chunks_needed * kMinChunkRows
	double labelled_share_if_unanimous;  // expected share of public rows labelled when every chunk votes alike
	double rows_per_chunk = 0;           // n / k
};
constexpr std::int64_t kMinChunkRows = 10;
// Error(InvalidParameter) for epsilon or delta outside (0, inf) x (0, 1), cutoff < 1, chunks < 0 or > n.
LabellingPlan PlanLabelling(const LabellingRequest &request);

// --- run -----------------------------------------------------------------------------------------------------------
struct LabellingRunRequest {
	const LabelSchemaData *schema = nullptr;
	LearnerKind learner = LearnerKind::Cells;
	std::int32_t class_count = 0;
	LabelRows private_rows;
	const std::int32_t *private_labels = nullptr;  // class per private row, -1 when it has none (NULL, unlisted)
	LabelRows public_rows;
	std::int64_t seed = -1;  // >= 0: a seeded, NOT private run (tests)
	bool (*fill_secure)(void *, unsigned char *, std::size_t) = nullptr;
	InterruptCheck interrupted = nullptr;
};
struct LabellingOutcome {
	std::int32_t *labels = nullptr;  // per public row, in input order: its class, or -1 (unstable or not reached)
	std::int64_t labelled = 0;
	std::int64_t unstable = 0;
	std::int64_t reached = 0;  // public rows the sparse vector answered before it halted
	bool cutoff_reached = false;
	double *model = nullptr;  // the final model's parameters; nullptr when no row was labelled
	std::size_t model_size = 0;
	std::int64_t private_rows = 0;  // as scanned
};
LabellingOutcome RunLabelling(const LabellingRunRequest &request, const LabellingPlan &plan, LabelAllocate allocate);

// The final model's class for one row of feature values (row_count 1), with the schema and the model prepared once
// for many rows (pap.predict keeps one per call site: its schema holds every category of every feature, built again
// per row it took milliseconds).
class LabelPredictor;
LabelPredictor *MakeLabelPredictor(const LabelSchemaData &schema, LearnerKind learner, std::int32_t class_count,
                                   const double *model, std::size_t model_size);
std::int32_t PredictWith(const LabelPredictor *predictor, const LabelRows &row);
void FreeLabelPredictor(LabelPredictor *predictor) noexcept;

}  // namespace pap::core

#include "core/base/core_only.hpp"
