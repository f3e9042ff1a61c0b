// The cover H~ of boxes(c1..ck) and orthants(c1..ck) over k ordered numeric axes (Algorithm 3, steps 1-4;
// reference/seeds.md §1.4, §1.8), and the projection of any query of the class onto it.
//
// Cells: the product grid (CellGrid) of the axes' bins, NULL bins included; axis 0 is the most significant digit.
// A cover query is a product over axes of one per-axis query:
//   - a query of that axis's one-dimensional cover (IntervalCover): for boxes the ranges cover (contiguous runs
//     of public values plus the empty run), for orthants the thresholds cover ("c <= w_j", j = 0 the empty one);
//     its cells exclude the NULL bin, since a comparison with NULL is never true;
//   - or "unconstrained" (the column is absent from the query): every bin of the axis, NULL bin included.
// Per-axis index i < AxisCover(a).QueryCount() is that IntervalCover query; i = UnconstrainedIndex(a) is the
// unconstrained one. The cover query index is the mixed-radix number of the per-axis indexes, axis 0 most
// significant. Size = prod over axes of (1-D cover size + 1): (M_a(M_a+1)/2 + 2) for boxes, (M_a + 2) for
// orthants, M_a = distinct public values of axis a. Queries are decoded lazily from the index; only
// MakeWorkload() lists them all.
//
// Not deduplicated (a choice, tested): several cover queries may label the distinct public points the same way
// (any query with an empty component labels nothing; a full run and "unconstrained" agree when no public point
// is NULL on that axis; public points do not fill the product grid). Algorithm 3 keeps one query per pattern;
// keeping a superset costs only a larger log|H~| in the mechanism, while the product layout keeps Project and
// the workload exact and O(k log m). Every pattern boxes (orthants) realise is the labeling of some cover query,
// and Project returns a cover query that agrees with the query on every distinct public point.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/box_workload.hpp"
#include "core/cell_grid.hpp"
#include "core/class_spec.hpp"
#include "core/interval_cover.hpp"
#include "core/numeric_axis.hpp"
#include "core/query_text.hpp"
#include "core/workload.hpp"

namespace pap::core {

class BoxCover {
public:
	// kind: ClassKind::Boxes or ClassKind::Orthants (Error(Internal) otherwise). columns[a] names axes[a]; at
	// least one axis, names distinct (Error(Internal) otherwise: the class spec guarantees both).
	// Error(LimitExceeded) when the cover would have more than max_queries queries (checked before anything is
	// built), or the grid more than cell_limit cells (CellGrid).
	BoxCover(ClassKind kind, std::vector<std::string> columns, std::vector<NumericAxis> axes, std::size_t max_queries,
	         std::uint64_t cell_limit);

	ClassKind kind() const { return kind_; }
	std::size_t AxisCount() const { return covers_.size(); }
	const std::string &column(std::size_t a) const { return columns_[a]; }
	const NumericAxis &axis(std::size_t a) const { return covers_[a].axis(); }
	const IntervalCover &AxisCover(std::size_t a) const { return covers_[a]; }
	// Per-axis cover size: AxisCover(a).QueryCount() + 1 (the unconstrained query, last).
	std::size_t AxisCoverSize(std::size_t a) const { return covers_[a].QueryCount() + 1; }
	std::size_t UnconstrainedIndex(std::size_t a) const { return covers_[a].QueryCount(); }
	const CellGrid &grid() const { return grid_; }
	std::size_t CellCount() const { return grid_.CellCount(); }
	std::size_t QueryCount() const { return query_count_; }
	// "boxes(a, b)" / "orthants(a, b)".
	std::string ClassText() const;

	// Cover query index <-> per-axis indexes. Error(Internal) for an index or per-axis index out of range.
	std::vector<std::size_t> AxisIndexes(std::size_t q) const;
	std::size_t QueryIndex(const std::vector<std::size_t> &axis_indexes) const;
	// The query's bin interval on each axis (empty on an axis whose component is empty).
	std::vector<CellInterval> Box(std::size_t q) const;
	// Lists every cover query (QueryCount() boxes of AxisCount() intervals).
	BoxWorkload MakeWorkload() const;

	// The cell of a row: per-axis NumericAxis::BinOf, NullBin() for a NULL (nullopt). Error(Internal) for a row
	// without one value per axis.
	std::size_t CellOf(const std::vector<std::optional<double>> &row) const;

	// The cover query a parsed conjunction projects to. literal_values as for IntervalCover::Project. Each column
	// may appear any number of times (bounds on one side are intersected, as IntervalCover does) or not at all
	// (unconstrained). Error(UndefinedColumn) for a column outside the class; Error(QueryOutsideClass) for
	// orthants with a condition other than <= or <.
	std::size_t Project(const QueryText &query, const std::vector<double> &literal_values) const;

	// Canonical representative of query q on axis a: nullopt when unconstrained, else IntervalCover::Shape.
	std::optional<CoverQueryShape> AxisShape(std::size_t q, std::size_t a) const;
	// The per-axis renderings joined by " AND " (unconstrained axes omitted; "TRUE" when every axis is).
	std::string Render(std::size_t q, std::string (*format_value)(double, const void *), const void *context) const;

	// Size of the cover over the given per-axis numbers of distinct public values (a double: may be huge).
	static double CoverSize(ClassKind kind, const std::vector<std::size_t> &distinct_public_values);

private:
	ClassKind kind_;
	std::vector<std::string> columns_;
	std::vector<IntervalCover> covers_;
	CellGrid grid_;
	std::size_t query_count_ = 1;
};

}  // namespace pap::core

#include "core/core_only.hpp"
