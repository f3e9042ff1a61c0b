// A workload: a finite list of counting queries over the cells 0..N-1, each query the indicator of a set of
// cells. Every mechanism consumes queries only through this interface, so that a workload can evaluate all
// of its queries at once (prefix sums, marginal tables) instead of query by query.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cells/cell_grid.hpp"  // CellInterval

namespace pap::core {

class Workload {
public:
	virtual ~Workload() = default;
	virtual std::size_t QueryCount() const = 0;
	virtual std::size_t CellCount() const = 0;
	// answers[q] = sum of weights over the cells of query q, for every q.
	virtual void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const = 0;
	// counts[q] = sum of histogram over the cells of q, exact. This is the private path: integers only.
	virtual void EvaluateCounts(const std::vector<std::int64_t> &histogram,
	                            std::vector<std::int64_t> &counts) const = 0;
	// log_weights[i] += delta for every cell i of query q (a multiplicative-weights step in the log domain).
	virtual void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const = 0;
	// Sum of weights over the cells of query q alone.
	virtual double EvaluateOne(std::size_t q, const std::vector<double> &weights) const = 0;
};

// Accumulates a workload answer: synthetic weights as plain doubles, private counts with an overflow check
// (Error(LimitExceeded)). Shared by the grouped workloads, whose code is templated on the answer type.
void AddToAnswer(double &sum, double x);
void AddToAnswer(std::int64_t &sum, std::int64_t x);

// Inclusive range of cells [lo, hi] on one ordered axis; lo > hi is the empty query.
// Queries that are intervals of cells on one ordered axis: all answers from one prefix-sum pass.
class IntervalWorkload final : public Workload {
public:
	IntervalWorkload(std::vector<CellInterval> intervals, std::size_t cell_count);
	std::size_t
	QueryCount() const override
	{
		return intervals_.size();
	}
	std::size_t
	CellCount() const override
	{
		return cell_count_;
	}
	void Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const override;
	void EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const override;
	void AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const override;
	double EvaluateOne(std::size_t q, const std::vector<double> &weights) const override;
	const CellInterval &
	interval(std::size_t q) const
	{
		return intervals_[q];
	}

private:
	std::vector<CellInterval> intervals_;
	std::size_t cell_count_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
