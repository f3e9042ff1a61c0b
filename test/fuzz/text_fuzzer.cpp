// libFuzzer target for every text the core parses (docs/robustness.md). The same input bytes go to each parser:
// class texts (ParseClassText, ParseClassSpec, and a whole release definition through the engine's draft steps
// over a small fixed public table, then the model it loads), query texts (ParseQueryText, NumericLiteralValue on
// every literal, ParseQueryForModel), the mechanism, prior and granularity names, and a full projection of the
// query through the engine (pap.answer's path: ParseQueryForModel, ParsedQueryLiteral, ReadNumberLiteral,
// ModelProject) onto two fixed releases, thresholds(x) and ranges(x) at the finest granularity.
//
// Contract checked: every input either succeeds or throws pap::core::Error of a kind other than Internal (an
// Internal error would reach users as XX000, a broken invariant). Any other exception, a crash or a sanitizer
// report is a failure, and so is a wrong answer to the oracles below:
//   - a projected cover query labels every public value exactly as the query does (SQL semantics, PostgreSQL's
//     float8 order: NaN above everything and equal to itself), its rendered text evaluated on them;
//   - the index is inside the cover and the answer in [0, 1];
//   - FormatFloat8 of every literal value reads back as the same float8;
//   - a cover query's rendered text projects back to itself (for the fixed releases and for every release the
//     input defines as a class, its first 64 cover queries), and the public histogram sums to the public rows;
//   - a parsed query keeps its invariants (a column or linear terms, finite coefficients, positions of literals
//     and casts inside the text, an IN list with values), LiteralCount counts its literals, and its canonical
//     rendering (QuoteIdentifier, QuoteLiteral, FormatFloat8 coefficients, IN lists, IS [NOT] NULL, casts in the
//     :: spelling) parses back to the same query;
//   - ParseClassSpec's canonical text parses back to the same class;
//   - the fast path of pap.answer's query parsing (ParseSimpleQueryText) agrees with the full parser: whenever it
//     accepts a text, ParseQueryText accepts it too and gives the same query;
//   - FormatAxisLiteral of every numeric literal, as each temporal type, and FormatCategoryLiteral of every
//     literal read back through the query parser as the text they print.
//
// Build and run: make fuzz (bounded, CI) or make fuzz-long. Needs clang-14 and libclang-rt-14-dev.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/release_api.hpp"
#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"
#include "core/classes/interval_cover.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/predicate_key.hpp"
#include "core/language/query_text.hpp"
#include "core/language/value_format.hpp"
#include "core/release/release_model.hpp"

using namespace pap::core;  // test code only

