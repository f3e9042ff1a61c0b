// The core's entry points for the PostgreSQL glue. Everything crosses this boundary as plain data (pointers,
// numbers, C strings) so that the glue never holds a C++ object while it calls PostgreSQL: a PostgreSQL error
// longjmps, and must not jump over destructors (reference/anchors-pgext.md §7-8). Every function may throw
// pap::core::Error; the glue catches it in one place (src/pg/error_bridge.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/cover.hpp"
#include "core/pmw.hpp"
#include "core/random_source.hpp"

namespace pap::core {

// Allocates memory owned by the caller; returns nullptr on failure and never throws or longjmps
// (the glue passes palloc_extended(..., MCXT_ALLOC_NO_OOM)). The core turns nullptr into std::bad_alloc.
using Allocate = void *(*)(std::size_t bytes);

// --- defining a release -------------------------------------------------------------------------------------
struct ParsedClass {
	char *canonical_text;  // e.g. "thresholds(price)"
	char *column;          // the column name, unquoted
	int vc_dimension;
};
ParsedClass ParseClassForDefine(const char *class_text, Allocate allocate);

struct DefinedRelease {
	double *cuts;                // sorted distinct public values
	std::size_t cut_count;
	std::int64_t *public_histogram;  // public rows per cell
	std::size_t cell_count;
	std::int64_t cover_size;
	std::int64_t public_rows;
};
// values/counts: the distinct non-NULL public values (axis positions) with their row counts; null_rows: the
// public rows whose value is NULL.
DefinedRelease BuildDefinedRelease(const char *class_text, const double *values, const std::int64_t *counts,
                                   std::size_t value_count, std::int64_t null_rows, std::size_t max_cover_queries,
                                   Allocate allocate);

// --- planning and running -----------------------------------------------------------------------------------
enum class MechanismChoice { Pmw };
// "pmw" or "auto" (which means pmw until more mechanisms exist); Error(InvalidParameter) otherwise.
MechanismChoice ParseMechanism(const char *text);
// "public" (the public histogram, smoothed) or "uniform": MW's starting point. Error(InvalidParameter) otherwise.
bool ParseUniformPrior(const char *text);
// Error(InvalidParameter) unless epsilon is finite and > 0 and delta in [0, 1).
void ValidatePrivacyParameters(double epsilon, double delta);

struct PlanRequest {
	const char *class_text;
	std::int64_t cover_size;
	std::int64_t cell_count;
	std::int64_t public_rows;
	std::int64_t private_rows;
	double epsilon, delta, alpha, beta;
	const char *mechanism;
	const char *prior;  // "public" or "uniform"
};

struct PlanSummary {
	double predicted_error, public_only_error;
	bool converges;
	double book_private_rows, book_public_rows, book_cutoff;
	std::int64_t cutoff;
	double threshold;  // counts
	bool approximate_accounting;
	double epsilon_split[2];  // threshold, comparisons (pure accounting)
	double noise_scales[2];   // threshold and comparison noise scales in counts (the exact values used)
	double first_pass_factor;
	int max_passes;
};
PlanSummary MakePlan(const PlanRequest &request);

struct RunRequest {
	PlanRequest plan;
	const double *cuts;
	std::size_t cut_count;
	const std::int64_t *public_histogram;   // cell_count entries
	const std::int64_t *private_histogram;  // cell_count entries: the only private input
	std::int64_t seed;                      // >= 0: deterministic noise for tests (not private); < 0: secure
	FillSecureBytes fill_secure;            // the secure source when seed < 0
	InterruptCheck interrupted;
};

struct RunSummary {
	PlanSummary plan;
	double *synthetic;  // cell_count weights, summing to 1
	std::int64_t updates, comparisons;
	int passes;
	bool cutoff_reached;
};
RunSummary RunRelease(const RunRequest &request, Allocate allocate);

// --- answering ----------------------------------------------------------------------------------------------
class ReleaseModel;  // a released cover with prefix sums of its synthetic distribution
ReleaseModel *LoadReleaseModel(const char *class_text, const double *cuts, std::size_t cut_count,
                               const double *synthetic, std::size_t cell_count, std::int64_t private_rows);
void FreeReleaseModel(ReleaseModel *model) noexcept;
std::size_t ModelCoverSize(const ReleaseModel *model);
std::size_t ModelCellCount(const ReleaseModel *model);
double ModelAnswer(const ReleaseModel *model, std::size_t cover_query);    // fraction of the private rows
double ModelCellWeight(const ReleaseModel *model, std::size_t cell);
std::int64_t ModelPrivateRows(const ReleaseModel *model);
// Parses a query on a numeric column (literals read as float8) and projects it onto the cover.
std::size_t ModelProjectNumericQuery(const ReleaseModel *model, const char *query);

// Queries on date and timestamp columns: the glue converts each literal with the type's input function.
struct ParsedQuery;
ParsedQuery *ParseQueryForModel(const char *query);
void FreeParsedQuery(ParsedQuery *query) noexcept;
std::size_t ParsedQueryLiteralCount(const ParsedQuery *query);
const char *ParsedQueryLiteral(const ParsedQuery *query, std::size_t i);  // text; valid while query lives
std::size_t ModelProjectParsedQuery(const ReleaseModel *model, const ParsedQuery *query, const double *literal_values);

// The readable shape of a cover query or cell: bounds on the column (see CoverQueryShape, CellShape).
CoverQueryShape ModelCoverQueryShape(const ReleaseModel *model, std::size_t cover_query);
CellShape ModelCellShape(const ReleaseModel *model, std::size_t cell);
const char *ModelColumn(const ReleaseModel *model);  // valid while the model lives

// A float8 as PostgreSQL prints it, written to buf (at least 32 bytes); quoted for NaN and infinities.
void FormatFloat8Into(double value, char *buf, std::size_t size);

}  // namespace pap::core

#include "core/core_only.hpp"
