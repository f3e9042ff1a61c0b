#include "core/axes/categorical_axis.hpp"

#include <algorithm>

#include "core/base/errors.hpp"

namespace pap::core {

CategoricalAxis
CategoricalAxis::FromPublicValues(std::vector<std::string> values)
{
	if (values.empty())
		throw Error(ErrorKind::DataException, "public table has no usable rows",
		            "Every value of the release column in the public table is NULL, so no cover can be built.",
		            "Use a public table with non-NULL values in the release column.");
	std::sort(values.begin(), values.end());
	values.erase(std::unique(values.begin(), values.end()), values.end());
	return CategoricalAxis(std::move(values));
}

CategoricalAxis
CategoricalAxis::FromCategories(std::vector<std::string> categories)
{
	if (categories.empty())
		throw Error(ErrorKind::Internal, "stored categorical axis has no categories");
	for (std::size_t i = 1; i < categories.size(); i++)
		if (!(categories[i - 1] < categories[i]))
			throw Error(ErrorKind::Internal, "stored categories are not strictly increasing in byte order");
	return CategoricalAxis(std::move(categories));
}

CategoricalAxis
CategoricalAxis::Boolean()
{
	return CategoricalAxis({"false", "true"});
}

std::int32_t
CategoricalAxis::BinOf(std::string_view text) const
{
	const auto it = std::lower_bound(categories_.begin(), categories_.end(), text,
	                                 [](const std::string &a, std::string_view b) { return std::string_view(a) < b; });
	if (it == categories_.end() || std::string_view(*it) != text)
		return OtherBin();
	return std::int32_t(it - categories_.begin());
}

const std::string &
CategoricalAxis::Category(std::int32_t bin) const
{
	if (bin < 0 || bin >= OtherBin())
		throw Error(ErrorKind::Internal, "categorical bin " + std::to_string(bin) + " has no category text");
	return categories_[std::size_t(bin)];
}

}  // namespace pap::core
