#include "core/release/release_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/query_text.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

std::vector<std::int32_t>
ReleaseLayout::Radices() const
{
	std::vector<std::int32_t> radices;
	radices.reserve(axes.size());
	for (const ReleaseAxis &axis : axes)
		radices.push_back(axis.Radix());
	return radices;
}

CellDomain
ReleaseLayout::MakeDomain() const
{
	constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
	if (domain_kind == DomainKind::Dense)
		return CellDomain::Dense(Radices(), kNoLimit);
	if (domain_kind == DomainKind::Support)
		return CellDomain::Support(Radices(), public_points, kNoLimit);
	throw Error(ErrorKind::Internal, "a release's domain is dense or public support");
}

std::unique_ptr<Cover>
ReleaseLayout::MakeReleaseCover(std::size_t max_queries) const
{
	CoverInput input{&spec, &axes, &public_points, &public_point_counts, &predicate_axis, max_queries};
	return MakeCover(input);
}

std::vector<std::int64_t>
ReleaseLayout::PublicRowsPerBin(std::size_t axis) const
{
	const std::size_t d = axes.size();
	if (axis >= d)
		throw Error(ErrorKind::Internal, "axis index out of range");
	std::vector<std::int64_t> rows(std::size_t(axes[axis].Radix()), 0);
	std::uint64_t steps = 0;
	for (std::size_t p = 0; p < public_point_counts.size(); p++) {
		PollInterrupt(steps);
		rows.at(std::size_t(public_points[p * d + axis])) += public_point_counts[p];
	}
	return rows;
}

std::vector<std::int64_t>
ReleaseLayout::PublicHistogram(const CellDomain &domain) const
{
	// Zeroed in slices, polling in between: a domain may hold 10^8 cells.
	std::vector<std::int64_t> histogram;
	const std::size_t cells = domain.CellCount();
	histogram.reserve(cells);
	while (histogram.size() < cells) {
		PollInterruptNow();
		histogram.resize(std::min(cells, histogram.size() + (std::size_t(1) << 20)), 0);
	}
	const std::size_t d = axes.size();
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < public_point_counts.size(); i++) {
		PollInterrupt(steps);
		const std::size_t cell = domain.CellOf(public_points.data() + i * d);
		if (cell >= histogram.size())
			throw Error(ErrorKind::Internal, "a public point lies outside the release's domain");
		histogram[cell] += public_point_counts[i];
	}
	return histogram;
}

std::vector<bool>
ReleaseLayout::ClosedCells(const CellDomain &domain) const
{
	const std::size_t d = axes.size();
	if (domain.AxisCount() != d)
		throw Error(ErrorKind::Internal, "a domain over other axes than the release's");
	// Per axis: its "other" bin when closed, its NULL bin when NOT NULL, else -1.
	std::vector<std::int32_t> other_bin(d, -1), null_bin(d, -1);
	bool any = false;
	for (std::size_t a = 0; a < d; a++) {
		if (axes[a].ClosedCategories()) {
			other_bin[a] = axes[a].OtherBin();
			any = true;
		}
		if (axes[a].not_null && axes[a].HasNullBin()) {
			null_bin[a] = axes[a].NullBin();
			any = true;
		}
	}
	if (!any)
		return {};
	std::vector<bool> closed(domain.CellCount(), false);
	std::vector<std::int32_t> point(d);
	std::uint64_t steps = 0;
	for (std::size_t cell = 0; cell < closed.size(); cell++) {
		PollInterrupt(steps, d);
		if (!domain.CoordinatesOf(cell, point.data()))
			continue;  // the outside cell
		for (std::size_t a = 0; a < d && !closed[cell]; a++)
			closed[cell] = point[a] == other_bin[a] || point[a] == null_bin[a];
	}
	return closed;
}

std::string
ReleaseLayout::AxisValueSql(const std::string &column, ValueType)
{
	// Every conversion is total (docs/security.md): pap.axis_value(numeric) maps overflow to +-Infinity where
	// numeric::float8 would raise; the other number types resolve to pap.axis_value(float8) through casts that
	// cannot fail.
	return "pap.axis_value(" + SqlIdentifier(column) + ")";
}

