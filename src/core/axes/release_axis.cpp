#include "core/axes/release_axis.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"

namespace pap::core {

namespace {

constexpr const char *kKindNames[] = {"numeric", "categorical", "linear", "predicate"};
constexpr const char *kTypeNames[] = {"number", "date", "timestamp", "timestamptz", "text", "boolean", "enum"};
static_assert(OrderedKind(AxisKind::Numeric) && OrderedKind(AxisKind::Linear) && !OrderedKind(AxisKind::Categorical) &&
                  !OrderedKind(AxisKind::Predicate),
              "only numeric and linear axes have cut points on a line");

}  // namespace

const char *
AxisKindName(AxisKind kind)
{
	return kKindNames[int(kind)];
}

AxisKind
AxisKindFromName(const char *name)
{
	for (int i = 0; i < int(std::size(kKindNames)); i++)
		if (std::strcmp(name, kKindNames[i]) == 0)
			return AxisKind(i);
	throw Error(ErrorKind::Internal, std::string("unknown axis kind \"") + name + "\" in the release catalog");
}

const char *
ValueTypeName(ValueType type)
{
	return kTypeNames[int(type)];
}

ValueType
ValueTypeFromName(const char *name)
{
	for (int i = 0; i < int(std::size(kTypeNames)); i++)
		if (std::strcmp(name, kTypeNames[i]) == 0)
			return ValueType(i);
	throw Error(ErrorKind::Internal, std::string("unknown value type \"") + name + "\" in the release catalog");
}

std::int32_t
ReleaseAxis::Radix() const
{
	switch (kind) {
	case AxisKind::Numeric:
	case AxisKind::Linear: return std::int32_t(cuts.size()) + 2;
	case AxisKind::Categorical: return std::int32_t(categories.size()) + 2;
	case AxisKind::Predicate: return 2;
	}
	throw Error(ErrorKind::Internal, "unknown axis kind");
}

std::int32_t
ReleaseAxis::OtherBin() const
{
	if (kind != AxisKind::Categorical)
		throw Error(ErrorKind::Internal, "only a categorical axis has an \"other\" bin");
	return std::int32_t(categories.size());
}

std::int32_t
ReleaseAxis::NumericBin(double value) const
{
	if (kind != AxisKind::Numeric && kind != AxisKind::Linear)
		throw Error(ErrorKind::Internal, "numeric bin asked of a non-numeric axis");
	return std::int32_t(CountBelowSorted(cuts.data(), cuts.size(), value));
}

std::int32_t
ReleaseAxis::CategoryBin(const std::string &text) const
{
	if (kind != AxisKind::Categorical)
		throw Error(ErrorKind::Internal, "category bin asked of a non-categorical axis");
	const auto it = std::lower_bound(categories.begin(), categories.end(), text);
	if (it != categories.end() && *it == text)
		return std::int32_t(it - categories.begin());
	return OtherBin();
}

}  // namespace pap::core
