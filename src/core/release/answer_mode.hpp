// The answer mode a release uses when a query does not name one (pap.answer's refine): projection onto the cover,
// or within-cell refinement, whichever has the smaller predicted error over the query class (docs/mechanisms.md
// §10, "The answer mode"). Computed from the stored layout and the public sizes alone, so that the plan (which
// shows it) and every answer (which uses it) agree.
#pragma once
#include <cstdint>
#include <vector>

#include "core/release/release_layout.hpp"

namespace pap::core {

// The edges a query of the class may move on each axis, and whether only one axis's edge moves per query (a stump
// or a halfspace reads one threshold): docs/query-classes.md's s, per axis. Categorical and predicate axes are
// exact (no edge moves).
std::vector<int> MovableEdgesPerAxis(const ReleaseLayout &layout, bool &one_axis_per_query);

// Whether answers of the class can refine within cells (thresholds, ranges, boxes, orthants); other classes answer
// by projection whatever refine says.
bool RefinableClass(ClassKind kind);

// Whether refine answers a query of the class from its own cells of the released distribution: marginals and stumps,
// whose queries are sets of grid cells (one bin per named axis), on a full grid, which holds every cell a query reads
// (a public-support domain's outside cell mixes the cells the public table never showed). Such an answer has no
// projection part but for a query naming a value its column's categories do not hold, which gets half its "other"
// bin's weight (AnswerModeErrors::own_cells); its error is otherwise the mechanism's on the query itself, which the
// noise part bounds for a mechanism that measures every cell (docs/mechanisms.md §10, "The answer mode").
bool CellsAnswerable(const ReleaseLayout &layout);

// The beta of part (a)'s event on a release (error_model.hpp's ProjectionEventBeta): part (b)'s share too on a full
// grid of a refinable class, whose outside mass is 0 with certainty and whose answers never read the mass of the grid
// points no public row has (docs/mechanisms.md §18); elsewhere the data parts' sixth. From the layout alone, so that
// the plan and every answer take the same event.
double ProjectionEventBetaOf(const ReleaseLayout &layout, double request_beta);

// Part (a) of the error model in both modes (error_model.hpp: ProjectionError and RefinementError) as the plan
// predicts it, on an event of probability event_beta (the plan's: PlanProjectionEventBeta, the median). refine: an
// ordered class whose refinement predicts no more than the projection (ties refine: within the same bound, refined
// answers spread the gaps between public values).
struct AnswerModeErrors {
	double projection = 0;
	double refinement = 0;
	// Part (a) of an answer read from the query's own cells (CellsAnswerable): a query naming a value its column's
	// categories do not hold (never shown by the public table, or folded: category_folding.hpp) gets half its "other"
	// bin's weight, off by at most half the bin's private share. 0 where no axis has an "other" bin (booleans).
	double own_cells = 0;
	bool refine = false;
	double
	Chosen() const
	{
		return refine ? refinement : projection;
	}
	const char *
	Name() const
	{
		return refine ? "refine" : "projection";
	}
};
// plan_event: the plan's own part (release_engine.cpp), whose event over two or more axes holds the upper bounds
// alone, as both modes read only those there (error_model.hpp, AxisUpperEventCount); false: the event of every
// bound, the answers' (a refined answer's own bound is within the refinement part on it).
AnswerModeErrors AnswerModeErrorsOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows,
                                    double event_beta, bool plan_event = false);

// What a loaded release's answers need from the error model, from one derivation of the axes' cuts: the projection
// part (AnswerModeErrorsOf's at part (a)'s own event, ProjectionEventBetaOf of request_beta, which answer bounds
// read) and how much of each public value's first row refined
// answers spread over the gap below it, per axis and public value (error_model.hpp's GapSpreadShares at part (a)'s
// beta; empty vectors for a class that does not refine within cells, or without rows to bound). The
// refinement part itself is not recomputed: the stored answer mode already holds its choice.
struct LoadedAnswerFacts {
	double projection = 0;
	// The bound on the private mass at grid points without a public row (error_model.hpp's OutsideMassError over
	// the public points, at DataPartBeta): what an answer by projection adds where a query reads such points.
	double unseen_points_mass = 1.0;
	std::vector<std::vector<double>> gap_spread;
	// Per axis of a release read from its own cells, the most private share one value of the axis's "other" bin (one
	// the public table never showed, or a folded one) can have, on the own-cells part's event (1 on an axis without
	// such a bin; empty without own cells): answers from an "other" bin are capped by it (docs/mechanisms.md §10, "The
	// answer mode"; §20, "Folded categories").
	std::vector<double> other_bin_caps;
};
LoadedAnswerFacts LoadedAnswerFactsOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows,
                                      double request_beta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
