#include "core/release/answer_mode.hpp"

#include "core/mechanisms/error_model.hpp"

namespace pap::core {

std::vector<int>
MovableEdgesPerAxis(const ReleaseLayout &layout, bool &one_axis_per_query)
{
	const ClassKind kind = layout.spec.kind;
	one_axis_per_query = kind == ClassKind::Stumps || kind == ClassKind::Halfspaces;
	const int per_axis = kind == ClassKind::Ranges || kind == ClassKind::Boxes           ? 2
	                     : kind == ClassKind::Marginals || kind == ClassKind::Predicates ? 0
	                                                                                     : 1;
	std::vector<int> edges;
	for (const ReleaseAxis &axis : layout.axes)
		edges.push_back(axis.kind == AxisKind::Numeric || axis.kind == AxisKind::Linear ? per_axis : 0);
	return edges;
}

bool
RefinableClass(ClassKind kind)
{
	return kind == ClassKind::Thresholds || kind == ClassKind::Ranges || kind == ClassKind::Boxes ||
	       kind == ClassKind::Orthants;
}

bool
CellsAnswerable(const ReleaseLayout &layout)
{
	const ClassKind kind = layout.spec.kind;
	return (kind == ClassKind::Marginals || kind == ClassKind::Stumps) && layout.domain_kind == DomainKind::Dense;
}

AnswerModeErrors
AnswerModeErrorsOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows,
                   double request_beta)
{
	const double beta = DataPartBeta(request_beta);
	std::vector<AxisCut> cuts;
	for (const ReleaseAxis &axis : layout.axes)
		cuts.push_back(axis.kind == AxisKind::Numeric || axis.kind == AxisKind::Linear
		                   ? AxisCutOf(axis.cuts, axis.public_values, axis.public_counts)
		                   : AxisCut{});
	bool one_axis = false;
	const std::vector<int> edges = MovableEdgesPerAxis(layout, one_axis);
	AnswerModeErrors out;
	out.projection = ProjectionError(cuts, edges, one_axis, public_rows, private_rows, beta);
	out.refinement = RefinableClass(layout.spec.kind)
	                     ? RefinementError(cuts, edges, one_axis, public_rows, private_rows, beta)
	                     : out.projection;
	out.refine = out.refinement < out.projection;
	return out;
}

}  // namespace pap::core
