// End-to-end tests through the boundary the PostgreSQL glue calls (src/core/api/release_api.hpp), driven in the
// glue's order (src/pg/fmgr_define.cpp LearnFromPublicTable, fmgr_run.cpp, fmgr_answer.cpp) against a fake table
// held in C++: what each SQL statement would return (per-axis public marginals, categories, grid points by the
// scan's parameters, predicate labels) is computed here by hand, with PostgreSQL's float8 order. The released
// model is then checked against brute force: every cover query's rendered text, parsed and projected as
// pap.answer does, comes back to the same query, and its answer is the synthetic weight of the cells on which
// that text is true, evaluated here on one representative value per bin.
#include "core/api/release_api.hpp"
#include "core/language/value_format.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "core/axes/gap_spread.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/query_text.hpp"
#include "core/mechanisms/error_model.hpp"
#include "core/release/answer_bound.hpp"
#include "core/release/answer_mode.hpp"
#include "core/release/engine_support.hpp"
#include "core/release/layout_choice.hpp"
#include "core/release/release_model.hpp"

namespace pap::core {
namespace {

// Part (a) in both modes on the answers' own event (ProjectionEventBetaOf of the request's beta), where the plan
// takes its median (PlanProjectionEventBeta).
AnswerModeErrors
BoundModes(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double request_beta)
{
	return AnswerModeErrorsOf(layout, public_rows, private_rows, ProjectionEventBetaOf(layout, request_beta));
}

// --- allocation -----------------------------------------------------------------------------------------------

// Every block handed out, freed at the end of each test.
std::vector<void *> g_blocks;

void *
TestAllocate(std::size_t bytes)
{
	void *p = std::malloc(bytes);
	if (p != nullptr)
		g_blocks.push_back(p);
	return p;
}

void *
FailingAllocate(std::size_t)
{
	return nullptr;
}

// --- the fake table -------------------------------------------------------------------------------------------

struct Value {
	bool null = true;
	double number = 0.0;  // number columns
	std::string text;     // what (col)::text returns: categories, booleans "true"/"false"
};

Value
Null()
{
	return Value{};
}

Value
Num(double v)
{
	char buf[40];
	std::snprintf(buf, sizeof buf, "%.17g", v);
	return Value{false, v, buf};
}

Value
Str(const std::string &s)
{
	return Value{false, 0.0, s};
}

Value
Bool(bool b)
{
	return Str(b ? "true" : "false");
}

using Row = std::vector<Value>;

struct Column {
	std::string name;
	ValueType type;
	const char *type_name;
	std::vector<std::string> labels = {};  // an enum type's, or a CHECK constraint's list (check_list)
	bool check_list = false;
	double value_step = 0.0;  // > 0: passed as DraftSetColumnValueStep (an integer column's 1)
	bool not_null = false;    // passed as DraftSetColumnNotNull: the private column is NOT NULL
};

struct Table {
	std::vector<Column> columns;
	std::vector<Row> rows;
	// Predicate SQL text -> whether "(p) IS TRUE" holds on a row.
	std::map<std::string, std::function<bool(const Row &)>> predicates;

	std::size_t
	Col(const std::string &name) const
	{
		for (std::size_t i = 0; i < columns.size(); i++)
			if (columns[i].name == name)
				return i;
		ADD_FAILURE() << "no column " << name;
		return 0;
	}
	void
	Add(Row row, int times = 1)
	{
		for (int i = 0; i < times; i++)
			rows.push_back(row);
	}
};

// What axis a of a release reads from a row.
struct AxisSource {
	AxisKind kind = AxisKind::Numeric;
	std::size_t column = 0;            // Numeric, Categorical
	std::vector<std::size_t> columns;  // Linear
	std::vector<double> weights;       // Linear
	std::string predicate;             // Predicate
};

std::vector<AxisSource>
Sources(const Table &table, const ClassSpec &spec, const std::vector<AxisKind> &kinds,
        const std::vector<std::string> &labels)
{
	std::vector<AxisSource> out;
	for (std::size_t a = 0; a < kinds.size(); a++) {
		AxisSource s;
		s.kind = kinds[a];
		switch (s.kind) {
		case AxisKind::Numeric:
		case AxisKind::Categorical: s.column = table.Col(labels[a]); break;
		case AxisKind::Linear:
			for (const std::string &c : spec.columns)
				s.columns.push_back(table.Col(c));
			s.weights = spec.directions.at(a);
			break;
		case AxisKind::Predicate: s.predicate = labels[a]; break;
		}
		out.push_back(s);
	}
	return out;
}

// The value SQL computes for a numeric, linear or categorical axis: (col)::float8, the weighted sum with
// zero weights left out (release_layout.cpp LinearValueSql), or (col)::text.
Value
AxisValue(const Row &row, const AxisSource &s)
{
	if (s.kind != AxisKind::Linear)
		return row[s.column];
	Value v{false, 0.0, ""};
	bool first = true;
	for (std::size_t i = 0; i < s.columns.size(); i++) {
		if (s.weights[i] == 0.0)
			continue;
		const Value &x = row[s.columns[i]];
		if (x.null)
			return Null();
		v.number = first ? s.weights[i] * x.number : v.number + s.weights[i] * x.number;
		first = false;
	}
	return v;
}

bool
PredicateHolds(const Table &table, const std::string &predicate, const Row &row)
{
	auto it = table.predicates.find(predicate);
	if (it == table.predicates.end()) {
		ADD_FAILURE() << "no predicate " << predicate;
		return false;
	}
	return it->second(row);
}

using ParameterFn = std::function<ScanParameterKind(std::size_t, const double **, const char *const **, std::size_t *)>;

struct GridPoints {
	std::vector<std::int32_t> points;
	std::vector<std::int64_t> rows;
};

// The scan "SELECT <select list> FROM table GROUP BY <bins>": pap.cell_index counts the cuts below the value (NULL:
// count + 1), pap.category_index finds the category (not found: count; NULL: count + 1), a predicate axis is
// (p IS TRUE)::int4. Groups are handed over in descending order: the core must not rely on the order.
GridPoints
Scan(const Table &table, const std::vector<AxisSource> &sources, const ParameterFn &parameter)
{
	std::map<std::vector<std::int32_t>, std::int64_t> groups;
	for (const Row &row : table.rows) {
		std::vector<std::int32_t> point;
		for (std::size_t a = 0; a < sources.size(); a++) {
			const double *cuts = nullptr;
			const char *const *categories = nullptr;
			std::size_t count = 0;
			const ScanParameterKind kind = parameter(a, &cuts, &categories, &count);
			const AxisSource &s = sources[a];
			if (s.kind == AxisKind::Predicate) {
				EXPECT_EQ(kind, ScanParameterKind::None);
				point.push_back(PredicateHolds(table, s.predicate, row) ? 1 : 0);
				continue;
			}
			const Value v = AxisValue(row, s);
			std::int32_t bin = std::int32_t(count) + 1;
			if (kind == ScanParameterKind::Cuts) {
				EXPECT_NE(s.kind, AxisKind::Categorical);
				if (!v.null) {
					bin = 0;
					for (std::size_t i = 0; i < count; i++)
						bin += test::PgLt(cuts[i], v.number) ? 1 : 0;
				}
			} else {
				EXPECT_EQ(kind, ScanParameterKind::Categories);
				EXPECT_EQ(s.kind, AxisKind::Categorical);
				if (!v.null) {
					bin = std::int32_t(count);
					for (std::size_t i = 0; i < count; i++)
						if (v.text == categories[i])
							bin = std::int32_t(i);
				}
			}
			point.push_back(bin);
		}
		groups[point]++;
	}
	GridPoints out;
	for (auto it = groups.rbegin(); it != groups.rend(); ++it) {
		out.points.insert(out.points.end(), it->first.begin(), it->first.end());
		out.rows.push_back(it->second);
	}
	return out;
}

// --- defining a release as LearnFromPublicTable does ------------------------------------------------------------

struct DraftDeleter {
	void
	operator()(ReleaseDraft *d) const
	{
		FreeReleaseDraft(d);
	}
};

struct Release {
	std::unique_ptr<ReleaseDraft, DraftDeleter> draft;
	ClassSpec spec;
	CatalogLayout layout{};
	DraftSummary summary{};
	std::int64_t public_rows = 0;  // counted here
};

struct FloatLess {
	bool
	operator()(double a, double b) const
	{
		return test::PgLt(a, b);
	}
};

// Granularity auto plans its layout for auto_private_rows private rows at auto_epsilon (beta 0.05).
// extra_label_rows: added to the first predicate label point's rows, as if the public relation had returned other rows
// to the label scan than to the grid scan.
Release
Define(const Table &pub, const char *class_text, Granularity granularity = Granularity::Finest, double alpha = 0.1,
       std::uint64_t cell_limit = 1000000, std::size_t max_cover = 1000000, InterruptCheck interrupted = nullptr,
       std::int64_t auto_private_rows = 100000, double auto_epsilon = 1.0, std::int64_t extra_label_rows = 0)
{
	Release r;
	r.draft.reset(BeginReleaseDraft(class_text, alpha, granularity, interrupted));
	ReleaseDraft *d = r.draft.get();
	r.spec = ParseClassSpec(DraftCanonicalClass(d));
	// 2. column types.
	for (std::size_t i = 0; i < DraftColumnCount(d); i++) {
		const Column &c = pub.columns[pub.Col(DraftColumn(d, i))];
		DraftSetColumnType(d, i, c.type, c.type_name);
		if (c.value_step > 0.0)
			DraftSetColumnValueStep(d, i, c.value_step);
		DraftSetColumnNotNull(d, i, c.not_null);
		if (c.type == ValueType::Enum || c.check_list) {
			std::vector<const char *> labels;
			for (const std::string &l : c.labels)
				labels.push_back(l.c_str());
			if (c.check_list)
				DraftSetColumnCheckList(d, i, labels.data(), labels.size());
			else
				DraftSetColumnLabels(d, i, labels.data(), labels.size());
		}
	}
	// 3. predicate labels; the merge worked out here: a predicate is an axis unless an earlier one labels every
	// public row the same way.
	std::vector<std::string> predicate_axes;
	if (DraftPredicateCount(d) > 0) {
		const std::string sql = DraftPredicateLabelSql(d);
		EXPECT_NE(sql.find("count(*)"), std::string::npos) << sql;
		const std::size_t p = DraftPredicateCount(d);
		std::vector<std::vector<bool>> labels(p);
		std::map<std::vector<std::int32_t>, std::int64_t> points;
		for (const Row &row : pub.rows) {
			std::vector<std::int32_t> point;
			for (std::size_t i = 0; i < p; i++) {
				const bool holds = PredicateHolds(pub, DraftPredicate(d, i), row);
				labels[i].push_back(holds);
				point.push_back(holds);
			}
			points[point]++;
		}
		for (std::size_t i = 0; i < p; i++) {
			bool merged = false;
			for (std::size_t j = 0; j < i; j++)
				merged = merged || labels[j] == labels[i];
			if (!merged)
				predicate_axes.push_back(DraftPredicate(d, i));
		}
		std::vector<std::int32_t> flat;
		std::vector<std::int64_t> flat_rows;
		for (const auto &[point, rows] : points) {
			flat.insert(flat.end(), point.begin(), point.end());
			flat_rows.push_back(rows);
		}
		if (!flat_rows.empty())
			flat_rows[0] += extra_label_rows;
		DraftMergePredicates(d, flat.data(), flat_rows.data(), points.size());
	}
	// The axes, as the class says they are.
	const std::size_t axes = DraftAxisCount(d);
	std::vector<AxisKind> kinds;
	std::vector<std::string> labels;
	switch (r.spec.kind) {
	case ClassKind::Thresholds:
	case ClassKind::Ranges:
	case ClassKind::Boxes:
	case ClassKind::Orthants:
	case ClassKind::Marginals:
	case ClassKind::Stumps: {
		const bool categorical = r.spec.kind == ClassKind::Marginals || r.spec.kind == ClassKind::Stumps;
		for (const std::string &c : r.spec.columns) {
			kinds.push_back(categorical ? AxisKind::Categorical : AxisKind::Numeric);
			labels.push_back(c);
		}
		break;
	}
	case ClassKind::Halfspaces:
		kinds.assign(r.spec.directions.size(), AxisKind::Linear);
		labels.assign(r.spec.directions.size(), "");
		break;
	case ClassKind::Predicates:
		kinds.assign(predicate_axes.size(), AxisKind::Predicate);
		labels = predicate_axes;
		break;
	}
	EXPECT_EQ(axes, kinds.size());
	const std::vector<AxisSource> sources = Sources(pub, r.spec, kinds, labels);
	// 4. per-axis public marginals: "SELECT <sql>, count(*) FROM public GROUP BY 1".
	for (std::size_t a = 0; a < axes; a++) {
		const char *sql = DraftAxisMarginalSql(d, a);
		const ValueType type = pub.columns[sources[a].column].type;
		const bool closed =
		    kinds[a] == AxisKind::Categorical && (type == ValueType::Boolean || type == ValueType::Enum);
		if (kinds[a] == AxisKind::Predicate || closed) {
			EXPECT_EQ(sql, nullptr) << "axis " << a;
			continue;
		}
		EXPECT_NE(sql, nullptr) << "axis " << a;
		if (sql == nullptr)
			continue;
		EXPECT_EQ(DraftAxisIsNumeric(d, a), kinds[a] != AxisKind::Categorical);
		if (DraftAxisIsNumeric(d, a)) {
			std::map<double, std::int64_t, FloatLess> marginal;
			std::int64_t null_rows = 0;
			for (const Row &row : pub.rows) {
				const Value v = AxisValue(row, sources[a]);
				if (v.null)
					null_rows++;
				else
					marginal[v.number]++;
			}
			std::vector<double> values;
			std::vector<std::int64_t> rows;
			for (auto it = marginal.rbegin(); it != marginal.rend(); ++it) {
				values.push_back(it->first);
				rows.push_back(it->second);
			}
			DraftSetNumericMarginal(d, a, values.data(), rows.data(), values.size(), null_rows);
		} else {
			std::map<std::string, std::int64_t> marginal;
			for (const Row &row : pub.rows)
				if (!row[sources[a].column].null)
					marginal[row[sources[a].column].text]++;
			std::vector<const char *> texts;
			for (auto it = marginal.rbegin(); it != marginal.rend(); ++it)
				texts.push_back(it->first.c_str());
			DraftSetCategories(d, a, texts.data(), texts.size());
		}
	}
	// 5. the public scan.
	if (granularity == Granularity::Auto)
		DraftSetLayoutPlanning(d, auto_private_rows, auto_epsilon, 0.0, 0.05);
	const std::string select_list = DraftScanSelectList(d);
	// Either form of the scan (release_layout.hpp); Scan below computes its rows from the parameters alone.
	EXPECT_TRUE(select_list.rfind("pap.grid_counts(", 0) == 0 ||
	            select_list.find("pg_catalog.count(*)") != std::string::npos)
	    << select_list;
	const GridPoints scanned =
	    Scan(pub, sources, [&](std::size_t a, const double **cuts, const char *const **categories, std::size_t *count) {
		    return DraftScanParameter(d, a, cuts, categories, count);
	    });
	DraftSetPublicPoints(d, scanned.points.data(), scanned.rows.data(), scanned.rows.size(), cell_limit, max_cover);
	// 6. what is stored.
	r.layout = DraftCatalogLayout(d);
	r.summary = DraftSummaryOf(d);
	r.public_rows = std::int64_t(pub.rows.size());
	EXPECT_STREQ(r.layout.query_class, DraftCanonicalClass(d));
	// The run's scan is the definition's, unless auto chose predicates unmerged (one axis per listed condition) or
	// coarser cuts than the definition scanned at: an aggregate over the grid then names the stored radices.
	if (r.layout.axis_count == axes) {
		const std::string run = LayoutScanSelectList(r.layout, TestAllocate);
		std::string radices = "'{";
		for (std::int32_t radix : LayoutFromCatalog(r.layout).Radices())
			radices += (radices.size() > 2 ? "," : "") + std::to_string(radix);
		radices += "}'";
		if (granularity == Granularity::Auto && run != select_list && run.rfind("pap.grid_counts(", 0) == 0)
			EXPECT_EQ(run.rfind("pap.grid_counts(" + radices, 0), 0u) << run;
		else
			EXPECT_EQ(run, select_list);
	} else
		EXPECT_TRUE(r.spec.kind == ClassKind::Predicates && granularity == Granularity::Auto);
	return r;
}

// --- the stored layout, read back by hand -----------------------------------------------------------------------

struct AxisInfo {
	AxisKind kind;
	ValueType type;
	std::string label;
	std::vector<double> cuts;
	std::vector<std::string> categories;
	std::int32_t
	Radix() const
	{
		if (kind == AxisKind::Predicate)
			return 2;
		return std::int32_t(kind == AxisKind::Categorical ? categories.size() : cuts.size()) + 2;
	}
};

std::vector<AxisInfo>
Axes(const CatalogLayout &l)
{
	std::vector<AxisInfo> out;
	std::size_t cut = 0, category = 0;
	for (std::size_t a = 0; a < l.axis_count; a++) {
		AxisInfo info{
		    AxisKindFromName(l.axis_kinds[a]), ValueTypeFromName(l.axis_value_types[a]), l.axis_labels[a], {}, {}};
		for (std::int32_t i = 0; i < l.cut_counts[a]; i++)
			info.cuts.push_back(l.cuts[cut++]);
		for (std::int32_t i = 0; i < l.category_counts[a]; i++)
			info.categories.push_back(l.categories[category++]);
		out.push_back(info);
	}
	return out;
}

std::vector<AxisKind>
Kinds(const std::vector<AxisInfo> &axes)
{
	std::vector<AxisKind> out;
	for (const AxisInfo &a : axes)
		out.push_back(a.kind);
	return out;
}

std::vector<std::string>
Labels(const std::vector<AxisInfo> &axes)
{
	std::vector<std::string> out;
	for (const AxisInfo &a : axes)
		out.push_back(a.label);
	return out;
}

// The domain's cells: the full grid (first axis most significant), or the sorted public points then the outside
// cell (nullopt).
std::vector<std::optional<std::vector<std::int32_t>>>
Cells(const CatalogLayout &l)
{
	const std::vector<AxisInfo> axes = Axes(l);
	std::vector<std::optional<std::vector<std::int32_t>>> cells;
	if (std::string(l.domain) == "full grid") {
		std::size_t total = 1;
		for (const AxisInfo &a : axes)
			total *= std::size_t(a.Radix());
		for (std::size_t c = 0; c < total; c++) {
			std::vector<std::int32_t> point(axes.size());
			std::size_t rest = c;
			for (std::size_t a = axes.size(); a-- > 0;) {
				point[a] = std::int32_t(rest % std::size_t(axes[a].Radix()));
				rest /= std::size_t(axes[a].Radix());
			}
			cells.push_back(point);
		}
	} else {
		EXPECT_STREQ(l.domain, "public support");
		for (std::size_t i = 0; i < l.public_point_count; i++)
			cells.push_back(std::vector<std::int32_t>(l.public_points + i * l.axis_count,
			                                          l.public_points + (i + 1) * l.axis_count));
		cells.push_back(std::nullopt);
	}
	return cells;
}

// A float8 literal as value_format prints it.
double
ReadFloat(const std::string &text)
{
	if (text == "Infinity")
		return test::kInf;
	if (text == "-Infinity")
		return -test::kInf;
	if (text == "NaN")
		return test::kNaN;
	return std::strtod(text.c_str(), nullptr);
}

// A value inside a numeric bin that stands for all of it against cut-aligned bounds: its upper cut, or for the
// top bin a value above the highest cut.
double
Representative(const AxisInfo &axis, std::int32_t bin)
{
	if (std::size_t(bin) < axis.cuts.size())
		return axis.cuts[std::size_t(bin)];
	if (axis.cuts.empty())
		return 0.0;
	return axis.cuts.back() == test::kInf ? test::kNaN : test::kInf;
}

bool
Compare(Comparison op, double x, double v, double upper)
{
	const int c = test::PgCompare(x, v);
	switch (op) {
	case Comparison::LessEqual: return c <= 0;
	case Comparison::Less: return c < 0;
	case Comparison::GreaterEqual: return c >= 0;
	case Comparison::Greater: return c > 0;
	case Comparison::Equal: return c == 0;
	case Comparison::Between: return c >= 0 && test::PgLe(x, upper);
	case Comparison::In:
	case Comparison::IsNull:
	case Comparison::IsNotNull: break;  // cover queries are never rendered with them
	}
	return false;
}

// Whether the readable text of a cover query is true on a cell, by SQL semantics on the bins' representatives.
// query: the text parsed (ignored for TRUE and predicates).
bool
TextHolds(const ClassSpec &spec, const std::vector<AxisInfo> &axes, const std::string &text, const QueryText &query,
          const std::optional<std::vector<std::int32_t>> &cell)
{
	if (text == "TRUE")
		return true;
	if (!cell)
		return false;  // the outside cell is in no constrained query
	if (spec.kind == ClassKind::Predicates) {
		for (std::size_t a = 0; a < axes.size(); a++)
			if (axes[a].label == text)
				return (*cell)[a] == 1;
		ADD_FAILURE() << "rendered predicate is no axis: " << text;
		return false;
	}
	for (const Condition &c : query.conditions) {
		std::size_t axis = axes.size();
		if (c.terms.empty()) {
			for (std::size_t a = 0; a < axes.size(); a++)
				if (axes[a].label == c.column)
					axis = a;
		} else {
			std::vector<double> w(spec.columns.size(), 0.0);
			for (const LinearTerm &t : c.terms)
				for (std::size_t i = 0; i < spec.columns.size(); i++)
					if (spec.columns[i] == t.column)
						w[i] += t.coefficient;
			for (std::size_t d = 0; d < spec.directions.size(); d++)
				if (spec.directions[d] == w)
					axis = d;
		}
		if (axis == axes.size()) {
			ADD_FAILURE() << "condition on no axis in " << text;
			return false;
		}
		const AxisInfo &info = axes[axis];
		const std::int32_t bin = (*cell)[axis];
		if (bin == info.Radix() - 1)
			return false;  // NULL: no comparison is true
		bool holds;
		if (info.kind == AxisKind::Categorical) {
			EXPECT_EQ(c.op, Comparison::Equal) << text;
			bool known = false;
			for (const std::string &cat : info.categories)
				known = known || cat == c.value.text;
			holds =
			    std::size_t(bin) < info.categories.size() ? info.categories[std::size_t(bin)] == c.value.text : !known;
		} else {
			holds = Compare(c.op, Representative(info, bin), ReadFloat(c.value.text), ReadFloat(c.upper.text));
		}
		if (!holds)
			return false;
	}
	return true;
}

// How pap.answer reads a query: parse, read each literal for its column, project.
std::size_t
Project(const ReleaseModel *model, const std::string &text)
{
	ParsedQuery *parsed = ParseQueryForModel(model, text.c_str());
	std::unique_ptr<ParsedQuery, void (*)(ParsedQuery *)> owner(parsed, FreeParsedQuery);
	const std::size_t n = ParsedQueryLiteralCount(parsed);
	std::vector<double> numbers(n + 1, 0.0);
	std::vector<const char *> texts(n + 1, nullptr);
	for (std::size_t i = 0; i < n; i++) {
		const LiteralTarget t = ParsedQueryLiteral(model, parsed, i);
		if (t.kind == AxisKind::Categorical)
			texts[i] = t.text;  // already canonical in these tests: 37, 'Paris', true
		else if (t.type == ValueType::Number)
			numbers[i] = ReadNumberLiteral(parsed, i);
		else
			ADD_FAILURE() << "temporal literal in " << text;
	}
	return ModelProject(model, parsed, numbers.data(), texts.data());
}

// A query parsed for a model with its literals read as Project reads them.
struct ReadQuery {
	std::unique_ptr<ParsedQuery, void (*)(ParsedQuery *)> parsed{nullptr, FreeParsedQuery};
	std::vector<double> numbers;
	std::vector<const char *> texts;
};
ReadQuery
ReadQueryText(const ReleaseModel *model, const std::string &text)
{
	ReadQuery q;
	q.parsed.reset(ParseQueryForModel(model, text.c_str()));
	const std::size_t n = ParsedQueryLiteralCount(q.parsed.get());
	q.numbers.assign(n + 1, 0.0);
	q.texts.assign(n + 1, nullptr);
	for (std::size_t i = 0; i < n; i++) {
		const LiteralTarget t = ParsedQueryLiteral(model, q.parsed.get(), i);
		if (t.kind == AxisKind::Categorical)
			q.texts[i] = t.text;
		else
			q.numbers[i] = ReadNumberLiteral(q.parsed.get(), i);
	}
	return q;
}

// How pap.answer answers a query: ModelAnswerQuery on the literals read as Project reads them.
double
AnswerText(const ReleaseModel *model, const std::string &text, bool refine)
{
	const ReadQuery q = ReadQueryText(model, text);
	return ModelAnswerQuery(model, q.parsed.get(), q.numbers.data(), q.texts.data(), refine);
}

// How pap.answer_bounded answers a query.
AnswerBound
BoundText(const ReleaseModel *model, const std::string &text, bool refine)
{
	const ReadQuery q = ReadQueryText(model, text);
	return ModelAnswerBound(model, q.parsed.get(), q.numbers.data(), q.texts.data(), refine);
}

struct ModelDeleter {
	void
	operator()(ReleaseModel *m) const
	{
		FreeReleaseModel(m);
	}
};
using Model = std::unique_ptr<ReleaseModel, ModelDeleter>;

Model
LoadModel(const Release &r, const std::vector<double> &synthetic, std::int64_t private_rows = 1000)
{
	return Model(LoadReleaseModel(r.layout, synthetic.data(), synthetic.size(), private_rows));
}

std::vector<double>
RandomDistribution(std::size_t cells, std::uint64_t seed)
{
	std::mt19937_64 gen(seed);
	std::uniform_real_distribution<double> u(0.0, 1.0);
	std::vector<double> w(cells);
	double sum = 0;
	for (double &x : w)
		sum += x = u(gen) * u(gen);
	for (double &x : w)
		x /= sum;
	return w;
}

// Checks the catalog round trip of every cover query; returns how many were skipped because their text is not
// a query of the class (marginals' "other" bin: "c NOT IN (...)").
std::size_t
CheckRoundTrip(const Release &r, std::uint64_t seed = 1)
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	EXPECT_EQ(std::int64_t(cells.size()), r.summary.cell_count);
	const std::vector<double> synthetic = RandomDistribution(cells.size(), seed);
	const Model model = LoadModel(r, synthetic);
	EXPECT_EQ(ModelCoverSize(model.get()), std::size_t(r.summary.cover_size));
	EXPECT_EQ(ModelCellCount(model.get()), cells.size());
	std::size_t skipped = 0;
	for (std::size_t q = 0; q < ModelCoverSize(model.get()); q++) {
		const std::string text = ModelRenderQuery(model.get(), q, TestAllocate);
		if (text.find(" NOT IN (") != std::string::npos || text.find(" IS NOT NULL") != std::string::npos) {
			EXPECT_EQ(r.spec.kind, ClassKind::Marginals) << text;
			skipped++;
			continue;
		}
		EXPECT_EQ(Project(model.get(), text), q) << text;
		const QueryText query =
		    text == "TRUE" || r.spec.kind == ClassKind::Predicates ? QueryText{} : ParseQueryText(text);
		double weight = 0;
		for (std::size_t c = 0; c < cells.size(); c++)
			if (TextHolds(r.spec, axes, text, query, cells[c]))
				weight += synthetic[c];
		EXPECT_NEAR(ModelAnswer(model.get(), q), weight, 1e-9) << text;
		EXPECT_NEAR(AnswerText(model.get(), text, false), weight, 1e-9) << text;
	}
	for (std::size_t c = 0; c < cells.size(); c++)
		EXPECT_EQ(ModelCellWeight(model.get(), c), synthetic[c]);
	return skipped;
}

// The summary agrees with the public table and the layout.
void
CheckSummary(const Release &r)
{
	EXPECT_EQ(r.summary.public_rows, r.public_rows);
	const auto cells = Cells(r.layout);
	ASSERT_EQ(std::int64_t(cells.size()), r.summary.cell_count);
	std::int64_t sum = 0, points = 0;
	for (std::int64_t c = 0; c < r.summary.cell_count; c++)
		sum += r.summary.public_histogram[c];
	for (std::size_t i = 0; i < r.layout.public_point_count; i++)
		points += r.layout.public_point_rows[i];
	EXPECT_EQ(sum, r.public_rows);
	EXPECT_EQ(points, r.public_rows);
	// Each public point's rows sit in its cell.
	for (std::size_t i = 0; i < r.layout.public_point_count; i++) {
		const std::vector<std::int32_t> p(r.layout.public_points + i * r.layout.axis_count,
		                                  r.layout.public_points + (i + 1) * r.layout.axis_count);
		for (std::size_t c = 0; c < cells.size(); c++) {
			if (cells[c] && *cells[c] == p) {
				EXPECT_EQ(r.summary.public_histogram[c], r.layout.public_point_rows[i]);
			}
		}
	}
	if (!cells.back()) {
		EXPECT_EQ(r.summary.public_histogram[cells.size() - 1], 0);
	}
	EXPECT_GT(r.summary.cover_size, 0);
	EXPECT_GE(r.summary.vc_dimension, 1);
	EXPECT_NE(std::string(r.summary.domain_reason).find("pap_release.max_cells"), std::string::npos)
	    << r.summary.domain_reason;
}

PlanRequest
Plan(const Release &r, double epsilon = 4.0, const char *prior = "public")
{
	PlanRequest p{};
	p.vc_dimension = r.summary.vc_dimension;
	p.cover_size = r.summary.cover_size;
	p.cell_count = r.summary.cell_count;
	p.public_rows = r.summary.public_rows;
	p.private_rows = 0;  // RunRelease counts them
	p.epsilon = epsilon;
	p.delta = 0.0;
	p.alpha = 0.05;
	p.beta = 0.05;
	p.mechanism = "pmw";
	p.prior = prior;
	p.layout = &r.layout;
	return p;
}

// The private scan (fmgr_run.cpp): the stored layout's select list and parameters on the private table.
GridPoints
PrivateScan(const Release &r, const Table &priv)
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	return Scan(priv, Sources(priv, r.spec, Kinds(axes), Labels(axes)),
	            [&](std::size_t a, const double **cuts, const char *const **categories, std::size_t *count) {
		            return LayoutScanParameter(r.layout, a, cuts, categories, count);
	            });
}

