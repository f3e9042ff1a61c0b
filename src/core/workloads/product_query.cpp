#include "core/workloads/product_query.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

std::size_t
ProductQueryList::Add(const AxisConstraint *constraints, std::size_t count)
{
	for (std::size_t i = 1; i < count; i++)
		if (constraints[i].axis <= constraints[i - 1].axis)
			throw Error(ErrorKind::Internal, "product query constraints are not sorted by axis");
	constraints_.insert(constraints_.end(), constraints, constraints + count);
	offsets_.push_back(constraints_.size());
	return size() - 1;
}

bool
ProductQueryList::Empty(std::size_t q) const
{
	for (const AxisConstraint *c = begin(q); c != end(q); ++c)
		if (c->bins.empty())
			return true;
	return false;
}

void
ProductQueryList::Reserve(std::size_t queries, std::size_t constraints)
{
	offsets_.reserve(queries + 1);
	constraints_.reserve(constraints);
}

}  // namespace pap::core
