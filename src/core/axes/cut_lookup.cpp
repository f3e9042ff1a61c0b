#include "core/axes/cut_lookup.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <type_traits>

namespace pap::core {

// The glue keeps the lookup in PostgreSQL memory that is freed, never destructed.
static_assert(std::is_trivially_destructible<CutLookup>::value, "a CutLookup is never destructed");
static_assert(sizeof(CutLookup) % alignof(double) == 0, "the cuts follow the header");

std::uint32_t
CutLookup::BucketCount(std::size_t count) noexcept
{
	if (count < 2)
		return 0;
	std::uint32_t buckets = 4;
	while (buckets < 2 * count && buckets < kMaxBuckets)
		buckets *= 2;
	return buckets;
}

std::size_t
CutLookup::BytesFor(std::size_t count) noexcept
{
	const std::uint32_t buckets = BucketCount(count);
	return sizeof(CutLookup) + sizeof(double) * (count + kWindow) + sizeof(std::uint32_t) * (std::size_t(buckets) + 1);
}

const CutLookup *
CutLookup::Build(const double *cuts, std::size_t count, void *memory) noexcept
{
	CutLookup *self = new (memory) CutLookup();
	double *own = reinterpret_cast<double *>(self + 1);
	std::copy(cuts, cuts + count, own);
	std::fill(own + count, own + count + kWindow, std::numeric_limits<double>::infinity());
	std::uint32_t *start = reinterpret_cast<std::uint32_t *>(own + count + kWindow);
	self->count_ = count;
	self->cuts_ = own;
	self->start_ = start;
	self->buckets_ = 0;
	self->lo_ = self->scale_ = self->last_ = 0.0;
	const std::uint32_t buckets = BucketCount(count);
	if (buckets == 0)
		return self;
	// A NaN or infinite end, a width that overflows or is zero, or a scale that overflows (a subnormal width)
	// would break the bucket arithmetic: the binary search handles those arrays.
	const double lo = own[0], hi = own[count - 1], width = hi - lo;
	if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(width) || !(width > 0.0))
		return self;
	const double scale = double(buckets) / width;
	if (!std::isfinite(scale) || !(scale > 0.0))
		return self;
	self->lo_ = lo;
	self->scale_ = scale;
	self->last_ = double(buckets - 1);
	std::fill(start, start + buckets + 1, 0u);
	for (std::size_t i = 0; i < count; i++)
		start[self->Bucket(own[i]) + 1]++;
	for (std::uint32_t b = 0; b < buckets; b++)
		start[b + 1] += start[b];
	self->buckets_ = buckets;
	return self;
}

}  // namespace pap::core