// The glue's order: the plan at n = count(*) (the scan's rows unless plan.private_rows says otherwise), then the
// run on the scan, over the plan's layout (the release's, or one the glue completed, as with axis_not_null).
RunSummary
RunOn(const Release &r, const GridPoints &priv, std::int64_t seed, PlanRequest plan)
{
	if (plan.private_rows == 0)
		for (std::int64_t rows : priv.rows)
			plan.private_rows += rows;
	const PlanSummary planned = MakePlan(plan);
	RunRequest req{};
	req.layout = plan.layout != nullptr ? plan.layout : &r.layout;
	req.private_points = priv.points.data();
	req.private_rows = priv.rows.data();
	req.private_point_count = priv.rows.size();
	req.seed = seed;
	req.fill_secure = FillFromOperatingSystem;
	req.interrupted = nullptr;
	return RunRelease(req, planned, TestAllocate);
}

std::string
Describe(const ReleaseModel *model, std::size_t cell, std::string *json)
{
	char *bounds = nullptr, *j = nullptr;
	ModelDescribeCell(model, cell, &bounds, &j, TestAllocate);
	*json = j;
	return bounds;
}

// The cell of a grid point in the catalog's cell list.
std::size_t
CellOf(const Release &r, const std::vector<std::int32_t> &point)
{
	const auto cells = Cells(r.layout);
	for (std::size_t c = 0; c < cells.size(); c++)
		if (cells[c] && *cells[c] == point)
			return c;
	ADD_FAILURE() << "no such cell";
	return 0;
}

class ReleaseEngine : public ::testing::Test {
protected:
	void
	TearDown() override
	{
		for (void *p : g_blocks)
			std::free(p);
		g_blocks.clear();
	}
};

// Public: x in 0..49 with multiplicity 1 + (7v mod 5), three NULLs; y = (3x mod 11) or NULL every 9th row.
Table
NumericTable()
{
	Table t;
	t.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "integer"}};
	int i = 0;
	for (int v = 0; v < 50; v++)
		for (int k = 0; k < 1 + (v * 7) % 5; k++, i++)
			t.Add({Num(v), i % 9 == 0 ? Null() : Num((3 * v) % 11)});
	t.Add({Null(), Num(4)}, 3);
	return t;
}

// --- tests ----------------------------------------------------------------------------------------------------

TEST_F(ReleaseEngine, ThresholdsFinest)
{
	const Table pub = NumericTable();
	const Release r = Define(pub, "Thresholds( X )");
	EXPECT_STREQ(r.layout.query_class, "thresholds(x)");
	CheckSummary(r);
	ASSERT_EQ(r.layout.axis_count, 1u);
	EXPECT_STREQ(r.layout.axis_kinds[0], "numeric");
	EXPECT_STREQ(r.layout.axis_value_types[0], "number");
	ASSERT_EQ(r.layout.cut_counts[0], 50);
	for (int i = 0; i < 50; i++)
		EXPECT_EQ(r.layout.cuts[i], double(i));
	ASSERT_EQ(r.layout.public_value_counts[0], 50);
	for (int v = 0; v < 50; v++) {
		EXPECT_EQ(r.layout.public_values[v], double(v));
		EXPECT_EQ(r.layout.public_value_rows[v], 1 + (v * 7) % 5);
	}
	EXPECT_EQ(r.summary.cell_count, 52);  // 51 ordered bins + NULL
	EXPECT_EQ(r.summary.cover_size, 51);
	EXPECT_EQ(r.summary.vc_dimension, 1);
	EXPECT_STREQ(r.layout.domain, "full grid");
	EXPECT_NE(std::string(r.summary.domain_reason).find("fits"), std::string::npos) << r.summary.domain_reason;
	EXPECT_EQ(std::string(r.summary.granularity).rfind("finest", 0), 0u) << r.summary.granularity;
	for (int v = 0; v < 50; v++)
		EXPECT_EQ(r.summary.public_histogram[v], 1 + (v * 7) % 5) << "bin " << v;
	EXPECT_EQ(r.summary.public_histogram[50], 0);
	EXPECT_EQ(r.summary.public_histogram[51], 3);
	EXPECT_EQ(CheckRoundTrip(r), 0u);

	// Queries of the class written by a user project onto the cover query that labels the public values alike.
	const std::vector<double> synthetic = RandomDistribution(52, 3);
	const Model model = LoadModel(r, synthetic);
	EXPECT_EQ(Project(model.get(), "x <= 9"), Project(model.get(), "x < 9.5"));
	EXPECT_EQ(ModelAnswer(model.get(), Project(model.get(), "x < 0")), 0.0);
	double below = 0;
	for (int c = 0; c <= 9; c++)
		below += synthetic[c];
	EXPECT_NEAR(ModelAnswer(model.get(), Project(model.get(), "x <= 9.25")), below, 1e-12);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "x > 3"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, Project(model.get(), "y <= 3"));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, Project(model.get(), "x <= 'abc'"));
	EXPECT_PAP_ERROR(ErrorKind::SyntaxError, Project(model.get(), "x <="));
	EXPECT_PAP_ERROR(ErrorKind::Internal, ModelAnswer(model.get(), 51));

	// Cells: numeric bounds (lower exclusive, upper inclusive) and the NULL cell.
	std::string json;
	EXPECT_EQ(Describe(model.get(), 0, &json), "x <= 0");
	EXPECT_EQ(json, "{\"x\": {\"lower\": null, \"upper\": 0}}");
	EXPECT_EQ(Describe(model.get(), 10, &json), "x > 9 AND x <= 10");
	EXPECT_EQ(json, "{\"x\": {\"lower\": 9, \"upper\": 10}}");
	EXPECT_EQ(Describe(model.get(), 50, &json), "x > 49");
	EXPECT_EQ(json, "{\"x\": {\"lower\": 49, \"upper\": null}}");
	EXPECT_EQ(Describe(model.get(), 51, &json), "x IS NULL");
	EXPECT_EQ(json, "{\"x\": null}");

	// A synthetic array of the wrong length is refused.
	EXPECT_PAP_ERROR(ErrorKind::Internal, LoadReleaseModel(r.layout, synthetic.data(), synthetic.size() - 1, 10));
}

// r run by identity at epsilon 10 on priv (seed 5), loaded with the plan's error facts so that answers have bounds.
Model
IdentityModelWithBounds(const Release &r, const Table &priv)
{
	PlanRequest plan = Plan(r, 10.0);
	plan.mechanism = "identity";
	const RunSummary run = RunOn(r, PrivateScan(r, priv), 5, plan);
	Model model(LoadReleaseModel(r.layout, run.synthetic, std::size_t(r.summary.cell_count), run.private_rows));
	ReleaseErrorFacts facts;
	facts.known = true;
	facts.beta = 0.05;
	facts.public_rows = r.public_rows;
	facts.projection = run.plan.parts.projection;
	facts.noise = run.plan.parts.noise;
	ModelSetErrorFacts(model.get(), facts);
	return model;
}

// Granularity auto on an integer column whose public sample misses integers inside its range plans "every whole
// value" beside the ladder (docs/mechanisms.md §20): a cut at each integer from the lowest to the highest public
// value, those without public rows stored as public values with 0 rows. Every bin inside the range then holds one
// integer, so an edge there is a cut: projection and refinement answer alike, exactly the cells of the integers the
// query selects, and the answer's bound has no projection part; an edge in a tail keeps its part.
TEST_F(ReleaseEngine, EveryWholeValueOfAnIntegerColumn)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "integer", {}, false, 1.0}};
	for (int v = 0; v < 20; v++)
		if (v != 5 && v != 6 && v != 12)
			pub.Add({Num(v)}, 20);
	Table priv;
	priv.columns = pub.columns;
	for (int v = -3; v < 26; v++)
		priv.Add({Num(v)}, 100 + 7 * (v % 5));
	const Release r = Define(pub, "ranges(x)", Granularity::Auto, 0.1, 1000000, 1000000, nullptr, 1000000, 10.0);
	const std::string granularity = r.summary.granularity;
	EXPECT_NE(granularity.find("auto: every whole value"), std::string::npos) << granularity;
	ASSERT_EQ(r.layout.cut_counts[0], 20);
	ASSERT_EQ(r.layout.public_value_counts[0], 20);
	for (int v = 0; v < 20; v++) {
		EXPECT_EQ(r.layout.cuts[v], double(v));
		EXPECT_EQ(r.layout.public_values[v], double(v));
		EXPECT_EQ(r.layout.public_value_rows[v], v == 5 || v == 6 || v == 12 ? 0 : 20) << v;
	}
	EXPECT_EQ(CheckRoundTrip(r, 5), 0u);
	// The same sample on a column of double precision has no whole values: no such candidate.
	Table continuous = pub;
	continuous.columns[0] = {"x", ValueType::Number, "double precision"};
	const Release c = Define(continuous, "ranges(x)", Granularity::Auto, 0.1, 1000000, 1000000, nullptr, 1000000, 10.0);
	EXPECT_EQ(std::string(c.summary.granularity).find("whole value"), std::string::npos) << c.summary.granularity;

	const Model model = IdentityModelWithBounds(r, priv);
	const auto weight = [&](int from, int to) {  // the released weight of the integers from..to
		double w = 0;
		for (int v = from; v <= to; v++)
			w += ModelCellWeight(model.get(), CellOf(r, {std::int32_t(v)}));
		return w;
	};
	struct Case {
		const char *text;
		int from, to;
	};
	for (const Case &k :
	     {Case{"x = 5", 5, 5}, Case{"x = 12", 12, 12}, Case{"x > 4 AND x <= 6", 5, 6}, Case{"x >= 5 AND x < 13", 5, 12},
	      Case{"x BETWEEN 6 AND 12", 6, 12}, Case{"x > 5.5 AND x <= 12.5", 6, 12}, Case{"x >= 1 AND x <= 18", 1, 18}}) {
		SCOPED_TRACE(k.text);
		for (bool refine : {false, true}) {
			EXPECT_NEAR(AnswerText(model.get(), k.text, refine), weight(k.from, k.to), 1e-12) << refine;
			const AnswerBound b = BoundText(model.get(), k.text, refine);
			EXPECT_EQ(b.projection, 0.0) << refine;
		}
	}
	// The tails keep their bounds: below the lowest and above the highest public value.
	for (const char *text : {"x <= -1", "x > 22", "x >= -2 AND x <= 10"})
		for (bool refine : {false, true})
			EXPECT_GT(BoundText(model.get(), text, refine).projection, 0.0) << text << " " << refine;
}

// Every whole value on two integer axes at once (boxes): each axis cut at each of its integers, so a box inside both
// public ranges selects whole cells only, in both answer modes, and its bound has no projection part.
TEST_F(ReleaseEngine, EveryWholeValueOfTwoIntegerColumns)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "integer", {}, false, 1.0},
	               {"y", ValueType::Number, "smallint", {}, false, 1.0}};
	for (int x = 0; x < 10; x++)
		for (int y = 0; y < 10; y++)
			if (x != 3 && x != 7 && y != 4)
				pub.Add({Num(x), Num(y)}, 5);
	Table priv;
	priv.columns = pub.columns;
	for (int x = 0; x < 10; x++)
		for (int y = 0; y < 10; y++)
			priv.Add({Num(x), Num(y)}, 50 + (x * 7 + y * 3) % 11);
	const Release r = Define(pub, "boxes(x, y)", Granularity::Auto, 0.1, 1000000, 1000000, nullptr, 1000000, 10.0);
	EXPECT_NE(std::string(r.summary.granularity).find("auto: every whole value"), std::string::npos)
	    << r.summary.granularity;
	ASSERT_EQ(r.layout.cut_counts[0], 10);
	ASSERT_EQ(r.layout.cut_counts[1], 10);
	EXPECT_EQ(CheckRoundTrip(r, 5), 0u);
	const Model model = IdentityModelWithBounds(r, priv);
	const auto weight = [&](int x0, int x1, int y0, int y1) {  // the released weight of the integers' cells
		double w = 0;
		for (int x = x0; x <= x1; x++)
			for (int y = y0; y <= y1; y++)
				w += ModelCellWeight(model.get(), CellOf(r, {std::int32_t(x), std::int32_t(y)}));
		return w;
	};
	struct Case {
		const char *text;
		int x0, x1, y0, y1;
	};
	for (const Case &k :
	     {Case{"x = 3 AND y = 4", 3, 3, 4, 4}, Case{"x >= 2 AND x <= 7 AND y > 3 AND y < 5", 2, 7, 4, 4},
	      Case{"x BETWEEN 3 AND 7 AND y BETWEEN 1 AND 8", 3, 7, 1, 8},
	      Case{"x > 2.5 AND x <= 3.5 AND y >= 1 AND y <= 4", 3, 3, 1, 4}}) {
		SCOPED_TRACE(k.text);
		for (bool refine : {false, true}) {
			EXPECT_NEAR(AnswerText(model.get(), k.text, refine), weight(k.x0, k.x1, k.y0, k.y1), 1e-12) << refine;
			EXPECT_EQ(BoundText(model.get(), k.text, refine).projection, 0.0) << refine;
		}
	}
	// "y >= 0" moves over the values below the lowest public one (bin 0 holds them): a tail edge keeps its part.
	EXPECT_GT(BoundText(model.get(), "x = 3 AND y >= 0 AND y <= 4", true).projection, 0.0);
}

// Whether the integer x satisfies every condition of the query on column `col` (PostgreSQL's comparisons).
bool
IntegerSatisfies(const QueryText &q, const std::string &col, double x)
{
	for (const Condition &c : q.conditions)
		if (c.column == col && c.op != Comparison::IsNotNull &&
		    !Compare(c.op, x, ReadFloat(c.value.text), ReadFloat(c.upper.text)))
			return false;
	return true;
}

// Checks, by brute force over the integers lo..hi on every axis, that each answer (both modes) whose bound has no
// projection part is exact: no cell with weight is partly selected, and the answer is the weight of the cells wholly
// selected. Returns the number of such answers checked.
int
CheckAnswersWithoutProjectionPartAreExact(const Release &r, const ReleaseModel *model,
                                          const std::vector<std::string> &queries, int lo, int hi)
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	int checked = 0;
	for (const std::string &text : queries) {
		const QueryText q = ParseQueryText(text);
		std::vector<std::vector<int>> in(axes.size()), all(axes.size());  // per axis and bin: integers selected, held
		for (std::size_t a = 0; a < axes.size(); a++) {
			const std::size_t M = axes[a].cuts.size();
			in[a].assign(M + 2, 0);
			all[a].assign(M + 2, 0);
			for (int x = lo; x <= hi; x++) {
				const std::size_t bin = std::size_t(
				    std::lower_bound(axes[a].cuts.begin(), axes[a].cuts.end(), double(x)) - axes[a].cuts.begin());
				all[a][bin]++;
				in[a][bin] += IntegerSatisfies(q, axes[a].label, double(x));
			}
		}
		for (bool refine : {false, true}) {
			SCOPED_TRACE(text + (refine ? " (refined)" : ""));
			if (BoundText(model, text, refine).projection != 0.0)
				continue;
			checked++;
			double selected = 0.0;
			for (std::size_t c = 0; c < cells.size(); c++) {
				if (!cells[c])
					continue;
				bool whole = true, none = false;
				for (std::size_t a = 0; a < axes.size(); a++) {
					const std::size_t bin = std::size_t((*cells[c])[a]);
					if (bin == std::size_t(axes[a].Radix() - 1)) {  // the NULL bin: no bound selects it
						for (const Condition &cond : q.conditions)
							none = none || cond.column == axes[a].label;
						continue;
					}
					none = none || in[a][bin] == 0;
					whole = whole && in[a][bin] == all[a][bin];
				}
				if (none)
					continue;
				if (whole)
					selected += ModelCellWeight(model, c);
				else
					EXPECT_EQ(ModelCellWeight(model, c), 0.0) << "a cell with weight partly selected: " << c;
			}
			EXPECT_NEAR(AnswerText(model, text, refine), selected, 1e-9);
		}
	}
	return checked;
}

// Every answer whose bound claims no projection part is exact, checked by brute force over the integers on integer
// columns (from a review of the whole-value layouts and the refined top bin): ranges and thresholds at every
// granularity, boxes and orthants over an integer and a bigint column, with strict and inclusive edges, half-integer
// literals, BETWEEN, several conditions on one column, both tails and IS NOT NULL. At the parent of the top bin's fix
// refined answers such as "x <= 11" (the highest public value) failed it.
TEST_F(ReleaseEngine, AnswersWithoutAProjectionPartAreExactOnIntegerColumns)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "integer", {}, false, 1.0}};
	for (int v = -8; v < 12; v++)
		if (v != -5 && v != 0 && v != 1 && v != 7)
			pub.Add({Num(v)}, 5 + (v & 3));
	Table priv;
	priv.columns = pub.columns;
	for (int v = -12; v < 16; v++)
		priv.Add({Num(v)}, 50 + 7 * ((v + 20) % 5));
	std::vector<std::string> upper, both;
	for (int v = -14; v <= 15; v++)
		for (const std::string &l : {std::to_string(v), std::to_string(v) + ".5"}) {
			for (const char *op : {"<=", "<"})
				upper.push_back(std::string("x ") + op + " " + l);
			for (const char *op : {">=", ">", "="})
				both.push_back(std::string("x ") + op + " " + l);
		}
	both.insert(both.end(), upper.begin(), upper.end());
	for (int a = -14; a <= 15; a += 2)
		for (int b = a - 1; b <= 15; b += 3) {
			const std::string sa = std::to_string(a), sb = std::to_string(b);
			both.push_back("x >= " + sa + " AND x < " + sb);
			both.push_back("x > " + sa + " AND x <= " + sb);
			both.push_back("x BETWEEN " + sa + " AND " + sb);
			both.push_back("x >= " + sa + " AND x <= " + sb + " AND x < " + std::to_string(b + 1));
		}
	for (const char *cls : {"ranges(x)", "thresholds(x)"})
		for (Granularity g : {Granularity::Auto, Granularity::Finest, Granularity::Alpha}) {
			SCOPED_TRACE(std::string(cls) + ", granularity " + std::to_string(int(g)));
			const Release r = Define(pub, cls, g, 0.3, 1000000, 1000000, nullptr, 1000000, 10.0);
			const Model model = IdentityModelWithBounds(r, priv);
			EXPECT_GT(CheckAnswersWithoutProjectionPartAreExact(r, model.get(), cls[0] == 't' ? upper : both, -40, 40),
			          10);
		}

	Table pub2;
	pub2.columns = {{"x", ValueType::Number, "integer", {}, false, 1.0},
	                {"y", ValueType::Number, "bigint", {}, false, 1.0}};
	std::mt19937_64 gen(3);
	for (int v = -6; v < 10; v++)
		for (int w = 0; w < 8; w++)
			if (v != -2 && v != 3 && w != 4 && (v + w) % 3 != 0)
				pub2.Add({Num(v), Num(w * 2)}, 1 + int(gen() % 3));
	Table priv2;
	priv2.columns = pub2.columns;
	for (int v = -9; v < 13; v++)
		for (int w = -2; w < 18; w++)
			priv2.Add({Num(v), Num(w)}, 3 + int(gen() % 4));
	for (const char *cls : {"boxes(x, y)", "orthants(x, y)"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(pub2, cls, Granularity::Auto, 0.3, 1000000, 1000000, nullptr, 1000000, 10.0);
		const Model model = IdentityModelWithBounds(r, priv2);
		std::vector<std::string> qs;
		for (int a = -8; a <= 12; a += 3)
			for (int b = -3; b <= 18; b += 4) {
				const std::string sa = std::to_string(a), sb = std::to_string(b);
				qs.push_back("x <= " + sa + " AND y < " + sb);
				qs.push_back("x < " + sa + ".5 AND y <= " + sb);
				if (cls[0] == 'o')
					continue;
				qs.push_back("x > " + sa + " AND y >= " + sb);
				qs.push_back("x >= " + sa + " AND x <= " + std::to_string(a + 4) + " AND y > " + sb +
				             " AND y <= " + std::to_string(b + 5));
				qs.push_back("x = " + sa + " AND y IS NOT NULL");
			}
		EXPECT_GT(CheckAnswersWithoutProjectionPartAreExact(r, model.get(), qs, -30, 30), 10);
	}
}

// The top bin (above the highest cut, no public row) in a refined answer: a query whose upper edge lies at or below
// the highest cut selects none of it, one without an upper edge whose lower edge lies at or below it selects all of
// it, with certainty. A ranges run to the highest cut takes the top bin, and refined answers followed the projection
// there: "x <= 6" counted the rows above 6 and "x > 6" none, while their bounds called both edges exact.
TEST_F(ReleaseEngine, RefinedAnswersTakeTheTopBinWhereTheQueryCertainlyDoes)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int v = 1; v <= 6; v++)
		pub.Add({Num(v)}, 10);
	Table priv;
	priv.columns = pub.columns;
	for (int v = 1; v <= 8; v++)
		priv.Add({Num(v)}, 100);
	const Release r = Define(pub, "ranges(x)");
	const Model model = IdentityModelWithBounds(r, priv);
	const auto weight = [&](int from, int to) {  // the released weight of bins from..to (bin 6: above 6)
		double w = 0;
		for (int bin = from; bin <= to; bin++)
			w += ModelCellWeight(model.get(), CellOf(r, {std::int32_t(bin)}));
		return w;
	};
	struct Case {
		const char *text;
		int from, to;
	};
	for (const Case &k : {Case{"x <= 6", 0, 5}, Case{"x > 2 AND x <= 6", 2, 5}, Case{"x <= 3", 0, 2},
	                      Case{"x > 6", 6, 6}, Case{"x > 2", 2, 6}, Case{"x > 5 AND x <= 6", 5, 5}}) {
		SCOPED_TRACE(k.text);
		EXPECT_NEAR(AnswerText(model.get(), k.text, true), weight(k.from, k.to), 1e-12);
		EXPECT_EQ(BoundText(model.get(), k.text, true).projection, 0.0);  // every edge exact, as its bound says
	}
	// An edge inside the top bin keeps the projection's choice, and its bound the top bin's part.
	EXPECT_GT(BoundText(model.get(), "x <= 7", true).projection, 0.0);
	EXPECT_GT(BoundText(model.get(), "x > 6.5", true).projection, 0.0);

	// On an integer column an edge first moves to the integer it selects: "x < 7" and "x < 6.5" are "x <= 6", and
	// "x >= 7" and "x >= 6.5" are "x > 6", whose top bin is certain.
	Table ipub = pub, ipriv = priv;
	ipub.columns[0] = ipriv.columns[0] = {"x", ValueType::Number, "integer", {}, false, 1.0};
	const Release ri = Define(ipub, "ranges(x)");
	const Model mi = IdentityModelWithBounds(ri, ipriv);
	const auto weight_i = [&](int from, int to) {
		double w = 0;
		for (int bin = from; bin <= to; bin++)
			w += ModelCellWeight(mi.get(), CellOf(ri, {std::int32_t(bin)}));
		return w;
	};
	for (const Case &k : {Case{"x < 7", 0, 5}, Case{"x < 6.5", 0, 5}, Case{"x >= 7", 6, 6}, Case{"x >= 6.5", 6, 6},
	                      Case{"x > 3 AND x < 7", 3, 5}}) {
		SCOPED_TRACE(k.text);
		EXPECT_NEAR(AnswerText(mi.get(), k.text, true), weight_i(k.from, k.to), 1e-12);
		EXPECT_EQ(BoundText(mi.get(), k.text, true).projection, 0.0);
	}
}

// A NaN in the public table's ordered column is its highest value, as PostgreSQL sorts it: the error model bins it
// with the top cut (an internal error "public values are not sorted and distinct" before; review), at every
// granularity and ordered class, and plans, answers and bounds stay finite.
TEST_F(ReleaseEngine, PublicNaNIsTheHighestValueOfItsAxis)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 400; v++)
		pub.Add({Num(v % 200 == 7 ? std::nan("") : double(v % 200)), Num(double(v % 37))}, 1);
	for (const char *cls : {"thresholds(x)", "ranges(x)", "boxes(x, y)", "orthants(x, y)"})
		for (Granularity g : {Granularity::Finest, Granularity::Alpha, Granularity::Auto}) {
			SCOPED_TRACE(std::string(cls) + " granularity " + std::to_string(int(g)));
			const Release r = Define(pub, cls, g, 0.1);
			PlanRequest request = Plan(r, 1.0);
			request.private_rows = 5000;
			request.mechanism = "auto";
			const PlanSummary plan = MakePlan(request);
			EXPECT_TRUE(std::isfinite(plan.predicted_error) && plan.predicted_error > 0 && plan.predicted_error <= 1);
			const LoadedAnswerFacts facts = LoadedAnswerFactsOf(LayoutFromCatalog(r.layout), r.public_rows, 5000, 0.05);
			EXPECT_TRUE(std::isfinite(facts.projection));
			for (const std::vector<double> &axis : facts.gap_spread)
				for (double theta : axis)
					EXPECT_TRUE(theta >= 0.0 && theta <= 1.0) << theta;
			const Model model = LoadModel(r, RandomDistribution(std::size_t(r.summary.cell_count), 5), 5000);
			for (bool refine : {false, true}) {
				const char *query = cls[0] == 't'   ? "x <= 150.5"
				                    : cls[0] == 'o' ? "x <= 150.5 AND y <= 20.5"
				                                    : "x > 3.5 AND x <= 150.5";
				const double answer = AnswerText(model.get(), query, refine);
				EXPECT_TRUE(answer >= 0.0 && answer <= 1.0) << answer;
			}
		}
}

// Refined answers spread each gap within the worst refined edge error on two events: their own (their bounds) and
// the plan's (its part (a), at its median, over two or more axes the upper bounds alone). The bounds of the two
// events shrink by different factors, and at the finest cuts of one-row values the answers' share alone took a bound
// at a gap's top past the plan's part (0.0170 against 0.0161 per edge, from a review): the answers take the smaller
// share. The plan's event counts the whole bins those bounds read (at the finest cuts, nearly every bound's count).
TEST_F(ReleaseEngine, GapSpreadsStayWithinThePlansPart)
{
	const std::int64_t m = 540, n = 5400;
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 1; v <= m; v++)
		pub.Add({Num(double(v)), Num(double(v))}, 1);
	const Release r = Define(pub, "boxes(x, y)", Granularity::Finest, 0.1);
	const ReleaseLayout layout = LayoutFromCatalog(r.layout);
	const ReleaseAxis &axis = layout.axes.at(0);
	const AxisCut x = AxisCutOf(axis.cuts, axis.public_values, axis.public_counts);
	EXPECT_EQ(x.upper_sides + 1, x.sides);  // all but the lowest bin's whole bin, where no answer spreads
	// Both axes alike: the plan's refinement part is four times one edge's worst.
	const double per_edge = AnswerModeErrorsOf(layout, m, n, PlanProjectionEventBeta(), true).refinement / 4.0;
	const double log_term = RefinementLogTerm(double(2 * x.upper_sides), PlanProjectionEventBeta());
	const auto largest_at_gap_tops = [&](const std::vector<double> &theta) {
		double largest = 0.0;
		std::size_t value = 0;
		for (const std::vector<std::int64_t> &splits : x.bin_splits)
			for (std::size_t i = 0; i + 1 < splits.size(); i++, value++) {
				const std::int64_t bin = splits.back(), below = splits[i];
				const double f = (double(below) + theta.at(value)) / double(bin);
				largest = std::max(largest, f * PrivateShareInterval(bin - below, m, n, log_term).high);
			}
		return largest;
	};
	const LoadedAnswerFacts facts = LoadedAnswerFactsOf(layout, m, n, 0.05);
	const std::vector<double> &spread = facts.gap_spread.at(0);
	EXPECT_GT(*std::max_element(spread.begin(), spread.end()), 0.5);
	EXPECT_LE(largest_at_gap_tops(spread), per_edge * (1.0 + 1e-12));
	// The answers' event alone would not keep it.
	const std::vector<std::vector<double>> own =
	    GapSpreadShares({x, x}, {2, 2}, m, n, ProjectionEventBetaOf(layout, 0.05));
	EXPECT_GT(largest_at_gap_tops(own.at(0)), per_edge * 1.02);
}

