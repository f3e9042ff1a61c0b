#include "core/release/answer_mode.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
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

namespace {

// The bins of an axis that a condition "c = v" of the class can name with a value the public table showed: the
// categories (a boolean's two), or a predicate's two labels. The other bin and the NULL bin are not among them.
std::int32_t
SeenValueBins(const ReleaseAxis &axis)
{
	return axis.kind == AxisKind::Categorical ? std::int32_t(axis.categories.size()) : 2;
}

// Whether some cell of seen values of some attribute set of `order` axes holds no public row.
bool
SomeValueCellUnseen(const ReleaseLayout &layout, int order)
{
	const std::size_t dims = layout.axes.size();
	const std::size_t points = layout.public_point_counts.size();
	std::vector<std::size_t> set(static_cast<std::size_t>(order), 0);
	for (std::size_t i = 0; i < set.size(); i++)
		set[i] = i;
	std::uint64_t steps = 0;
	std::vector<std::uint64_t> keys;
	while (true) {
		double cells = 1.0;
		for (std::size_t a : set)
			cells *= double(SeenValueBins(layout.axes[a]));
		if (cells > double(points))
			return true;  // more cells than public points (and the keys below fit 64 bits)
		keys.clear();
		for (std::size_t p = 0; p < points; p++) {
			PollInterrupt(steps);
			std::uint64_t key = 0;
			bool seen_values = true;
			for (std::size_t a : set) {
				const std::int32_t bin = layout.public_points[p * dims + a];
				seen_values = seen_values && bin < SeenValueBins(layout.axes[a]);
				key = key * std::uint64_t(SeenValueBins(layout.axes[a])) + std::uint64_t(bin);
			}
			if (seen_values)
				keys.push_back(key);
		}
		std::sort(keys.begin(), keys.end());
		if (double(std::unique(keys.begin(), keys.end()) - keys.begin()) < cells)
			return true;
		// The next attribute set in lexicographic order.
		std::size_t i = set.size();
		while (i > 0 && set[i - 1] == dims - set.size() + i - 1)
			i--;
		if (i == 0)
			return false;
		set[i - 1]++;
		for (std::size_t j = i; j < set.size(); j++)
			set[j] = set[j - 1] + 1;
	}
}

// Part (a) of the classes answered through the public rows' labelings (marginals, stumps, predicates): the private
// share of the values the public table never showed (error_model.hpp, UnseenValuesError).
double
UnseenValuesErrorOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	const int order = layout.spec.kind == ClassKind::Marginals ? layout.spec.k : 1;
	const std::size_t dims = layout.axes.size();
	if (order < 1 || std::size_t(order) > dims)
		throw Error(ErrorKind::Internal, "error model: the class's order does not match its axes");
	// The cells of seen values over every attribute set: the elementary symmetric polynomial of order k of the
	// axes' seen bins.
	std::vector<double> cells(std::size_t(order) + 1, 0.0);
	cells[0] = 1.0;
	for (const ReleaseAxis &axis : layout.axes)
		for (std::size_t j = std::size_t(order); j >= 1; j--)
			cells[j] += cells[j - 1] * double(SeenValueBins(axis));
	// Per open axis (a categorical one that is not boolean), its public rows per seen value, NULL included.
	std::vector<std::vector<std::int64_t>> open_axes;
	for (std::size_t a = 0; a < dims; a++) {
		const ReleaseAxis &axis = layout.axes[a];
		if (axis.kind != AxisKind::Categorical || axis.value_type == ValueType::Boolean)
			continue;
		std::vector<std::int64_t> counts(std::size_t(axis.Radix()), 0);
		for (std::size_t p = 0; p < layout.public_point_counts.size(); p++)
			counts.at(std::size_t(layout.public_points[p * dims + a])) += layout.public_point_counts[p];
		open_axes.push_back(std::move(counts));
	}
	return UnseenValuesError(cells[std::size_t(order)], SomeValueCellUnseen(layout, order), open_axes, public_rows,
	                         private_rows, beta);
}

bool
LabellingClass(ClassKind kind)
{
	return kind == ClassKind::Marginals || kind == ClassKind::Stumps || kind == ClassKind::Predicates;
}

}  // namespace

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
	if (LabellingClass(layout.spec.kind))
		out.projection = std::min(1.0, out.projection + UnseenValuesErrorOf(layout, public_rows, private_rows, beta));
	out.refinement = RefinableClass(layout.spec.kind)
	                     ? RefinementError(cuts, edges, one_axis, public_rows, private_rows, beta)
	                     : out.projection;
	out.refine = out.refinement < out.projection;
	return out;
}

}  // namespace pap::core
