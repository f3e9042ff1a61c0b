#include "core/query_class.hpp"

#include "core/errors.hpp"

namespace pap::core {

std::string
QueryClass::Text() const
{
	const char *name = kind == QueryClassKind::Thresholds ? "thresholds" : "ranges";
	return std::string(name) + "(" + QuoteIdentifier(column) + ")";
}

int
QueryClass::VcDimension() const
{
	return kind == QueryClassKind::Thresholds ? 1 : 2;
}

QueryClass
ParseQueryClass(std::string_view text)
{
	ClassText parsed = ParseClassText(text);
	QueryClassKind kind;
	if (parsed.name == "thresholds")
		kind = QueryClassKind::Thresholds;
	else if (parsed.name == "ranges")
		kind = QueryClassKind::Ranges;
	else
		throw Error(ErrorKind::InvalidParameter, "unknown query class \"" + parsed.name + "\"",
		            "The query class text was \"" + std::string(text) + "\".",
		            "Known classes: thresholds(column), ranges(column).");
	if (parsed.columns.size() != 1)
		throw Error(ErrorKind::InvalidParameter,
		            "query class " + parsed.name + " takes exactly one column, got " +
		                std::to_string(parsed.columns.size()),
		            {}, "Write " + parsed.name + "(column).");
	return QueryClass{kind, parsed.columns[0]};
}

}  // namespace pap::core
