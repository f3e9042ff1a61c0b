// Arrays handed to the glue, allocated with its allocator (api/labelling_api.hpp): nullptr becomes std::bad_alloc.
#pragma once
#include <algorithm>
#include <cstddef>
#include <new>

#include "core/api/labelling_api.hpp"

#include "core/base/core_only.hpp"

namespace pap::core {

template <typename T>
T *
AllocateLabelArray(LabelAllocate allocate, std::size_t count)
{
	void *p = allocate(sizeof(T) * std::max<std::size_t>(count, 1));
	if (p == nullptr)
		throw std::bad_alloc();
	return static_cast<T *>(p);
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