// Refined edges of a two-axis class on random splits of one population (atoms and a density on x, an integer column
// with missing whole values on y), at the finest cuts, at coarse cuts (several values per bin) and with a bin per
// whole value: every set a refined edge (spread by the answers' shares) or a projected edge reads on the plan's
// event is a distinct one AxisUpperEventCount counts, the refined edge error at the plan's bounds is within the
// plan's per-axis worst, and the private rows themselves are within it on at least half of the splits (the plan's
// median event). A set read but not counted (the whole bins a first count left out) or a share past the plan's part
// fails it.
TEST_F(ReleaseEngine, RefinedTwoAxisEdgesReadOnlyCountedSetsWithinThePlansPart)
{
	const std::int64_t m = 150, n = 1500;
	std::mt19937_64 rng(20261207);
	std::uniform_real_distribution<double> uniform(0.0, 20.0);
	std::uniform_int_distribution<int> integer(0, 150);
	std::bernoulli_distribution atom(0.4);
	const int trials = 8;
	int broken = 0, layouts_checked = 0;
	bool spread_somewhere = false;
	for (int t = 0; t < trials; t++) {
		Table pub;
		pub.columns = {{"x", ValueType::Number, "double precision"},
		               {"y", ValueType::Number, "integer", {}, false, 1.0}};
		std::vector<std::array<double, 2>> priv;
		for (std::int64_t r = 0; r < m + n; r++) {
			const std::array<double, 2> row{atom(rng) ? std::floor(uniform(rng)) : uniform(rng), double(integer(rng))};
			if (r < m)
				pub.Add({Num(row[0]), Num(row[1])}, 1);
			else
				priv.push_back(row);
		}
		const ReleaseLayout finest = LayoutFromCatalog(Define(pub, "boxes(x, y)", Granularity::Finest, 0.1).layout);
		const ReleaseLayout coarse = LayoutFromCatalog(Define(pub, "boxes(x, y)", Granularity::Alpha, 0.8).layout);
		const std::optional<ReleaseLayout> whole = WholeValueLayout(finest, 1000000);
		ASSERT_TRUE(whole.has_value());
		bool holds = true;
		for (const ReleaseLayout *layout : {&finest, &coarse, &*whole}) {
			layouts_checked++;
			std::vector<AxisCut> cuts;
			double upper_sides = 0;
			for (const ReleaseAxis &axis : layout->axes) {
				cuts.push_back(AxisCutOf(axis.cuts, axis.public_values, axis.public_counts, axis.value_step));
				upper_sides += double(cuts.back().upper_sides);
			}
			const double log_term = RefinementLogTerm(upper_sides, PlanProjectionEventBeta());
			std::map<std::int64_t, double> highs;
			const auto hi = [&](std::int64_t rows) {
				auto it = highs.find(rows);
				if (it == highs.end())
					it = highs.emplace(rows, PrivateShareInterval(rows, m, n, log_term).high).first;
				return it->second;
			};
			// The plan's per-axis worst, computed here: max(f hi(above), (1 - f) hi(below)) over the splits that are
			// not exact, a bin without public rows its own bound.
			std::vector<double> worst(cuts.size(), 0.0);
			for (std::size_t a = 0; a < cuts.size(); a++)
				for (std::size_t j = 0; j < cuts[a].bin_splits.size(); j++) {
					const std::vector<std::int64_t> &splits = cuts[a].bin_splits[j];
					const std::int64_t bin = splits.back();
					for (std::size_t i = 0; i < splits.size(); i++) {
						if ((i == 0 && cuts[a].empty_below[j]) || (i + 1 == splits.size() && cuts[a].empty_above[j]))
							continue;
						const double f = bin > 0 ? double(splits[i]) / double(bin) : 0.0;
						const double edge =
						    bin > 0 ? std::max(f * hi(bin - splits[i]), (1 - f) * hi(splits[i])) : hi(0);
						worst[a] = std::max(worst[a], edge);
					}
				}
			EXPECT_NEAR(AnswerModeErrorsOf(*layout, m, n, PlanProjectionEventBeta(), true).refinement,
			            std::min(1.0, 2 * (worst[0] + worst[1])), 1e-12);
			const LoadedAnswerFacts facts = LoadedAnswerFactsOf(*layout, m, n, 0.05);
			for (std::size_t a = 0; a < cuts.size(); a++) {
				const ReleaseAxis &axis = layout->axes[a];
				const std::vector<double> &spread = facts.gap_spread.at(a);
				std::vector<std::size_t> begin{0};  // the first public value of each bin
				for (const std::vector<std::int64_t> &splits : cuts[a].bin_splits)
					begin.push_back(begin.back() + splits.size() - 1);
				std::vector<double> column;
				for (const std::array<double, 2> &row : priv)
					column.push_back(row[a]);
				const auto private_share = [&](double lo, double hi_incl) {  // (lo, hi_incl]
					return double(std::count_if(column.begin(), column.end(),
					                            [&](double v) { return v > lo && v <= hi_incl; })) /
					       double(n);
				};
				std::set<std::tuple<std::size_t, std::int64_t, char>> read;
				std::vector<std::pair<double, bool>> positions{{-1.0, true}, {1e9, true}};
				const std::vector<double> &values = axis.public_values;
				for (std::size_t k = 0; k < values.size(); k++) {
					positions.push_back({values[k], false});
					positions.push_back({values[k], true});
					positions.push_back({std::nextafter(values[k], -INFINITY), true});
					if (k > 0)
						positions.push_back({0.5 * (values[k - 1] + values[k]), true});
				}
				for (const auto &[x, inclusive] : positions) {
					ValueBound bound;
					bound.present = true;
					bound.value = x;
					bound.inclusive = inclusive;
					const EdgeSplit split = SplitOfEdge(axis, spread, bound, true);
					if (split.exact)
						continue;
					const std::optional<double> floor = StepFloor(x, axis.value_step, inclusive);
					const double edge = floor ? *floor : x;
					const bool edge_inclusive = floor ? true : inclusive;
					const std::size_t j =
					    std::size_t(std::lower_bound(axis.cuts.begin(), axis.cuts.end(), edge) - axis.cuts.begin());
					const std::int64_t i = std::int64_t(split.split) - std::int64_t(begin.at(j));
					const std::int64_t bin = split.below + split.above;
					const double f = split.interpolated;
					spread_somewhere = spread_somewhere || (bin > 0 && f * double(bin) > double(split.below));
					// The sets read: a bin without public rows whole; else the part above the split when f > 0 (the
					// whole bin at i = 0), the part below it when f < 1, and the side a projection moves over.
					if (bin == 0) {
						read.insert({j, 0, 'w'});
					} else {
						if (f > 0.0)
							read.insert({j, i, 'a'});
						if (f < 1.0)
							read.insert({j, i, 'b'});
						read.insert({j, i, split.below <= split.above ? 'b' : 'a'});
					}
					const double on_plan = bin > 0 ? std::max(f * hi(split.above), (1 - f) * hi(split.below)) : hi(0);
					EXPECT_LE(on_plan, worst[a] * (1 + 1e-12)) << t << " axis " << a << " at " << x;
					// The private rows: the bin's parts below and above the edge (another axis may keep any of them).
					const double lo = j == 0 ? -INFINITY : axis.cuts[j - 1];
					const double top = j < axis.cuts.size() ? axis.cuts[j] : INFINITY;
					const double below_edge = edge_inclusive ? edge : std::nextafter(edge, -INFINITY);
					const double actual =
					    std::max(f * private_share(below_edge, top), (1 - f) * private_share(lo, below_edge));
					holds = holds && actual <= worst[a];
				}
				EXPECT_LE(read.size(), cuts[a].upper_sides) << t << " axis " << a;
			}
		}
		broken += holds ? 0 : 1;
	}
	EXPECT_EQ(layouts_checked, 3 * trials);
	EXPECT_TRUE(spread_somewhere);
	EXPECT_LE(broken, trials / 2);
}

TEST_F(ReleaseEngine, AlphaGranularityBoundsThePublicMassPerBin)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "numeric"}};
	std::mt19937_64 gen(5);
	std::uniform_int_distribution<int> pick(0, 149);
	for (int i = 0; i < 1000; i++)
		pub.Add({Num(pick(gen) / 4.0)});
	for (const char *cls : {"thresholds(x)", "ranges(x)"}) {
		SCOPED_TRACE(cls);
		const Release fine = Define(pub, cls, Granularity::Finest);
		const Release coarse = Define(pub, cls, Granularity::Alpha, 0.2);
		CheckSummary(coarse);
		const double max_rows = 0.2 / (4.0 * (std::string(cls) == "ranges(x)" ? 2 : 1)) * 1000;
		EXPECT_EQ(std::string(coarse.summary.granularity).rfind("alpha:", 0), 0u) << coarse.summary.granularity;
		EXPECT_LT(coarse.layout.cut_counts[0], fine.layout.cut_counts[0]);
		EXPECT_LT(coarse.summary.cover_size, fine.summary.cover_size);
		// Every bin but a single heavy value holds at most max_rows public rows; the highest value is a cut.
		const std::int32_t m = coarse.layout.cut_counts[0];
		EXPECT_EQ(coarse.layout.cuts[m - 1], fine.layout.cuts[fine.layout.cut_counts[0] - 1]);
		for (std::int32_t b = 0; b < m; b++) {
			const std::int64_t rows = coarse.summary.public_histogram[b];
			EXPECT_TRUE(rows <= max_rows ||
			            (b > 0 && rows == std::int64_t(std::count_if(
			                                  pub.rows.begin(), pub.rows.end(),
			                                  [&](const Row &row) { return row[0].number == coarse.layout.cuts[b]; }))))
			    << "bin " << b << " holds " << rows;
		}
		EXPECT_EQ(CheckRoundTrip(coarse, 11), 0u);
		EXPECT_EQ(CheckRoundTrip(fine, 12), 0u);
	}
}

TEST_F(ReleaseEngine, BoxesAndOrthantsOverTwoColumns)
{
	const Table pub = NumericTable();
	for (const char *cls : {"boxes(x, y)", "orthants(y, x)"}) {
		SCOPED_TRACE(cls);
		const bool boxes = std::string(cls).rfind("boxes", 0) == 0;
		const Release r = Define(pub, cls, Granularity::Alpha, 0.5);
		CheckSummary(r);
		ASSERT_EQ(r.layout.axis_count, 2u);
		std::int64_t size = 1, cells = 1;
		for (std::size_t a = 0; a < 2; a++) {
			const std::int64_t m = r.layout.cut_counts[a];
			size *= boxes ? m * (m + 1) / 2 + 2 : m + 2;
			cells *= m + 2;
		}
		EXPECT_EQ(r.summary.cover_size, size);
		EXPECT_EQ(r.summary.cell_count, cells);
		EXPECT_EQ(r.summary.vc_dimension, boxes ? 4 : 2);
		EXPECT_EQ(CheckRoundTrip(r, 7), 0u);
	}
	// Finest orthants too.
	const Release fine = Define(pub, "orthants(y, x)");
	EXPECT_EQ(fine.summary.cover_size, 13 * 52);
	EXPECT_EQ(CheckRoundTrip(fine, 8), 0u);
}

// Three numeric columns named `names`, one row per i < rows: (i, i * step_b mod rows, i * step_c mod rows).
Table
ThreeNumericColumns(const std::array<const char *, 3> &names, int rows, int step_b, int step_c)
{
	Table t;
	for (const char *name : names)
		t.columns.push_back({name, ValueType::Number, "double precision"});
	for (int i = 0; i < rows; i++)
		t.Add({Num(i), Num((i * step_b) % rows), Num((i * step_c) % rows)});
	return t;
}

Table
PeopleTable()
{
	Table t;
	t.columns = {{"city", ValueType::Text, "text"},
	             {"age", ValueType::Number, "integer"},
	             {"member", ValueType::Boolean, "boolean"},
	             {"x", ValueType::Number, "double precision"}};
	const char *cities[] = {"Paris", "Oslo", "O'Hara \"q\"", "Lima"};
	for (int i = 0; i < 60; i++)
		t.Add({i % 13 == 0 ? Null() : Str(cities[i % 4]), Num(20 + (i * 7) % 5),
		       i % 11 == 0 ? Null() : Bool(i % 3 == 0), Num(i % 10)});
	return t;
}

TEST_F(ReleaseEngine, MarginalsOverTextNumberAndBoolean)
{
	const Table pub = PeopleTable();
	for (const char *cls : {"marginals(1; city, age, member)", "marginals(2; city, age, member)"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(pub, cls);
		CheckSummary(r);
		EXPECT_EQ(std::string(r.summary.granularity).rfind("exact", 0), 0u) << r.summary.granularity;
		ASSERT_EQ(r.layout.axis_count, 3u);
		EXPECT_EQ(r.layout.category_counts[0], 4);
		EXPECT_EQ(r.layout.category_counts[1], 5);
		EXPECT_EQ(r.layout.category_counts[2], 2);
		EXPECT_STREQ(r.layout.categories[0], "Lima");  // byte order
		EXPECT_STREQ(r.layout.categories[9], "false");
		EXPECT_EQ(r.summary.cell_count, 6 * 7 * 4);
		const std::size_t skipped = CheckRoundTrip(r, 21);
		EXPECT_LT(std::int64_t(skipped), r.summary.cover_size);

		// A value never seen publicly projects to the query with no public point; a known one does not.
		const auto cells = Cells(r.layout);
		std::vector<double> public_weights(cells.size());
		for (std::size_t c = 0; c < cells.size(); c++)
			public_weights[c] = double(r.summary.public_histogram[c]) / double(r.public_rows);
		const Model model = LoadModel(r, public_weights);
		const bool two = r.spec.k == 2;
		const std::size_t unseen = Project(model.get(), two ? "city = 'Rome' AND age = 21" : "city = 'Rome'");
		EXPECT_EQ(ModelAnswer(model.get(), unseen), 0.0);
		const std::size_t seen = Project(model.get(), two ? "age = 21 AND city = 'Paris'" : "city = 'Paris'");
		EXPECT_GT(ModelAnswer(model.get(), seen), 0.0);
		EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "age <= 21"));
		EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, Project(model.get(), two ? "x = 1 AND age = 21" : "x = 1"));

		// Cells: a category of each type, "other", NULL.
		std::string json;
		const std::size_t cell = CellOf(r, {3, 1, 1});
		EXPECT_EQ(Describe(model.get(), cell, &json), "city = 'Paris' AND age = 21 AND member = true");
		EXPECT_EQ(json, "{\"city\": \"Paris\", \"age\": \"21\", \"member\": \"true\"}");
		const std::size_t other = CellOf(r, {4, 5, 3});
		EXPECT_EQ(Describe(model.get(), other, &json),
		          "city NOT IN ('Lima', 'O''Hara \"q\"', 'Oslo', 'Paris') AND age NOT IN (20, 21, 22, 23, 24) AND "
		          "member IS NULL");
		EXPECT_EQ(json,
		          "{\"city\": {\"other\": [\"Lima\", \"O'Hara \\\"q\\\"\", \"Oslo\", \"Paris\"]}, \"age\": {\"other\": "
		          "[\"20\", \"21\", \"22\", \"23\", \"24\"]}, \"member\": null}");
		const std::size_t null_city = CellOf(r, {5, 0, 0});
		EXPECT_EQ(Describe(model.get(), null_city, &json), "city IS NULL AND age = 20 AND member = false");
		EXPECT_EQ(json, "{\"city\": null, \"age\": \"20\", \"member\": \"false\"}");

		// Private rows with values never seen publicly land in the "other" cells and are counted.
		Table priv = pub;
		priv.Add({Str("Rome"), Num(99), Bool(true), Num(0)}, 40);
		const GridPoints points = PrivateScan(r, priv);
		const RunSummary run = RunOn(r, points, 9, Plan(r));
		EXPECT_EQ(run.private_rows, std::int64_t(priv.rows.size()));
		EXPECT_GE(run.synthetic[CellOf(r, {4, 5, 1})], 0.0);
	}
}

TEST_F(ReleaseEngine, Stumps)
{
	const Table pub = PeopleTable();
	Table t = pub;
	t.columns.push_back({"paid", ValueType::Boolean, "boolean"});
	for (std::size_t i = 0; i < t.rows.size(); i++)
		t.rows[i].push_back(Bool(i % 2 == 0));
	const Release r = Define(t, "stumps(member, paid)");
	CheckSummary(r);
	EXPECT_LE(r.summary.cover_size, 4);
	EXPECT_EQ(r.summary.cell_count, 16);
	EXPECT_EQ(r.layout.category_counts[0], 2);
	EXPECT_EQ(CheckRoundTrip(r, 31), 0u);
	const Model model = LoadModel(r, RandomDistribution(16, 4));
	const std::size_t yes = Project(model.get(), "paid = TRUE");
	EXPECT_EQ(Project(model.get(), "paid = 'true'"), yes);
	EXPECT_NE(Project(model.get(), "paid = false"), yes);
}

TEST_F(ReleaseEngine, Halfspaces)
{
	const Table pub = NumericTable();
	for (Granularity g : {Granularity::Finest, Granularity::Alpha}) {
		const Release r = Define(pub, "halfspaces(x, y; [1, 2], [-1, 0.5], [0, 1])", g, 0.2);
		CheckSummary(r);
		ASSERT_EQ(r.layout.axis_count, 3u);
		EXPECT_STREQ(r.layout.axis_kinds[0], "linear");
		EXPECT_STREQ(r.layout.axis_labels[0], "1*x + 2*y");
		EXPECT_STREQ(r.layout.axis_labels[1], "-1*x + 0.5*y");
		EXPECT_STREQ(r.layout.axis_labels[2], "1*y");
		EXPECT_EQ(CheckRoundTrip(r, 41), 0u);
		const Model model = LoadModel(r, RandomDistribution(std::size_t(r.summary.cell_count), 5));
		EXPECT_EQ(Project(model.get(), "2*x + 4*y <= 10"), Project(model.get(), "x + 2*y <= 5"));
		EXPECT_EQ(Project(model.get(), "x - 0.5*y >= -3"), Project(model.get(), "-1*x + 0.5*y <= 3"));
		EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "x + y <= 3"));
		std::string json;
		const std::string bounds = Describe(model.get(), 0, &json);
		EXPECT_EQ(bounds.rfind("(1*x + 2*y) <= ", 0), 0u) << bounds;
		EXPECT_EQ(json.rfind("{\"1*x + 2*y\": {\"lower\": null, \"upper\": ", 0), 0u) << json;
	}
}

TEST_F(ReleaseEngine, PredicatesMerge)
{
	Table pub = NumericTable();
	const std::size_t x = pub.Col("x"), y = pub.Col("y");
	pub.predicates["x < 10"] = [x](const Row &row) { return !row[x].null && row[x].number < 10; };
	pub.predicates["y > 5"] = [y](const Row &row) { return !row[y].null && row[y].number > 5; };
	pub.predicates["x <= 9.5"] = [x](const Row &row) { return !row[x].null && row[x].number <= 9.5; };
	const Release r = Define(pub, "predicates('x < 10', 'y > 5', 'x <= 9.5')");
	CheckSummary(r);
	ASSERT_EQ(r.layout.axis_count, 2u);
	EXPECT_STREQ(r.layout.axis_kinds[0], "predicate");
	EXPECT_STREQ(r.layout.axis_labels[0], "x < 10");
	EXPECT_STREQ(r.layout.axis_labels[1], "y > 5");
	ASSERT_EQ(r.layout.predicate_count, 3u);
	EXPECT_EQ(r.layout.predicate_axis[0], 0);
	EXPECT_EQ(r.layout.predicate_axis[1], 1);
	EXPECT_EQ(r.layout.predicate_axis[2], 0);
	EXPECT_EQ(r.summary.cover_size, 2);
	EXPECT_EQ(r.summary.cell_count, 4);
	EXPECT_EQ(CheckRoundTrip(r, 51), 0u);
	const Model model = LoadModel(r, RandomDistribution(4, 6));
	EXPECT_EQ(Project(model.get(), "  x <= 9.5 "), Project(model.get(), "x < 10"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "x <= 9"));
	std::string json;
	EXPECT_EQ(Describe(model.get(), 2, &json), "(x < 10) IS TRUE AND (y > 5) IS NOT TRUE");
	EXPECT_EQ(json, "{\"x < 10\": true, \"y > 5\": false}");

	// The private scan reads the stored predicates.
	const RunSummary run = RunOn(r, PrivateScan(r, pub), 3, Plan(r));
	EXPECT_EQ(run.private_rows, std::int64_t(pub.rows.size()));
}

// Predicates the public rows label alike share an axis, and one answers for the other, off by the private rows on
// which they disagree: the projection part bounds their share on every pair of listed conditions (docs/mechanisms.md
// §10 (a), "Merged predicates"). Granularity auto also plans every condition on an axis of its own, exact, and takes
// it where it predicts less.
TEST_F(ReleaseEngine, PredicatesMergedByThePublicRowsPayTheirDisagreementAndAutoMayUnmergeThem)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int v = 0; v < 2000; v++)
		pub.Add({Num(v)}, 1);
	const std::size_t x = pub.Col("x");
	pub.predicates["x < 1000"] = [x](const Row &row) { return row[x].number < 1000; };
	pub.predicates["x < 999.5"] = [x](const Row &row) { return row[x].number < 999.5; };
	pub.predicates["x > 1500"] = [x](const Row &row) { return row[x].number > 1500; };
	pub.predicates["1500 < x"] = [x](const Row &row) { return 1500 < row[x].number; };
	pub.predicates["(X > 1500)"] = pub.predicates["x > 1500"];
	const char *cls = "predicates('x < 1000', 'x < 999.5', 'x > 1500', '1500 < x')";
	const std::int64_t n = 100000;
	const auto projection_of = [n](const Release &r) {
		return BoundModes(LayoutFromCatalog(r.layout), 2000, n, 0.05).projection;
	};
	// Finest keeps the public rows' merge: 'x < 999.5' is answered by 'x < 1000', and '1500 < x' by 'x > 1500'.
	const Release merged = Define(pub, cls, Granularity::Finest);
	ASSERT_EQ(merged.layout.axis_count, 2u);
	// Four distinct conditions ('1500 < x' is 'x > 1500' to SQL, not to the key, which keeps them apart), six pairs.
	const double pairs = 6.0;
	EXPECT_DOUBLE_EQ(projection_of(merged),
	                 PrivateShareInterval(0, 2000, n, RefinementLogTerm(pairs, DataPartBeta(0.05))).high);
	EXPECT_GT(projection_of(merged), 0.0);
	// Auto: four axes, each query its own cover query, no projection part, and the sentence says why.
	const Release unmerged = Define(pub, cls, Granularity::Auto, 0.1, 1000000, 1000000, nullptr, n, 1.0);
	ASSERT_EQ(unmerged.layout.axis_count, 4u);
	EXPECT_EQ(std::vector<std::int32_t>(unmerged.layout.predicate_axis, unmerged.layout.predicate_axis + 4),
	          (std::vector<std::int32_t>{0, 1, 2, 3}));
	EXPECT_EQ(projection_of(unmerged), 0.0);
	EXPECT_NE(std::string(unmerged.summary.granularity).find("every listed predicate on an axis of its own"),
	          std::string::npos)
	    << unmerged.summary.granularity;
	EXPECT_EQ(unmerged.summary.cell_count, 16);
	EXPECT_EQ(unmerged.summary.cover_size, 4);
	EXPECT_EQ(CheckRoundTrip(unmerged, 52), 0u);
	// The private scan reads every listed predicate: a private row at 999.75 tells the first two apart.
	Table priv = pub;
	priv.rows.clear();
	for (int v = 0; v < 100; v++)
		priv.Add({Num(999.75)}, 1);
	const GridPoints scanned = PrivateScan(unmerged, priv);
	ASSERT_EQ(scanned.rows.size(), 1u);
	EXPECT_EQ(scanned.points, (std::vector<std::int32_t>{1, 0, 0, 0}));
	// Where the unmerged layout predicts more, auto keeps the merge: with at most 4 cells the unmerged axes fit only
	// as their 3 public points plus the outside cell, whose mass outweighs the disagreement.
	const Release tight = Define(pub, cls, Granularity::Auto, 0.1, 4, 1000000, nullptr, n, 1.0);
	EXPECT_EQ(tight.layout.axis_count, 2u);
	EXPECT_EQ(std::string(tight.summary.granularity).find("on an axis of its own"), std::string::npos)
	    << tight.summary.granularity;
	// A public relation that returned other rows to the label scan than to the grid scan: an error, at every
	// granularity (the merge and the points would describe different rows).
	EXPECT_PAP_ERROR(ErrorKind::DataException,
	                 Define(pub, cls, Granularity::Auto, 0.1, 1000000, 1000000, nullptr, n, 1.0, 1));
	EXPECT_PAP_ERROR(ErrorKind::DataException,
	                 Define(pub, cls, Granularity::Finest, 0.1, 1000000, 1000000, nullptr, n, 1.0, 1));
	// Listed conditions that are one (equal keys) share an axis without a projection part.
	const Release same = Define(pub, "predicates('x > 1500', '(X > 1500)')", Granularity::Finest);
	ASSERT_EQ(same.layout.axis_count, 1u);
	EXPECT_EQ(projection_of(same), 0.0);
	// An answer's bound (docs/mechanisms.md §18) takes the part and no share of unseen grid points: every listed
	// predicate is its own cover query or pays its disagreement in the part.
	for (const Release *r : {&merged, &unmerged}) {
		const std::vector<double> synthetic = RandomDistribution(std::size_t(r->summary.cell_count), 3);
		const Model model = LoadModel(*r, synthetic, n);
		ReleaseErrorFacts facts;
		facts.known = true;
		facts.beta = 0.05;
		facts.public_rows = r->public_rows;
		facts.projection = projection_of(*r);
		facts.noise = 0.01;
		ModelSetErrorFacts(model.get(), facts);
		for (const char *text : {"x < 999.5", "1500 < x"}) {
			ParsedQuery *parsed = ParseQueryForModel(model.get(), text);
			std::unique_ptr<ParsedQuery, void (*)(ParsedQuery *)> owner(parsed, FreeParsedQuery);
			const AnswerBound b = ModelAnswerBound(model.get(), parsed, nullptr, nullptr, false);
			EXPECT_DOUBLE_EQ(b.projection, projection_of(*r)) << text;
		}
	}
	// Public labels that tell two predicates of one key apart (a key that equated two conditions would price their
	// disagreement at 0): an internal error at every granularity, before any layout is made.
	for (Granularity g : {Granularity::Finest, Granularity::Auto}) {
		std::unique_ptr<ReleaseDraft, DraftDeleter> d(
		    BeginReleaseDraft("predicates('x > 1500', '(X > 1500)')", 0.1, g, nullptr));
		const std::int32_t points[] = {1, 1, 0, 1};  // one public row labelled (1, 1), one (0, 1)
		const std::int64_t rows[] = {1, 1};
		EXPECT_PAP_ERROR(ErrorKind::Internal, DraftMergePredicates(d.get(), points, rows, 2));
		// Labels that agree are taken.
		std::unique_ptr<ReleaseDraft, DraftDeleter> agreeing(
		    BeginReleaseDraft("predicates('x > 1500', '(X > 1500)')", 0.1, g, nullptr));
		const std::int32_t alike[] = {1, 1, 0, 0};
		EXPECT_EQ(test::OutcomeOf([&]() { DraftMergePredicates(agreeing.get(), alike, rows, 2); }), "no error");
	}
}

// A public support smaller than the grid: private rows outside it still count in the true answers. ranges(x)
// over public values 0..9: bin 9 (value 9) and the top bin (above 9) are in exactly the same cover queries, so
// with half the private rows at 9 and half at 100 the synthetic data can match every true answer with all its
// mass on the cell of 9. If the outside rows were left out of the true answers, "x > 8" would be 1/2.
TEST_F(ReleaseEngine, SupportDomainCountsPrivateRowsOutsideIt)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int v = 0; v < 10; v++)
		pub.Add({Num(v)}, 5);
	Table priv;
	priv.columns = pub.columns;
	priv.Add({Num(9)}, 4000);
	priv.Add({Num(100)}, 4000);

	const Release support = Define(pub, "ranges(x)", Granularity::Finest, 0.1, 11);
	const Release dense = Define(pub, "ranges(x)", Granularity::Finest, 0.1, 12);
	CheckSummary(support);
	CheckSummary(dense);
	EXPECT_STREQ(support.layout.domain, "public support");
	EXPECT_STREQ(dense.layout.domain, "full grid");
	EXPECT_EQ(support.summary.cell_count, 11);
	EXPECT_EQ(dense.summary.cell_count, 12);
	EXPECT_EQ(support.summary.cover_size, dense.summary.cover_size);
	EXPECT_NE(std::string(support.summary.domain_reason).find("outside cell"), std::string::npos)
	    << support.summary.domain_reason;
	EXPECT_EQ(CheckRoundTrip(support, 61), 0u);

	for (const Release *r : {&support, &dense}) {
		SCOPED_TRACE(r->layout.domain);
		const GridPoints points = PrivateScan(*r, priv);
		const RunSummary run = RunOn(*r, points, 77, Plan(*r, 100.0));
		EXPECT_EQ(run.private_rows, 8000);
		const Model model(LoadReleaseModel(r->layout, run.synthetic, std::size_t(r->summary.cell_count), 8000));
		EXPECT_GT(ModelAnswer(model.get(), Project(model.get(), "x > 8")), 0.9);
		EXPECT_GT(ModelAnswer(model.get(), Project(model.get(), "x > 2")), 0.9);
		EXPECT_LT(ModelAnswer(model.get(), Project(model.get(), "x <= 8")), 0.1);
	}

	// The outside cell describes itself, with no JSON.
	const Model model = LoadModel(support, RandomDistribution(11, 7));
	std::string json = "?";
	EXPECT_EQ(Describe(model.get(), 10, &json), "outside the public support");
	EXPECT_EQ(json, "");
	EXPECT_EQ(Describe(model.get(), 9, &json), "x > 8 AND x <= 9");
}

TEST_F(ReleaseEngine, DefinitionErrors)
{
	const Table people = PeopleTable();
	EXPECT_PAP_ERROR(ErrorKind::DatatypeMismatch, Define(people, "boxes(x, city)"));
	EXPECT_PAP_ERROR(ErrorKind::DatatypeMismatch, Define(people, "stumps(member, age)"));
	EXPECT_PAP_ERROR(ErrorKind::DatatypeMismatch, Define(people, "halfspaces(x, member; [1, 1])"));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseGranularity("coarse"));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseGranularity("Alpha"));
	EXPECT_EQ(ParseGranularity("alpha"), Granularity::Alpha);
	EXPECT_EQ(ParseGranularity("finest"), Granularity::Finest);
	EXPECT_PAP_ERROR(ErrorKind::SyntaxError, BeginReleaseDraft("thresholds(", 0.1, Granularity::Finest));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, BeginReleaseDraft("cubes(x)", 0.1, Granularity::Finest));

	// Limits, with hints: the cells (even the public support does not fit) and the cover.
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 30; v++)
		pub.Add({Num(v), Num(29 - v)});
	const auto error_of = [&](const char *cls, std::uint64_t cell_limit, std::size_t max_cover) {
		try {
			Define(pub, cls, Granularity::Finest, 0.1, cell_limit, max_cover);
		} catch (const Error &e) {
			return e;
		}
		return Error(ErrorKind::Internal, "no error");
	};
	const Error cells = error_of("boxes(x, y)", 20, 1000000);
	EXPECT_EQ(cells.kind(), ErrorKind::LimitExceeded) << cells.what();
	EXPECT_FALSE(cells.hint().empty());
	// An ordered class's cover is never refused for its size (a class that lists its cover as it is built is).
	EXPECT_EQ(error_of("ranges(x)", 1000, 100).kind(), ErrorKind::Internal);  // no error
	EXPECT_EQ(error_of("marginals(2; x, y)", 1000, 20).kind(), ErrorKind::LimitExceeded);

	// The catalog is asked for before the draft is complete.
	std::unique_ptr<ReleaseDraft, DraftDeleter> d(BeginReleaseDraft("thresholds(x)", 0.1, Granularity::Finest));
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftCatalogLayout(d.get()));
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftSummaryOf(d.get()));
}

