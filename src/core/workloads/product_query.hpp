// Counting queries as products of per-axis bin intervals (docs/architecture.md: "All counting queries are products of
// per-axis bin sets"). Every class is one: an interval on an ordered axis (thresholds, ranges, boxes, orthants,
// a halfspace on its derived axis), one bin on a categorical or boolean axis (marginals, stumps), the "true" bin
// of a predicate axis. An axis a query does not mention is unconstrained: every bin, NULL included. A query with
// no constraint at all is TRUE (every cell, also a public-support domain's outside cell).
//
// Stored flat (one allocation for all constraints) since covers reach 10^6 queries.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/workloads/workload.hpp"

namespace pap::core {

// A constraint of one query: the cell's bin on `axis` lies in `bins` (inclusive; empty when lo > hi, which makes
// the whole query empty).
struct AxisConstraint {
	std::uint32_t axis;
	CellInterval bins;
};

class ProductQueryList {
public:
	// Appends a query; constraints sorted by strictly increasing axis (Error(Internal) otherwise). Returns its index.
	std::size_t Add(const AxisConstraint *constraints, std::size_t count);
	std::size_t
	Add(const std::vector<AxisConstraint> &constraints)
	{
		return Add(constraints.data(), constraints.size());
	}

	std::size_t
	size() const
	{
		return offsets_.size() - 1;
	}
	const AxisConstraint *
	begin(std::size_t q) const
	{
		return constraints_.data() + offsets_[q];
	}
	const AxisConstraint *
	end(std::size_t q) const
	{
		return constraints_.data() + offsets_[q + 1];
	}
	std::size_t
	ConstraintCount(std::size_t q) const
	{
		return offsets_[q + 1] - offsets_[q];
	}
	// True when some constraint is an empty interval.
	bool Empty(std::size_t q) const;
	void Reserve(std::size_t queries, std::size_t constraints);

private:
	std::vector<AxisConstraint> constraints_;
	std::vector<std::size_t> offsets_{0};
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
