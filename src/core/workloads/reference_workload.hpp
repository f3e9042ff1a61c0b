// A query-by-query workload with an index, kept for benchmarks (pap_release.reference_workload = cell_lists): each
// query's cells listed explicitly, every answer a sum over its own list, with no grouping and no prefix sums. A
// stronger reference than MembershipWorkload (the textbook one of docs/bench.md), which finds a query's cells by
// testing every cell. It answers exactly as the workload it copies; bench/ compares the grouped ProductWorkload with
// both. Construction probes source.AddToQueryCells on a zero vector, 52 queries at a time (query j of a block adds 2^j,
// so a cell's value lists the block's queries that hold it, exactly in a double): O(sum over blocks of the cost of
// 52 AddToQueryCells + N) time, memory 4 bytes per (query, cell) pair. Every evaluation costs the total volume
// of the queries (sum over q of |cells of q|). Error(LimitExceeded) when the lists would not fit a size_t.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/workloads/workload.hpp"

namespace pap::core {

class ReferenceWorkload final : public Workload {
public:
	explicit ReferenceWorkload(const Workload &source);

	std::size_t
	QueryCount() const override
	{
		return starts_.size() - 1;
	}
	std::size_t
	CellCount() const override
	{
		return cell_count_;
	}
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	// Exact; Error(LimitExceeded) on int64 overflow.
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;

private:
	std::size_t cell_count_;
	std::vector<std::size_t> starts_;   // query q's cells are cells_[starts_[q] .. starts_[q + 1])
	std::vector<std::uint32_t> cells_;  // increasing within a query
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