TEST_F(ReleaseEngine, RunIsReproducibleForASeedAndDependsOnIt)
{
	const Table pub = NumericTable();
	// Private: shifted towards small x.
	Table priv = pub;
	priv.rows.clear();
	for (int v = 0; v < 50; v++)
		priv.Add({Num(v), Num(v % 7)}, v < 15 ? 1200 : 40);
	priv.Add({Null(), Num(1)}, 100);
	for (const char *cls : {"thresholds(x)", "ranges(x)", "boxes(x, y)"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(pub, cls);
		const GridPoints points = PrivateScan(r, priv);
		const std::size_t cells = std::size_t(r.summary.cell_count);
		const RunSummary a = RunOn(r, points, 12345, Plan(r, 1.0));
		const RunSummary b = RunOn(r, points, 12345, Plan(r, 1.0));
		const RunSummary c = RunOn(r, points, 54321, Plan(r, 1.0));
		EXPECT_EQ(a.private_rows, std::int64_t(priv.rows.size()));
		EXPECT_GT(a.updates, 0);
		EXPECT_EQ(std::memcmp(a.synthetic, b.synthetic, cells * sizeof(double)), 0);
		EXPECT_EQ(a.updates, b.updates);
		EXPECT_EQ(a.comparisons, b.comparisons);
		// The noise only decides which queries update: with clear gaps several seeds may agree, not all of them.
		bool differs = false;
		for (std::int64_t seed = 1; seed <= 6 && !differs; seed++) {
			const RunSummary other = RunOn(r, points, seed, Plan(r, 0.5));
			differs = std::memcmp(other.synthetic, RunOn(r, points, 7, Plan(r, 0.5)).synthetic, cells * sizeof(double));
		}
		EXPECT_TRUE(differs);
		for (const RunSummary *s : {&a, &c}) {
			double sum = 0;
			for (std::size_t i = 0; i < cells; i++) {
				EXPECT_GE(s->synthetic[i], 0.0);
				sum += s->synthetic[i];
			}
			EXPECT_NEAR(sum, 1.0, 1e-9);
			EXPECT_LE(s->updates, s->plan.cutoff);
			EXPECT_EQ(s->cutoff_reached, s->updates == s->plan.cutoff);
		}
		// The plan inside the run is MakePlan on the same request with n filled in.
		PlanRequest pr = Plan(r, 1.0);
		pr.private_rows = a.private_rows;
		const PlanSummary plan = MakePlan(pr);
		EXPECT_EQ(plan.cutoff, a.plan.cutoff);
		EXPECT_EQ(plan.threshold, a.plan.threshold);
		EXPECT_EQ(plan.noise_scales[0], a.plan.noise_scales[0]);
		EXPECT_EQ(plan.noise_scales[1], a.plan.noise_scales[1]);
		// A uniform start is another run.
		const RunSummary u = RunOn(r, points, 12345, Plan(r, 1.0, "uniform"));
		EXPECT_NE(std::memcmp(a.synthetic, u.synthetic, cells * sizeof(double)), 0);
		// The secure source runs too (seed < 0).
		const RunSummary s = RunOn(r, points, -1, Plan(r));
		double sum = 0;
		for (std::size_t i = 0; i < cells; i++)
			sum += s.synthetic[i];
		EXPECT_NEAR(sum, 1.0, 1e-9);
		// The released distribution loads and answers within [0, 1].
		const Model model(LoadReleaseModel(r.layout, a.synthetic, cells, a.private_rows));
		EXPECT_EQ(ModelPrivateRows(model.get()), a.private_rows);
		for (std::size_t q = 0; q < ModelCoverSize(model.get()); q++) {
			EXPECT_GE(ModelAnswer(model.get(), q), 0.0);
			EXPECT_LE(ModelAnswer(model.get(), q), 1.0);
		}
	}
}

TEST_F(ReleaseEngine, RunRejectsBadRequests)
{
	const Table pub = NumericTable();
	const Release r = Define(pub, "thresholds(x)");
	const GridPoints points = PrivateScan(r, pub);
	PlanRequest p = Plan(r);
	p.cell_count += 1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunOn(r, points, 1, p));
	p = Plan(r);
	p.cover_size += 1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunOn(r, points, 1, p));
	p = Plan(r);
	p.mechanism = "mwem2";
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunOn(r, points, 1, p));
	p = Plan(r);
	p.prior = "flat";
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunOn(r, points, 1, p));
	p = Plan(r);
	p.epsilon = 0;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunOn(r, points, 1, p));
	// No private row at all: the plan refuses (before any charge).
	EXPECT_PAP_ERROR(ErrorKind::DataException, RunOn(r, GridPoints{}, 1, Plan(r)));
	// The allocator's failure is std::bad_alloc.
	PlanRequest planned = Plan(r);
	planned.private_rows = 100;
	RunRequest req{};
	req.layout = &r.layout;
	req.private_points = points.points.data();
	req.private_rows = points.rows.data();
	req.private_point_count = points.rows.size();
	req.seed = 1;
	EXPECT_THROW(RunRelease(req, MakePlan(planned), FailingAllocate), std::bad_alloc);
	// A corrupt catalog is an internal error.
	CatalogLayout corrupt = r.layout;
	corrupt.domain = "somewhere";
	std::vector<double> uniform(std::size_t(r.summary.cell_count), 1.0 / double(r.summary.cell_count));
	EXPECT_PAP_ERROR(ErrorKind::Internal, LoadReleaseModel(corrupt, uniform.data(), uniform.size(), 1));
}

// A stored cover_size below the class's cover is catalog corruption: an internal error, not a limit the user
// could raise.
TEST_F(ReleaseEngine, RunReportsASmallerStoredCoverAsInternal)
{
	const Table pub = NumericTable();
	const Release r = Define(pub, "thresholds(x)");
	PlanRequest p = Plan(r);
	p.cover_size -= 1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunOn(r, PrivateScan(r, pub), 1, p));
}

// The share of the gap (lo, hi) between two public values that a query's conditions on one column keep, by
// intersecting the gap with the interval they bound (strict or not alike: the spread has no atom).
double
GapShareKept(const QueryText &query, const std::string &column, double lo, double hi)
{
	double from = lo, to = hi;
	for (const Condition &c : query.conditions) {
		if (c.column != column)
			continue;
		const double v = ReadFloat(c.value.text);
		if (c.op == Comparison::Less || c.op == Comparison::LessEqual)
			to = std::min(to, v);
		else if (c.op == Comparison::Greater || c.op == Comparison::GreaterEqual)
			from = std::max(from, v);
		else if (c.op == Comparison::Between) {
			from = std::max(from, v);
			to = std::min(to, ReadFloat(c.upper.text));
		}
	}
	return std::max(0.0, to - from) / (hi - lo);
}

// Within-cell refinement, brute force: each cell weighs its synthetic weight times, per mentioned axis, the
// share of its bin's public rows (finest public marginal) that satisfy the query's bounds on that axis, where a
// value with a spread share theta (spread: per axis and value, or empty) counts theta of a row by the share of
// the gap below it the query keeps and the rest at the value; the top bin (no public rows) counts wholly or not at all
// where the query's bounds make it certain, otherwise as the projection takes it; the NULL bin never.
double
RefinedByBruteForce(const Release &r, const ReleaseModel *model, const std::vector<double> &synthetic,
                    const std::string &text, const std::vector<std::vector<double>> &spread = {})
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	const QueryText query = ParseQueryText(text);
	const QueryText projected = ParseQueryText(ModelRenderQuery(model, Project(model, text), TestAllocate));
	std::size_t value_at = 0;
	std::vector<std::vector<double>> f(axes.size());
	std::vector<bool> mentioned(axes.size(), false);
	for (std::size_t a = 0; a < axes.size(); a++) {
		const std::size_t m = std::size_t(r.layout.public_value_counts[a]);
		const std::int32_t M = std::int32_t(axes[a].cuts.size());
		std::vector<double> in(std::size_t(M) + 2, 0.0), all(std::size_t(M) + 2, 0.0);
		for (std::size_t i = value_at; i < value_at + m; i++) {
			const double v = r.layout.public_values[i];
			std::int32_t bin = 0;
			while (bin < M && axes[a].cuts[std::size_t(bin)] < v)
				bin++;
			bool holds = true;
			for (const Condition &c : query.conditions)
				if (c.column == axes[a].label) {
					mentioned[a] = true;
					holds = holds && Compare(c.op, v, ReadFloat(c.value.text), ReadFloat(c.upper.text));
				}
			const double rows = double(r.layout.public_value_rows[i]);
			const double theta = a < spread.size() && i - value_at < spread[a].size() ? spread[a][i - value_at] : 0.0;
			all[std::size_t(bin)] += rows;
			if (holds)
				in[std::size_t(bin)] += rows - theta;
			if (theta > 0.0)
				in[std::size_t(bin)] += theta * GapShareKept(query, axes[a].label, r.layout.public_values[i - 1], v);
		}
		value_at += m;
		for (const Condition &c : query.conditions)
			mentioned[a] = mentioned[a] || c.column == axes[a].label;
		// The top bin: none of it under an upper bound at most the highest cut, all of it without an upper bound
		// when every lower bound is at most the highest cut; otherwise as the projection takes it.
		const double highest = M > 0 ? axes[a].cuts.back() : 0.0;
		bool upper = false, upper_below = false, lower_above = false;
		for (const Condition &c : query.conditions) {
			if (c.column != axes[a].label)
				continue;
			const double v = ReadFloat(c.value.text);
			const double u = c.op == Comparison::Between ? ReadFloat(c.upper.text) : v;
			if (c.op == Comparison::Less || c.op == Comparison::LessEqual || c.op == Comparison::Between ||
			    c.op == Comparison::Equal) {
				upper = true;
				upper_below = upper_below || u <= highest;
			}
			if (c.op == Comparison::Greater || c.op == Comparison::GreaterEqual || c.op == Comparison::Between ||
			    c.op == Comparison::Equal)
				lower_above = lower_above || v > highest;
		}
		bool top = mentioned[a];
		for (const Condition &c : projected.conditions)
			if (c.column == axes[a].label && (c.op == Comparison::Less || c.op == Comparison::LessEqual))
				top = false;
		if (M > 0 && upper_below)
			top = false;
		else if (M > 0 && !upper && !lower_above)
			top = true;
		f[a].assign(std::size_t(M) + 2, 1.0);
		if (!mentioned[a])
			continue;
		for (std::int32_t b = 0; b < M; b++)
			f[a][std::size_t(b)] = in[std::size_t(b)] / all[std::size_t(b)];
		f[a][std::size_t(M)] = top ? 1.0 : 0.0;
		f[a][std::size_t(M) + 1] = 0.0;
	}
	double sum = 0.0;
	for (std::size_t c = 0; c < cells.size(); c++) {
		if (!cells[c]) {
			bool any = false;
			for (bool m : mentioned)
				any = any || m;
			if (!any)
				sum += synthetic[c];
			continue;
		}
		double w = synthetic[c];
		for (std::size_t a = 0; a < axes.size(); a++)
			w *= f[a][std::size_t((*cells[c])[a])];
		sum += w;
	}
	return sum;
}

TEST_F(ReleaseEngine, WithinCellRefinement)
{
	const Table pub = NumericTable();
	std::mt19937_64 gen(5);
	std::uniform_int_distribution<int> pick(0, 1000);
	auto literal = [&]() { return std::to_string(pick(gen) / 20.0 - 2.0); };  // -2 .. 48, halves and quarters
	struct Case {
		const char *cls;
		Granularity granularity;
		std::uint64_t cell_limit;
	};
	const Case cases[] = {
	    {"thresholds(x)", Granularity::Alpha, 1000000}, {"ranges(x)", Granularity::Alpha, 1000000},
	    {"boxes(x, y)", Granularity::Alpha, 1000000},   {"orthants(x, y)", Granularity::Alpha, 1000000},
	    {"boxes(x, y)", Granularity::Alpha, 200},       {"boxes(x, y)", Granularity::Finest, 1000000},
	    {"ranges(x)", Granularity::Finest, 1000000}};
	for (const Case &k : cases) {
		const std::string cls = k.cls;
		SCOPED_TRACE(cls + (k.granularity == Granularity::Finest ? " finest" : " alpha") + " cell limit " +
		             std::to_string(k.cell_limit));
		const Release r = Define(pub, k.cls, k.granularity, 0.9, k.cell_limit);
		EXPECT_STREQ(r.layout.domain, k.cell_limit < 1000 ? "public support" : "full grid");
		const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 17);
		const Model model = LoadModel(r, synthetic);
		const bool upper_only = cls.rfind("thresholds", 0) == 0 || cls.rfind("orthants", 0) == 0;
		const bool two = cls.find(", y") != std::string::npos;
		double moved = 0.0;
		for (int i = 0; i < 200; i++) {
			std::string text;
			const int shape = i % 4;
			if (upper_only)
				text = "x <= " + literal() + (two && shape != 0 ? " AND y < " + std::to_string(pick(gen) / 90.0) : "");
			else if (shape == 0)
				text = "x > " + literal();
			else if (shape == 1)
				text = "x BETWEEN " + literal() + " AND " + literal();
			else
				text = "x >= " + literal() + " AND x < " + literal() +
				       (two ? " AND y > " + std::to_string(pick(gen) / 100.0) : "");
			if (two && shape == 3)
				text = "y <= " + std::to_string(pick(gen) / 100.0);
			const double refined = AnswerText(model.get(), text, true);
			EXPECT_NEAR(refined, RefinedByBruteForce(r, model.get(), synthetic, text), 1e-9) << text;
			const double plain = AnswerText(model.get(), text, false);
			EXPECT_NEAR(plain, ModelAnswer(model.get(), Project(model.get(), text)), 1e-12) << text;
			if (k.granularity == Granularity::Finest) {
				EXPECT_NEAR(refined, plain, 1e-9) << text;  // every bin holds one public value: nothing to split
			}
			moved = std::max(moved, std::fabs(refined - plain));
		}
		if (k.granularity == Granularity::Alpha) {
			EXPECT_GT(moved, 1e-3);  // the refinement does split bins at alpha granularity
		}
		if (two) {
			EXPECT_NEAR(AnswerText(model.get(), "TRUE", true), 1.0, 1e-12);
		}
	}
	// Halfspaces and predicates ignore refine; marginals read their own cells (MarginalsRefineFromTheirOwnCells).
	const Release h = Define(pub, "halfspaces(x, y; [1, 1])");
	const Model halfspaces = LoadModel(h, RandomDistribution(std::size_t(h.summary.cell_count), 3));
	EXPECT_EQ(AnswerText(halfspaces.get(), "x + y <= 10", true), AnswerText(halfspaces.get(), "x + y <= 10", false));
}

// With the run's facts known, refined answers spread each public value's first row over the gap below it, by the
// shares LoadedAnswerFactsOf gives (docs/mechanisms.md §10, "The answer mode"): checked against the brute force that
// spreads them by hand. At the finest granularity refining now moves answers off the projection's, inside the gaps.
TEST_F(ReleaseEngine, WithinCellRefinementSpreadsTheGaps)
{
	const Table pub = NumericTable();
	std::mt19937_64 gen(7);
	std::uniform_int_distribution<int> pick(0, 1000);
	auto literal = [&]() { return std::to_string(pick(gen) / 20.0 - 2.0); };  // -2 .. 48, halves and quarters
	for (const char *cls : {"thresholds(x)", "ranges(x)", "boxes(x, y)"})
		for (Granularity granularity : {Granularity::Alpha, Granularity::Finest}) {
			SCOPED_TRACE(std::string(cls) + (granularity == Granularity::Finest ? " finest" : " alpha"));
			const Release r = Define(pub, cls, granularity, 0.9);
			const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 23);
			const std::int64_t n = 100000;
			Model model = LoadModel(r, synthetic, n);
			ReleaseErrorFacts facts;
			facts.known = true;
			facts.beta = 0.05;
			facts.public_rows = r.public_rows;
			ModelSetErrorFacts(model.get(), facts);
			const LoadedAnswerFacts loaded =
			    LoadedAnswerFactsOf(LayoutFromCatalog(r.layout), r.public_rows, n, facts.beta);
			const std::vector<std::vector<double>> &spread = loaded.gap_spread;
			// The loaded projection part is the answer mode's (one derivation of the cuts serves both).
			EXPECT_EQ(loaded.projection,
			          BoundModes(LayoutFromCatalog(r.layout), r.public_rows, n, facts.beta).projection);
			double largest = 0.0;
			for (double theta : spread[0]) {
				EXPECT_GE(theta, 0.0);
				EXPECT_LE(theta, 1.0);
				largest = std::max(largest, theta);
			}
			EXPECT_EQ(spread[0].front(), 0.0);  // the lowest value has no gap below it
			EXPECT_GT(largest, 0.0);
			double moved = 0.0;
			for (int i = 0; i < 200; i++) {
				const bool upper_only = std::string(cls) == "thresholds(x)";
				const std::string text =
				    upper_only || i % 2 == 0 ? "x <= " + literal() : "x > " + literal() + " AND x <= " + literal();
				const double refined = AnswerText(model.get(), text, true);
				EXPECT_NEAR(refined, RefinedByBruteForce(r, model.get(), synthetic, text, spread), 1e-9) << text;
				moved = std::max(moved, std::fabs(refined - AnswerText(model.get(), text, false)));
			}
			EXPECT_GT(moved, 1e-4);
			// A bound at a public value keeps its rows where they are: "x <= 10" is a cut at the finest granularity.
			if (granularity == Granularity::Finest) {
				EXPECT_NEAR(AnswerText(model.get(), "x <= 10", true), AnswerText(model.get(), "x <= 10", false), 1e-12);
			}
		}
}

// A release's model with the run's facts known (beta 0.05, no noise or outside mass), in the given answer mode.
Model
ModelWithFacts(const Release &r, const std::vector<double> &synthetic, std::int64_t rows, bool refine_mode)
{
	Model model = LoadModel(r, synthetic, rows);
	ReleaseErrorFacts facts;
	facts.known = true;
	facts.beta = 0.05;
	facts.public_rows = r.public_rows;
	facts.refine_mode = refine_mode;
	ModelSetErrorFacts(model.get(), facts);
	return model;
}

// A release's model answering from the exact cell shares `synthetic` of `rows` private rows, in refine mode, without
// noise or outside mass: the bounds it gives are the data part alone (docs/mechanisms.md §18). part: the plan's
// refinement part on the answers' event.
Model
ExactRefinedModel(const Release &r, const std::vector<double> &synthetic, std::int64_t rows, double *part)
{
	*part = BoundModes(LayoutFromCatalog(r.layout), r.public_rows, rows, 0.05).refinement;
	return ModelWithFacts(r, synthetic, rows, true);
}

// The bin of value v on a numeric axis: the cuts below it (bins are (cut j-1, cut j]).
std::int32_t
BinOf(const AxisInfo &axis, double v)
{
	std::int32_t bin = 0;
	while (std::size_t(bin) < axis.cuts.size() && axis.cuts[std::size_t(bin)] < v)
		bin++;
	return bin;
}

// A box or an orthant over two axes restricts the other axis, so an edge's refined error counts only the rows of its
// bin's parts inside the query's range there (docs/mechanisms.md §18, proof, case 2). Rows on the diagonal x = y put
// every row of an x-bin below a split at y values below it: "x <= s AND y > s" holds no row, while the refined answer
// places the bin's share below s of the cell (x-bin, y-bin) that holds s on both axes. With the released weights the
// exact cell shares and no noise, every bound must hold it; with the whole bin's lower bound subtracted (the slab's
// error, right for a query on one axis only), 1,417 checks failed. The plan's refinement part is at least
// every answer's part, on the answers' event.
TEST_F(ReleaseEngine, RefinedBoundsOfBoxesCountOnlyTheRowsInsideTheOtherAxesRange)
{
	Table diagonal;
	diagonal.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 400; v++)
		diagonal.Add({Num(v), Num(v)}, 250);
	const std::int64_t rows = 100000;
	for (const char *cls : {"boxes(x, y)", "orthants(x, y)"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(diagonal, cls, Granularity::Alpha, 0.9);
		ASSERT_STREQ(r.layout.domain, "full grid");
		const std::vector<AxisInfo> axes = Axes(r.layout);
		ASSERT_GE(axes[0].cuts.size(), 2u);
		// The released weights: each cell's share of the rows (the private table is the public one).
		const auto cells = Cells(r.layout);
		std::vector<double> synthetic(cells.size(), 0.0);
		for (int v = 0; v < 400; v++)
			synthetic[CellOf(r, {BinOf(axes[0], v), BinOf(axes[1], v)})] += 250.0 / double(rows);
		double part = 0.0;
		const Model model = ExactRefinedModel(r, synthetic, rows, &part);
		double worst = 0.0;
		for (int v = 0; v < 400; v++) {
			const std::string s = std::to_string(v) + ".5";
			for (const std::string &text : {"x <= " + s + " AND y > " + s, "x <= " + s + " AND y >= 0 AND y < " + s,
			                                "x <= " + s + " AND y <= " + s, "x <= " + s}) {
				if (std::string(cls) == "orthants(x, y)" && text.find('>') != std::string::npos)
					continue;  // an orthant bounds each axis from above only
				double truth = 0.0;
				for (int u = 0; u < 400; u++)
					truth += double(u) <= v + 0.5 && (text.find("y > ") == std::string::npos || double(u) > v + 0.5) &&
					                 (text.find("y < ") == std::string::npos || double(u) < v + 0.5)
					             ? 250.0 / double(rows)
					             : 0.0;
				const AnswerBound b = BoundText(model.get(), text, true);
				EXPECT_LE(std::fabs(b.estimate - truth), b.error_bound + 1e-12) << text;
				EXPECT_LE(b.projection, part + 1e-12) << text;
				worst = std::max(worst, std::fabs(b.estimate - truth));
			}
		}
		EXPECT_GT(worst, 0.01);  // the diagonal's cells do split: the bounds are tested where they bind
	}
}

// A box's four edges cut up to four cells, and their errors add (docs/mechanisms.md §18, proof, case 2: the
// telescoping over the axes). Rows at (v, p(v)) for a fixed random permutation p pair the parts of every bin with
// arbitrary ranges of the other axis, so that edges in different cells can err in the same direction. With the exact
// cell shares and no noise, every bound must hold, on random boxes and orthants and on every query that splits one
// bin (its other bound at a cut); the worst random query errs more than any that splits one bin (the edges' errors
// add), and some use more than half their bound (the test reaches where the bounds bind). With the bins' lower bounds
// subtracted (a slab's error), 4,178 of these checks failed (answers up to 2.8 times their bound).
TEST_F(ReleaseEngine, RefinedBoundsOfBoxesHoldWhereTheEdgesOfBothAxesAdd)
{
	std::vector<int> p(400);
	std::iota(p.begin(), p.end(), 0);
	std::shuffle(p.begin(), p.end(), std::mt19937_64(11));
	Table pairs;
	pairs.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 400; v++)
		pairs.Add({Num(v), Num(p[std::size_t(v)])}, 250);
	const std::int64_t rows = 100000;
	for (const char *cls : {"boxes(x, y)", "orthants(x, y)"}) {
		SCOPED_TRACE(cls);
		const bool orthants = std::string(cls) == "orthants(x, y)";
		const Release r = Define(pairs, cls, Granularity::Alpha, 0.9);
		ASSERT_STREQ(r.layout.domain, "full grid");
		const std::vector<AxisInfo> axes = Axes(r.layout);
		ASSERT_GE(axes[0].cuts.size(), 2u);
		ASSERT_GE(axes[1].cuts.size(), 2u);
		std::vector<double> synthetic(Cells(r.layout).size(), 0.0);
		for (int v = 0; v < 400; v++)
			synthetic[CellOf(r, {BinOf(axes[0], v), BinOf(axes[1], p[std::size_t(v)])})] += 250.0 / double(rows);
		double part = 0.0;
		const Model model = ExactRefinedModel(r, synthetic, rows, &part);
		double used = 0.0;
		// Checks the bound of "lo < x <= hi AND lo < y <= hi" (NaN: no bound) and returns its error.
		const auto check = [&](double x_lo, double x_hi, double y_lo, double y_hi) {
			std::string text;
			const auto number = [](double v) {
				char buffer[32];
				std::snprintf(buffer, sizeof buffer, "%.17g", v);
				return std::string(buffer);
			};
			const auto side = [&](const char *c, double lo, double hi) {
				if (!std::isnan(lo))
					text += std::string(text.empty() ? "" : " AND ") + c + " > " + number(lo);
				text += std::string(text.empty() ? "" : " AND ") + c + " <= " + number(hi);
			};
			side("x", x_lo, x_hi);
			side("y", y_lo, y_hi);
			double truth = 0.0;
			for (int v = 0; v < 400; v++) {
				const double y = p[std::size_t(v)];
				if ((std::isnan(x_lo) || v > x_lo) && v <= x_hi && (std::isnan(y_lo) || y > y_lo) && y <= y_hi)
					truth += 250.0 / double(rows);
			}
			const AnswerBound b = BoundText(model.get(), text, true);
			const double error = std::fabs(b.estimate - truth);
			EXPECT_LE(error, b.error_bound + 1e-12) << text;
			EXPECT_LE(b.projection, part + 1e-12) << text;
			if (b.error_bound > 0.0)
				used = std::max(used, error / b.error_bound);
			return error;
		};
		const double open = std::nan("");
		// One bin split: a bound between two public values (v.5) on one axis, the other axis's bound at its cut.
		double one_split = 0.0;
		for (int v = 0; v < 400; v++) {
			for (double y_cut : axes[1].cuts)
				one_split = std::max(one_split, check(open, v + 0.5, open, y_cut));
			for (double x_cut : axes[0].cuts)
				one_split = std::max(one_split, check(open, x_cut, open, v + 0.5));
		}
		std::mt19937_64 gen(5);
		std::uniform_int_distribution<int> pick(0, 399);
		double random = 0.0;
		for (int i = 0; i < 2000; i++) {
			int x_lo = pick(gen), x_hi = pick(gen), y_lo = pick(gen), y_hi = pick(gen);
			if (x_lo > x_hi)
				std::swap(x_lo, x_hi);
			if (y_lo > y_hi)
				std::swap(y_lo, y_hi);
			random = std::max(random, orthants ? check(open, x_hi + 0.5, open, y_hi + 0.5)
			                                   : check(x_lo + 0.5, x_hi + 0.5, y_lo + 0.5, y_hi + 0.5));
		}
		EXPECT_GT(random, one_split);
		EXPECT_GT(used, 0.5);
	}
}

// "y IS NOT NULL" restricts the other axis too: where a bin's rows above its middle have y NULL, "x <= s AND y IS NOT
// NULL" at the middle keeps every row of the bin below s and none above, while the refined answer places the share f
// of the bin's non-NULL cells below s: off by (1 - f) of the part below, which the whole bin's lower bound would
// cancel. Every bound holds it, and the plan's part is at least every answer's.
TEST_F(ReleaseEngine, RefinedBoundsCountOnlyTheRowsAnIsNotNullKeeps)
{
	Table plain;
	plain.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 400; v++)
		plain.Add({Num(v), Num(v)}, 250);
	const std::vector<double> cuts = Axes(Define(plain, "boxes(x, y)", Granularity::Alpha, 0.9).layout)[0].cuts;
	ASSERT_GE(cuts.size(), 2u);
	// y is NULL on the upper half of each x-bin (its values above the bin's middle).
	const auto upper_half = [&](double v) {
		double lo = -1.0, hi = cuts.back();
		for (double c : cuts) {
			if (c < v)
				lo = c;
			else {
				hi = c;
				break;
			}
		}
		return v > (lo + hi) / 2;
	};
	Table nulls;
	nulls.columns = plain.columns;
	for (int v = 0; v < 400; v++)
		nulls.Add({Num(v), upper_half(v) ? Null() : Num(v)}, 250);
	const std::int64_t rows = 100000;
	const Release r = Define(nulls, "boxes(x, y)", Granularity::Alpha, 0.9);
	const std::vector<AxisInfo> axes = Axes(r.layout);
	ASSERT_EQ(axes[0].cuts, cuts);  // the x cuts read x alone
	const auto bin_of = [&](std::size_t a, const Value &v) {
		return v.null ? std::int32_t(axes[a].cuts.size()) + 1 : BinOf(axes[a], v.number);  // + 1: the NULL bin
	};
	std::vector<double> synthetic(Cells(r.layout).size(), 0.0);
	for (int v = 0; v < 400; v++)
		synthetic[CellOf(r, {bin_of(0, Num(v)), bin_of(1, upper_half(v) ? Null() : Num(v))})] += 250.0 / double(rows);
	double part = 0.0;
	const Model model = ExactRefinedModel(r, synthetic, rows, &part);
	double worst = 0.0;
	for (int v = 0; v < 400; v++) {
		const std::string text = "x <= " + std::to_string(v) + ".5 AND y IS NOT NULL";
		double truth = 0.0;
		for (int u = 0; u <= v; u++)
			truth += upper_half(u) ? 0.0 : 250.0 / double(rows);
		const AnswerBound b = BoundText(model.get(), text, true);
		EXPECT_LE(std::fabs(b.estimate - truth), b.error_bound + 1e-12) << text;
		EXPECT_LE(b.projection, part + 1e-12) << text;
		worst = std::max(worst, std::fabs(b.estimate - truth));
	}
	EXPECT_GT(worst, 0.005);  // the bins' halves do split
}

// The answer facts as the glue reads them back from the catalog: the arrays StoredAnswerFacts points into.
struct FlatFacts {
	double event_projection = 0, unseen_points_mass = 0;
	std::vector<double> caps, spreads;
	StoredAnswerFacts
	View() const
	{
		StoredAnswerFacts v;
		v.event_projection = event_projection;
		v.unseen_points_mass = unseen_points_mass;
		v.other_bin_cap_count = caps.size();
		v.other_bin_caps = caps.data();
		v.gap_spread_count = spreads.size();
		v.gap_spreads = spreads.data();
		return v;
	}
};
// What a run stores, read back: the JSON's numbers in order (projection, unseen mass, caps), each as the double it
// prints, and the spreads as they are.
FlatFacts
StoredFactsOfRun(const RunAnswerFacts &run)
{
	// Every number in order: the keys hold no digit, so each '-' or digit starts one (read by strtod, which reads
	// the shortest form back exactly).
	const std::string text(run.json);
	std::vector<double> numbers;
	for (const char *at = text.c_str(); *at != '\0';) {
		if (*at != '-' && !std::isdigit(static_cast<unsigned char>(*at))) {
			at++;
			continue;
		}
		char *end = nullptr;
		numbers.push_back(std::strtod(at, &end));
		EXPECT_GT(end, at) << text;
		at = end > at ? end : at + 1;
	}
	FlatFacts out;
	EXPECT_GE(numbers.size(), 2u) << text;
	if (numbers.size() < 2)
		return out;
	out.event_projection = numbers[0];
	out.unseen_points_mass = numbers[1];
	out.caps.assign(numbers.begin() + 2, numbers.end());
	out.spreads.assign(run.gap_spreads, run.gap_spreads + run.gap_spread_count);
	return out;
}

