#include "core/workloads/reference_workload.hpp"

#include <algorithm>
#include <limits>

#include "core/base/errors.hpp"

namespace pap::core {

namespace {
// Distinct powers of two up to 2^51 add exactly in a double (53-bit significand), whatever the order.
constexpr std::size_t kProbeBlock = 52;
}  // namespace

ReferenceWorkload::ReferenceWorkload(const Workload &source) : cell_count_(source.CellCount())
{
	if (cell_count_ > std::numeric_limits<std::uint32_t>::max())
		throw Error(ErrorKind::LimitExceeded, "too many cells for the reference workload");
	const std::size_t query_count = source.QueryCount();
	std::vector<std::vector<std::uint32_t>> lists(query_count);
	std::vector<double> probe(cell_count_);
	for (std::size_t first = 0; first < query_count; first += kProbeBlock) {
		const std::size_t block = std::min(kProbeBlock, query_count - first);
		std::fill(probe.begin(), probe.end(), 0.0);
		for (std::size_t j = 0; j < block; j++)
			source.AddToQueryCells(first + j, double(std::uint64_t(1) << j), probe);
		for (std::size_t i = 0; i < cell_count_; i++) {
			if (probe[i] == 0.0)
				continue;
			if (!(probe[i] > 0.0) || probe[i] >= double(std::uint64_t(1) << block))
				throw Error(ErrorKind::Internal, "reference workload probe out of range");
			std::uint64_t bits = std::uint64_t(probe[i]);
			while (bits != 0) {
				lists[first + std::size_t(__builtin_ctzll(bits))].push_back(std::uint32_t(i));
				bits &= bits - 1;
			}
		}
	}
	starts_.assign(query_count + 1, 0);
	for (std::size_t q = 0; q < query_count; q++)
		if (__builtin_add_overflow(starts_[q], lists[q].size(), &starts_[q + 1]))
			throw Error(ErrorKind::LimitExceeded, "too many query cells for the reference workload");
	cells_.reserve(starts_[query_count]);
	for (std::vector<std::uint32_t> &list : lists) {
		cells_.insert(cells_.end(), list.begin(), list.end());
		std::vector<std::uint32_t>().swap(list);  // keep the peak near one copy of the lists
	}
}

void
ReferenceWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	answers.resize(QueryCount());
	for (std::size_t q = 0; q < QueryCount(); q++)
		answers[q] = EvaluateOne(q, weights);
}

void
ReferenceWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	counts.resize(QueryCount());
	for (std::size_t q = 0; q < QueryCount(); q++) {
		std::int64_t sum = 0;
		for (std::size_t k = starts_[q]; k < starts_[q + 1]; k++)
			AddToAnswer(sum, histogram[cells_[k]]);
		counts[q] = sum;
	}
}

void
ReferenceWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	for (std::size_t k = starts_[q]; k < starts_[q + 1]; k++)
		log_weights[cells_[k]] += delta;
}

double
ReferenceWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	double sum = 0.0;
	for (std::size_t k = starts_[q]; k < starts_[q + 1]; k++)
		sum += weights[cells_[k]];
	return sum;
}

}  // namespace pap::core
