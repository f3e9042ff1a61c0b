#include "core/workloads/workload.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

void
AddToAnswer(double &sum, double x)
{
	sum += x;
}

void
AddToAnswer(std::int64_t &sum, std::int64_t x)
{
	if (__builtin_add_overflow(sum, x, &sum))
		throw Error(ErrorKind::LimitExceeded, "cell counts overflow a 64-bit integer");
}

IntervalWorkload::IntervalWorkload(std::vector<CellInterval> intervals, std::size_t cell_count)
    : intervals_(std::move(intervals)), cell_count_(cell_count)
{
	for (const CellInterval &iv : intervals_)
		if (!iv.empty() && (iv.lo < 0 || std::size_t(iv.hi) >= cell_count_))
			throw Error(ErrorKind::Internal, "workload interval outside the cell range");
}

void
IntervalWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	// prefix[i] = sum of weights[0..i-1]; Kahan-free is fine: weights are a distribution of ~1e6 cells at most.
	std::vector<double> prefix(cell_count_ + 1, 0.0);
	for (std::size_t i = 0; i < cell_count_; i++)
		prefix[i + 1] = prefix[i] + weights[i];
	answers.resize(intervals_.size());
	for (std::size_t q = 0; q < intervals_.size(); q++) {
		const CellInterval &iv = intervals_[q];
		answers[q] = iv.empty() ? 0.0 : prefix[std::size_t(iv.hi) + 1] - prefix[std::size_t(iv.lo)];
	}
}

void
IntervalWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	std::vector<std::int64_t> prefix(cell_count_ + 1, 0);
	for (std::size_t i = 0; i < cell_count_; i++)
		if (__builtin_add_overflow(prefix[i], histogram[i], &prefix[i + 1]))
			throw Error(ErrorKind::LimitExceeded, "cell counts overflow a 64-bit integer");
	counts.resize(intervals_.size());
	for (std::size_t q = 0; q < intervals_.size(); q++) {
		const CellInterval &iv = intervals_[q];
		counts[q] = iv.empty() ? 0 : prefix[std::size_t(iv.hi) + 1] - prefix[std::size_t(iv.lo)];
	}
}

void
IntervalWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	const CellInterval &iv = intervals_[q];
	for (std::int32_t i = iv.lo; i <= iv.hi; i++)
		log_weights[std::size_t(i)] += delta;
}

double
IntervalWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	const CellInterval &iv = intervals_[q];
	double sum = 0.0;
	for (std::int32_t i = iv.lo; i <= iv.hi; i++)
		sum += weights[std::size_t(i)];
	return sum;
}

}  // namespace pap::core