// A release's answers read the facts its run stored (docs/mechanisms.md §18, "Stored with the release"), not those
// the loading library computes. What ComputeAnswerFacts gives is exactly the computed facts (the JSON's numbers
// read back as the same doubles; the spreads one per public value, 0 on an axis without them), and the answers and
// bounds from them are the computed ones; other stored facts move the answers that read them; facts that do not fit
// the layout are refused with the model left as it was.
TEST_F(ReleaseEngine, AnswersReadTheFactsTheRunStored)
{
	struct Case {
		Table table;
		const char *cls;
		Granularity granularity;
		std::vector<std::string> queries;
	};
	const std::vector<Case> cases = {
	    {NumericTable(), "thresholds(x)", Granularity::Finest, {"x <= 3.3", "x <= 17.25", "x <= 40.5"}},
	    {NumericTable(), "boxes(x, y)", Granularity::Alpha, {"x <= 7.5 AND y <= 20.25", "x > 2.5 AND y <= 33"}},
	    {PeopleTable(),
	     "marginals(2; city, age)",
	     Granularity::Alpha,
	     {"city = 'Rome' AND age = 19", "city = 'Paris' AND age = 37"}},
	};
	const std::int64_t n = 5000;
	for (const Case &c : cases) {
		SCOPED_TRACE(c.cls);
		const Release r = Define(c.table, c.cls, c.granularity, 0.9);
		const ReleaseLayout layout = LayoutFromCatalog(r.layout);
		const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 31);
		const LoadedAnswerFacts computed = LoadedAnswerFactsOf(layout, r.public_rows, n, 0.05);
		const FlatFacts stored_facts =
		    StoredFactsOfRun(ComputeAnswerFacts(r.layout, r.public_rows, n, 0.05, TestAllocate));
		EXPECT_EQ(stored_facts.event_projection, computed.projection);
		EXPECT_EQ(stored_facts.unseen_points_mass, computed.unseen_points_mass);
		EXPECT_EQ(stored_facts.caps, computed.other_bin_caps);
		std::vector<double> padded;
		bool spreads = false;
		for (std::size_t a = 0; a < layout.axes.size(); a++) {
			std::vector<double> axis = computed.gap_spread.at(a);
			spreads = spreads || !axis.empty();
			axis.resize(layout.axes[a].public_values.size(), 0.0);
			padded.insert(padded.end(), axis.begin(), axis.end());
		}
		EXPECT_EQ(stored_facts.spreads, spreads ? padded : std::vector<double>{});
		EXPECT_EQ(spreads, std::string(c.cls) != "marginals(2; city, age)");

		const auto model_with = [&](const FlatFacts *stored) {
			Model model = LoadModel(r, synthetic, n);
			ReleaseErrorFacts facts;
			facts.known = true;
			facts.beta = 0.05;
			facts.public_rows = r.public_rows;
			facts.noise = 0.01;
			facts.refine_mode = false;  // marginals: projected bounds read the unseen points' mass
			facts.answers_stored = stored != nullptr;
			if (stored != nullptr)
				facts.answers = stored->View();
			ModelSetErrorFacts(model.get(), facts);
			return model;
		};
		const Model fresh = model_with(nullptr), stored = model_with(&stored_facts);
		for (const std::string &q : c.queries)
			for (bool refine : {false, true}) {
				const AnswerBound a = BoundText(fresh.get(), q, refine), b = BoundText(stored.get(), q, refine);
				EXPECT_EQ(a.estimate, b.estimate) << q;
				EXPECT_EQ(a.lower, b.lower) << q;
				EXPECT_EQ(a.upper, b.upper) << q;
			}

		// Each stored fact is read: changed alone, it moves an answer or a bound of the class it applies to (the
		// spreads refined ordered answers, the projection part projected ordered bounds, the caps a value of an
		// "other" bin, the unseen points' mass projected marginal bounds).
		const bool marginals = !spreads;
		// Whether facts changed by `change` (from facts changed by `base`) answer differently.
		const auto moves = [&](
		                       const std::function<void(FlatFacts &)> &change,
		                       const std::function<void(FlatFacts &)> &base = [](FlatFacts &) {}) {
			FlatFacts from = stored_facts;
			base(from);
			FlatFacts to = from;
			change(to);
			const Model before = model_with(&from), after = model_with(&to);
			bool any = false;
			for (const std::string &q : c.queries)
				for (bool refine : {false, true}) {
					const AnswerBound a = BoundText(before.get(), q, refine), b = BoundText(after.get(), q, refine);
					any = any || a.estimate != b.estimate || a.lower != b.lower || a.upper != b.upper;
				}
			return any;
		};
		EXPECT_EQ(moves([](FlatFacts &f) {
			          for (double &x : f.spreads)
				          x = 1.0 - x;
		          }),
		          !marginals);
		EXPECT_EQ(moves([](FlatFacts &f) { f.event_projection = 0.0; }), !marginals);
		EXPECT_EQ(moves([](FlatFacts &f) {
			          for (double &x : f.caps)
				          x = 1e-9;
		          }),
		          marginals);
		// (from both parts at 0: on this small public table the marginals' bound is at 1 already)
		EXPECT_EQ(moves([](FlatFacts &f) { f.unseen_points_mass = 0.01; },
		                [](FlatFacts &f) { f.event_projection = f.unseen_points_mass = 0.0; }),
		          marginals);

		// Refused: caps for another number of axes, spreads for another number of public values (one more, one
		// fewer), a cap or a spread outside [0, 1], bounds that are not finite or negative.
		std::vector<FlatFacts> bad(8, stored_facts);
		bad[0].caps.assign(r.layout.axis_count + 1, 0.5);
		bad[1].spreads.assign(padded.size() + 1, 0.5);
		bad[2].spreads.assign(std::max<std::size_t>(padded.size(), 1) - 1, 0.5);
		bad[3].caps.assign(r.layout.axis_count, 1.5);
		bad[4].spreads.assign(padded.size(), -0.25);
		bad[5].event_projection = std::numeric_limits<double>::quiet_NaN();
		bad[6].unseen_points_mass = -1e-3;
		bad[7].event_projection = std::numeric_limits<double>::infinity();
		for (std::size_t i = 0; i < bad.size(); i++) {
			SCOPED_TRACE(i);
			if ((i == 2 || i == 4) && padded.empty())
				continue;  // no public value: no spread to drop or set
			Model model = LoadModel(r, synthetic, n);
			ReleaseErrorFacts facts;
			facts.known = true;
			facts.beta = 0.05;
			facts.public_rows = r.public_rows;
			facts.answers_stored = true;
			facts.answers = bad[i].View();
			EXPECT_PAP_ERROR(ErrorKind::Internal, ModelSetErrorFacts(model.get(), facts));
			const Model unset = LoadModel(r, synthetic, n);  // left as it was: as a model whose facts were never set
			for (const std::string &q : c.queries)
				for (bool refine : {false, true}) {
					EXPECT_EQ(AnswerText(model.get(), q, refine), AnswerText(unset.get(), q, refine)) << q;
					EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, BoundText(model.get(), q, refine));  // no facts
				}
		}
	}
}

// The weight of the full grid's cells whose bin on each named axis is the given one: a marginal query's own cells.
double
WeightOfBins(const Release &r, const std::vector<double> &synthetic,
             const std::vector<std::pair<std::size_t, std::int32_t>> &bins)
{
	const CellDomain domain = LayoutFromCatalog(r.layout).MakeDomain();
	std::vector<std::int32_t> at(domain.AxisCount());
	double sum = 0.0;
	for (std::size_t c = 0; c < domain.CellCount(); c++) {
		EXPECT_TRUE(domain.CoordinatesOf(c, at.data()));
		if (std::all_of(bins.begin(), bins.end(), [&](const auto &b) { return at[b.first] == b.second; }))
			sum += synthetic[c];
	}
	return sum;
}

// On a full grid, refine answers a marginal query from the sum of its own cells (docs/mechanisms.md §10, "The
// answer mode"), also a query no public row satisfies, which projects onto the cover's empty pattern; on a
// public-support domain, which has no cell of its own for such a query, refine keeps the projection.
TEST_F(ReleaseEngine, MarginalsRefineFromTheirOwnCells)
{
	const Table pub = PeopleTable();
	const Release r = Define(pub, "marginals(2; city, age)");
	ASSERT_STREQ(r.layout.domain, "full grid");
	const ReleaseLayout layout = LayoutFromCatalog(r.layout);
	EXPECT_TRUE(CellsAnswerable(layout));
	const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 3);
	const Model model = LoadModel(r, synthetic);
	// (SQL literal, the value's text): the four public cities and one never seen ("other").
	const std::vector<std::pair<std::string, std::string>> cities = {{"'Paris'", "Paris"},
	                                                                 {"'Oslo'", "Oslo"},
	                                                                 {"'Lima'", "Lima"},
	                                                                 {"'O''Hara \"q\"'", "O'Hara \"q\""},
	                                                                 {"'Rome'", "Rome"}};
	int unlabelled = 0;
	for (const auto &[literal, city] : cities)
		for (int age = 19; age <= 25; age++) {
			const std::string text = "city = " + literal + " AND age = " + std::to_string(age);
			SCOPED_TRACE(text);
			const double own = WeightOfBins(
			    r, synthetic,
			    {{0, layout.axes[0].CategoryBin(city)}, {1, layout.axes[1].CategoryBin(std::to_string(age))}});
			// Rome, 19 and 25 read their axis's "other" bin, every unseen value together: the middle of none of the
			// cell's weight and all of it.
			const bool unseen = city == "Rome" || age == 19 || age == 25;
			EXPECT_NEAR(AnswerText(model.get(), text, true), unseen ? own / 2 : own, 1e-12);
			const double projected = AnswerText(model.get(), text, false);
			EXPECT_EQ(projected, ModelAnswer(model.get(), Project(model.get(), text)));
			if (std::fabs(own - projected) > 1e-9)
				unlabelled++;
		}
	// PeopleTable shows every pair of its cities and ages 20..24, but never 19, 25 or Rome (their columns' "other"
	// bins): the queries no public row satisfies share the empty pattern's answer by projection and have their own
	// answer by refine.
	EXPECT_GE(unlabelled, 10);
	// IN lists sum their equalities in both modes.
	EXPECT_NEAR(AnswerText(model.get(), "city IN ('Paris', 'Rome') AND age = 19", true),
	            AnswerText(model.get(), "city = 'Paris' AND age = 19", true) +
	                AnswerText(model.get(), "city = 'Rome' AND age = 19", true),
	            1e-15);
	const Release support = Define(pub, "marginals(2; city, age)", Granularity::Finest, 0.1, 30);
	ASSERT_STREQ(support.layout.domain, "public support");
	EXPECT_FALSE(CellsAnswerable(LayoutFromCatalog(support.layout)));
	const Model projected = LoadModel(support, RandomDistribution(std::size_t(support.summary.cell_count), 4));
	EXPECT_EQ(AnswerText(projected.get(), "city = 'Rome' AND age = 19", true),
	          AnswerText(projected.get(), "city = 'Rome' AND age = 19", false));
}

// "col IS NULL" on marginals reads the NULL bin's own cells, as many as any value's, but only on a release whose
// mechanism measured every cell (stored answer mode refine): its noise part holds for them as for any value's. By
// projection, or on a release of PMW or MWEM, no cover query answers it and it is refused (docs/mechanisms.md §18).
TEST_F(ReleaseEngine, MarginalIsNullReadsTheNullBinWhereEveryCellWasMeasured)
{
	const Release r = Define(PeopleTable(), "marginals(2; city, age)");
	ASSERT_STREQ(r.layout.domain, "full grid");
	const ReleaseLayout layout = LayoutFromCatalog(r.layout);
	const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 9);
	const auto model_of = [&](bool refine_mode) { return ModelWithFacts(r, synthetic, 1000, refine_mode); };
	const Model measured = model_of(true);
	const std::int32_t null_city = layout.axes[0].NullBin(), null_age = layout.axes[1].NullBin();
	EXPECT_NEAR(AnswerText(measured.get(), "city IS NULL AND age = 21", true),
	            WeightOfBins(r, synthetic, {{0, null_city}, {1, layout.axes[1].CategoryBin("21")}}), 1e-12);
	EXPECT_NEAR(AnswerText(measured.get(), "age IS NULL AND city IS NULL", true),
	            WeightOfBins(r, synthetic, {{0, null_city}, {1, null_age}}), 1e-12);
	EXPECT_NEAR(AnswerText(measured.get(), "city IS NULL AND age IN (21, 22)", true),
	            AnswerText(measured.get(), "city IS NULL AND age = 21", true) +
	                AnswerText(measured.get(), "city IS NULL AND age = 22", true),
	            1e-15);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, AnswerText(measured.get(), "city IS NULL AND age = 21", false));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, AnswerText(measured.get(), "city IS NOT NULL AND age = 21", true));
	const Model cover_only = model_of(false);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, AnswerText(cover_only.get(), "city IS NULL AND age = 21", true));
	EXPECT_NO_THROW(AnswerText(cover_only.get(), "city = 'Paris' AND age = 21", true));
}

// The columns NOT NULL closes (CatalogLayout::axis_not_null, read by the glue when it plans and runs): identity plans
// over the cells a row can hold and leaves the closed NULL bins, and a boolean's "other" bin, at 0; without the
// flags the same seed puts weight there.
TEST_F(ReleaseEngine, IdentityLeavesTheNullBinsOfNotNullColumnsUnmeasured)
{
	const Table pub = PeopleTable();
	Table priv = pub;
	priv.rows.clear();
	for (int i = 0; i < 3000; i++)
		priv.Add({Str("Paris"), Num(20 + i % 5), Bool(i % 3 == 0), Num(i % 10)});
	const Release r = Define(pub, "marginals(2; age, member)");
	ASSERT_STREQ(r.layout.domain, "full grid");
	const GridPoints points = PrivateScan(r, priv);
	const bool both[] = {true, true};
	CatalogLayout not_null = r.layout;
	not_null.axis_not_null = both;
	const ReleaseLayout layout = LayoutFromCatalog(not_null);
	ASSERT_TRUE(layout.axes[0].not_null && layout.axes[1].not_null);
	const auto run = [&](const CatalogLayout &l) {
		PlanRequest pr = Plan(r, 0.5);
		pr.layout = &l;
		pr.mechanism = "identity";
		const RunSummary out = RunOn(r, points, 17, pr);
		return std::make_pair(out.plan.predicted_error,
		                      std::vector<double>(out.synthetic, out.synthetic + r.summary.cell_count));
	};
	const auto [closed_error, closed] = run(not_null);
	const auto [open_error, open] = run(r.layout);
	EXPECT_LT(closed_error, open_error);
	const std::vector<std::optional<std::vector<std::int32_t>>> cells = Cells(r.layout);
	const std::int32_t null_age = layout.axes[0].NullBin(), null_member = layout.axes[1].NullBin(),
	                   other_member = layout.axes[1].OtherBin();
	double closed_weight = 0, open_weight = 0;
	for (std::size_t c = 0; c < cells.size(); c++) {
		const std::vector<std::int32_t> &point = *cells[c];
		if (point[0] == null_age || point[1] == null_member || point[1] == other_member) {
			closed_weight += closed[c];
			open_weight += open[c];
		} else if (point[1] != other_member) {
			EXPECT_GE(closed[c], 0.0);
		}
	}
	EXPECT_EQ(closed_weight, 0.0);
	EXPECT_GT(open_weight, 0.0);
	// A flag on an axis that reads no one column (here none) or on an ordered axis's NULL bin is the same rule; a
	// layout without flags leaves every NULL bin open.
	EXPECT_FALSE(LayoutFromCatalog(r.layout).axes[0].not_null);
}

// An IN list on a categorical column answers the sum of the conjunctions of equalities it expands to, each
// category bin once (docs/query-classes.md, "IN lists and NULL"); other classes, and a projection onto one cover
// query, refuse it.
TEST_F(ReleaseEngine, InListsAnswerTheSumOfTheirEqualities)
{
	const Release m = Define(PeopleTable(), "marginals(2; city, age)");
	const Model model = LoadModel(m, RandomDistribution(std::size_t(m.summary.cell_count), 5));
	const auto answer = [&](const std::string &text) { return AnswerText(model.get(), text, false); };
	EXPECT_NEAR(answer("city IN ('Paris', 'Lima') AND age = 22"),
	            answer("city = 'Paris' AND age = 22") + answer("city = 'Lima' AND age = 22"), 1e-15);
	EXPECT_NEAR(answer("(age IN (21, 22)) AND city IN ('Paris', 'Lima')"),
	            answer("city = 'Paris' AND age = 21") + answer("city = 'Lima' AND age = 21") +
	                answer("city = 'Paris' AND age = 22") + answer("city = 'Lima' AND age = 22"),
	            1e-15);
	EXPECT_EQ(answer("city IN ('Paris', 'Paris') AND age = 22"), answer("city = 'Paris' AND age = 22"));
	// Rome and Berlin are both "other": one term.
	EXPECT_EQ(answer("city IN ('Rome', 'Berlin') AND age = 22"), answer("city = 'Rome' AND age = 22"));
	EXPECT_EQ(answer("city IN ('Paris') AND age IN (22)"), answer("city = 'Paris' AND age = 22"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, answer("city IN ('Paris', 'Lima')"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, answer("city IS NULL AND age = 22"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, answer("town IN (1) AND age = 22"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "city IN ('Paris', 'Lima') AND age = 22"));

	const Release t = Define(PeopleTable(), "ranges(age)");
	const Model ranges = LoadModel(t, RandomDistribution(std::size_t(t.summary.cell_count), 6));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, AnswerText(ranges.get(), "age IN (21, 22)", false));
	// IS NOT NULL is a query of the ordered classes (IsNullAndIsNotNullInOrderedClasses).
	EXPECT_EQ(AnswerText(ranges.get(), "age IS NOT NULL", false), AnswerText(ranges.get(), "age <= 'NaN'", false));
	// Parentheses change nothing for the queries accepted before.
	EXPECT_EQ(AnswerText(ranges.get(), "(age >= 21) AND (age <= 23)", false),
	          AnswerText(ranges.get(), "age >= 21 AND age <= 23", false));
}

// pap.quantile: the smallest candidate whose answer reaches q times the non-NULL mass, checked by a linear scan
// over the candidates with pap.answer's own answers; refine searches the finest public values.
TEST_F(ReleaseEngine, QuantilesOfTheReleasedDistribution)
{
	const Table pub = NumericTable();
	for (const char *cls : {"thresholds(x)", "ranges(x)"}) {
		for (const Granularity g : {Granularity::Alpha, Granularity::Finest}) {
			SCOPED_TRACE(std::string(cls) + (g == Granularity::Finest ? " finest" : " alpha"));
			const Release r = Define(pub, cls, g, 0.9);
			const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 23);
			const Model model = LoadModel(r, synthetic);
			double non_null = 0.0;
			for (std::size_t c = 0; c + 1 < synthetic.size(); c++)
				non_null += synthetic[c];  // a full grid: the last cell is the NULL bin
			for (const bool refine : {false, true}) {
				std::vector<double> candidates;
				if (refine)
					candidates.assign(r.layout.public_values, r.layout.public_values + r.layout.public_value_counts[0]);
				else
					candidates.assign(r.layout.cuts, r.layout.cuts + r.layout.cut_counts[0]);
				for (const double q : {0.0, 0.01, 0.25, 0.5, 0.77, 0.99, 1.0}) {
					double expected = std::numeric_limits<double>::infinity();
					for (double v : candidates)
						if (AnswerText(model.get(), "x <= " + FormatFloat8(v), refine) >= q * non_null - 1e-9) {
							expected = v;
							break;
						}
					bool has_value = false;
					EXPECT_EQ(ModelQuantile(model.get(), q, refine, &has_value), expected) << q << " " << refine;
					EXPECT_TRUE(has_value);
				}
			}
			bool has_value = true;
			EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ModelQuantile(model.get(), 1.5, false, &has_value));
			EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ModelQuantile(model.get(), -0.1, false, &has_value));
			EXPECT_PAP_ERROR(ErrorKind::InvalidParameter,
			                 ModelQuantile(model.get(), std::numeric_limits<double>::quiet_NaN(), false, &has_value));
			// All mass on NULL: no quantile. All mass above the highest public value: +Infinity.
			std::vector<double> only_null(synthetic.size(), 0.0);
			only_null.back() = 1.0;
			EXPECT_EQ(ModelQuantile(LoadModel(r, only_null).get(), 0.5, false, &has_value), 0.0);
			EXPECT_FALSE(has_value);
			// (For thresholds; ranges project "x <= highest" onto the whole line, whose answer holds that mass.)
			std::vector<double> above(synthetic.size(), 0.0);
			above[above.size() - 2] = 1.0;
			if (std::string(cls) == "thresholds(x)") {
				EXPECT_EQ(ModelQuantile(LoadModel(r, above).get(), 0.5, false, &has_value),
				          std::numeric_limits<double>::infinity());
				EXPECT_TRUE(has_value);
			}
		}
	}
	const Release m = Define(PeopleTable(), "marginals(2; city, age)");
	const Model model = LoadModel(m, RandomDistribution(std::size_t(m.summary.cell_count), 3));
	bool has_value = false;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ModelQuantile(model.get(), 0.5, false, &has_value));
}

TEST_F(ReleaseEngine, ModelWithoutAPrefixTable)
{
	// A public support over a grid larger than max(4 cells, 2^20): answers computed at load, refinement by a
	// scan of the points; both agree with the table-backed model of the same release over a dense grid.
	const Table pub = ThreeNumericColumns({"x", "y", "z"}, 120, 37, 91);
	const Release sparse = Define(pub, "orthants(x, y, z)", Granularity::Finest, 0.1, 1000, 4000000);
	ASSERT_STREQ(sparse.layout.domain, "public support");
	const std::vector<double> synthetic = RandomDistribution(std::size_t(sparse.summary.cell_count), 9);
	const Model model = LoadModel(sparse, synthetic);
	const auto cells = Cells(sparse.layout);
	std::mt19937_64 gen(3);
	std::uniform_int_distribution<int> pick(-5, 125);
	for (int i = 0; i < 30; i++) {
		const std::string text = "x <= " + std::to_string(pick(gen)) + ".5 AND y < " + std::to_string(pick(gen)) +
		                         " AND z <= " + std::to_string(pick(gen));
		const double plain = AnswerText(model.get(), text, false);
		EXPECT_NEAR(plain, ModelAnswer(model.get(), Project(model.get(), text)), 1e-12) << text;
		EXPECT_NEAR(AnswerText(model.get(), text, true), plain, 1e-9) << text;  // finest
		const QueryText query = ParseQueryText(text);
		double brute = 0.0;
		for (std::size_t c = 0; c < cells.size(); c++) {
			if (!cells[c])
				continue;  // the outside cell lies in no constrained query
			bool holds = true;
			for (std::size_t a = 0; a < 3; a++) {
				const double v = double((*cells[c])[a]);  // finest: bin b holds the public value b
				holds = holds && Compare(query.conditions[a].op, v, ReadFloat(query.conditions[a].value.text), 0);
			}
			if (holds)
				brute += synthetic[c];
		}
		EXPECT_NEAR(plain, brute, 1e-9) << text;
	}
	EXPECT_GT(ModelMemoryBytes(model.get()), 8 * synthetic.size());
}

// Random cover queries of a release whose cover is not listed: each renders, projects back to its index, and is
// answered as the cells its text selects say (brute force over every cell).
void
CheckSampledRoundTrip(const Release &r, const std::vector<double> &synthetic, std::uint64_t seed, int count)
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	const Model model = LoadModel(r, synthetic);
	ASSERT_EQ(ModelCoverSize(model.get()), std::size_t(r.summary.cover_size));
	std::mt19937_64 gen(seed);
	std::uniform_int_distribution<std::size_t> pick(0, std::size_t(r.summary.cover_size) - 1);
	for (int i = 0; i < count; i++) {
		const std::size_t q = pick(gen);
		const std::string text = ModelRenderQuery(model.get(), q, TestAllocate);
		EXPECT_EQ(Project(model.get(), text), q) << text;
		const QueryText query = text == "TRUE" ? QueryText{} : ParseQueryText(text);
		double weight = 0;
		for (std::size_t c = 0; c < cells.size(); c++)
			if (TextHolds(r.spec, axes, text, query, cells[c]))
				weight += synthetic[c];
		EXPECT_NEAR(ModelAnswer(model.get(), q), weight, 1e-9) << text;
		EXPECT_NEAR(AnswerText(model.get(), text, false), weight, 1e-9) << text;
	}
}

TEST_F(ReleaseEngine, BoxesWithACoverTooLargeToList)
{
	// 3000 distinct values per column at the default alpha: about 300 cuts per axis, a cover of about 2 x 10^9
	// boxes (more than pap_release.max_cover_queries' default 10^6), a full grid of 10^5 cells.
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int i = 0; i < 3000; i++)
		pub.Add({Num(i), Num((i * 7919) % 3000)});
	const Release r = Define(pub, "boxes(x, y)", Granularity::Alpha, 0.05);
	CheckSummary(r);
	ASSERT_STREQ(r.layout.domain, "full grid");
	EXPECT_GT(r.summary.cover_size, 1000000000);
	Table priv;
	priv.columns = pub.columns;
	for (int i = 0; i < 3000; i += 3)
		priv.Add({Num(i), Num((i * 31) % 3000)}, 1 + i % 4);
	const GridPoints points = PrivateScan(r, priv);

	// pmw and mwem read every cover query: they do not apply, with the reason; auto plans without them.
	PlanRequest request = Plan(r, 1.0);
	request.private_rows = 2500;
	request.mechanism = "auto";
	const PlanSummary plan = MakePlan(request);
	for (const char *name : {"pmw", "mwem"}) {
		const MechanismPrediction &p = plan.predictions[std::size_t(ParseMechanism(name))];
		EXPECT_FALSE(p.applies) << name;
		EXPECT_NE(std::string(p.reason).find("pap_release.max_cover_queries"), std::string::npos) << p.reason;
		PlanRequest refused = request;
		refused.mechanism = name;
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(refused)) << name;
	}
	EXPECT_TRUE(plan.chosen == MechanismChoice(*MechanismIndex("identity")) ||
	            plan.chosen == MechanismChoice(*MechanismIndex("hierarchical")));
	// Some mechanism applies at every accepted epsilon: identity's noise always fits.
	PlanRequest smallest = request;
	smallest.epsilon = 1e-9;
	EXPECT_TRUE(MakePlan(smallest).predictions[*MechanismIndex("identity")].applies);
	const std::string json(PlanPredictionsJson(plan, TestAllocate));
	EXPECT_NE(json.find("\"pmw\": {\"applies\": false"), std::string::npos) << json;

	// identity and hierarchical run (seeded), and every sampled box is answered as the cells say.
	for (const char *name : {"identity", "hierarchical"}) {
		SCOPED_TRACE(name);
		PlanRequest run_plan = Plan(r, 1.0);
		run_plan.mechanism = name;
		const RunSummary out = RunOn(r, points, 5, run_plan);
		EXPECT_EQ(out.private_rows, 2500);
		const std::vector<double> synthetic(out.synthetic, out.synthetic + r.summary.cell_count);
		double sum = 0;
		for (double w : synthetic)
			sum += w;
		EXPECT_NEAR(sum, 1.0, 1e-9);
		CheckSampledRoundTrip(r, synthetic, 11, 40);
	}
	PlanRequest auto_plan = Plan(r, 1.0);
	auto_plan.mechanism = "auto";
	EXPECT_EQ(RunOn(r, points, 5, auto_plan).plan.chosen, plan.chosen);

	// Raising the setting lists a cover that fits it: the same release of a smaller cover (alpha 0.5) plans pmw
	// and mwem under the default and not under a limit of 100; identity's and hierarchical's bias bound over every
	// set of cells (both end with the same projection) is never below its maximum over the cover.
	const Release small = Define(pub, "boxes(x, y)", Granularity::Alpha, 0.5);
	ASSERT_LE(small.summary.cover_size, 1000000);
	PlanRequest listed = Plan(small, 1.0);
	listed.private_rows = 2500;
	listed.mechanism = "auto";
	PlanRequest unlisted = listed;
	unlisted.max_cover_queries = 100;
	const PlanSummary a = MakePlan(listed), b = MakePlan(unlisted);
	for (const char *name : {"pmw", "mwem"}) {
		EXPECT_TRUE(a.predictions[std::size_t(ParseMechanism(name))].applies) << name;
		EXPECT_FALSE(b.predictions[std::size_t(ParseMechanism(name))].applies) << name;
	}
	const std::size_t hierarchical = *MechanismIndex("hierarchical"), identity = *MechanismIndex("identity");
	EXPECT_LE(a.predictions[hierarchical].predicted_error, b.predictions[hierarchical].predicted_error);
	EXPECT_LE(a.predictions[identity].predicted_error, b.predictions[identity].predicted_error);
}

TEST_F(ReleaseEngine, RangesWithACoverTooLargeToList)
{
	// Finest ranges over 1500 public values: 1,125,751 cover queries, just above the default setting. Listed or
	// not, the widest query (the run of every bin) gives the same cells per query: identity's and hierarchical's
	// noise are the same, their bias bound over every set of cells is at least its cover maximum.
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int i = 0; i < 1500; i++)
		pub.Add({Num(i)}, 1 + i % 3);
	const Release r = Define(pub, "ranges(x)", Granularity::Finest);
	ASSERT_EQ(r.summary.cover_size, 1500 * 1501 / 2 + 1);
	PlanRequest unlisted = Plan(r, 0.5);
	unlisted.private_rows = 5000;
	unlisted.mechanism = "auto";
	PlanRequest listed = unlisted;
	listed.max_cover_queries = std::size_t(r.summary.cover_size);
	const PlanSummary a = MakePlan(listed), b = MakePlan(unlisted);
	const std::size_t pmw = *MechanismIndex("pmw"), mwem = *MechanismIndex("mwem");
	const std::size_t hierarchical = *MechanismIndex("hierarchical"), identity = *MechanismIndex("identity");
	EXPECT_TRUE(a.predictions[pmw].applies);
	EXPECT_FALSE(b.predictions[pmw].applies);
	EXPECT_FALSE(b.predictions[mwem].applies);
	ASSERT_TRUE(b.predictions[hierarchical].applies);
	EXPECT_LE(a.predictions[hierarchical].predicted_error, b.predictions[hierarchical].predicted_error);
	EXPECT_LE(a.predictions[identity].predicted_error, b.predictions[identity].predicted_error);
	// The PMW columns of pap.plan still describe PMW's plan: the same with or without the list.
	EXPECT_EQ(a.threshold, b.threshold);
	EXPECT_EQ(a.cutoff, b.cutoff);
}

