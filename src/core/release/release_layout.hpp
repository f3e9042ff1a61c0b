// Everything a defined release is, beyond its numbers: the class, the axes learned from the public table, the
// public rows as grid points over them, and which domain of cells the mechanism runs on. Stored in
// pap.release_data one array per field (api/release_api.hpp's CatalogLayout), rebuilt here for every run and
// every answer, so that the cover, the cells and the private scan are always derived the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/axes/release_axis.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/classes/cover.hpp"
#include "core/language/class_spec.hpp"

namespace pap::core {

struct ReleaseLayout {
	ClassSpec spec;
	std::vector<ReleaseAxis> axes;
	std::vector<std::int32_t> predicate_axis;       // predicates: listed predicate -> its axis
	std::vector<std::int32_t> public_points;        // distinct public grid points, flat, sorted
	std::vector<std::int64_t> public_point_counts;  // public rows at each
	DomainKind domain_kind = DomainKind::Dense;     // Dense or Support

	std::vector<std::int32_t> Radices() const;
	// The release's cells (no cell limit: the limit was applied when the release was defined).
	CellDomain MakeDomain() const;
	std::unique_ptr<Cover> MakeReleaseCover(std::size_t max_queries) const;
	// Public rows per domain cell (the outside cell of a support domain holds none).
	std::vector<std::int64_t> PublicHistogram(const CellDomain &domain) const;
	// Per domain cell: whether no private row can hold it, its point lying in the "other" bin of a closed categorical
	// axis (ReleaseAxis::ClosedCategories: a boolean, an enum, a CHECK list) or in the NULL bin of a NOT NULL column
	// (ReleaseAxis::not_null): facts of the schema, public. Empty when no cell is so. The outside cell of a support
	// domain is never closed.
	std::vector<bool> ClosedCells(const CellDomain &domain) const;
	// Public rows per bin of one axis (Radix() entries). Error(Internal) for an axis out of range.
	std::vector<std::int64_t> PublicRowsPerBin(std::size_t axis) const;

	// The SELECT list of the one scan that maps rows to grid points, used on the public table at definition and
	// on the private table at run time, in one of two forms:
	//   "pap.grid_counts('{R1,...,Rd}'::pg_catalog.int8[], <axis 1>, ..., <axis d>), '{R1,...,Rd}'::pg_catalog.int8[]"
	//     (no GROUP BY) when the product of the radices is at most kScanKeyLimit, where a numeric or linear axis is
	//     "$k, <value float8>" (the aggregate bins the value among the cut points $k) and a categorical or
	//     predicate axis its int4 bin expression: one row whose first column is [key, rows, key, rows, ...] sorted
	//     by key (key = ((b1 * R2) + b2) * R3 + ... over the axes' bins b) and whose second holds the radices;
	//   else one bin expression per axis (pap.cell_index, pap.category_index, the predicate's CASE), then
	//     "pg_catalog.count(*)" (GROUP BY 1..d).
	// Axis a reads its parameter $(a+1): the cut points (float8[]) of a numeric or linear axis, the categories
	// (text[]) of a categorical one; a predicate axis reads none. Fully qualified; predicate texts are inserted
	// verbatim and must have been checked by the caller to be a single boolean expression.
	static constexpr std::uint64_t kScanKeyLimit = std::uint64_t(1) << 62;
	std::string ScanSelectList() const;
	// The aggregate form above for the given radices and per-axis arguments (the private quantile's scan too).
	static std::string GridCountsSql(const std::vector<std::int64_t> &radices,
	                                 const std::vector<std::string> &arguments);
	// SQL that places a column's value on a numeric axis: (col)::float8 for numbers, else pap.axis_value(col).
	static std::string AxisValueSql(const std::string &column, ValueType type);
	// SQL of a categorical axis's value as its category text: (col)::text, an enum's through pg_catalog.enum_out.
	static std::string CategoryTextSql(const ReleaseAxis &axis);
	// SQL of w.x over numeric columns (NULL when any of them is NULL); zero weights are left out.
	static std::string LinearValueSql(const std::vector<std::string> &columns, const std::vector<double> &w);

	// Readable bounds of a domain cell: "carat > 0.5 AND carat <= 0.7 AND sex = 'F'", "price IS NULL", and the
	// same per column as a JSON object ({"carat": {"lower": 0.5, "upper": 0.7}, "sex": "F"}; lower bounds are
	// exclusive, upper inclusive, null when absent; a NULL bin is JSON null; "other" is {"other": [categories
	// seen publicly]}). The outside cell of a support domain: "outside the public support" and JSON null.
	void DescribeCell(const CellDomain &domain, std::size_t cell, std::string &bounds, std::string &json) const;
};

// JSON string literal of text (quotes, backslashes and control characters escaped).
std::string JsonString(const std::string &text);

}  // namespace pap::core

#include "core/base/core_only.hpp"