std::string
ReleaseLayout::LinearValueSql(const std::vector<std::string> &columns, const std::vector<double> &w)
{
	// pap.linear_value sums in IEEE arithmetic (an overflow is +-Infinity), where float8 operators would raise.
	std::string weights, values;
	for (std::size_t c = 0; c < columns.size(); c++) {
		if (w[c] == 0.0)
			continue;
		char weight[40];
		std::snprintf(weight, sizeof weight, "%.17g", w[c]);
		weights += std::string(weights.empty() ? "" : ",") + weight;
		values += ", " + SqlIdentifier(columns[c]);
	}
	return "pap.linear_value('{" + weights + "}'::pg_catalog.float8[]" + values + ")";
}

std::string
ReleaseLayout::CategoryTextSql(const ReleaseAxis &axis)
{
	const std::string column = SqlIdentifier(axis.label);
	// An enum's text through its built-in output function, named in full: "::text" would run a cast its type's
	// owner may have created (docs/security.md), with the rights of the table's owner.
	if (axis.value_type == ValueType::Enum)
		return "pg_catalog.textin(pg_catalog.enum_out(" + column + "))";
	return "(" + column + ")::pg_catalog.text";
}

std::string
ReleaseLayout::GridCountsSql(const std::vector<std::int64_t> &radices, const std::vector<std::string> &arguments)
{
	std::string list;
	for (std::size_t a = 0; a < radices.size(); a++)
		list += (a ? "," : "") + std::to_string(radices[a]);
	std::string sql = "pap.grid_counts('{" + list + "}'::pg_catalog.int8[]";
	for (const std::string &argument : arguments)
		sql += ", " + argument;
	return sql + "), '{" + list + "}'::pg_catalog.int8[]";
}

std::string
ReleaseLayout::ScanSelectList() const
{
	// Per axis: its bin as one expression (the GROUP BY form), and its arguments of pap.grid_counts, where a
	// numeric or linear axis passes its cut points and value so that the aggregate bins them itself.
	std::vector<std::string> bins, arguments;
	for (std::size_t a = 0; a < axes.size(); a++) {
		const ReleaseAxis &axis = axes[a];
		const std::string param = "$" + std::to_string(a + 1);
		switch (axis.kind) {
		case AxisKind::Numeric:
		case AxisKind::Linear: {
			const std::string value = axis.kind == AxisKind::Numeric
			                              ? AxisValueSql(axis.label, axis.value_type)
			                              : LinearValueSql(spec.columns, spec.directions.at(a));
			bins.push_back("pap.cell_index(" + param + ", " + value + ")");
			// pap.grid_counts converts a number column itself (totally, one call per row less).
			const bool raw = axis.kind == AxisKind::Numeric && axis.value_type == ValueType::Number;
			arguments.push_back(param + ", " + (raw ? SqlIdentifier(axis.label) : value));
			break;
		}
		case AxisKind::Categorical:
			bins.push_back("pap.category_index(" + param + ", " + CategoryTextSql(axis) + ")");
			arguments.push_back(bins.back());
			break;
		case AxisKind::Predicate:
			// Not "IS TRUE": postgres_fdw 15 does not ship it, and a CASE it does (NULL goes to bin 0 in both).
			bins.push_back("CASE WHEN (" + axis.label + ") THEN 1 ELSE 0 END");
			arguments.push_back(bins.back());
			break;
		}
	}
	// The grid point as one mixed-radix number, first axis most significant, counted by one aggregate that
	// PostgreSQL parallelises and postgres_fdw ships; the radices follow so that the reader decodes the keys.
	std::uint64_t product = 1;
	bool fits = true;
	for (const ReleaseAxis &axis : axes)
		fits =
		    fits && !__builtin_mul_overflow(product, std::uint64_t(axis.Radix()), &product) && product <= kScanKeyLimit;
	if (fits && !axes.empty()) {
		std::vector<std::int64_t> radices;
		for (const ReleaseAxis &axis : axes)
			radices.push_back(axis.Radix());
		return GridCountsSql(radices, arguments);
	}
	std::string sql;
	for (const std::string &bin : bins)
		sql += bin + ", ";
	return sql + "pg_catalog.count(*)";
}