TEST_F(ReleaseEngine, ModelOfACoverTooLargeToListWithoutAPrefixTable)
{
	// Finest boxes over 1100 x 1100 public values on a public support (the grid exceeds the prefix table's bound):
	// 3.7 x 10^11 cover queries, none listed at load; each answer scans the support's cells.
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int i = 0; i < 1100; i++)
		pub.Add({Num(i), Num((i * 37) % 1100)});
	const Release r = Define(pub, "boxes(x, y)", Granularity::Finest, 0.05, 10000);
	ASSERT_STREQ(r.layout.domain, "public support");
	EXPECT_GT(r.summary.cover_size, 100000000000);
	const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 4);
	CheckSampledRoundTrip(r, synthetic, 12, 200);
	// Its memory is the cells' and the axes', not the cover's. The per-axis covers a first rendering builds are
	// counted from the load on (deferred until built).
	const auto model = LoadModel(r, synthetic);
	EXPECT_LT(ModelMemoryBytes(model.get()), std::size_t(10) << 20);
	const std::size_t deferred = ModelDeferredBytes(model.get());
	EXPECT_GT(deferred, 28 * 2 * 1100);
	const std::size_t before = ModelMemoryBytes(model.get());
	EXPECT_FALSE(std::string(ModelRenderQuery(model.get(), 0, TestAllocate)).empty());
	EXPECT_EQ(ModelDeferredBytes(model.get()), 0);
	EXPECT_EQ(ModelMemoryBytes(model.get()), before);
}

TEST(ReleaseModelParsing, SimpleQueriesParseAsTheFullParserDoes)
{
	// Random texts near the fast path's shape: whenever it accepts one, it agrees with ParseQueryText field by
	// field; and it accepts the common shapes.
	// slots: space, column, space, operator, space, number, space, then a joiner or the end
	const std::vector<std::vector<std::string>> slots = {
	    {"", " ", "  ", "\t", "\n", "\f"},
	    {"x", "price", "c1", "_a", "a_b2", "X", "b$", "and", "between", "true", "9x", "\"x\"", "é"},
	    {"", " ", "\t"},
	    {"<=", "<", ">=", ">", "=", "<>", "=<", "<=>", "!=", "==", "BETWEEN", "- "},
	    {"", " ", "  "},
	    {"3", "42.5", "0.25", "007", ".5", "3.", "1e3", "-2", "+2", "'7'", "1.2.3", "x1", "2x", "TRUE", "9$"},
	    {"", " ", "\r\n"},
	    {"", "", " AND ", " and ", " And ", "AND ", " AND", " ANDy ", " OR ", " AND AND ", ", "}};
	std::mt19937_64 gen(13);
	std::size_t accepted = 0;
	for (int i = 0; i < 100000; i++) {
		std::string text;
		const std::size_t conditions = 1 + gen() % 3;
		for (std::size_t c = 0; c < conditions; c++)
			for (std::size_t slot = 0; slot < slots.size(); slot++) {
				// mostly the first (valid) choices, sometimes any
				const std::vector<std::string> &choices = slots[slot];
				const std::size_t limit = gen() % 8 == 0 ? choices.size() : std::min<std::size_t>(choices.size(), 3);
				const std::string &piece = choices[gen() % limit];
				if (slot == 7 && c + 1 == conditions && gen() % 4 != 0)
					break;  // usually no joiner after the last condition
				text += piece;
			}
		QueryText fast;
		if (!ParseSimpleQueryText(text, fast))
			continue;
		accepted++;
		QueryText full;
		try {
			full = ParseQueryText(text);
		} catch (const Error &e) {
			ADD_FAILURE() << "fast path accepted \"" << text << "\" that the parser refuses: " << e.what();
			continue;
		}
		ASSERT_EQ(fast.conditions.size(), full.conditions.size()) << text;
		for (std::size_t c = 0; c < full.conditions.size(); c++) {
			const Condition &a = fast.conditions[c], &b = full.conditions[c];
			EXPECT_EQ(a.column, b.column) << text;
			EXPECT_TRUE(b.terms.empty()) << text;
			EXPECT_EQ(a.op, b.op) << text;
			EXPECT_EQ(a.value.text, b.value.text) << text;
			EXPECT_EQ(a.value.quoted, b.value.quoted) << text;
			EXPECT_EQ(a.value.position, b.value.position) << text;
		}
	}
	EXPECT_GT(accepted, 10000u);
	QueryText q;
	for (const char *text : {"carat <= 1.25 AND price <= 3000", "x>0.5 and x<=2", " y = 7 ", "a_1 >= 10 AND b < 3.0"}) {
		EXPECT_TRUE(ParseSimpleQueryText(text, q)) << text;
	}
	for (const char *text : {"x <= -1", "x <= 1e3", "X <= 1", "x BETWEEN 1 AND 2", "x <= '1'", "x <= 1 AND", "",
	                         "x <= 1 OR y <= 2", "2*x <= 1", "x + y <= 1", "and <= 1"}) {
		EXPECT_FALSE(ParseSimpleQueryText(text, q)) << text;
	}
}

TEST(ReleaseEngineParsing, ParseMechanism)
{
	// The registry's order is pap.plan's order of predictions.
	EXPECT_EQ(std::size_t(ParseMechanism("pmw")), 0u);
	EXPECT_EQ(std::size_t(ParseMechanism("mwem")), 1u);
	EXPECT_EQ(std::size_t(ParseMechanism("identity")), 2u);
	EXPECT_EQ(std::size_t(ParseMechanism("hierarchical")), 3u);
	EXPECT_EQ(std::size_t(ParseMechanism("marginal_tables")), 4u);
	EXPECT_EQ(ParseMechanism("auto"), MechanismChoice::Auto);
	EXPECT_STREQ(MechanismName(MechanismChoice::Auto), "auto");
	for (std::size_t m = 0; m < Mechanisms().size(); m++)
		EXPECT_EQ(ParseMechanism(MechanismName(MechanismChoice(m))), MechanismChoice(m));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MechanismName(MechanismChoice(Mechanisms().size())));
	for (const char *bad : {"", "PMW2", "pmw ", " auto", "Identity", "laplace"})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseMechanism(bad)) << '"' << bad << '"';
	try {
		ParseMechanism("laplace");
	} catch (const Error &e) {
		EXPECT_EQ(e.hint(), "Mechanisms available: pmw, mwem, identity, hierarchical, marginal_tables, auto (the "
		                    "smallest predicted error).");
	}
}

TEST(ReleaseEngineParsing, ParseUniformPrior)
{
	EXPECT_FALSE(ParseUniformPrior("public"));
	EXPECT_TRUE(ParseUniformPrior("uniform"));
	for (const char *bad : {"", "Public", "perks", "uniform "})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseUniformPrior(bad)) << '"' << bad << '"';
}

TEST(ReleaseEngineParsing, ValidatePrivacyParameters)
{
	EXPECT_NO_THROW(ValidatePrivacyParameters(1.0, 0.0));
	EXPECT_NO_THROW(ValidatePrivacyParameters(0.1, 1e-6));
	for (double eps : {0.0, -1.0, test::kNaN, test::kInf})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(eps, 0.0));
	for (double delta : {-0.1, 1.0, test::kNaN})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(1.0, delta));
}

// Every mechanism runs through RunRelease on the same stored release; auto takes the applicable mechanism with the
// smallest prediction (MWEM on a near tie with PMW); hierarchical is refused (before any run) where it does not apply.
TEST_F(ReleaseEngine, EveryMechanismRunsAndAutoTakesTheSmallestPrediction)
{
	Table pub = NumericTable();
	const std::size_t x = pub.Col("x"), y = pub.Col("y");
	pub.predicates["x > 20"] = [x](const Row &row) { return !row[x].null && row[x].number > 20; };
	pub.predicates["y < 3"] = [y](const Row &row) { return !row[y].null && row[y].number < 3; };
	Table priv = pub;
	priv.rows.clear();
	for (int v = 0; v < 50; v++)
		priv.Add({Num(v), Num(v % 7)}, v < 15 ? 1200 : 40);
	for (const char *cls : {"thresholds(x)", "boxes(x, y)", "predicates('x > 20', 'y < 3')"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(pub, cls);
		const GridPoints points = PrivateScan(r, priv);
		const std::size_t cells = std::size_t(r.summary.cell_count);
		PlanRequest pr = Plan(r, 1.0);
		pr.private_rows = std::int64_t(priv.rows.size());
		pr.mechanism = "auto";
		const PlanSummary plan = MakePlan(pr);
		ASSERT_NE(plan.chosen, MechanismChoice::Auto);
		EXPECT_TRUE(plan.predictions[std::size_t(plan.chosen)].applies);
		EXPECT_EQ(plan.predicted_error, plan.predictions[std::size_t(plan.chosen)].predicted_error);
		// The smallest prediction; or, where it rests on the public sample, the smallest that does not within
		// kNearTie of it; or MWEM's within kNearTie of PMW's where PMW's is the smallest.
		const std::size_t pmw = *MechanismIndex("pmw"), mwem = *MechanismIndex("mwem");
		std::optional<std::size_t> smallest, steady;
		for (std::size_t m = 0; m < Mechanisms().size(); m++) {
			const MechanismPrediction &p = plan.predictions[m];
			if (!p.applies)
				continue;
			if (!smallest || p.predicted_error < plan.predictions[*smallest].predicted_error)
				smallest = m;
			if (!p.rests_on_public_sample && (!steady || p.predicted_error < plan.predictions[*steady].predicted_error))
				steady = m;
		}
		ASSERT_TRUE(smallest.has_value());
		const double least = plan.predictions[*smallest].predicted_error;
		if (plan.predictions[*smallest].rests_on_public_sample && steady &&
		    plan.predictions[*steady].predicted_error <= kNearTie * least) {
			EXPECT_EQ(plan.chosen, MechanismChoice(*steady));
		} else if (*smallest == pmw && plan.predictions[mwem].applies &&
		           plan.predictions[mwem].predicted_error <= kNearTie * least) {
			EXPECT_EQ(plan.chosen, MechanismChoice(mwem));
		} else {
			EXPECT_EQ(plan.predicted_error, least);
		}
		// PMW and MWEM start from the public prior here: their predictions rest on the public sample; identity's
		// and hierarchical's do not.
		EXPECT_EQ(plan.predictions[pmw].rests_on_public_sample, plan.predictions[pmw].applies);
		EXPECT_FALSE(plan.predictions[*MechanismIndex("identity")].rests_on_public_sample);
		const bool ordered = std::string(cls).rfind("predicates", 0) != 0;
		EXPECT_EQ(plan.predictions[std::size_t(ParseMechanism("hierarchical"))].applies, ordered);
		const std::string json(PlanPredictionsJson(plan, TestAllocate));
		EXPECT_NE(json.find("\"mwem\": {\"predicted_error\""), std::string::npos) << json;
		for (std::size_t m = 0; m < Mechanisms().size(); m++) {
			const char *name = MechanismName(MechanismChoice(m));
			SCOPED_TRACE(name);
			PlanRequest run_plan = Plan(r, 1.0);
			run_plan.mechanism = name;
			if (!plan.predictions[m].applies) {
				EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RequireMechanismApplies(r.layout, name));
				EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunOn(r, points, 7, run_plan));
				continue;
			}
			RequireMechanismApplies(r.layout, name);
			const RunSummary out = RunOn(r, points, 7, run_plan);
			EXPECT_EQ(out.plan.chosen, MechanismChoice(m));
			EXPECT_EQ(out.private_rows, std::int64_t(priv.rows.size()));
			double sum = 0;
			for (std::size_t i = 0; i < cells; i++) {
				EXPECT_GE(out.synthetic[i], 0.0);
				sum += out.synthetic[i];
			}
			EXPECT_NEAR(sum, 1.0, 1e-9);
			// Deterministic under a seed.
			const RunSummary again = RunOn(r, points, 7, run_plan);
			EXPECT_EQ(std::memcmp(out.synthetic, again.synthetic, cells * sizeof(double)), 0);
		}
		// auto runs what the plan chose.
		PlanRequest auto_plan = Plan(r, 1.0);
		auto_plan.mechanism = "auto";
		EXPECT_EQ(RunOn(r, points, 7, auto_plan).plan.chosen, plan.chosen);
	}
}

TEST_F(ReleaseEngine, PlanRequestValidation)
{
	const Release r = Define(NumericTable(), "thresholds(x)");
	PlanRequest p = Plan(r, 1.0, "uniform");
	p.private_rows = 10000;
	p.mechanism = "auto";
	const PlanSummary s = MakePlan(p);
	EXPECT_GT(s.cutoff, 0);
	EXPECT_GT(s.threshold, 0.0);
	EXPECT_FALSE(s.approximate_accounting);
	EXPECT_STREQ(s.pmw_accounting, "pure (Lyu-Su-Li sparse vector)");
	EXPECT_EQ(s.delta_used, 0.0);
	EXPECT_LE(s.epsilon_used, 1.0);
	EXPECT_STRNE(s.accounting, "");
	// Each mechanism reports what it spends: never more than the request, no delta when its noise is pure.
	for (const char *m : {"pmw", "mwem", "identity", "auto"})
		for (double delta : {0.0, 1e-6, 0.5}) {
			PlanRequest q = p;
			q.mechanism = m;
			q.delta = delta;
			const PlanSummary t = MakePlan(q);
			SCOPED_TRACE(std::string(m) + " delta " + std::to_string(delta) + ": " + t.accounting);
			EXPECT_LE(t.epsilon_used, 1.0);
			EXPECT_GT(t.epsilon_used, 0.0);
			EXPECT_LE(t.delta_used, delta);
			if (std::string(t.accounting).rfind("pure", 0) == 0) {
				EXPECT_EQ(t.delta_used, 0.0);
			} else {
				EXPECT_GT(t.delta_used, 0.0);
			}
			EXPECT_EQ(t.approximate_accounting, std::string(t.pmw_accounting).rfind("zCDP", 0) == 0);
		}
	for (const char *m : {"", "laplace"}) {
		PlanRequest bad = p;
		bad.mechanism = m;
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(bad));
	}
	PlanRequest bad = p;
	bad.prior = "none";
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(bad));
	bad = p;
	bad.delta = 1.0;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(bad));
	bad = p;
	bad.epsilon = test::kInf;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(bad));
}

// --- every check and the whole plan before the charge; a run that never fails on the data ---------------------

TEST(ReleaseEngineParsing, ParameterRangesFollowTheSamplers)
{
	EXPECT_NO_THROW(ValidatePrivacyParameters(kMinEpsilon, 0.0));
	EXPECT_NO_THROW(ValidatePrivacyParameters(kMaxEpsilon, kMinDelta));
	for (double eps : {1e-12, 1e-320, 9.99e-10, 1.01e300, std::numeric_limits<double>::max()})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(eps, 0.0));
	for (double delta : {1e-310, 5e-324, 9e-301})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(1.0, delta));
	EXPECT_NO_THROW(ValidateAccuracyParameters(0.05, kMinBeta));
	EXPECT_NO_THROW(ValidateAccuracyParameters(1e-300, 1.0 - 1e-16));
	for (double beta : {5e-324, 1e-200, 0.0, 1.0, test::kNaN})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidateAccuracyParameters(0.05, beta));
	for (double alpha : {0.0, 1.0, test::kInf})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidateAccuracyParameters(alpha, 0.05));
}

// The planned predictions are numbers in [0, 1] and the plan is usable by a run.
void
ExpectSanePlan(const PlanSummary &s)
{
	EXPECT_TRUE(s.predictions[std::size_t(ParseMechanism("pmw"))].applies);
	for (std::size_t m = 0; m < Mechanisms().size(); m++)
		if (const MechanismPrediction &p = s.predictions[m]; p.applies) {
			EXPECT_GE(p.predicted_error, 0.0);
			EXPECT_LE(p.predicted_error, 1.0);
		}
	EXPECT_TRUE(std::isfinite(s.threshold));
	EXPECT_GE(s.cutoff, 1);
}

// A regression: epsilon 1500 left identity's bias bracket at 0 for ever. Every epsilon the validator accepts
// plans, at both ends and for every mechanism (a mechanism whose noise does not fit no longer applies).
TEST_F(ReleaseEngine, PlanTerminatesForEveryAcceptedEpsilon)
{
	for (const char *cls : {"thresholds(x)", "boxes(x, y)"}) {
		SCOPED_TRACE(cls);
		const Release r = Define(NumericTable(), cls);
		for (double eps : {kMinEpsilon, 1e-6, 1.0, 1490.0, 1500.0, 1e6, 1e19, 1e100, kMaxEpsilon})
			for (double delta : {0.0, kMinDelta, 1e-6, 0.999}) {
				SCOPED_TRACE(eps);
				SCOPED_TRACE(delta);
				PlanRequest p = Plan(r, eps);
				p.delta = delta;
				p.private_rows = 1000;
				p.mechanism = "auto";
				const PlanSummary s = MakePlan(p);
				ExpectSanePlan(s);
				if (eps >= 1.0) {
					// Large epsilons fit every mechanism's noise.
					EXPECT_TRUE(s.predictions[std::size_t(ParseMechanism("mwem"))].applies);
					EXPECT_TRUE(s.predictions[std::size_t(ParseMechanism("identity"))].applies);
				}
			}
		// Below the smallest epsilon, refused with the reason; never a limit error after the charge.
		PlanRequest p = Plan(r, 1e-12);
		p.private_rows = 1000;
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(p));
		p.epsilon = 1e-320;
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(p));
	}
}

TEST_F(ReleaseEngine, PlanAndRunAtExtremeBetaAndN)
{
	const Table pub = NumericTable();
	const Release r = Define(pub, "thresholds(x)");
	const GridPoints points = PrivateScan(r, pub);
	for (double beta : {kMinBeta, 1e-20, 0.5, 1.0 - 1e-16})
		for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(1) << 61})
			for (const char *m : {"pmw", "mwem", "identity", "hierarchical"}) {
				SCOPED_TRACE(beta);
				SCOPED_TRACE(n);
				SCOPED_TRACE(m);
				PlanRequest p = Plan(r, 1.0);
				p.beta = beta;
				p.private_rows = n;
				p.mechanism = m;
				const PlanSummary s = MakePlan(p);
				ExpectSanePlan(s);
				const RunSummary out = RunOn(r, points, 3, p);
				EXPECT_EQ(out.plan.chosen, ParseMechanism(m));
			}
	PlanRequest p = Plan(r, 1.0);
	p.private_rows = 100;
	p.beta = 5e-324;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakePlan(p));
}

// After the charge the run reads the data and nothing else can fail: any scanned n (0 included) with any plan.
TEST_F(ReleaseEngine, RunNeverFailsOnThePrivateData)
{
	const Table pub = NumericTable();
	for (const char *cls : {"thresholds(x)", "boxes(x, y)", "marginals(1; x, y)"}) {
		const Release r = Define(pub, cls);
		const std::size_t cells = std::size_t(r.summary.cell_count);
		const GridPoints points = PrivateScan(r, pub);
		GridPoints outside = points;  // coordinates outside the axes and a negative count: clamped, ignored
		outside.points[0] = 100000;
		outside.points[outside.points.size() - 1] = -5;
		outside.rows[0] = -7;
		for (const char *prior : {"public", "uniform"})
			for (const char *m : {"pmw", "mwem", "identity", "hierarchical", "auto"}) {
				SCOPED_TRACE(cls);
				SCOPED_TRACE(m);
				SCOPED_TRACE(prior);
				PlanRequest p = Plan(r, 1.0, prior);
				p.mechanism = m;
				p.private_rows = 5000;  // planned n; the scans below have other n
				PlanSummary s;
				try {
					s = MakePlan(p);
				} catch (const Error &e) {
					EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);  // hierarchical on boxes or marginals
					continue;
				}
				for (const GridPoints *scan : {&points, static_cast<const GridPoints *>(&outside)}) {
					const RunSummary out = RunOn(r, *scan, 11, p);
					EXPECT_EQ(out.plan.chosen, s.chosen);
					double sum = 0;
					for (std::size_t i = 0; i < cells; i++)
						sum += out.synthetic[i];
					EXPECT_NEAR(sum, 1.0, 1e-9);
				}
				// n' = 0: the prior the plan starts from, whatever the mechanism.
				const RunSummary none = RunOn(r, GridPoints{}, 11, p);
				EXPECT_EQ(none.private_rows, 0);
				const std::vector<double> expected =
				    std::string(prior) == "uniform"
				        ? std::vector<double>(cells, 1.0 / double(cells))
				        : PublicPrior(std::vector<std::int64_t>(r.summary.public_histogram,
				                                                r.summary.public_histogram + cells));
				for (std::size_t i = 0; i < cells; i++)
					EXPECT_EQ(none.synthetic[i], expected[i]);
			}
	}
}

// An InterruptCheck that answers false `g_polls_left` times, then true.
int g_polls_left = 0;
int g_polls = 0;

bool
CancelAfterPolls()
{
	g_polls++;
	return g_polls_left-- <= 0;
}

// A public table of 300 distinct values on each of two columns: orthants over it have about 9 x 10^4 cells and
// cover queries, so that define, plan and run poll often (and the test's own scan stays small).
Table
ManyValuesTable()
{
	Table t;
	t.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int v = 0; v < 300; v++)
		t.Add({Num(v), Num((v * 7919) % 300)});
	return t;
}

// Counts the polls of f with a check that never cancels, then cancels after each of a few poll counts below it.
template <typename F>
void
ExpectCancelHonoured(F f)
{
	g_polls = 0;
	g_polls_left = std::numeric_limits<int>::max();
	f(CancelAfterPolls);
	const int polls = g_polls;
	EXPECT_GE(polls, 2);
	for (int k : {0, polls / 2, polls - 1}) {
		SCOPED_TRACE(k);
		g_polls_left = k;
		EXPECT_PAP_ERROR(ErrorKind::Cancelled, f(CancelAfterPolls));
	}
}

TEST_F(ReleaseEngine, CancelIsHonouredInDefinePlanAndRun)
{
	const Table pub = ManyValuesTable();
	// An ordered class's define lists no cover: its long step is the public histogram over the cells, here a full
	// grid of 1102^2 cells, zeroed in slices of 2^20.
	Table wide;
	wide.columns = pub.columns;
	for (int v = 0; v < 1100; v++)
		wide.Add({Num(v), Num((v * 7919) % 1100)});
	ExpectCancelHonoured([&](InterruptCheck check) {
		Define(wide, "orthants(x, y)", Granularity::Finest, 0.1, 4000000, 1000000, check);
	});
	const Release r = Define(pub, "orthants(x, y)");
	ASSERT_GT(r.summary.cell_count, 80000);
	const GridPoints points = PrivateScan(r, pub);
	for (const char *m : {"pmw", "identity", "hierarchical"}) {
		SCOPED_TRACE(m);
		PlanRequest p = Plan(r, 1.0);
		p.mechanism = m;
		p.private_rows = std::int64_t(pub.rows.size());
		ExpectCancelHonoured([&](InterruptCheck check) {
			PlanRequest q = p;
			q.interrupted = check;
			MakePlan(q);
		});
		const PlanSummary plan = MakePlan(p);
		ExpectCancelHonoured([&](InterruptCheck check) {
			RunRequest req{};
			req.layout = &r.layout;
			req.private_points = points.points.data();
			req.private_rows = points.rows.data();
			req.private_point_count = points.rows.size();
			req.seed = 5;
			req.interrupted = check;
			RunRelease(req, plan, TestAllocate);
		});
	}
}

// pap.answer's one long step: a query with IN lists is the sum of one conjunction per combination of their values
// (here 60^3 = 216,000 over three columns of 60 values), polled while they are summed; without a check it answers.
TEST_F(ReleaseEngine, CancelIsHonouredWhileAnInListExpands)
{
	const Release r = Define(ThreeNumericColumns({"a", "b", "c"}, 60, 7, 11), "marginals(3; a, b, c)");
	const Model model = LoadModel(r, RandomDistribution(std::size_t(r.summary.cell_count), 9));
	std::string values;
	for (int v = 0; v < 60; v++)
		values += (v > 0 ? ", " : "") + std::to_string(v);
	const ReadQuery q =
	    ReadQueryText(model.get(), "a IN (" + values + ") AND b IN (" + values + ") AND c IN (" + values + ")");
	const double whole = ModelAnswerQuery(model.get(), q.parsed.get(), q.numbers.data(), q.texts.data(), false);
	EXPECT_GT(whole, 0.0);
	ExpectCancelHonoured([&](InterruptCheck check) {
		EXPECT_EQ(ModelAnswerQuery(model.get(), q.parsed.get(), q.numbers.data(), q.texts.data(), false, check), whole);
	});
}

TEST(ReleaseEngineParsing, FormatFloat8Into)
{
	char buf[32];
	FormatFloat8Into(0.1, buf, sizeof buf);
	EXPECT_STREQ(buf, "0.1");
	FormatFloat8Into(test::kNaN, buf, sizeof buf);
	EXPECT_STREQ(buf, "'NaN'");
	FormatFloat8Into(-test::kInf, buf, sizeof buf);
	EXPECT_STREQ(buf, "'-Infinity'");
	FormatFloat8Into(-1.7976931348623157e308, buf, sizeof buf);
	EXPECT_EQ(std::strtod(buf, nullptr), -1.7976931348623157e308);
}

}  // namespace
}  // namespace pap::core

namespace pap::core {
namespace {

// pap.plan's error parts (docs/mechanisms.md §10, "The total error"): every prediction is the sum of its parts, the
// projection part is the release's (the same for every mechanism, smaller at the finest granularity), the outside
// mass counts only for the mechanisms that release the cell histogram, and auto takes the smallest total (MWEM on a
// near tie with PMW).
TEST_F(ReleaseEngine, PlanShowsTheErrorPartsAndAutoChoosesOnTheirTotal)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int v = 0; v < 400; v++)
		pub.Add({Num(v)}, 1 + v % 3);
	const Release finest = Define(pub, "thresholds(x)", Granularity::Finest, 0.2);
	const Release coarse = Define(pub, "thresholds(x)", Granularity::Alpha, 0.2);
	// The full grid has 402 cells (400 values, above all, NULL): a limit of 401 leaves the public support.
	const Release support = Define(pub, "thresholds(x)", Granularity::Finest, 0.2, 401);
	ASSERT_STREQ(finest.layout.domain, "full grid");
	ASSERT_STREQ(support.layout.domain, "public support");
	const std::size_t pmw = std::size_t(ParseMechanism("pmw")), identity = std::size_t(ParseMechanism("identity"));
	auto plan_of = [](const Release &r) {
		PlanRequest p = Plan(r, 1.0);
		p.private_rows = 100000;
		p.mechanism = "auto";
		return MakePlan(p);
	};
	std::map<std::string, PlanSummary> plans;
	for (const Release *r : {&finest, &coarse, &support}) {
		const PlanSummary s = plan_of(*r);
		const std::string name = r == &finest ? "finest" : r == &coarse ? "coarse" : "support";
		SCOPED_TRACE(name);
		double smallest = test::kInf;
		for (std::size_t m = 0; m < Mechanisms().size(); m++) {
			const MechanismPrediction &p = s.predictions[m];
			if (!p.applies)
				continue;
			EXPECT_DOUBLE_EQ(p.predicted_error,
			                 std::min(1.0, p.parts.projection + p.parts.outside_mass + p.parts.noise));
			EXPECT_EQ(p.parts.projection, s.predictions[pmw].parts.projection);
			smallest = std::min(smallest, p.predicted_error);
		}
		if ((s.chosen == ParseMechanism("mwem") && s.predictions[pmw].applies &&
		     s.predictions[pmw].predicted_error == smallest) ||              // MWEM's near tie with PMW (AutoChoice)
		    !s.predictions[std::size_t(s.chosen)].rests_on_public_sample) {  // or one not resting on the sample
			EXPECT_LE(s.predicted_error, kNearTie * smallest);
		} else {
			EXPECT_EQ(s.predicted_error, smallest);
		}
		EXPECT_EQ(s.parts.noise, s.predictions[std::size_t(s.chosen)].parts.noise);
		// PMW starts from the public prior, whose sampling error it shows; identity starts from nothing.
		EXPECT_GT(s.predictions[pmw].parts.prior, 0.0);
		EXPECT_LT(s.predictions[pmw].parts.prior, 0.2);
		EXPECT_EQ(s.predictions[identity].parts.prior, 0.0);
		// The public table alone: the same projection, plus the prior's sampling error.
		EXPECT_DOUBLE_EQ(s.public_only_error, s.predictions[pmw].parts.projection + s.predictions[pmw].parts.prior);
		// The MW mechanisms fit the cover answers, which count rows outside the support: no outside part.
		EXPECT_EQ(s.predictions[pmw].parts.outside_mass, 0.0);
		const std::string json(PlanPredictionsJson(s, TestAllocate));
		EXPECT_NE(json.find("\"pmw\": {\"predicted_error\": "), std::string::npos) << json;
		EXPECT_NE(json.find(", \"projection_error\": "), std::string::npos) << json;
		EXPECT_NE(json.find(", \"prior_error\": "), std::string::npos) << json;
		// PMW starts from the public prior (its prediction rests on the sample), identity from nothing.
		const auto object_of = [&json](const std::string &mechanism) {
			const std::size_t start = json.find("\"" + mechanism + "\": {");
			return start == std::string::npos ? std::string() : json.substr(start, json.find('}', start) - start);
		};
		EXPECT_NE(object_of("pmw").find("\"rests_on_public_sample\": true"), std::string::npos) << json;
		EXPECT_NE(object_of("identity").find("\"rests_on_public_sample\": false"), std::string::npos) << json;
		plans[name] = s;
	}
	// Bins of up to alpha / 4 of the public rows leave more to a query's projection than single values do; at the
	// finest granularity only the gaps between public values remain (positive: the population has mass there).
	const double finest_projection = plans["finest"].predictions[pmw].parts.projection;
	EXPECT_GT(finest_projection, 0.0);
	EXPECT_GT(plans["coarse"].predictions[pmw].parts.projection, finest_projection);
	// A full grid has nothing outside; the support domain's outside cell holds what the public singletons suggest
	// (a third of the points seen once), which identity cannot answer: auto does not choose it there.
	EXPECT_EQ(plans["finest"].predictions[identity].parts.outside_mass, 0.0);
	EXPECT_GT(plans["support"].predictions[identity].parts.outside_mass, 0.1);
	EXPECT_NE(plans["support"].chosen, MechanismChoice(identity));
	EXPECT_GT(plans["support"].predictions[identity].predicted_error, plans["support"].predicted_error);
}

