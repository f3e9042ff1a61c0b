// Internal helpers shared by the engine's translation units (release_engine.cpp, release_model.cpp): not part of
// the glue's API.
#pragma once
#include <cstddef>
#include <cstring>
#include <new>
#include <string>

#include "core/api/release_api.hpp"
#include "core/release/release_layout.hpp"

namespace pap::core {

template <typename T>
T *
AllocateArray(Allocate allocate, std::size_t count)
{
	void *p = allocate(sizeof(T) * (count == 0 ? 1 : count));
	if (p == nullptr)
		throw std::bad_alloc();
	return static_cast<T *>(p);
}

inline char *
CopyString(Allocate allocate, const std::string &s)
{
	char *out = AllocateArray<char>(allocate, s.size() + 1);
	std::memcpy(out, s.c_str(), s.size() + 1);
	return out;
}

// The layout of a stored release, checked as it is read: the catalog is trusted, but a mismatch must be an
// internal error, never a wrong answer.
ReleaseLayout LayoutFromCatalog(const CatalogLayout &c);

// MakePlan on a layout not (yet) stored, for a request MakePlan would accept (mechanism, epsilon and delta
// checked): the definition's layout choice (layout_choice.hpp) plans its candidates with it. r.layout is not read;
// r.vc_dimension, r.cover_size and r.cell_count are the layout's. The caller's interrupt scope applies.
// CoverLimitExceeded (the cover's own Error(LimitExceeded)) when the layout's cover exceeds r.max_cover_queries
// (the definition's limit), found before the cover is listed.
class CoverLimitExceeded : public Error {
public:
	explicit CoverLimitExceeded(const Error &cover_error) : Error(cover_error) {}
};
PlanSummary PlanLayout(PlanRequest r, ReleaseLayout layout);

}  // namespace pap::core

#include "core/base/core_only.hpp"
