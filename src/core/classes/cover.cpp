#include "core/classes/cover.hpp"

#include "core/base/errors.hpp"
#include "core/classes/box_cover.hpp"
#include "core/classes/halfspace_cover.hpp"
#include "core/classes/interval_cover.hpp"
#include "core/classes/marginal_cover.hpp"
#include "core/classes/predicate_cover.hpp"

namespace pap::core {

// The one place that maps a class to its cover type.
std::unique_ptr<Cover>
MakeCover(const CoverInput &input)
{
	switch (input.spec->kind) {
	case ClassKind::Thresholds:
	case ClassKind::Ranges: return MakeIntervalCover(input);
	case ClassKind::Boxes:
	case ClassKind::Orthants: return MakeBoxCover(input);
	case ClassKind::Marginals:
	case ClassKind::Stumps: return MakeMarginalCover(input);
	case ClassKind::Halfspaces: return MakeHalfspaceCover(input);
	case ClassKind::Predicates: return MakePredicateCover(input);
	}
	throw Error(ErrorKind::Internal, "unknown class kind");
}

}  // namespace pap::core
