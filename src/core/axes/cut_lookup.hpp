// The bin of a value among sorted cut points, fast: the private scan maps every row through it once per numeric
// or linear axis (docs/architecture.md step 4), where a binary search's mispredicted halvings were most of the cost.
// Contract: CutLookup::Index(x) == CountBelowSorted(cuts, count, x) (PostgreSQL's float8 order, NaN last) for every
// x and every cut array sorted in that order (duplicates, NaN, infinities and -0.0 allowed).
// Method: B uniform buckets over [cuts[0], cuts[count-1]] (B a power of two, 2-4 times count, at most 2^20), and
// start[b] = the number of cuts whose bucket is below b. Bucket() is monotone non-decreasing, so every cut in a
// lower bucket than x's is below x and every cut in a higher one is above it: the answer is start[b] plus the cuts
// of x's own bucket below x, counted without branches over a window of kWindow cuts (the array is padded with
// +Infinity, and a cut of a later bucket counts as not below). A bucket holding more cuts than the window, a NaN x,
// and arrays whose ends are not finite or equal use the branchless binary search instead.
// Memory: the lookup is one block of BytesFor(count) bytes the caller provides (PostgreSQL memory in the glue),
// built in place and never destructed. Build O(count + B); Index O(1) typical, O(log count) at worst.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/axes/numeric_axis.hpp"

namespace pap::core {

// The length of the prefix of sorted cuts on which in_prefix(cut) holds (a predicate true on a prefix), found
// without branches in the loop: the shared search of the two counts below.
template <typename InPrefix>
inline std::size_t
BranchlessPrefixLength(const double *cuts, std::size_t count, InPrefix in_prefix) noexcept
{
	if (count == 0)
		return 0;
	const double *base = cuts;
	std::size_t n = count;
	while (n > 1) {
		const std::size_t half = n / 2;
		base = in_prefix(base[half]) ? base + half : base;  // everything before base is in the prefix
		n -= half;
	}
	return std::size_t(base - cuts) + std::size_t(in_prefix(*base));
}

// CountBelowSorted without branches in the loop. For x not NaN, "cut below x" in PostgreSQL's order is the IEEE
// cut < x (a NaN cut sorts last and is below nothing; -0.0 equals 0.0 in both), a predicate true on a prefix of
// the sorted cuts, so a plain comparison finds the same count; NaN takes the general path.
inline std::size_t
BranchlessCountBelow(const double *cuts, std::size_t count, double x) noexcept
{
	if (__builtin_expect(std::isnan(x), 0))
		return CountBelowSorted(cuts, count, x);
	return BranchlessPrefixLength(cuts, count, [x](double cut) { return cut < x; });
}

// The number of cuts at most x (std::upper_bound in PostgreSQL's order) without branches in the loop: for x not NaN,
// "cut at most x" is the IEEE cut <= x (a NaN cut sorts last and is at most no number), true on a prefix.
inline std::size_t
BranchlessCountAtMost(const double *cuts, std::size_t count, double x) noexcept
{
	if (__builtin_expect(std::isnan(x), 0))
		return count;  // NaN sorts last: every cut is at most it
	return BranchlessPrefixLength(cuts, count, [x](double cut) { return cut <= x; });
}

class CutLookup {
public:
	static constexpr std::size_t kWindow = 4;  // cuts compared per lookup on the fast path
	static constexpr std::uint32_t kMaxBuckets = 1u << 20;

	// Bytes of the block that Build fills for count cuts (count < 2^31).
	static std::size_t BytesFor(std::size_t count) noexcept;
	// Copies cuts[0..count) (sorted in PostgreSQL's order) into memory, which must hold BytesFor(count) bytes
	// aligned for a double, and returns the lookup placed at its start. Unsorted cuts give unspecified bins but
	// never an access outside the block.
	static const CutLookup *Build(const double *cuts, std::size_t count, void *memory) noexcept;

	std::size_t
	count() const
	{
		return count_;
	}
	// False when every lookup takes the binary search (for tests).
	bool
	bucketed() const
	{
		return buckets_ != 0;
	}

	std::size_t
	Index(double x) const noexcept
	{
		if (__builtin_expect(buckets_ != 0 && !std::isnan(x), 1)) {
			const std::uint32_t b = Bucket(x);
			const std::uint32_t first = start_[b];
			const std::uint32_t size = start_[b + 1] - first;
			const double *c = cuts_ + first;
			if (__builtin_expect(size <= kWindow, 1))
				return first + std::size_t(c[0] < x) + std::size_t(c[1] < x) + std::size_t(c[2] < x) +
				       std::size_t(c[3] < x);
			return first + BranchlessCountBelow(c, size, x);
		}
		return BranchlessCountBelow(cuts_, count_, x);
	}

private:
	static_assert(kWindow == 4, "Index compares exactly four cuts");
	static std::uint32_t BucketCount(std::size_t count) noexcept;

	// The one bucket function, for the cuts at build time and for x at lookup time: floor((v - lo) * scale)
	// clamped to [0, B - 1], monotone in v. v is not NaN, lo and scale are finite, scale > 0.
	std::uint32_t
	Bucket(double v) const noexcept
	{
		double t = (v - lo_) * scale_;
		t = t > 0.0 ? t : 0.0;
		t = t < last_ ? t : last_;
		return std::uint32_t(t);
	}

	std::size_t count_;
	std::uint32_t buckets_;       // B, or 0: binary search only
	double lo_, scale_, last_;    // cuts[0], B / (cuts[count-1] - cuts[0]), B - 1
	const double *cuts_;          // count_ cuts, then kWindow times +Infinity
	const std::uint32_t *start_;  // B + 1 entries; start_[B] = count_
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
