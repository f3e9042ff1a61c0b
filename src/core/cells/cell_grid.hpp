// The representative cells as a mixed-radix product grid (docs/architecture.md step 3): one radix (bin count) per axis,
// cell index <-> per-axis bin coordinates. The FIRST axis is the MOST significant digit (row-major): the last
// axis has stride 1, so cells that differ only in the last coordinate are adjacent and the prefix-sum and box
// loops of the grouped workloads run over contiguous memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pap::core {

// An inclusive interval of bin indices on one axis; empty when lo > hi.
struct CellInterval {
	std::int32_t lo;
	std::int32_t hi;
	bool
	empty() const
	{
		return lo > hi;
	}
};

class CellGrid {
public:
	// Every radix >= 1 (Error(Internal) otherwise: radices come from built axes); no axes at all is one cell.
	// Error(LimitExceeded) when the number of cells exceeds cell_limit (or does not fit a size_t).
	CellGrid(std::vector<std::int32_t> radices, std::uint64_t cell_limit);

	std::size_t
	AxisCount() const
	{
		return radices_.size();
	}
	std::size_t
	CellCount() const
	{
		return cell_count_;
	}
	std::int32_t
	Radix(std::size_t axis) const
	{
		return radices_[axis];
	}
	const std::vector<std::int32_t> &
	Radices() const
	{
		return radices_;
	}
	// index = sum over axes of coordinate[axis] * Stride(axis); Stride(last) = 1.
	std::size_t
	Stride(std::size_t axis) const
	{
		return strides_[axis];
	}

	// Error(Internal) for a wrong number of coordinates or a coordinate outside [0, radix - 1].
	std::size_t IndexOf(const std::vector<std::int32_t> &coordinates) const;
	// Error(Internal) for an index >= CellCount(). The second form reuses the caller's vector.
	std::vector<std::int32_t> CoordinatesOf(std::size_t index) const;
	void CoordinatesOf(std::size_t index, std::vector<std::int32_t> &coordinates) const;

	// Calls f(index) for every cell of the box box[0..AxisCount()-1] (inclusive bin intervals), in increasing
	// index order; nothing when an interval is empty. The caller guarantees non-empty intervals lie inside their
	// radices (the workloads check this once, at construction). Cost: the number of cells visited.
	template <typename F> void ForEachCellInBox(const CellInterval *box, F &&f) const;

private:
	std::vector<std::int32_t> radices_;
	std::vector<std::size_t> strides_;
	std::size_t cell_count_ = 1;
};

template <typename F>
void
CellGrid::ForEachCellInBox(const CellInterval *box, F &&f) const
{
	const std::size_t d = radices_.size();
	for (std::size_t a = 0; a < d; a++)
		if (box[a].empty())
			return;
	if (d == 0) {
		f(std::size_t(0));
		return;
	}
	// An odometer over the outer axes; the last axis (stride 1) is one contiguous run per outer position.
	std::vector<std::int32_t> at(d);
	std::size_t base = 0;
	for (std::size_t a = 0; a + 1 < d; a++) {
		at[a] = box[a].lo;
		base += std::size_t(box[a].lo) * strides_[a];
	}
	const std::size_t run_lo = std::size_t(box[d - 1].lo), run_hi = std::size_t(box[d - 1].hi);
	for (;;) {
		for (std::size_t i = base + run_lo; i <= base + run_hi; i++)
			f(i);
		std::size_t a = d - 1;
		for (;;) {
			if (a == 0)
				return;
			a--;
			if (at[a] < box[a].hi) {
				at[a]++;
				base += strides_[a];
				break;
			}
			base -= std::size_t(at[a] - box[a].lo) * strides_[a];
			at[a] = box[a].lo;
		}
	}
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