// Answers without refine use the mode with the smaller predicted projection part (docs/mechanisms.md §10, "The
// answer mode"), and the plan's projection part is that mode's: refinement for coarse bins of many public rows,
// projection at the finest cover and for classes that do not refine.
TEST_F(ReleaseEngine, AnswerModeIsTheOneWithTheSmallerProjectionPart)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"c", ValueType::Text, "text"}};
	for (int v = 0; v < 20000; v++)
		pub.Add({Num(v), Str(v % 2 == 0 ? "a" : "b")}, 1);
	auto plan_of = [](const Release &r) {
		PlanRequest p = Plan(r, 1.0);
		p.private_rows = 1000000;
		p.mechanism = "auto";
		return MakePlan(p);
	};
	const Release coarse = Define(pub, "thresholds(x)", Granularity::Alpha, 0.2);
	const Release finest = Define(pub, "thresholds(x)", Granularity::Finest, 0.2);
	const Release marginals = Define(pub, "marginals(1; c)", Granularity::Finest, 0.2);
	const PlanSummary a = plan_of(coarse), b = plan_of(finest), c = plan_of(marginals);
	EXPECT_STREQ(a.answer_mode, "refine");
	EXPECT_STREQ(b.answer_mode, "refine");  // a tie: refined answers spread the gaps within the same bound
	EXPECT_STREQ(c.answer_mode, "refine");  // auto's mechanism measures every cell of the full grid
	// The plan's part (a) is at its median (PlanProjectionEventBeta), the answers' at their event's beta.
	const AnswerModeErrors modes =
	    AnswerModeErrorsOf(LayoutFromCatalog(coarse.layout), 20000, 1000000, PlanProjectionEventBeta());
	EXPECT_LT(modes.refinement, BoundModes(LayoutFromCatalog(coarse.layout), 20000, 1000000, 0.05).refinement);
	EXPECT_TRUE(modes.refine);
	EXPECT_LT(modes.refinement, modes.projection);
	EXPECT_EQ(a.parts.projection, modes.refinement);
	EXPECT_EQ(std::string(modes.Name()), "refine");
	const AnswerModeErrors exact =
	    AnswerModeErrorsOf(LayoutFromCatalog(finest.layout), 20000, 1000000, PlanProjectionEventBeta());
	EXPECT_TRUE(exact.refine);
	EXPECT_EQ(exact.refinement, exact.projection);
	EXPECT_EQ(b.parts.projection, exact.projection);
	// A class that does not refine within cells ties too, and keeps the projection.
	const AnswerModeErrors other =
	    AnswerModeErrorsOf(LayoutFromCatalog(marginals.layout), 20000, 1000000, PlanProjectionEventBeta());
	EXPECT_EQ(other.refinement, other.projection);
	EXPECT_FALSE(other.refine);
	// Marginals move no edge, and a query read from its own cells has no projection part but for a value the public
	// table never showed, which reads half the text column's "other" bin.
	EXPECT_GT(other.own_cells, 0.0);
	EXPECT_LT(other.own_cells, other.projection);
	EXPECT_EQ(c.parts.projection, other.own_cells);
}

// A marginal whose cells the public table does not all show: a query on an unseen cell is answered by another
// cover query, and the projection part bounds the private share of either (docs/mechanisms.md §10 (a), "Unseen
// values"). Boolean columns have no value the public table may miss, so with every cell shown the part is 0.
TEST_F(ReleaseEngine, MarginalsProjectionPartCountsTheCellsThePublicTableNeverShows)
{
	Table diagonal, spread, text;
	diagonal.columns = spread.columns = {{"c", ValueType::Boolean, "boolean"}, {"d", ValueType::Boolean, "boolean"}};
	text.columns = {{"c", ValueType::Text, "text"}, {"d", ValueType::Boolean, "boolean"}};
	for (int v = 0; v < 2000; v++) {
		diagonal.Add({Bool(v % 2 == 0), Bool(v % 2 == 0)}, 1);
		spread.Add({Bool(v % 2 == 0), Bool(v % 4 < 2)}, 1);
		text.Add({Str(v % 2 == 0 ? "a" : "b"), Bool(v % 4 < 2)}, 1);
	}
	const auto projection_of = [](const Table &pub) {
		const Release r = Define(pub, "marginals(2; c, d)", Granularity::Finest, 0.2);
		return BoundModes(LayoutFromCatalog(r.layout), 2000, 100000, 0.05).projection;
	};
	const double beta = DataPartBeta(0.05);
	// (false, true) and (true, false) have no public row, and the first of them is the empty pattern: both are cells
	// of the one attribute set without public rows, at half of beta.
	EXPECT_NEAR(projection_of(diagonal), RareValuePrivateShareBound(0, 2000, 100000, std::log(2.0 / beta)), 1e-12);
	EXPECT_EQ(projection_of(spread), 0.0);
	// A text column may hold values the public table never showed: with every named cell of seen values shown, the
	// empty pattern is (other, false), in the text column's "other" bin, whose missing mass bounds it. A text column
	// may fold (category_folding.hpp): the unseen values' part takes half of beta, the folded part (0 here) the other
	// half, and the bin's bound half of its column's share.
	const double half = beta / 2.0;
	const double open = UnseenValueShareBound({1000, 1000, 0, 0}, std::log(32.0 * kUnseenValueSplits / half));
	const double cells = RareValuePrivateShareBound(0, 2000, 100000, std::log(2.0 / half));
	EXPECT_NEAR(projection_of(text), std::max(cells, SampleShareUpperBound(open, 100000, std::log(4.0 / half))), 1e-12);
}

// An enum column is closed (docs/mechanisms.md §10, "Closed columns"): its categories are its type's labels, those the
// public table never showed included, and no query names an "other" value. The text column's "other"-bin term of
// the test above is gone: with every label shown the part is 0, with a label unseen only the bound of a cell without
// public rows is left; the own-cells part is 0; the scan reads the label through enum_out, never a cast.
TEST_F(ReleaseEngine, EnumColumnsAreClosed)
{
	Table seen, unseen;
	seen.columns = {{"c", ValueType::Enum, "en", {"b", "a"}}, {"d", ValueType::Boolean, "boolean"}};
	unseen.columns = {{"c", ValueType::Enum, "en", {"b", "z", "a"}}, {"d", ValueType::Boolean, "boolean"}};
	for (int v = 0; v < 2000; v++) {
		seen.Add({Str(v % 2 == 0 ? "a" : "b"), Bool(v % 4 < 2)}, 1);
		unseen.Add({Str(v % 2 == 0 ? "a" : "b"), Bool(v % 4 < 2)}, 1);
	}
	const Release closed = Define(seen, "marginals(2; c, d)", Granularity::Finest, 0.2);
	const Release missed = Define(unseen, "marginals(2; c, d)", Granularity::Finest, 0.2);
	EXPECT_STREQ(closed.layout.axis_value_types[0], "enum");
	ASSERT_EQ(missed.layout.category_counts[0], 3);  // every label, sorted by bytes
	EXPECT_STREQ(missed.layout.categories[2], "z");
	const double beta = DataPartBeta(0.05);
	const AnswerModeErrors all_seen = BoundModes(LayoutFromCatalog(closed.layout), 2000, 100000, 0.05);
	const AnswerModeErrors one_unseen = BoundModes(LayoutFromCatalog(missed.layout), 2000, 100000, 0.05);
	EXPECT_EQ(all_seen.projection, 0.0);
	EXPECT_EQ(all_seen.own_cells, 0.0);
	EXPECT_NEAR(one_unseen.projection, RareValuePrivateShareBound(0, 2000, 100000, std::log(2.0 / beta)), 1e-12);
	EXPECT_EQ(one_unseen.own_cells, 0.0);
	const std::string scan = LayoutScanSelectList(missed.layout, TestAllocate);
	EXPECT_NE(scan.find("pg_catalog.textin(pg_catalog.enum_out(\"c\"))"), std::string::npos) << scan;
	EXPECT_EQ(scan.find("(\"c\")::pg_catalog.text"), std::string::npos) << scan;
	// The unseen label is a category of its own; a value that is no label has no bin a query may name.
	const Model model = LoadModel(missed, RandomDistribution(std::size_t(missed.summary.cell_count), 5));
	EXPECT_NE(Project(model.get(), "c = 'z' AND d = true"), Project(model.get(), "c = 'a' AND d = true"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "c = 'q' AND d = true"));
	// A type without labels is refused; labels belong to enum columns only.
	Table none = seen;
	none.columns[0].labels.clear();
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, Define(none, "marginals(1; c, d)"));
	std::unique_ptr<ReleaseDraft, DraftDeleter> draft(BeginReleaseDraft("marginals(1; c)", 0.1, Granularity::Finest));
	DraftSetColumnType(draft.get(), 0, ValueType::Text, "text");
	const char *label = "a";
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftSetColumnLabels(draft.get(), 0, &label, 1));
}

