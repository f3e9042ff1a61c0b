#include "core/box_workload.hpp"

#include <limits>

#include "core/errors.hpp"

namespace pap::core {

namespace {

// A corner sum of int64 terms in 128 bits: partial sums of the 2^k signed terms may leave the int64 range even
// when the box's count does not. k <= 63 (each such axis has radix >= 2), so 2^k terms of |x| < 2^63 fit.
std::int64_t
Narrow(__int128 x)
{
	if (x > std::numeric_limits<std::int64_t>::max() || x < std::numeric_limits<std::int64_t>::min())
		throw Error(ErrorKind::LimitExceeded, "cell counts overflow a 64-bit integer");
	return std::int64_t(x);
}

double
Narrow(double x)
{
	return x;
}

}  // namespace

BoxWorkload::BoxWorkload(CellGrid grid, const std::vector<std::vector<CellInterval>> &boxes)
    : grid_(std::move(grid)), plans_(boxes.size())
{
	const std::size_t d = grid_.AxisCount();
	intervals_.reserve(boxes.size() * d);
	for (std::size_t q = 0; q < boxes.size(); q++) {
		if (boxes[q].size() != d)
			throw Error(ErrorKind::Internal, "box query does not have one interval per axis");
		Plan &plan = plans_[q];
		std::uint64_t volume = 1;  // saturates: only compared with the corner count
		for (std::size_t a = 0; a < d; a++) {
			const CellInterval &iv = boxes[q][a];
			intervals_.push_back(iv);
			if (iv.empty()) {
				plan.empty = true;
				continue;
			}
			if (iv.lo < 0 || iv.hi >= grid_.Radix(a))
				throw Error(ErrorKind::Internal, "box query interval outside its axis");
			if (__builtin_mul_overflow(volume, std::uint64_t(iv.hi - iv.lo + 1), &volume))
				volume = std::numeric_limits<std::uint64_t>::max();
		}
		if (plan.empty)
			continue;
		plan.offsets_begin = offsets_.size();
		for (std::size_t a = 0; a < d; a++) {
			const CellInterval &iv = boxes[q][a];
			plan.upper += std::size_t(iv.hi) * grid_.Stride(a);
			if (iv.lo > 0)
				offsets_.push_back(std::size_t(iv.hi - iv.lo + 1) * grid_.Stride(a));
		}
		plan.offset_count = std::uint32_t(offsets_.size() - plan.offsets_begin);
		// A thin box on many axes (say one cell on 20 binary axes) is cheaper to sum than its 2^20 corners.
		plan.direct = plan.offset_count >= 63 || volume <= (std::uint64_t(1) << plan.offset_count);
		if (plan.direct) {
			offsets_.resize(plan.offsets_begin);
			plan.offset_count = 0;
		}
	}
}

template <typename T, typename Sum>
void
BoxWorkload::EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const
{
	if (cells.size() != grid_.CellCount())
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's grid");
	// The summed-area table in place: prefix sums along each axis in turn. Along axis a, cell i adds cell
	// i - stride unless its coordinate on a is 0, i.e. within each block of stride * radix cells.
	std::vector<T> prefix(cells);
	const std::size_t n = prefix.size();
	for (std::size_t a = 0; a < grid_.AxisCount(); a++) {
		const std::size_t s = grid_.Stride(a), block = s * std::size_t(grid_.Radix(a));
		if (block == s)
			continue;
		for (std::size_t base = 0; base < n; base += block)
			for (std::size_t i = base + s; i < base + block; i++)
				AddToAnswer(prefix[i], prefix[i - s]);
	}
	answers.assign(plans_.size(), T(0));
	for (std::size_t q = 0; q < plans_.size(); q++) {
		const Plan &plan = plans_[q];
		if (plan.empty)
			continue;
		if (plan.direct) {
			T sum = 0;
			grid_.ForEachCellInBox(box(q), [&](std::size_t i) { AddToAnswer(sum, cells[i]); });
			answers[q] = sum;
			continue;
		}
		// Inclusion-exclusion: a corner that moved below the box on an odd number of axes is subtracted.
		const std::size_t *offsets = offsets_.data() + plan.offsets_begin;
		Sum sum = 0;
		for (std::uint64_t mask = 0; mask < (std::uint64_t(1) << plan.offset_count); mask++) {
			std::size_t index = plan.upper;
			for (std::uint32_t b = 0; b < plan.offset_count; b++)
				if (mask & (std::uint64_t(1) << b))
					index -= offsets[b];
			if (__builtin_parityll(mask))
				sum -= Sum(prefix[index]);
			else
				sum += Sum(prefix[index]);
		}
		answers[q] = Narrow(sum);
	}
}

void
BoxWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	EvaluateAll<double, double>(weights, answers);
}

void
BoxWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	EvaluateAll<std::int64_t, __int128>(histogram, counts);
}

void
BoxWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	grid_.ForEachCellInBox(box(q), [&](std::size_t i) { log_weights[i] += delta; });
}

double
BoxWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	double sum = 0.0;
	grid_.ForEachCellInBox(box(q), [&](std::size_t i) { sum += weights[i]; });
	return sum;
}

}  // namespace pap::core
