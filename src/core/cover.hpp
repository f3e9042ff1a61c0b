// The engine's view of a cover H~ (Algorithm 3, steps 1-4; reference/seeds.md §1.8): what BuildDefinedRelease,
// RunRelease and the ReleaseModel need, so that a class over several columns is one more branch in MakeCover
// rather than a change to the engine. Cells are the release's histogram cells; cover queries are sets of cells.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "core/numeric_axis.hpp"
#include "core/query_class.hpp"
#include "core/query_text.hpp"
#include "core/workload.hpp"

namespace pap::core {

// One side of an interval on the value line.
struct ValueBound {
	bool present = false;
	double value = 0.0;
	bool inclusive = false;
};

// The readable form of a cover query: "col > lower AND col <= upper" (either side may be absent), or empty.
struct CoverQueryShape {
	bool empty = false;        // labels no public value (for thresholds: "col < w_1")
	ValueBound lower;          // always exclusive when present
	ValueBound upper;          // inclusive when present (exclusive only for the empty threshold query)
};

// Cell bounds: lower exclusive / upper inclusive, either may be absent; is_null for the NULL cell.
struct CellShape {
	bool is_null;
	ValueBound lower, upper;
};

class Cover {
public:
	virtual ~Cover() = default;
	virtual std::size_t QueryCount() const = 0;
	virtual std::size_t CellCount() const = 0;
	// Every cover query as a Workload for the mechanisms (a concrete cover keeps its typed MakeWorkload).
	virtual std::unique_ptr<Workload> NewWorkload() const = 0;
	// The cover query a parsed query projects to; literal_values[i] is the value of the i-th literal in reading
	// order (the BETWEEN upper bound right after its lower bound).
	virtual std::size_t Project(const QueryText &query, const std::vector<double> &literal_values) const = 0;
	virtual CoverQueryShape Shape(std::size_t q) const = 0;
	// Error(Internal) for a cell out of range.
	virtual CellShape ShapeOfCell(std::size_t cell) const = 0;
	// Of the class, for the planner's public-sample bounds.
	virtual int VcDimension() const = 0;

protected:
	// Copyable only through a concrete cover (no slicing through a Cover reference).
	Cover() = default;
	Cover(const Cover &) = default;
	Cover(Cover &&) = default;
	Cover &operator=(const Cover &) = default;
	Cover &operator=(Cover &&) = default;
};

// The cover of a class over its public values on axis; Error(LimitExceeded) beyond max_queries cover queries.
std::unique_ptr<Cover> MakeCover(const QueryClass &query_class, NumericAxis axis, std::size_t max_queries);

}  // namespace pap::core

#include "core/core_only.hpp"
