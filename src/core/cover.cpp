#include "core/cover.hpp"

#include "core/interval_cover.hpp"

namespace pap::core {

// The one place that maps a class to its cover type.
std::unique_ptr<Cover>
MakeCover(const QueryClass &query_class, NumericAxis axis, std::size_t max_queries)
{
	return std::make_unique<IntervalCover>(query_class, std::move(axis), max_queries);
}

}  // namespace pap::core
