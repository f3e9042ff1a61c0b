#include "core/cover.hpp"

#include "core/box_cover.hpp"
#include "core/errors.hpp"
#include "core/halfspace_cover.hpp"
#include "core/interval_cover.hpp"
#include "core/marginal_cover.hpp"
#include "core/predicate_cover.hpp"

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