std::string
JsonString(const std::string &text)
{
	std::string out = "\"";
	for (unsigned char c : text) {
		if (c == '"' || c == '\\') {
			out += '\\';
			out += char(c);
		} else if (c < 0x20) {
			char buf[8];
			std::snprintf(buf, sizeof buf, "\\u%04x", c);
			out += buf;
		} else {
			out += char(c);
		}
	}
	return out + "\"";
}

namespace {

// A numeric axis value in JSON: a number when finite and a plain number, else the literal's text as a string.
std::string
JsonAxisValue(double value, ValueType type)
{
	std::string literal = FormatAxisLiteral(value, type);
	if (type == ValueType::Number && std::isfinite(value))
		return literal;
	if (literal.size() >= 2 && literal.front() == '\'' && literal.back() == '\'')
		literal = literal.substr(1, literal.size() - 2);
	return JsonString(literal);
}

}  // namespace

void
ReleaseLayout::DescribeCell(const CellDomain &domain, std::size_t cell, std::string &bounds, std::string &json) const
{
	std::vector<std::int32_t> bins(axes.size());
	if (!domain.CoordinatesOf(cell, bins.data())) {
		bounds = "outside the public support";
		json.clear();
		return;
	}
	bounds.clear();
	json = "{";
	for (std::size_t a = 0; a < axes.size(); a++) {
		const ReleaseAxis &axis = axes[a];
		const std::int32_t bin = bins[a];
		const std::string name = axis.kind == AxisKind::Predicate || axis.kind == AxisKind::Linear
		                             ? axis.label
		                             : QuoteIdentifier(axis.label);
		std::string text, value;
		if (axis.HasNullBin() && bin == axis.NullBin()) {
			text = (axis.kind == AxisKind::Linear ? "(" + name + ")" : name) + " IS NULL";
			value = "null";
		} else if (axis.kind == AxisKind::Predicate) {
			text = "(" + name + (bin == 1 ? ") IS TRUE" : ") IS NOT TRUE");  // bin 0 also holds NULL
			value = bin == 1 ? "true" : "false";
		} else if (axis.kind == AxisKind::Categorical) {
			if (bin == axis.OtherBin()) {
				std::string list;
				for (std::size_t c = 0; c < axis.categories.size(); c++) {
					text += std::string(c ? ", " : "") + FormatCategoryLiteral(axis.categories[c], axis.value_type);
					list += std::string(c ? ", " : "") + JsonString(axis.categories[c]);
				}
				text = name + " NOT IN (" + text + ")";
				value = "{\"other\": [" + list + "]}";
			} else {
				const std::string &category = axis.categories.at(std::size_t(bin));
				text = name + " = " + FormatCategoryLiteral(category, axis.value_type);
				value = JsonString(category);
			}
		} else {
			const std::size_t j = std::size_t(bin), m = axis.cuts.size();
			const ValueType type = axis.kind == AxisKind::Linear ? ValueType::Number : axis.value_type;
			const std::string lhs = axis.kind == AxisKind::Linear ? "(" + name + ")" : name;
			const bool has_lower = j > 0, has_upper = j < m;
			if (has_lower)
				text = lhs + " > " + FormatAxisLiteral(axis.cuts[j - 1], type);
			if (has_upper)
				text += (has_lower ? " AND " : "") + lhs + " <= " + FormatAxisLiteral(axis.cuts[j], type);
			if (!has_lower && !has_upper)
				text = lhs + " IS NOT NULL";
			value = std::string("{\"lower\": ") + (has_lower ? JsonAxisValue(axis.cuts[j - 1], type) : "null") +
			        ", \"upper\": " + (has_upper ? JsonAxisValue(axis.cuts[j], type) : "null") + "}";
		}
		bounds += (a ? " AND " : "") + text;
		json += (a ? ", " : "") + JsonString(axis.label) + ": " + value;
	}
	json += "}";
}

}  // namespace pap::core