namespace {

[[noreturn]] void
Fail(const char *what, const std::string &detail = {})
{
	std::fprintf(stderr, "text_fuzzer: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
	std::abort();
}

// Allocations handed to the core for one input, all freed at its end (LeakSanitizer sees any the core keeps).
std::vector<void *> g_allocations;
[[maybe_unused]] void *
TrackedAllocate(std::size_t bytes)
{
	void *p = std::malloc(bytes);
	if (p != nullptr)
		g_allocations.push_back(p);
	return p;
}
void
FreeAllocations()
{
	for (void *p : g_allocations)
		std::free(p);
	g_allocations.clear();
}

// Runs one step; a pap::core::Error other than Internal is an accepted outcome (returns false).
template <typename F>
bool
Try(const char *step, F &&body)
{
	try {
		body();
		return true;
	} catch (const Error &e) {
		if (e.kind() == ErrorKind::Internal)
			Fail(step, std::string("internal error: ") + e.what());
		if (e.what()[0] == '\0')
			Fail(step, "error with an empty message");
		return false;
	}
	// Anything else propagates to LLVMFuzzerTestOneInput's handlers.
}

bool
SameFloat8(double a, double b)
{
	if (std::isnan(a) || std::isnan(b))
		return std::isnan(a) && std::isnan(b);
	return a == b && std::signbit(a) == std::signbit(b);
}

// The canonical text of a parsed query: every term with its coefficient, so a single term stays linear.
std::string
RenderQuery(const QueryText &query)
{
	std::string out;
	for (const Condition &c : query.conditions) {
		if (!out.empty())
			out += " AND ";
		if (c.terms.empty()) {
			out += QuoteIdentifier(c.column);
		} else {
			for (std::size_t i = 0; i < c.terms.size(); i++) {
				const LinearTerm &t = c.terms[i];
				if (i == 0)
					out += FormatFloat8(t.coefficient);
				else
					out += std::string(std::signbit(t.coefficient) ? " - " : " + ") +
					       FormatFloat8(std::fabs(t.coefficient));
				out += "*" + QuoteIdentifier(t.column);
			}
		}
		// Casts in the :: spelling, whichever the text used (CAST(... AS t) and t '...' parse to the same).
		const auto literal = [](const Literal &l) {
			std::string written = l.quoted ? QuoteLiteral(l.text) : l.text;
			for (const LiteralCast &cast : l.casts)
				written += "::" + cast.type;
			return written;
		};
		out += std::string(" ") + ComparisonText(c.op);
		if (c.op == Comparison::In) {
			for (std::size_t i = 0; i < c.list.size(); i++)
				out += (i == 0 ? " (" : ", ") + literal(c.list[i]);
			out += ")";
		} else if (c.op != Comparison::IsNull && c.op != Comparison::IsNotNull) {
			out += " " + literal(c.value);
		}
		if (c.op == Comparison::Between)
			out += " AND " + literal(c.upper);
	}
	return out;
}

bool
SameLiteral(const Literal &a, const Literal &b)
{
	if (a.text != b.text || a.quoted != b.quoted || a.casts.size() != b.casts.size())
		return false;
	for (std::size_t i = 0; i < a.casts.size(); i++)
		if (a.casts[i].type != b.casts[i].type)
			return false;
	return true;
}

// The literals of a condition in reading order (LiteralCount of them).
std::vector<const Literal *>
LiteralsOf(const Condition &c)
{
	switch (c.op) {
	case Comparison::In: {
		std::vector<const Literal *> out;
		for (const Literal &l : c.list)
			out.push_back(&l);
		return out;
	}
	case Comparison::IsNull:
	case Comparison::IsNotNull: return {};
	case Comparison::Between: return {&c.value, &c.upper};
	default: return {&c.value};
	}
}

bool
SameQuery(const QueryText &a, const QueryText &b)
{
	if (a.conditions.size() != b.conditions.size())
		return false;
	for (std::size_t i = 0; i < a.conditions.size(); i++) {
		const Condition &x = a.conditions[i], &y = b.conditions[i];
		if (x.column != y.column || x.op != y.op || x.terms.size() != y.terms.size())
			return false;
		const std::vector<const Literal *> xs = LiteralsOf(x), ys = LiteralsOf(y);
		if (xs.size() != ys.size())
			return false;
		for (std::size_t k = 0; k < xs.size(); k++)
			if (!SameLiteral(*xs[k], *ys[k]))
				return false;
		for (std::size_t k = 0; k < x.terms.size(); k++)
			if (x.terms[k].column != y.terms[k].column || !SameFloat8(x.terms[k].coefficient, y.terms[k].coefficient))
				return false;
	}
	return true;
}

void
CheckParsedQuery(const QueryText &query, std::string_view input)
{
	const std::string text(input);
	if (query.conditions.empty())
		Fail("empty query accepted", text);
	std::size_t literals = 0;
	for (const Condition &c : query.conditions) {
		literals += LiteralsOf(c).size();
		if (c.op == Comparison::In && c.list.empty())
			Fail("IN list without values", text);
		if (c.column.empty() == c.terms.empty())
			Fail("condition with both or neither of a column and terms", text);
		if (!c.terms.empty() && c.op != Comparison::LessEqual && c.op != Comparison::Less &&
		    c.op != Comparison::GreaterEqual && c.op != Comparison::Greater)
			Fail("linear condition with another comparison than <=, <, >= or >", text);
		for (const LinearTerm &t : c.terms)
			if (!std::isfinite(t.coefficient) || t.column.empty() || t.position >= input.size())
				Fail("malformed linear term", text);
		for (const Literal *l : LiteralsOf(c)) {
			if (l->position >= input.size())
				Fail("literal position outside the text", text);
			for (const LiteralCast &cast : l->casts)
				if (cast.type.empty() || cast.position >= input.size())
					Fail("malformed cast", text);
		}
	}
	if (LiteralCount(query) != literals)
		Fail("LiteralCount disagrees with the conditions", text);
	const std::string rendered = RenderQuery(query);
	QueryText again;
	if (!Try("reparse rendered query", [&] { again = ParseQueryText(rendered); }))
		Fail("rendered query does not parse", rendered + " <- " + text);
	if (!SameQuery(query, again))
		Fail("rendered query parses to another query", rendered + " <- " + text);
}

// A literal printed by value_format reads back through the query parser as the text it quotes.
void
CheckLiteralReadsBack(const std::string &literal, const std::string &expected_text)
{
	QueryText q;
	if (!Try("parse formatted literal", [&] { q = ParseQueryText("x = " + literal); }) || q.conditions.size() != 1 ||
	    q.conditions[0].value.text != expected_text || q.conditions[0].value.quoted != (literal[0] == '\''))
		Fail("formatted literal does not read back", literal);
}

void
CheckValueFormat(const Literal &lit, const double *numeric_value)
{
	for (const ValueType type : {ValueType::Number, ValueType::Text, ValueType::Boolean, ValueType::Date})
		CheckLiteralReadsBack(FormatCategoryLiteral(lit.text, type), lit.text);
	if (numeric_value == nullptr)
		return;
	for (const ValueType type : {ValueType::Date, ValueType::Timestamp, ValueType::TimestampTz}) {
		std::string formatted;
		if (!Try("FormatAxisLiteral", [&] { formatted = FormatAxisLiteral(*numeric_value, type); }))
			continue;
		if (formatted.size() < 2 || formatted.front() != '\'' || formatted.back() != '\'')
			Fail("temporal literal not quoted", formatted);
		CheckLiteralReadsBack(formatted, formatted.substr(1, formatted.size() - 2));
	}
}

// The fixed public values: the float8 edge cases included. Sorted and distinct in PostgreSQL's order.
const double kInf = std::numeric_limits<double>::infinity();
const std::vector<double> kCuts = {-kInf, -1e300, -2.5,  0.0,  1.5,
                                   10.0,  1000.0, 1e300, kInf, std::numeric_limits<double>::quiet_NaN()};

void
FreeDraft(ReleaseDraft *d)
{
	FreeReleaseDraft(d);
}

// Defines a release of class_text as the glue does (api/release_api.hpp steps 1-6) over a small fixed public
// table: every column a number (public values kCuts or {1.5, 10, inf}), categories {"a", "b"}, predicates true
// on alternate rows, one public row on a few grid points. Returns the model (uniform synthetic), or throws.
ReleaseModel *
DefineModel(const char *class_text, const std::vector<double> &values)
{
	std::unique_ptr<ReleaseDraft, void (*)(ReleaseDraft *)> draft(
	    BeginReleaseDraft(class_text, 0.1, Granularity::Finest), FreeDraft);
	ReleaseDraft *d = draft.get();
	for (std::size_t i = 0; i < DraftColumnCount(d); i++)
		DraftSetColumnType(d, i, ValueType::Number, "double precision");
	const std::size_t predicates = DraftPredicateCount(d);
	if (predicates > 0) {
		(void)DraftPredicateLabelSql(d);
		// As PostgreSQL would: a predicate's labels depend on its condition, so two texts of one condition (one
		// PredicateKey: 'sMoker' and 'smoker', or the same text listed twice) label the rows alike; a text without a
		// key labels by its text (surrounding whitespace aside).
		std::vector<std::int32_t> labels;
		for (std::size_t row = 0; row < 2; row++)
			for (std::size_t p = 0; p < predicates; p++) {
				std::string text = DraftPredicate(d, p);
				text.erase(0, text.find_first_not_of(" \t\n\r\f\v"));
				text.erase(text.find_last_not_of(" \t\n\r\f\v") + 1);
				const std::optional<std::string> key = PredicateKey(text);
				labels.push_back(std::int32_t((row + std::hash<std::string>{}(key ? "key:" + *key : text)) % 2));
			}
		const std::int64_t label_rows[2] = {1, 1};
		DraftMergePredicates(d, labels.data(), label_rows, 2);
	}
	const std::size_t axes = DraftAxisCount(d);
	const std::vector<std::int64_t> ones(values.size(), 1);
	const char *const categories[2] = {"b", "a"};
	for (std::size_t a = 0; a < axes; a++) {
		if (DraftAxisMarginalSql(d, a) == nullptr)
			continue;
		if (DraftAxisIsNumeric(d, a))
			DraftSetNumericMarginal(d, a, values.data(), ones.data(), values.size(), 1);
		else
			DraftSetCategories(d, a, categories, 2);
	}
	(void)DraftScanSelectList(d);
	std::vector<std::int32_t> radices;
	for (std::size_t a = 0; a < axes; a++) {
		const double *cuts = nullptr;
		const char *const *cats = nullptr;
		std::size_t count = 0;
		const ScanParameterKind kind = DraftScanParameter(d, a, &cuts, &cats, &count);
		radices.push_back(kind == ScanParameterKind::None ? 2 : std::int32_t(count) + 2);
	}
	// Point i has bin (i + a) mod (radix - 1) on axis a: never the NULL bin of the last row only.
	std::vector<std::int32_t> points;
	std::vector<std::int64_t> rows;
	for (std::int32_t i = 0; i < 4; i++) {
		for (std::size_t a = 0; a < axes; a++)
			points.push_back(radices[a] == 2 ? (i + std::int32_t(a)) % 2 : (i + std::int32_t(a)) % (radices[a] - 1));
		rows.push_back(1 + i);
	}
	DraftSetPublicPoints(d, points.data(), rows.data(), rows.size(), 100000, 100000);
	const CatalogLayout layout = DraftCatalogLayout(d);
	const DraftSummary summary = DraftSummaryOf(d);
	std::int64_t histogram = 0;
	for (std::int64_t c = 0; c < summary.cell_count; c++)
		histogram += summary.public_histogram[c];
	if (histogram != summary.public_rows || summary.public_rows != 10)
		Fail("public histogram does not sum to the public rows", class_text);
	std::vector<double> synthetic(std::size_t(summary.cell_count), 1.0 / double(summary.cell_count));
	ReleaseModel *model = LoadReleaseModel(layout, synthetic.data(), synthetic.size(), 1000);
	if (std::int64_t(ModelCoverSize(model)) != summary.cover_size)
		Fail("model and draft disagree on the cover size", class_text);
	return model;
}

struct ModelDeleter {
	void
	operator()(ReleaseModel *m) const
	{
		FreeReleaseModel(m);
	}
};
using Model = std::unique_ptr<ReleaseModel, ModelDeleter>;

// pap.answer's path: parse, read the literals for their columns, project. Categorical literals as written.
std::size_t
EngineProject(const ReleaseModel *model, const char *text)
{
	std::unique_ptr<ParsedQuery, void (*)(ParsedQuery *)> parsed(ParseQueryForModel(model, text), FreeParsedQuery);
	const std::size_t n = ParsedQueryLiteralCount(parsed.get());
	std::vector<double> numbers(n + 1, 0.0);
	std::vector<const char *> texts(n + 1, nullptr);
	for (std::size_t i = 0; i < n; i++) {
		const LiteralTarget t = ParsedQueryLiteral(model, parsed.get(), i);
		if (t.kind == AxisKind::Categorical)
			texts[i] = t.text;
		else if (t.casts == 0)  // the glue applies casts with PostgreSQL's own; the fixed releases then see 0
			numbers[i] = ReadNumberLiteral(parsed.get(), i);
	}
	return ModelProject(model, parsed.get(), numbers.data(), texts.data());
}

// Every cover query's text projects back to it (but marginals' "other" texts, which are not of the class).
void
CheckRenderRoundTrip(const ReleaseModel *model, const std::string &what)
{
	const std::size_t size = ModelCoverSize(model);
	for (std::size_t q = 0; q < size && q < 64; q++) {
		const std::string rendered = ModelRenderQuery(model, q, TrackedAllocate);
		if (rendered.find(" NOT IN (") != std::string::npos || rendered.find(" IS NOT NULL") != std::string::npos)
			continue;
		std::size_t back = size;
		if (!Try("project rendered cover query", [&] { back = EngineProject(model, rendered.c_str()); }))
			Fail("rendered cover query does not project", rendered + " [" + what + "]");
		if (back != q)
			Fail("rendered cover query projects elsewhere", rendered + " [" + what + "]");
		const double answer = ModelAnswer(model, q);
		if (!(answer >= 0.0 && answer <= 1.0))
			Fail("answer outside [0, 1]", rendered);
	}
	for (std::size_t c = 0; c < ModelCellCount(model) && c < 64; c++) {
		char *bounds = nullptr, *json = nullptr;
		ModelDescribeCell(model, c, &bounds, &json, TrackedAllocate);
	}
}

struct Fixture {
	Model model[2];  // thresholds(x), ranges(x) over the public values kCuts (bin j - 1 holds w_j)
};

Fixture *
MakeFixture()
{
	Fixture *f = new Fixture;
	f->model[0].reset(DefineModel("thresholds(x)", kCuts));
	f->model[1].reset(DefineModel("ranges(x)", kCuts));
	return f;
}

// SQL semantics of one condition on a value, with PostgreSQL's float8 order.
bool
Holds(Comparison op, double x, double v, double upper)
{
	switch (op) {
	case Comparison::LessEqual: return !PgFloatLess(v, x);
	case Comparison::Less: return PgFloatLess(x, v);
	case Comparison::GreaterEqual: return !PgFloatLess(x, v);
	case Comparison::Greater: return PgFloatLess(v, x);
	case Comparison::Equal: return !PgFloatLess(x, v) && !PgFloatLess(v, x);
	case Comparison::Between: return !PgFloatLess(x, v) && !PgFloatLess(upper, x);
	case Comparison::In:
	case Comparison::IsNull:
	case Comparison::IsNotNull: break;  // never in a query FuzzParsers calls numeric
	}
	Fail("unknown comparison");
}

// The query's labeling of the public values against the projected cover query's, read from its rendered text.
void
CheckProjection(const Fixture &f, int which, const QueryText &query, const std::vector<double> &values,
                const std::string &text)
{
	const ReleaseModel *model = f.model[which].get();
	std::size_t q = 0;
	if (!Try("ModelProject", [&] { q = EngineProject(model, text.c_str()); }))
		return;
	if (q >= ModelCoverSize(model))
		Fail("projection outside the cover", text);
	const double answer = ModelAnswer(model, q);
	if (!(answer >= 0.0 && answer <= 1.0))
		Fail("answer outside [0, 1]", text);
	const std::string rendered = ModelRenderQuery(model, q, TrackedAllocate);
	QueryText cover;
	if (!Try("parse rendered", [&] { cover = ParseQueryText(rendered); }))
		Fail("rendered cover query does not parse", rendered);
	std::vector<double> cover_values;
	for (const Condition &c : cover.conditions) {
		cover_values.push_back(NumericLiteralValue(c.value));
		if (c.op == Comparison::Between)
			cover_values.push_back(NumericLiteralValue(c.upper));
	}
	const auto labels = [](const QueryText &qt, const std::vector<double> &vals, double x) {
		bool in = true;
		std::size_t next = 0;
		for (const Condition &c : qt.conditions) {
			const double v = vals[next++];
			const double upper = c.op == Comparison::Between ? vals[next++] : 0.0;
			in = in && Holds(c.op, x, v, upper);
		}
		return in;
	};
	// Oracle: at the finest granularity the cover query labels every public value as the query does.
	for (std::size_t j = 0; j < kCuts.size(); j++)
		if (labels(query, values, kCuts[j]) != labels(cover, cover_values, kCuts[j]))
			Fail("projection labels a public value differently from the query",
			     text + " [class " + std::to_string(which) + ", public value " + FormatFloat8(kCuts[j]) +
			         ", cover query " + rendered + "]");
	std::size_t back = 0;
	if (!Try("reparse rendered", [&] { back = EngineProject(model, rendered.c_str()); }))
		Fail("rendered cover query does not project", rendered);
	if (back != q)
		Fail("rendered cover query projects elsewhere", rendered + " <- " + text);
}

// The parser steps: class texts, the query text and its literals. Returns whether the query parsed with every
// literal numeric (values then holds them in reading order).
bool
FuzzParsers(std::string_view input, QueryText &query, std::vector<double> &values)
{
	const std::string text(input);

	// --- class texts ---
	Try("ParseClassText", [&] {
		const ClassText ct = ParseClassText(input);
		if (ct.name.empty())
			Fail("class text with an empty name", text);
	});
	Try("ParseClassSpec", [&] {
		const ClassSpec spec = ParseClassSpec(input);
		const std::string canonical = spec.CanonicalText();
		ClassSpec again;
		if (!Try("reparse canonical class", [&] { again = ParseClassSpec(canonical); }) || again != spec)
			Fail("canonical class text does not read back", text + " -> " + canonical);
	});

	// --- query texts ---
	if (!Try("ParseQueryText", [&] { query = ParseQueryText(input); }))
		return false;
	CheckParsedQuery(query, input);
	bool numeric = true;
	for (const Condition &c : query.conditions) {
		// Only bounds the fixed releases answer are checked against their labels: no IN list, no IS [NOT] NULL,
		// no cast (its value is PostgreSQL's to compute).
		if (c.op == Comparison::In || c.op == Comparison::IsNull || c.op == Comparison::IsNotNull)
			numeric = false;
		for (const Literal *lit : LiteralsOf(c)) {
			if (!lit->casts.empty())
				numeric = false;
			double v = 0.0;
			if (!Try("NumericLiteralValue", [&] { v = NumericLiteralValue(*lit); })) {
				numeric = false;
				CheckValueFormat(*lit, nullptr);
				continue;
			}
			values.push_back(v);
			CheckValueFormat(*lit, &v);
			// FormatFloat8 reads back as the same float8 (its quotes, for NaN and infinities, removed).
			std::string formatted = FormatFloat8(v);
			if (formatted.size() >= 2 && formatted.front() == '\'')
				formatted = formatted.substr(1, formatted.size() - 2);
			Literal back;
			back.text = formatted;
			double again = 0.0;
			if (!Try("NumericLiteralValue(FormatFloat8)", [&] { again = NumericLiteralValue(back); }) ||
			    !SameFloat8(v, again))
				Fail("FormatFloat8 does not read back", lit->text + " -> " + formatted);
		}
	}
	if (numeric && LiteralCount(query) != values.size())
		Fail("LiteralCount disagrees with the conditions", text);
	return numeric;
}

// ParseSimpleQueryText is a shortcut for the shape pap.answer sees most; it may decline any text, but a text it
// accepts must be the query ParseQueryText reads.
void
CheckFastPathAgrees(std::string_view input)
{
	QueryText fast;
	if (!ParseSimpleQueryText(input, fast))
		return;
	QueryText full;
	try {
		full = ParseQueryText(input);
	} catch (const Error &e) {
		Fail("fast path", std::string("accepted a text the full parser refuses: ") + e.what());
	}
	if (!SameQuery(fast, full))
		Fail("fast path",
		     "parsed a text differently from the full parser: " + RenderQuery(fast) + " vs " + RenderQuery(full));
	if (LiteralCount(fast) != LiteralCount(full))
		Fail("fast path", "literal counts differ");
}

void
FuzzOne(const Fixture &f, std::string_view input)
{
	const std::string text(input);  // for the C-string entry points (stops at the first NUL)

	// --- class texts (the parsers' own steps run in FuzzParsers): a whole definition over a fixed table ---
	const std::vector<double> few = {1.5, 10.0, kInf};
	for (const std::vector<double> *values : {&kCuts, &few}) {
		Try("DefineModel", [&] {
			const Model model(DefineModel(text.c_str(), *values));
			CheckRenderRoundTrip(model.get(), text);
		});
	}
	Try("ParseMechanism", [&] { (void)ParseMechanism(text.c_str()); });
	Try("ParseUniformPrior", [&] { (void)ParseUniformPrior(text.c_str()); });
	Try("ParseGranularity", [&] { (void)ParseGranularity(text.c_str()); });

	// --- query texts ---
	CheckFastPathAgrees(input);
	QueryText query;
	std::vector<double> values;
	const bool numeric = FuzzParsers(input, query, values);
	if (query.conditions.empty())
		return;
	if (!numeric || text.size() != input.size())
		return;  // not a numeric query, or an embedded NUL the C-string path would cut
	for (int which = 0; which < 2; which++)
		CheckProjection(f, which, query, values, text);
}

}  // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	const std::string_view input(reinterpret_cast<const char *>(data), size);
	try {
		static Fixture *fixture = MakeFixture();
		FuzzOne(*fixture, input);
	} catch (const std::exception &e) {
		FreeAllocations();
		Fail("exception other than pap::core::Error", e.what());
	} catch (...) {
		FreeAllocations();
		Fail("non-standard exception");
	}
	FreeAllocations();
	return 0;
}