// Identity over closed columns (docs/mechanisms.md §9, "Cells no row can hold"): through the engine, every cell in the
// "other" bin of the enum or the boolean gets 0, the private rows with a value no label is (which the type rules out)
// included, and the rest is a distribution. The plan with the cover unlisted applies too, its widest query sized in
// all cells and clamped at the open ones (5 booleans: a 1-way query spans 4^4 = 256 cells, more than the 3^5 = 243
// open ones), and never predicts less than the listed plan.
TEST_F(ReleaseEngine, IdentityLeavesTheClosedCellsEmpty)
{
	Table pub, priv;
	pub.columns = priv.columns = {{"c", ValueType::Enum, "en", {"b", "a", "z"}}, {"d", ValueType::Boolean, "boolean"}};
	for (int v = 0; v < 2000; v++)
		pub.Add({Str(v % 2 == 0 ? "a" : "b"), Bool(v % 4 < 2)}, 1);
	for (int v = 0; v < 3000; v++)
		priv.Add({Str(v % 3 == 0 ? "a" : v % 3 == 1 ? "b" : "z"), v % 5 == 0 ? Null() : Bool(v % 4 < 2)}, 1);
	priv.Add({Str("q"), Bool(true)}, 7);  // in the enum's "other" bin
	const Release r = Define(pub, "marginals(2; c, d)", Granularity::Finest, 0.2);
	ASSERT_STREQ(r.layout.domain, "full grid");
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	for (double epsilon : {0.1, 10.0}) {
		PlanRequest request = Plan(r, epsilon);
		request.mechanism = "identity";
		const RunSummary out = RunOn(r, PrivateScan(r, priv), 5, request);
		ASSERT_EQ(std::size_t(r.summary.cell_count), cells.size());
		double sum = 0;
		std::size_t open = 0;
		for (std::size_t cell = 0; cell < cells.size(); cell++) {
			const std::vector<std::int32_t> &point = *cells[cell];
			const bool closed = point[0] == std::int32_t(axes[0].categories.size()) ||
			                    point[1] == std::int32_t(axes[1].categories.size());
			if (closed) {
				EXPECT_EQ(out.synthetic[cell], 0.0) << cell;
			}
			open += !closed;
			sum += out.synthetic[cell];
		}
		EXPECT_EQ(open, 4u * 3u);
		EXPECT_NEAR(sum, 1.0, 1e-12);
	}

	Table bits;
	for (const char *name : {"a", "b", "c", "d", "e"})
		bits.columns.push_back({name, ValueType::Boolean, "boolean"});
	for (int v = 0; v < 2000; v++)
		bits.Add({Bool(v % 2), Bool(v % 3 == 0), Bool(v % 5 < 2), Bool(v % 7 < 3), v % 11 == 0 ? Null() : Bool(v % 4)},
		         1);
	const Release five = Define(bits, "marginals(1; a, b, c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(five.layout.domain, "full grid");
	ASSERT_EQ(five.summary.cell_count, 1024);
	PlanRequest listed = Plan(five, 1.0);
	listed.private_rows = 2000;
	listed.mechanism = "identity";
	PlanRequest unlisted = listed;
	unlisted.max_cover_queries = 1;
	const PlanSummary a = MakePlan(listed), b = MakePlan(unlisted);
	EXPECT_LE(a.predicted_error, b.predicted_error);
	const RunSummary out = RunOn(five, PrivateScan(five, bits), 5, unlisted);
	double sum = 0;
	for (std::size_t cell = 0; cell < 1024; cell++)
		sum += out.synthetic[cell];
	EXPECT_NEAR(sum, 1.0, 1e-12);
}

// A public (2,000 rows) and a private table (3,000) over an enum column c and two booleans d and e, every value
// present, no NULL: the closed cells' tests of marginal tables add their rows in closed bins to the private one.
std::pair<Table, Table>
EnumAndTwoBooleans()
{
	Table pub, priv;
	pub.columns = priv.columns = {{"c", ValueType::Enum, "en", {"b", "a", "z"}},
	                              {"d", ValueType::Boolean, "boolean"},
	                              {"e", ValueType::Boolean, "boolean"}};
	for (int v = 0; v < 2000; v++)
		pub.Add({Str(v % 2 == 0 ? "a" : "b"), Bool(v % 4 < 2), Bool(v % 3 == 0)}, 1);
	for (int v = 0; v < 3000; v++)
		priv.Add({Str(v % 3 == 0 ? "a" : v % 3 == 1 ? "b" : "z"), Bool(v % 4 < 2), Bool(v % 5 < 2)}, 1);
	return {pub, priv};
}

// Over EnumAndTwoBooleans' grid: every closed cell of a release at 0 (the enum's "other" bin and, with not_null, the
// NULL bins), the open cells as many as the grid has, and the release a distribution.
void
ExpectTheClosedCellsEmpty(const Release &r, const RunSummary &out, bool not_null, const std::string &what)
{
	const std::vector<AxisInfo> axes = Axes(r.layout);
	const auto cells = Cells(r.layout);
	const ReleaseLayout plain = LayoutFromCatalog(r.layout);
	ASSERT_EQ(std::size_t(r.summary.cell_count), cells.size());
	double sum = 0;
	std::size_t open = 0;
	for (std::size_t cell = 0; cell < cells.size(); cell++) {
		const std::vector<std::int32_t> &point = *cells[cell];
		bool closed = false;
		for (std::size_t a = 0; a < 3; a++)
			closed = closed || point[a] == std::int32_t(axes[a].categories.size()) ||
			         (not_null && point[a] == plain.axes[a].NullBin());
		if (closed) {
			EXPECT_EQ(out.synthetic[cell], 0.0) << what << " " << cell;
		}
		open += !closed;
		sum += out.synthetic[cell];
	}
	EXPECT_EQ(open, not_null ? 3u * 2u * 2u : 4u * 3u * 3u) << what;
	EXPECT_NEAR(sum, 1.0, 1e-12) << what;
}

// Marginal tables measure and fit the open cells only (docs/mechanisms.md §13, "Cells no row can hold"): the "other"
// bins of closed columns and, with the flags, the NULL bins of NOT NULL columns hold no weight, the release sums to
// 1, and closing the NULL bins lowers the prediction (the public table, like the private one, holds no NULL there).
TEST_F(ReleaseEngine, MarginalTablesLeaveTheClosedCellsEmpty)
{
	auto [pub, priv] = EnumAndTwoBooleans();
	priv.Add({Str("q"), Bool(true), Bool(false)}, 7);  // in the enum's "other" bin
	const Release r = Define(pub, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(r.layout.domain, "full grid");
	const bool all[] = {true, true, true};
	CatalogLayout not_null = r.layout;
	not_null.axis_not_null = all;
	for (double epsilon : {0.1, 10.0}) {
		double predicted[2] = {0, 0};
		for (bool flags : {false, true}) {
			PlanRequest request = Plan(r, epsilon);
			request.mechanism = "marginal_tables";
			if (flags)
				request.layout = &not_null;
			const RunSummary out = RunOn(r, PrivateScan(r, priv), 5, request);
			predicted[flags] = out.plan.predicted_error;
			ExpectTheClosedCellsEmpty(r, out, flags, "marginal_tables");
		}
		EXPECT_LT(predicted[1], predicted[0]) << epsilon;
	}
}

// PMW and MWEM start from the prior conditioned on the open cells (ConditionedOnOpenCells, docs/mechanisms.md §9):
// MW keeps its zeros, so the closed cells stay empty whatever the private rows put there (7 rows in the enum's "other"
// bin), for both priors; a run whose scan finds no private row releases that prior, empty there too, whatever the
// mechanism.
TEST_F(ReleaseEngine, MwMechanismsAndEmptyScansLeaveTheClosedCellsEmpty)
{
	auto [pub, priv] = EnumAndTwoBooleans();
	priv.Add({Str("q"), Bool(true), Bool(false)}, 7);
	const Release r = Define(pub, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(r.layout.domain, "full grid");
	const bool all[] = {true, true, true};
	CatalogLayout not_null = r.layout;
	not_null.axis_not_null = all;
	const GridPoints points = PrivateScan(r, priv), none{};
	for (const char *mechanism : {"pmw", "mwem", "identity", "marginal_tables"})
		for (const char *prior : {"public", "uniform"})
			for (bool flags : {false, true})
				for (bool empty : {false, true}) {
					if (!empty &&
					    (std::strcmp(mechanism, "identity") == 0 || std::strcmp(mechanism, "marginal_tables") == 0))
						continue;                                              // their own tests
					PlanRequest request = Plan(r, empty ? 1.0 : 50.0, prior);  // updates at 50
					request.mechanism = mechanism;
					if (flags)
						request.layout = &not_null;
					if (empty)
						request.private_rows = 3007;  // the plan's count, before the rows went
					const RunSummary out = RunOn(r, empty ? none : points, 5, request);
					const std::string what = std::string(mechanism) + " " + prior + (flags ? " not null" : "") +
					                         (empty ? " empty scan" : "");
					ExpectTheClosedCellsEmpty(r, out, flags, what);
					if (!empty) {
						EXPECT_GT(out.updates, 0) << what;
					}
				}
}

// The prior's sampling error is that of the public rows in the open cells (ContextFor: the bootstrap resamples them
// alone, the union bound counts them alone): with the NOT NULL flags, public rows in a NULL bin change neither the PMW
// nor the MWEM prior part; without the flags they are open and do. A public table whose every row is closed plans (no
// bootstrap: nothing to resample) and runs with the closed cells empty. (From a read-only review of 2d8bbc8.)
TEST_F(ReleaseEngine, PriorBootstrapReadsOnlyTheOpenPublicRows)
{
	auto [pub, priv] = EnumAndTwoBooleans();
	Table pub_nulls = pub, all_null = pub;
	all_null.rows.clear();
	for (int v = 0; v < 500; v++)
		pub_nulls.Add({Str(v % 2 == 0 ? "a" : "b"), Null(), Bool(v % 3 == 0)}, 1);  // in d's NULL bin
	for (int v = 0; v < 2000; v++)
		all_null.Add({Str(v % 2 == 0 ? "a" : "b"), Null(), Bool(v % 3 == 0)}, 1);
	const Release r = Define(pub, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	const Release with_nulls = Define(pub_nulls, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(r.layout.domain, "full grid");
	ASSERT_STREQ(with_nulls.layout.domain, "full grid");
	ASSERT_EQ(r.summary.cell_count, with_nulls.summary.cell_count);
	ASSERT_EQ(r.summary.cover_size, with_nulls.summary.cover_size);
	ASSERT_EQ(with_nulls.summary.public_rows, r.summary.public_rows + 500);
	const bool all[] = {true, true, true};
	const std::size_t pmw = *MechanismIndex("pmw"), mwem = *MechanismIndex("mwem");
	for (bool flags : {false, true}) {
		CatalogLayout closed_a = r.layout, closed_b = with_nulls.layout;
		closed_a.axis_not_null = closed_b.axis_not_null = flags ? all : nullptr;
		PlanRequest a = Plan(r, 1.0), b = Plan(with_nulls, 1.0);
		a.layout = &closed_a;
		b.layout = &closed_b;
		a.private_rows = b.private_rows = 3000;
		const PlanSummary sa = MakePlan(a), sb = MakePlan(b);
		for (std::size_t m : {pmw, mwem}) {
			if (flags) {
				EXPECT_DOUBLE_EQ(sa.predictions[m].parts.prior, sb.predictions[m].parts.prior) << m;
			} else {
				EXPECT_NE(sa.predictions[m].parts.prior, sb.predictions[m].parts.prior) << m;
			}
		}
	}
	const Release none_open = Define(all_null, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(none_open.layout.domain, "full grid");
	CatalogLayout closed = none_open.layout;
	closed.axis_not_null = all;
	const GridPoints points = PrivateScan(none_open, priv);
	for (const char *mechanism : {"pmw", "mwem"}) {
		PlanRequest request = Plan(none_open, 1.0);
		request.mechanism = mechanism;
		request.layout = &closed;
		RunSummary out;
		ASSERT_NO_THROW(out = RunOn(none_open, points, 5, request)) << mechanism;
		const ReleaseLayout plain = LayoutFromCatalog(closed);
		const std::vector<bool> mask = plain.ClosedCells(plain.MakeDomain());
		ASSERT_EQ(mask.size(), std::size_t(none_open.summary.cell_count));
		double sum = 0;
		for (std::size_t cell = 0; cell < mask.size(); cell++) {
			if (mask[cell]) {
				EXPECT_EQ(out.synthetic[cell], 0.0) << mechanism << " " << cell;
			}
			sum += out.synthetic[cell];
		}
		EXPECT_NEAR(sum, 1.0, 1e-12) << mechanism;
	}
}

// A run reads the NOT NULL constraints again (fmgr_run.cpp): its mask may differ from its plan's when a constraint is
// dropped or added between them (docs/mechanisms.md §9). Marginal tables then run on the run's open subgrid with
// the plan's noise and m: no error, every cell the run closes at 0, a distribution; rows in a NULL bin the plan
// closed (the constraint dropped, NULLs inserted) are read once the run opens it.
TEST_F(ReleaseEngine, MarginalTablesRunOnTheRunsMaskWhenThePlansDiffers)
{
	auto [pub, priv] = EnumAndTwoBooleans();
	priv.Add({Str("a"), Null(), Bool(false)}, 40);  // in d's NULL bin
	const Release r = Define(pub, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
	ASSERT_STREQ(r.layout.domain, "full grid");
	const auto cells = Cells(r.layout);
	const ReleaseLayout plain = LayoutFromCatalog(r.layout);
	const bool all[] = {true, true, true};
	CatalogLayout not_null = r.layout;
	not_null.axis_not_null = all;
	const GridPoints points = PrivateScan(r, priv);
	for (bool plan_closes : {false, true}) {
		PlanRequest request = Plan(r, 1.0);
		request.mechanism = "marginal_tables";
		request.layout = plan_closes ? &not_null : &r.layout;
		for (std::int64_t rows : points.rows)
			request.private_rows += rows;
		const PlanSummary planned = MakePlan(request);
		RunRequest req{};
		req.layout = plan_closes ? &r.layout : &not_null;  // the other mask
		req.private_points = points.points.data();
		req.private_rows = points.rows.data();
		req.private_point_count = points.rows.size();
		req.seed = 11;
		req.fill_secure = FillFromOperatingSystem;
		const RunSummary out = RunRelease(req, planned, TestAllocate);
		double sum = 0, null_d = 0;
		for (std::size_t cell = 0; cell < cells.size(); cell++) {
			const std::vector<std::int32_t> &point = *cells[cell];
			bool closed = false;
			for (std::size_t a = 0; a < 3; a++)
				closed = closed || point[a] == plain.axes[a].OtherBin() ||
				         (!plan_closes && point[a] == plain.axes[a].NullBin());
			if (closed) {
				EXPECT_EQ(out.synthetic[cell], 0.0) << plan_closes << " " << cell;
			}
			if (point[1] == plain.axes[1].NullBin())
				null_d += out.synthetic[cell];
			sum += out.synthetic[cell];
		}
		EXPECT_NEAR(sum, 1.0, 1e-12);
		if (plan_closes) {
			EXPECT_GT(null_d, 0.005);  // 40 of 3040 rows, at epsilon 1
		}
	}
}

// Hierarchical over NOT NULL columns builds its trees over the open bins (a numeric axis's NULL bin closed) and
// releases every NULL bin as exactly 0, on one axis (thresholds: the monotone CDF) and on two (boxes: the
// projection); without the flags the same seed puts weight there. The run sizes its trees by the plan's mask: a
// run whose own mask differs (a NOT NULL dropped or added between them) runs on the plan's open bins, without error,
// the NULL bin still 0 where the plan closed it, and measured where it did not.
TEST_F(ReleaseEngine, HierarchicalLeavesTheNullBinsOfNotNullColumnsEmpty)
{
	Table pub, priv;
	pub.columns =
	    priv.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
	for (int i = 0; i < 600; i++)
		pub.Add({Num(i % 30), i % 10 == 0 ? Null() : Num((i * 7) % 30)});
	for (int i = 0; i < 3000; i++)
		priv.Add({Num(i % 30), Num((i * 11) % 30)});
	const bool both[] = {true, true};
	for (const char *query_class : {"thresholds(x)", "boxes(x, y)"}) {
		const Release r = Define(pub, query_class, Granularity::Finest);
		ASSERT_STREQ(r.layout.domain, "full grid");
		const ReleaseLayout plain = LayoutFromCatalog(r.layout);
		const auto cells = Cells(r.layout);
		CatalogLayout not_null = r.layout;
		not_null.axis_not_null = both;
		const GridPoints points = PrivateScan(r, priv);
		const auto null_weight = [&](const double *synthetic) {
			double weight = 0, sum = 0;
			for (std::size_t cell = 0; cell < cells.size(); cell++) {
				const std::vector<std::int32_t> &point = *cells[cell];
				bool null = false;
				for (std::size_t a = 0; a < point.size(); a++)
					null = null || point[a] == plain.axes[a].NullBin();
				weight += null ? synthetic[cell] : 0.0;
				sum += synthetic[cell];
			}
			EXPECT_NEAR(sum, 1.0, 1e-12) << query_class;
			return weight;
		};
		for (bool plan_closes : {false, true})
			for (bool run_closes : {false, true}) {
				PlanRequest request = Plan(r, 1.0);
				request.mechanism = "hierarchical";
				request.private_rows = 3000;
				request.layout = plan_closes ? &not_null : &r.layout;
				const PlanSummary planned = MakePlan(request);
				const std::string what =
				    std::string(query_class) + (plan_closes ? " plan closes" : "") + (run_closes ? " run closes" : "");
				// On one axis the NULL bin holds n minus the last CDF value, 0 when the noise lifts that to n: the
				// largest over a few seeds.
				double largest = 0;
				for (std::int64_t seed = 11; seed < 16; seed++) {
					RunRequest req{};
					req.layout = run_closes ? &not_null : &r.layout;
					req.private_points = points.points.data();
					req.private_rows = points.rows.data();
					req.private_point_count = points.rows.size();
					req.seed = seed;
					req.fill_secure = FillFromOperatingSystem;
					const RunSummary out = RunRelease(req, planned, TestAllocate);
					const double weight = null_weight(out.synthetic);
					if (plan_closes) {
						EXPECT_EQ(weight, 0.0) << what << " seed " << seed;
					}
					largest = std::max(largest, weight);
				}
				if (!plan_closes) {
					EXPECT_GT(largest, 0.0) << what;
				}
			}
	}
}

// The public prior stands on the public rows in the open cells (PlanInput::prior_public_rows): a public NULL where the
// private column is NOT NULL is no private row's, and the prior is conditioned away from it. So with d NOT NULL and
// most public rows NULL in d, the prior's error that PMW and MWEM show is that of the few rows left (more than with
// the NULLs counted), and with every public row NULL in d the prior is the uniform one over the open cells (the
// pseudo-row alone), taken as the uniform prior is (1/2, resting on no public row).
TEST_F(ReleaseEngine, ThePriorStandsOnThePublicRowsInTheOpenCells)
{
	auto [pub, priv] = EnumAndTwoBooleans();
	Table all_null = pub;
	all_null.rows.clear();
	all_null.Add({Str("a"), Null(), Bool(true)}, 1000);
	all_null.Add({Str("b"), Null(), Bool(false)}, 1000);
	pub.Add({Str("a"), Null(), Bool(true)}, 9000);
	pub.Add({Str("b"), Null(), Bool(false)}, 9000);
	const bool all[] = {true, true, true};
	for (const Table *table : {&pub, &all_null}) {
		const Release r = Define(*table, "marginals(2; c, d, e)", Granularity::Finest, 0.2);
		ASSERT_STREQ(r.layout.domain, "full grid");
		CatalogLayout not_null = r.layout;
		not_null.axis_not_null = all;
		for (const char *name : {"pmw", "mwem"}) {
			double prior[2] = {0, 0};
			for (bool flags : {false, true}) {
				PlanRequest request = Plan(r, 1.0);
				request.mechanism = name;
				request.private_rows = 3000;
				if (flags)
					request.layout = &not_null;
				const PlanSummary plan = MakePlan(request);
				const MechanismPrediction &p = plan.predictions[std::size_t(ParseMechanism(name))];
				ASSERT_TRUE(p.applies) << name;
				prior[flags] = p.parts.prior;
				// A prior with no open public row rests on no public row (a near tie does not prefer another).
				EXPECT_EQ(p.rests_on_public_sample, !(flags && table == &all_null)) << name << " " << flags;
			}
			if (table == &pub) {
				// 2000 rows left of 20000: sqrt((1/2000 + 1/3000) / (1/20000 + 1/3000)) = 1.47 times the error
				EXPECT_GT(prior[1], 1.3 * prior[0]) << name;
				EXPECT_LT(prior[1], 1.0) << name;
			} else {
				EXPECT_LT(prior[0], 0.5) << name;
				EXPECT_EQ(prior[1], kUninformedPriorError) << name;
			}
		}
	}
}

// What a definition at granularity auto states it predicts for the layout it chose (the first figure of its
// domain_reason), and what pap.plan predicts for the stored layout with these NOT NULL flags, at the same request
// (auto, the public prior, n, epsilon, delta 0), both to the 3 digits the statement shows.
double
StatedPrediction(const Release &r)
{
	const std::string reason = r.summary.domain_reason, lead = "The error model predicts ";
	EXPECT_EQ(reason.rfind(lead, 0), 0u) << reason;
	return std::stod(reason.substr(lead.size()));
}

double
PlannedAtThreeDigits(const Release &r, const bool *not_null, double epsilon, double alpha, std::int64_t n)
{
	CatalogLayout layout = r.layout;
	layout.axis_not_null = not_null;
	PlanRequest request = Plan(r, epsilon, "public");
	request.mechanism = "auto";
	request.alpha = alpha;
	request.private_rows = n;
	request.layout = &layout;
	char text[32];
	std::snprintf(text, sizeof text, "%.3g", MakePlan(request).predicted_error);
	return std::stod(text);
}

// Granularity auto plans its candidates as pap.plan will (docs/mechanisms.md §9, "Cells no row can hold"): with the
// private columns NOT NULL (DraftSetColumnNotNull), the prediction the definition states for the layout it chose is
// pap.plan's on that layout with the NULL bins closed, and without, pap.plan's with them open; the stored layout
// keeps no flag (a plan without them reads the NULL bins open).
TEST_F(ReleaseEngine, AutoLayoutPlansWithTheNotNullColumns)
{
	std::mt19937_64 gen(23);
	std::normal_distribution<double> normal(0.0, 1.0);
	for (bool not_null : {false, true}) {
		Table pub;
		pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
		for (Column &c : pub.columns)
			c.not_null = not_null;
		for (int i = 0; i < 3000; i++) {
			const double x = normal(gen);
			pub.Add({Num(std::round(100 * x) / 100), Num(std::round(100 * (x + normal(gen))) / 100)}, 1);
		}
		const std::int64_t n = 30000;
		const double epsilon = 1.0, alpha = 0.1;
		const Release r = Define(pub, "boxes(x, y)", Granularity::Auto, alpha, 1000000, 1000000, nullptr, n, epsilon);
		const double stated = StatedPrediction(r);
		const bool all[] = {true, true};
		for (bool flags : {false, true}) {
			const double planned = PlannedAtThreeDigits(r, flags ? all : nullptr, epsilon, alpha, n);
			if (flags == not_null) {
				EXPECT_EQ(stated, planned) << r.summary.domain_reason << " " << not_null;
			} else {
				EXPECT_NE(stated, planned) << r.summary.domain_reason << " " << not_null;
			}
		}
	}
}

// Each axis is closed by its own column's flag (WithNotNullAxes matches an axis to the column it reads): with one of
// two columns NOT NULL, the prediction the definition states is pap.plan's with that axis's NULL bin closed and the
// other's open, not with both closed (a draft that closes every axis once any column is NOT NULL) nor with the other
// one closed. The public table holds NULLs in both columns, at different rates, so that each mask plans differently.
TEST_F(ReleaseEngine, AutoLayoutClosesOnlyTheNotNullColumnsAxes)
{
	for (std::size_t closed_column : {0u, 1u}) {
		std::mt19937_64 gen(29);  // the same public rows for both
		std::normal_distribution<double> normal(0.0, 1.0);
		Table pub;
		pub.columns = {{"x", ValueType::Number, "double precision"}, {"y", ValueType::Number, "double precision"}};
		pub.columns[closed_column].not_null = true;
		for (int i = 0; i < 3000; i++) {
			const double x = normal(gen);
			// Two thirds of the NOT NULL column's public values NULL, half of the other's.
			const bool null_x = closed_column == 0 ? i % 3 != 0 : i % 2 == 0;
			const bool null_y = closed_column == 1 ? i % 3 != 0 : i % 2 == 0;
			pub.Add({null_x ? Null() : Num(std::round(100 * x) / 100),
			         null_y ? Null() : Num(std::round(100 * (x + normal(gen))) / 100)},
			        1);
		}
		const std::int64_t n = 30000;
		const double epsilon = 3.0, alpha = 0.1;  // identity's prediction then follows the open cells closely
		const Release r = Define(pub, "boxes(x, y)", Granularity::Auto, alpha, 1000000, 1000000, nullptr, n, epsilon);
		const double stated = StatedPrediction(r);
		const auto planned = [&](bool x_closed, bool y_closed) {
			const bool flags[] = {x_closed, y_closed};
			return PlannedAtThreeDigits(r, flags, epsilon, alpha, n);
		};
		const double own = planned(closed_column == 0, closed_column == 1);
		EXPECT_EQ(stated, own) << r.summary.domain_reason << " " << closed_column;
		// The other masks plan otherwise here, so the check above tells them apart.
		EXPECT_NE(own, planned(true, true)) << closed_column;
		EXPECT_NE(own, planned(closed_column == 1, closed_column == 0)) << closed_column;
	}
}

// A number or text column whose CHECK constraint lists its values is closed as an enum column is (docs/mechanisms.md
// §10, "Closed columns"): the list is its categories, those the public table never showed included; the stored layout
// keeps it closed; the scan still reads the column's text (no enum_out); a public value outside the list is refused,
// and so is a query's; an ordered axis over such a column ignores the list.
TEST_F(ReleaseEngine, ColumnsACheckListClosesAreClosed)
{
	Table listed, open;
	listed.columns = {{"r", ValueType::Number, "double precision", {"1", "2", "3"}, true},
	                  {"d", ValueType::Boolean, "boolean"}};
	open.columns = {{"r", ValueType::Number, "double precision"}, {"d", ValueType::Boolean, "boolean"}};
	for (int v = 0; v < 2000; v++) {
		listed.Add({Num(1 + v % 2), Bool(v % 4 < 2)}, 1);
		open.Add({Num(1 + v % 2), Bool(v % 4 < 2)}, 1);
	}
	const Release closed = Define(listed, "marginals(2; r, d)", Granularity::Finest, 0.2);
	const Release learned = Define(open, "marginals(2; r, d)", Granularity::Finest, 0.2);
	ASSERT_NE(closed.layout.axis_check_lists, nullptr);
	EXPECT_TRUE(closed.layout.axis_check_lists[0]);
	EXPECT_FALSE(closed.layout.axis_check_lists[1]);
	EXPECT_FALSE(learned.layout.axis_check_lists[0]);
	ASSERT_EQ(closed.layout.category_counts[0], 3);  // the listed 3 too, which no public row holds
	EXPECT_STREQ(closed.layout.categories[2], "3");
	const ReleaseLayout layout = LayoutFromCatalog(closed.layout);
	EXPECT_TRUE(layout.axes[0].check_list);
	EXPECT_TRUE(layout.axes[0].ClosedCategories());
	const AnswerModeErrors closed_modes = BoundModes(layout, 2000, 100000, 0.05);
	const AnswerModeErrors open_modes = BoundModes(LayoutFromCatalog(learned.layout), 2000, 100000, 0.05);
	EXPECT_EQ(closed_modes.own_cells, 0.0);
	EXPECT_GT(open_modes.own_cells, 0.0);
	EXPECT_LT(closed_modes.projection, open_modes.projection);
	const std::string scan = LayoutScanSelectList(closed.layout, TestAllocate);
	EXPECT_NE(scan.find("(\"r\")::pg_catalog.text"), std::string::npos) << scan;
	const Model model = LoadModel(closed, RandomDistribution(std::size_t(closed.summary.cell_count), 5));
	EXPECT_NE(Project(model.get(), "r = 3 AND d = true"), Project(model.get(), "r = 1 AND d = true"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, Project(model.get(), "r = 4 AND d = true"));
	// A public value outside the list is refused at the public read.
	Table outside = listed;
	outside.Add({Num(4), Bool(true)}, 1);
	EXPECT_PAP_ERROR(ErrorKind::DataException, Define(outside, "marginals(1; r, d)", Granularity::Finest, 0.2));
	// An ordered class over the column learns its cuts from the public values as before.
	const Release ordered = Define(listed, "thresholds(r)", Granularity::Finest, 0.2);
	EXPECT_FALSE(ordered.layout.axis_check_lists[0]);
	EXPECT_EQ(ordered.layout.category_counts[0], 0);
	// A list belongs to a number or text column, is not empty and holds no value twice.
	std::unique_ptr<ReleaseDraft, DraftDeleter> draft(BeginReleaseDraft("marginals(1; c)", 0.1, Granularity::Finest));
	DraftSetColumnType(draft.get(), 0, ValueType::Boolean, "boolean");
	const char *twice[] = {"a", "a"};
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftSetColumnCheckList(draft.get(), 0, twice, 1));
	std::unique_ptr<ReleaseDraft, DraftDeleter> text(BeginReleaseDraft("marginals(1; c)", 0.1, Granularity::Finest));
	DraftSetColumnType(text.get(), 0, ValueType::Text, "text");
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftSetColumnCheckList(text.get(), 0, twice, 2));
	EXPECT_PAP_ERROR(ErrorKind::Internal, DraftSetColumnCheckList(text.get(), 0, twice, 0));
}

// On a full grid of an ordered class part (b) is 0 with certainty and no answer reads its event, so part (a)'s event
// takes its share of beta as well (docs/mechanisms.md §10, "Confidence"): the same layout on the public support, where
// the outside mass may be positive, keeps the sixth. Marginals keep it on a full grid too: their answers read the
// mass of the grid points no public row has (docs/mechanisms.md §18).
TEST_F(ReleaseEngine, ProjectionEventTakesTheOutsideMassShareOnAFullGridOfAnOrderedClass)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}, {"c", ValueType::Text, "text"}};
	for (int v = 0; v < 2000; v++)
		pub.Add({Num(v % 700), Str(v % 3 == 0 ? "a" : "b")}, 1);
	ReleaseLayout grid = LayoutFromCatalog(Define(pub, "thresholds(x)", Granularity::Alpha, 0.2).layout);
	ASSERT_EQ(grid.domain_kind, DomainKind::Dense);
	ReleaseLayout support = grid;
	support.domain_kind = DomainKind::Support;
	EXPECT_DOUBLE_EQ(ProjectionEventBetaOf(grid, 0.05), 0.05 / 3);
	EXPECT_DOUBLE_EQ(ProjectionEventBetaOf(support, 0.05), 0.05 / 6);
	const AnswerModeErrors on_grid = BoundModes(grid, 2000, 50000, 0.05);
	const AnswerModeErrors on_support = BoundModes(support, 2000, 50000, 0.05);
	EXPECT_LT(on_grid.refinement, on_support.refinement);
	EXPECT_EQ(on_grid.refinement, BoundModes(support, 2000, 50000, 0.10).refinement);
	EXPECT_EQ(on_grid.projection, BoundModes(support, 2000, 50000, 0.10).projection);
	EXPECT_EQ(LoadedAnswerFactsOf(grid, 2000, 50000, 0.05).gap_spread,
	          LoadedAnswerFactsOf(support, 2000, 50000, 0.10).gap_spread);
	const ReleaseLayout marginals = LayoutFromCatalog(Define(pub, "marginals(1; c)", Granularity::Finest, 0.2).layout);
	ASSERT_EQ(marginals.domain_kind, DomainKind::Dense);
	EXPECT_DOUBLE_EQ(ProjectionEventBetaOf(marginals, 0.05), 0.05 / 6);
}

// private_only_error is a release over this release's cells declared without the public table: it answers every
// query of the class at the declared cuts, by projection, so beside the noise of identity or hierarchical it pays
// the grid's projection part (docs/mechanisms.md §14, "What the public table is worth"), not the noise alone.
TEST_F(ReleaseEngine, PrivateOnlyErrorAddsTheProjectionOfTheDeclaredGrid)
{
	Table pub;
	pub.columns = {{"x", ValueType::Number, "double precision"}};
	for (int v = 0; v < 5000; v++)
		pub.Add({Num(v % 1000)}, 1);
	const Release coarse = Define(pub, "thresholds(x)", Granularity::Alpha, 0.2);
	PlanRequest request = Plan(coarse, 1.0);
	request.private_rows = 100000;
	request.mechanism = "auto";
	const PlanSummary plan = MakePlan(request);
	const AnswerModeErrors modes =
	    AnswerModeErrorsOf(LayoutFromCatalog(coarse.layout), 5000, 100000, PlanProjectionEventBeta());
	ASSERT_GT(modes.projection, 0.0);
	double noise = 1.0;
	for (const char *name : {"identity", "hierarchical"}) {
		const MechanismPrediction &p = plan.predictions[*MechanismIndex(name)];
		if (p.applies)
			noise = std::min(noise, p.parts.noise);
	}
	EXPECT_NEAR(plan.private_only_error, std::min(1.0, noise + modes.projection), 1e-15);
	EXPECT_GT(plan.private_only_error, noise);
}

// A marginal release on a full grid answers from each query's own cells when its mechanism measures every cell
// (identity, marginal_tables): no projection part in its plan, the mode "refine"; PMW and MWEM correct the cover
// queries only and keep the projection (docs/mechanisms.md §10, "The answer mode").
TEST_F(ReleaseEngine, MarginalsOnAFullGridReadTheirCellsWhenTheMechanismMeasuresThem)
{
	const Release r = Define(PeopleTable(), "marginals(2; city, age)");
	ASSERT_STREQ(r.layout.domain, "full grid");
	auto plan_of = [&](const char *mechanism) {
		PlanRequest p = Plan(r, 1.0);
		p.private_rows = 100000;
		p.mechanism = mechanism;
		return MakePlan(p);
	};
	for (const char *mechanism : {"identity", "marginal_tables"}) {
		SCOPED_TRACE(mechanism);
		const PlanSummary plan = plan_of(mechanism);
		EXPECT_STREQ(plan.answer_mode, "refine");
		// Only the values of city and age the public table never showed (their "other" bins) have a part.
		const double own_cells =
		    AnswerModeErrorsOf(LayoutFromCatalog(r.layout), r.public_rows, 100000, PlanProjectionEventBeta()).own_cells;
		EXPECT_GT(own_cells, 0.0);
		EXPECT_EQ(plan.parts.projection, own_cells);
	}
	for (const char *mechanism : {"pmw", "mwem"}) {
		SCOPED_TRACE(mechanism);
		EXPECT_STREQ(plan_of(mechanism).answer_mode, "projection");
	}
	const PlanSummary automatic = plan_of("auto");
	const bool cells = automatic.chosen == MechanismChoice(*MechanismIndex("identity")) ||
	                   automatic.chosen == MechanismChoice(*MechanismIndex("marginal_tables"));
	EXPECT_STREQ(automatic.answer_mode, cells ? "refine" : "projection");
	// A public-support domain keeps the projection for every mechanism.
	const Release support = Define(PeopleTable(), "marginals(2; city, age)", Granularity::Finest, 0.1, 30);
	ASSERT_STREQ(support.layout.domain, "public support");
	PlanRequest p = Plan(support, 1.0);
	p.private_rows = 100000;
	p.mechanism = "identity";
	EXPECT_STREQ(MakePlan(p).answer_mode, "projection");
}

// The error bound of a marginal answer (docs/mechanisms.md §18): read from the query's own cells of a release whose
// mechanism measured every cell, the noise part alone; read from the cells of another release, the projection's
// bound plus the released weight of the cells no public row has; by projection, the plan's part plus the unseen
// points' share.
TEST_F(ReleaseEngine, MarginalAnswerBoundsInBothModes)
{
	const Release r = Define(PeopleTable(), "marginals(2; city, age)");
	const std::vector<double> synthetic = RandomDistribution(std::size_t(r.summary.cell_count), 8);
	auto bound_of = [&](bool refine_mode, bool refine) {
		const Model model = LoadModel(r, synthetic, 5000);
		ReleaseErrorFacts facts;
		facts.known = true;
		facts.beta = 0.05;
		facts.public_rows = r.public_rows;
		facts.projection = refine_mode ? 0.0 : 0.01;
		facts.noise = 0.02;
		facts.refine_mode = refine_mode;
		ModelSetErrorFacts(model.get(), facts);
		const char *text = "city = 'Rome' AND age = 19";
		ParsedQuery *parsed = ParseQueryForModel(model.get(), text);
		std::unique_ptr<ParsedQuery, void (*)(ParsedQuery *)> owner(parsed, FreeParsedQuery);
		const double numbers[2] = {0, 0};
		const char *texts[2] = {"Rome", "19"};
		const AnswerBound b = ModelAnswerBound(model.get(), parsed, numbers, texts, refine);
		EXPECT_EQ(b.estimate, AnswerText(model.get(), text, refine));
		EXPECT_EQ(b.noise, 0.02);
		return b;
	};
	const AnswerBound cells = bound_of(true, true);
	EXPECT_EQ(cells.projection, 0.0);
	EXPECT_TRUE(cells.unseen_category);  // Rome: part of the "other" bin, from none of it to all of it
	EXPECT_EQ(cells.lower, 0.0);
	// The estimate is the middle of the "other" bins' weight W = 2 estimate: its upper end W plus the noise part, or
	// the most one unseen value can hold where that is less (the smaller of city's and age's caps: both unseen).
	const std::vector<double> caps =
	    LoadedAnswerFactsOf(LayoutFromCatalog(r.layout), r.public_rows, 5000, 0.05).other_bin_caps;
	ASSERT_EQ(caps.size(), 2u);
	const double cap = std::min(caps[0], caps[1]);
	EXPECT_LT(cap, 1.0);
	EXPECT_GT(cells.estimate, 0.0);
	EXPECT_NEAR(cells.upper, std::min({1.0, 2 * cells.estimate + 0.02, cap}), 1e-15);
	EXPECT_NEAR(cells.error_bound, cells.upper - cells.estimate, 1e-15);
	// The same release answered by projection: the projection's part as the plan computes it, which for marginals
	// moves no edge, plus the unseen grid points' share (part (b)'s bound, positive for 60 public rows).
	const AnswerBound projected = bound_of(true, false);
	const double unseen = OutsideMassError(LayoutFromCatalog(r.layout).public_point_counts, false, r.public_rows, 5000,
	                                       DataPartBeta(0.05));
	EXPECT_GT(unseen, 0.0);
	EXPECT_NEAR(projected.projection,
	            std::min(1.0, BoundModes(LayoutFromCatalog(r.layout), r.public_rows, 5000, 0.05).projection + unseen),
	            1e-15);
	const AnswerBound mw_cells = bound_of(false, true), mw_projected = bound_of(false, false);
	EXPECT_NEAR(mw_projected.projection, std::min(1.0, 0.01 + unseen), 1e-15);
	EXPECT_GE(mw_cells.projection, mw_projected.projection);
	// Read from its own cells on a release whose mechanism did not measure every cell, Rome is halved too, and the
	// upper end reaches the whole "other" weight plus that release's half-width: not the cap, whose event is not
	// among those such a release's bound counts (its projection part spends part (a)'s whole share).
	EXPECT_EQ(mw_cells.lower, 0.0);
	const double half = mw_cells.projection + mw_cells.outside_mass + mw_cells.noise;
	EXPECT_LE(2 * mw_cells.estimate, cap + 1e-15);  // the estimate is still half the capped weight
	EXPECT_GE(mw_cells.upper, std::min(1.0, 2 * mw_cells.estimate + half));
	const ReleaseLayout layout = LayoutFromCatalog(r.layout);  // axes city, age: both literals in their "other" bin
	const double other = WeightOfBins(r, synthetic, {{0, layout.axes[0].OtherBin()}, {1, layout.axes[1].OtherBin()}});
	EXPECT_NEAR(mw_cells.upper, std::min(1.0, other + half), 1e-12);
	// With caps that bind (stored at 1e-9): the estimate is half the cap either way, and only the release whose
	// mechanism measured every cell has the cap's event in its bound.
	for (bool refine_mode : {true, false}) {
		SCOPED_TRACE(refine_mode);
		FlatFacts stored = StoredFactsOfRun(ComputeAnswerFacts(r.layout, r.public_rows, 5000, 0.05, TestAllocate));
		for (double &c : stored.caps)
			c = 1e-9;
		const Model model = LoadModel(r, synthetic, 5000);
		ReleaseErrorFacts facts;
		facts.known = true;
		facts.beta = 0.05;
		facts.public_rows = r.public_rows;
		facts.noise = 0.02;
		facts.refine_mode = refine_mode;
		facts.answers_stored = true;
		facts.answers = stored.View();
		ModelSetErrorFacts(model.get(), facts);
		const AnswerBound b = BoundText(model.get(), "city = 'Rome' AND age = 19", true);
		EXPECT_NEAR(b.estimate, 0.5e-9, 1e-18);
		if (refine_mode) {
			EXPECT_EQ(b.upper, 1e-9);
		} else {
			EXPECT_NEAR(b.upper, std::min(1.0, other + b.projection + b.outside_mass + b.noise), 1e-12);
			EXPECT_GT(b.upper, 0.01);
		}
	}
}

// The weight of the cells whose bounds (ModelDescribeCell) contain every one of `parts`, such as "x IS NULL".
double
WeightOfCellsDescribedBy(const ReleaseModel *model, const std::vector<std::string> &parts)
{
	double sum = 0.0;
	for (std::size_t cell = 0; cell < ModelCellCount(model); cell++) {
		char *bounds = nullptr, *json = nullptr;
		ModelDescribeCell(model, cell, &bounds, &json, TestAllocate);
		bool all = true;
		for (const std::string &part : parts)
			all = all && std::strstr(bounds, part.c_str()) != nullptr;
		if (all)
			sum += ModelCellWeight(model, cell);
	}
	return sum;
}

// docs/query-classes.md, "NULL values": IS NOT NULL is the class's query "col <= 'NaN'", IS NULL is TRUE minus it,
// and a query with IS NULL is the signed sum of its terms; a box's full run of bins is every non-NULL bin, so there
// IS NULL is exactly the NULL bin's weight.
TEST_F(ReleaseEngine, IsNullAndIsNotNullInOrderedClasses)
{
	const Table pub = NumericTable();  // NULLs in both columns
	const Release boxes = Define(pub, "boxes(x, y)");
	const Model box = LoadModel(boxes, RandomDistribution(boxes.summary.cell_count, 11));
	for (bool refine : {false, true}) {
		SCOPED_TRACE(refine);
		const ReleaseModel *m = box.get();
		EXPECT_NEAR(AnswerText(m, "x IS NULL", refine), WeightOfCellsDescribedBy(m, {"x IS NULL"}), 1e-12);
		EXPECT_NEAR(AnswerText(m, "x IS NULL AND y IS NULL", refine),
		            WeightOfCellsDescribedBy(m, {"x IS NULL", "y IS NULL"}), 1e-12);
		EXPECT_NEAR(AnswerText(m, "y <= 4 AND x IS NULL", refine),
		            AnswerText(m, "y <= 4", refine) - AnswerText(m, "x IS NOT NULL AND y <= 4", refine), 1e-12);
		EXPECT_NEAR(AnswerText(m, "x IS NULL", refine) + AnswerText(m, "x IS NOT NULL", refine), 1.0, 1e-12);
		EXPECT_EQ(AnswerText(m, "x IS NOT NULL", refine), AnswerText(m, "x <= 'NaN'", refine));
		EXPECT_EQ(AnswerText(m, "x <= 30 AND x IS NOT NULL", refine), AnswerText(m, "x <= 30", refine));
		// A column that IS NULL satisfies no comparison.
		EXPECT_EQ(AnswerText(m, "x IS NULL AND x > 3", refine), 0.0);
		EXPECT_EQ(AnswerText(m, "x IS NOT NULL AND x IS NULL", refine), 0.0);
	}
	// IS NOT NULL projects onto a cover query; IS NULL onto none (a difference of two), at its condition.
	EXPECT_EQ(Project(box.get(), "x IS NOT NULL AND y <= 4"), Project(box.get(), "x <= 'NaN' AND y <= 4"));
	try {
		Project(box.get(), "y <= 4 AND x IS NULL");
		ADD_FAILURE() << "IS NULL projected onto one cover query";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::QueryOutsideClass);
		EXPECT_EQ(e.position(), 11u);
	}

	// Thresholds and orthants take IS [NOT] NULL beside their upper bounds, not a lower bound.
	const Release thresholds = Define(pub, "thresholds(x)");
	const Model t = LoadModel(thresholds, RandomDistribution(thresholds.summary.cell_count, 12));
	EXPECT_NEAR(AnswerText(t.get(), "x IS NULL", false), 1.0 - AnswerText(t.get(), "x IS NOT NULL", false), 1e-12);
	EXPECT_EQ(AnswerText(t.get(), "x IS NULL AND x < 3", false), 0.0);
	const Release orthants = Define(pub, "orthants(x, y)");
	const Model o = LoadModel(orthants, RandomDistribution(orthants.summary.cell_count, 13));
	EXPECT_NEAR(AnswerText(o.get(), "x <= 10 AND y IS NULL", false),
	            AnswerText(o.get(), "x <= 10", false) - AnswerText(o.get(), "x <= 10 AND y IS NOT NULL", false), 1e-12);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, AnswerText(o.get(), "x >= 10 AND y IS NULL", false));

	// Marginals: NULL is no value of the class, refused at the condition.
	const Release people = Define(PeopleTable(), "marginals(1; city)");
	const Model p = LoadModel(people, RandomDistribution(people.summary.cell_count, 14));
	try {
		AnswerText(p.get(), "city IS NULL", false);
		ADD_FAILURE() << "marginals answered IS NULL";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::QueryOutsideClass);
		EXPECT_EQ(e.position(), 0u);
	}
}

// pap.answer_box: the box "lower <= column AND column <= upper" per column, the same answer as the text.
TEST_F(ReleaseEngine, BoxAnswersEqualTheirText)
{
	const Table pub = NumericTable();
	const Release boxes = Define(pub, "boxes(x, y)", Granularity::Alpha, 0.3);
	const Model box = LoadModel(boxes, RandomDistribution(boxes.summary.cell_count, 21));
	const ReleaseModel *m = box.get();
	const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
	const auto answer_box = [m](std::vector<std::optional<double>> lo, std::vector<std::optional<double>> hi,
	                            bool refine) {
		std::vector<double> lower(lo.size() + 1), upper(lo.size() + 1);
		std::unique_ptr<bool[]> has_lower(new bool[lo.size() + 1]()), has_upper(new bool[lo.size() + 1]());
		for (std::size_t a = 0; a < lo.size(); a++) {
			has_lower[a] = lo[a].has_value();
			has_upper[a] = hi[a].has_value();
			lower[a] = lo[a].value_or(0.0);
			upper[a] = hi[a].value_or(0.0);
		}
		return ModelAnswerBox(m, lower.data(), has_lower.get(), upper.data(), has_upper.get(), lo.size(), refine);
	};
	for (bool refine : {false, true}) {
		SCOPED_TRACE(refine);
		EXPECT_EQ(answer_box({2.5, 1}, {30, 8}, refine),
		          AnswerText(m, "x >= 2.5 AND x <= 30 AND y >= 1 AND y <= 8", refine));
		EXPECT_EQ(answer_box({std::nullopt, 1}, {30, std::nullopt}, refine),
		          AnswerText(m, "x <= 30 AND y >= 1", refine));
		EXPECT_EQ(answer_box({std::nullopt, 3}, {std::nullopt, 3}, refine), AnswerText(m, "y = 3", refine));
		EXPECT_NEAR(answer_box({std::nullopt, std::nullopt}, {std::nullopt, std::nullopt}, refine), 1.0, 1e-12);
		EXPECT_EQ(answer_box({std::nullopt, std::nullopt}, {nan, std::nullopt}, refine),
		          AnswerText(m, "x IS NOT NULL", refine));
		EXPECT_EQ(answer_box({-inf, std::nullopt}, {inf, std::nullopt}, refine),
		          AnswerText(m, "x BETWEEN '-Infinity' AND 'Infinity'", refine));
		EXPECT_EQ(answer_box({30, std::nullopt}, {2, std::nullopt}, refine), 0.0);
	}
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, answer_box({1, 2, 3}, {4, 5, 6}, false));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, answer_box({}, {}, false));
	EXPECT_EQ(ModelColumnCount(m), 2u);
	EXPECT_STREQ(ModelColumnName(m, 1), "y");
	EXPECT_PAP_ERROR(ErrorKind::Internal, ModelColumnName(m, 2));
	// Orthants take upper bounds only; thresholds and ranges have pap.answer_between.
	const Release orthants = Define(pub, "orthants(x, y)");
	const Model o = LoadModel(orthants, RandomDistribution(orthants.summary.cell_count, 22));
	const double lower[2] = {1, 0}, upper[2] = {5, 6};
	const bool yes[2] = {true, true}, no[2] = {false, false};
	EXPECT_EQ(ModelAnswerBox(o.get(), lower, no, upper, yes, 2, false),
	          AnswerText(o.get(), "x <= 5 AND y <= 6", false));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ModelAnswerBox(o.get(), lower, yes, upper, yes, 2, false));
	const Release thresholds = Define(pub, "thresholds(x)");
	const Model t = LoadModel(thresholds, RandomDistribution(thresholds.summary.cell_count, 23));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ModelAnswerBox(t.get(), lower, yes, upper, yes, 1, false));
}

// A refined box over many axes is a sum over up to 3^d products of per-axis terms: summed box by box it took hours
// at 24 axes, and no cancel stopped it. Beyond a cost the answer is summed cell by cell instead
// (ReleaseModel::TermsSum); with the whole weight on one cell both sums are the product of that cell's per-axis
// shares, each of which a box bounding one axis alone answers (few products: box by box). Each box cuts through
// the bins of the weighted cell, so that the shares are fractions.
TEST_F(ReleaseEngine, AWideRefinedBoxIsTheProductOfItsAxesShares)
{
	const std::size_t d = 12;
	Table pub;
	std::string columns;
	for (std::size_t a = 0; a < d; a++) {
		pub.columns.push_back({"c" + std::to_string(a), ValueType::Number, "double precision"});
		columns += (a ? ", c" : "c") + std::to_string(a);
	}
	std::mt19937_64 gen(31);
	for (int i = 0; i < 3000; i++) {
		Row row;
		for (std::size_t a = 0; a < d; a++)
			row.push_back(Num(double(gen() % 1000)));
		pub.Add(row);
	}
	std::uniform_real_distribution<double> u(0.0, 200.0);
	{
		// Bins of several public values each (their shares are fractions), over a grid too large to hold: a public
		// support without a prefix table, where each box sum is a pass over the points.
		const Release r = Define(pub, ("boxes(" + columns + ")").c_str(), Granularity::Alpha, 0.5);
		ASSERT_STREQ(r.layout.domain, "public support");
		const std::vector<AxisInfo> axes = Axes(r.layout);
		const auto cells = Cells(r.layout);
		int fractional = 0;
		std::string wide;
		for (std::size_t c = 0; c < cells.size(); c += 97) {
			if (!cells[c])
				continue;
			std::vector<double> weights(cells.size(), 0.0);
			weights[c] = 1.0;
			const Model model = LoadModel(r, weights);
			std::string text;
			double product = 1.0;
			for (std::size_t a = 0; a < d; a++) {
				const std::vector<double> &cuts = axes[a].cuts;
				const std::size_t bin = std::size_t((*cells[c])[a]);
				if (bin == 0 || bin >= cuts.size())
					continue;  // no value below the bin's upper cut in it, or its top or NULL bin
				const std::string column = "c" + std::to_string(a);
				const std::string one = column + " >= " + FormatFloat8((cuts[bin - 1] + cuts[bin]) / 2) + " AND " +
				                        column + " <= " + FormatFloat8(cuts[bin] + u(gen));
				text += (text.empty() ? "" : " AND ") + one;
				product *= AnswerText(model.get(), one, true);
			}
			fractional += product > 1e-9 && product < 1.0 - 1e-9;
			EXPECT_NEAR(AnswerText(model.get(), text, true), product, 1e-12) << text;
			if (wide.size() < text.size())
				wide = text;
		}
		EXPECT_GT(fractional, 3) << "the test compares too few refined answers";
		// Either sum polls the interrupt check.
		const Model model = LoadModel(r, RandomDistribution(cells.size(), 32));
		const ReadQuery q = ReadQueryText(model.get(), wide);
		EXPECT_PAP_ERROR(ErrorKind::Cancelled, ModelAnswerQuery(model.get(), q.parsed.get(), q.numbers.data(),
		                                                        q.texts.data(), true, test::AlwaysInterrupted));
	}
}

}  // namespace
}  // namespace pap::core
