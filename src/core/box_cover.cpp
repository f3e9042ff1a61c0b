#include "core/box_cover.hpp"

#include <set>

#include "core/errors.hpp"

namespace pap::core {

namespace {

QueryClassKind
AxisKind(ClassKind kind)
{
	if (kind == ClassKind::Boxes)
		return QueryClassKind::Ranges;
	if (kind == ClassKind::Orthants)
		return QueryClassKind::Thresholds;
	throw Error(ErrorKind::Internal, "box cover built for a class other than boxes or orthants");
}

std::string
ClassTextOf(ClassKind kind, const std::vector<std::string> &columns)
{
	std::string text = std::string(ClassKindName(kind)) + "(";
	for (std::size_t a = 0; a < columns.size(); a++)
		text += (a ? ", " : "") + QuoteIdentifier(columns[a]);
	return text + ")";
}

std::vector<IntervalCover>
BuildCovers(ClassKind kind, const std::vector<std::string> &columns, std::vector<NumericAxis> &axes,
            std::size_t max_queries)
{
	const QueryClassKind axis_kind = AxisKind(kind);
	if (columns.empty() || columns.size() != axes.size())
		throw Error(ErrorKind::Internal, "box cover needs one axis per column and at least one column");
	if (std::set<std::string>(columns.begin(), columns.end()).size() != columns.size())
		throw Error(ErrorKind::Internal, "box cover columns are not distinct");
	std::vector<std::size_t> distinct;
	for (const NumericAxis &axis : axes)
		distinct.push_back(axis.cut_count());
	const double size = BoxCover::CoverSize(kind, distinct);
	if (!(size <= double(max_queries))) {
		std::string detail = "The public table has";
		for (std::size_t a = 0; a < columns.size(); a++)
			detail += (a ? ", " : " ") + std::to_string(distinct[a]) + " distinct values in column " +
			          QuoteIdentifier(columns[a]);
		throw Error(ErrorKind::LimitExceeded,
		            "query class " + ClassTextOf(kind, columns) + " would have " + FormatFloat8(size) +
		                " cover queries, more than the limit of " + std::to_string(max_queries),
		            detail + ".", "Use fewer columns, a public table with fewer distinct values, or orthants.");
	}
	std::vector<IntervalCover> covers;
	covers.reserve(axes.size());
	for (std::size_t a = 0; a < axes.size(); a++)
		covers.emplace_back(QueryClass{axis_kind, columns[a]}, std::move(axes[a]), max_queries);
	return covers;
}

std::vector<std::int32_t>
RadicesOf(const std::vector<IntervalCover> &covers)
{
	std::vector<std::int32_t> radices;
	for (const IntervalCover &cover : covers)
		radices.push_back(cover.axis().BinCount());
	return radices;
}

}  // namespace

double
BoxCover::CoverSize(ClassKind kind, const std::vector<std::size_t> &distinct_public_values)
{
	const QueryClassKind axis_kind = AxisKind(kind);
	double size = 1.0;
	for (std::size_t m : distinct_public_values)
		size *= IntervalCover::CoverSize(axis_kind, m) + 1.0;
	return size;
}

BoxCover::BoxCover(ClassKind kind, std::vector<std::string> columns, std::vector<NumericAxis> axes,
                   std::size_t max_queries, std::uint64_t cell_limit)
    : kind_(kind), columns_(std::move(columns)), covers_(BuildCovers(kind_, columns_, axes, max_queries)),
      grid_(RadicesOf(covers_), cell_limit)
{
	for (std::size_t a = 0; a < covers_.size(); a++)
		if (__builtin_mul_overflow(query_count_, AxisCoverSize(a), &query_count_))  // only near SIZE_MAX limits
			throw Error(ErrorKind::LimitExceeded, "query class " + ClassText() + " has too many cover queries");
}

std::string
BoxCover::ClassText() const
{
	return ClassTextOf(kind_, columns_);
}

std::vector<std::size_t>
BoxCover::AxisIndexes(std::size_t q) const
{
	if (q >= query_count_)
		throw Error(ErrorKind::Internal, "box cover query index out of range");
	std::vector<std::size_t> indexes(covers_.size());
	for (std::size_t a = covers_.size(); a-- > 0;) {
		indexes[a] = q % AxisCoverSize(a);
		q /= AxisCoverSize(a);
	}
	return indexes;
}

std::size_t
BoxCover::QueryIndex(const std::vector<std::size_t> &axis_indexes) const
{
	if (axis_indexes.size() != covers_.size())
		throw Error(ErrorKind::Internal, "box cover query does not have one index per axis");
	std::size_t q = 0;
	for (std::size_t a = 0; a < covers_.size(); a++) {
		if (axis_indexes[a] >= AxisCoverSize(a))
			throw Error(ErrorKind::Internal, "box cover per-axis index out of range");
		q = q * AxisCoverSize(a) + axis_indexes[a];
	}
	return q;
}

std::vector<CellInterval>
BoxCover::Box(std::size_t q) const
{
	const std::vector<std::size_t> indexes = AxisIndexes(q);
	std::vector<CellInterval> box(covers_.size());
	for (std::size_t a = 0; a < covers_.size(); a++)
		box[a] = indexes[a] == UnconstrainedIndex(a) ? BoxWorkload::All(grid_.Radix(a)) : covers_[a].Cells(indexes[a]);
	return box;
}

BoxWorkload
BoxCover::MakeWorkload() const
{
	std::vector<std::vector<CellInterval>> boxes;
	boxes.reserve(query_count_);
	for (std::size_t q = 0; q < query_count_; q++)
		boxes.push_back(Box(q));
	return BoxWorkload(grid_, boxes);
}

std::size_t
BoxCover::CellOf(const std::vector<std::optional<double>> &row) const
{
	if (row.size() != covers_.size())
		throw Error(ErrorKind::Internal, "row does not have one value per axis");
	std::size_t index = 0;
	for (std::size_t a = 0; a < covers_.size(); a++) {
		const NumericAxis &ax = axis(a);
		const std::int32_t bin = row[a] ? ax.BinOf(*row[a]) : ax.NullBin();
		index += std::size_t(bin) * grid_.Stride(a);
	}
	return index;
}

std::size_t
BoxCover::Project(const QueryText &query, const std::vector<double> &values) const
{
	if (values.size() != LiteralCount(query))
		throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
	const std::size_t d = covers_.size();
	std::vector<QueryText> parts(d);
	std::vector<std::vector<double>> part_values(d);
	std::size_t next = 0;
	for (const Condition &c : query.conditions) {
		std::size_t a = 0;
		while (a < d && columns_[a] != c.column)
			a++;
		if (a == d) {
			std::string list;
			for (std::size_t b = 0; b < d; b++)
				list += (b ? ", " : "") + QuoteIdentifier(columns_[b]);
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(c.column) + " is not in the release's query class " + ClassText(),
			            {}, "A query may use only the columns " + list + ".");
		}
		if (kind_ == ClassKind::Orthants && c.op != Comparison::LessEqual && c.op != Comparison::Less)
			throw Error(ErrorKind::QueryOutsideClass, "query is outside the release's query class " + ClassText(),
			            "The class " + ClassText() + " contains only conjunctions of conditions col <= c and col < c.",
			            "Define a release over boxes to answer other conditions.");
		parts[a].conditions.push_back(c);
		part_values[a].push_back(values[next++]);
		if (c.op == Comparison::Between)
			part_values[a].push_back(values[next++]);
	}
	std::vector<std::size_t> indexes(d);
	for (std::size_t a = 0; a < d; a++)
		indexes[a] = parts[a].conditions.empty() ? UnconstrainedIndex(a) : covers_[a].Project(parts[a], part_values[a]);
	return QueryIndex(indexes);
}

std::optional<CoverQueryShape>
BoxCover::AxisShape(std::size_t q, std::size_t a) const
{
	const std::size_t i = AxisIndexes(q).at(a);
	if (i == UnconstrainedIndex(a))
		return std::nullopt;
	return covers_[a].Shape(i);
}

std::string
BoxCover::Render(std::size_t q, std::string (*format_value)(double, const void *), const void *context) const
{
	const std::vector<std::size_t> indexes = AxisIndexes(q);
	std::string text;
	for (std::size_t a = 0; a < covers_.size(); a++) {
		if (indexes[a] == UnconstrainedIndex(a))
			continue;
		if (!text.empty())
			text += " AND ";
		text += covers_[a].Render(indexes[a], format_value, context);
	}
	return text.empty() ? "TRUE" : text;
}

}  // namespace pap::core
