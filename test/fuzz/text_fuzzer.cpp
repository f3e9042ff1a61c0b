// libFuzzer target for every text the core parses (docs/robustness.md). The same input bytes go to each parser:
// class texts (ParseClassText, ParseQueryClass, ParseClassForDefine, BuildDefinedRelease, LoadReleaseModel),
// query texts (ParseQueryText, NumericLiteralValue on every literal, ParseQueryForModel), the mechanism and prior
// names, and a full projection of the query onto small fixed covers, thresholds(x) and ranges(x), through both
// IntervalCover::Project and the engine's ModelProjectNumericQuery.
//
// Contract checked: every input either succeeds or throws pap::core::Error of a kind other than Internal (an
// Internal error would reach users as XX000, a broken invariant). Any other exception, a crash or a sanitizer
// report is a failure, and so is a wrong answer to the oracles below:
//   - a projected cover query labels every public value exactly as the query does (SQL semantics, PostgreSQL's
//     float8 order: NaN above everything and equal to itself);
//   - both projection paths agree, and the index is inside the cover;
//   - FormatFloat8 of every literal value reads back as the same float8;
//   - the cover query's rendered text projects back to itself;
//   - a parsed query keeps its invariants (a column or linear terms, finite coefficients, positions inside the
//     text), LiteralCount counts its literals, and its canonical rendering (QuoteIdentifier, QuoteLiteral,
//     FormatFloat8 coefficients) parses back to the same query;
//   - ParseClassSpec's canonical text parses back to the same class;
//   - FormatAxisLiteral of every numeric literal, as each temporal type, and FormatCategoryLiteral of every
//     literal read back through the query parser as the text they print.
//
// Build and run: make fuzz (bounded, CI) or make fuzz-long. Needs clang-14 and libclang-rt-14-dev.
// -DPAP_FUZZ_PARSERS_ONLY leaves out the engine and cover steps, so that the parser checks build from
// query_text, text_lexer, class_spec, value_format and interval_cover (FormatFloat8, NumericLiteralValue) alone.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/class_spec.hpp"
#include "core/errors.hpp"
#include "core/interval_cover.hpp"
#include "core/query_text.hpp"
#include "core/value_format.hpp"
#ifndef PAP_FUZZ_PARSERS_ONLY
#include "core/numeric_axis.hpp"
#include "core/query_class.hpp"
#include "core/release_engine.hpp"
#endif

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
		const auto literal = [](const Literal &l) { return l.quoted ? QuoteLiteral(l.text) : l.text; };
		out += std::string(" ") + ComparisonText(c.op) + " " + literal(c.value);
		if (c.op == Comparison::Between)
			out += " AND " + literal(c.upper);
	}
	return out;
}

bool
SameQuery(const QueryText &a, const QueryText &b)
{
	if (a.conditions.size() != b.conditions.size())
		return false;
	for (std::size_t i = 0; i < a.conditions.size(); i++) {
		const Condition &x = a.conditions[i], &y = b.conditions[i];
		if (x.column != y.column || x.op != y.op || x.terms.size() != y.terms.size() || x.value.text != y.value.text ||
		    x.value.quoted != y.value.quoted)
			return false;
		if (x.op == Comparison::Between && (x.upper.text != y.upper.text || x.upper.quoted != y.upper.quoted))
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
		literals += c.op == Comparison::Between ? 2 : 1;
		if (c.column.empty() == c.terms.empty())
			Fail("condition with both or neither of a column and terms", text);
		if (!c.terms.empty() && (c.op == Comparison::Equal || c.op == Comparison::Between))
			Fail("linear condition with = or BETWEEN", text);
		for (const LinearTerm &t : c.terms)
			if (!std::isfinite(t.coefficient) || t.column.empty() || t.position >= input.size())
				Fail("malformed linear term", text);
		if (c.value.position >= input.size() || (c.op == Comparison::Between && c.upper.position >= input.size()))
			Fail("literal position outside the text", text);
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

#ifndef PAP_FUZZ_PARSERS_ONLY
// The fixed public values: the float8 edge cases included. Sorted and distinct in PostgreSQL's order.
const double kInf = std::numeric_limits<double>::infinity();
const std::vector<double> kCuts = {-kInf, -1e300, -2.5, 0.0, 1.5, 10.0, 1000.0, 1e300, kInf,
                                   std::numeric_limits<double>::quiet_NaN()};

struct Fixture {
	IntervalCover *cover[2];
	ReleaseModel *model[2];
};

Fixture *
MakeFixture()
{
	Fixture *f = new Fixture;
	const char *classes[2] = {"thresholds(x)", "ranges(x)"};
	for (int i = 0; i < 2; i++) {
		f->cover[i] = new IntervalCover(ParseQueryClass(classes[i]), NumericAxis::FromCuts(kCuts), 1000000);
		const std::size_t cells = f->cover[i]->CellCount();
		std::vector<double> synthetic(cells, 1.0 / double(cells));
		f->model[i] = LoadReleaseModel(classes[i], kCuts.data(), kCuts.size(), synthetic.data(), cells, 1000);
	}
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
	}
	Fail("unknown comparison");
}

std::string
FormatForRender(double value, const void *)
{
	return FormatFloat8(value);
}

void
CheckProjection(const Fixture &f, int which, const QueryText &query, const std::vector<double> &values,
                const std::string &text)
{
	const IntervalCover &cover = *f.cover[which];
	std::size_t q = 0;
	if (!Try("IntervalCover::Project", [&] { q = cover.Project(query, values); }))
		return;
	if (q >= cover.QueryCount())
		Fail("projection outside the cover", text);
	// Oracle: the cover query labels every public value w_j (bin j-1) as the query does.
	const CellInterval &iv = cover.Cells(q);
	for (std::size_t j = 0; j < kCuts.size(); j++) {
		bool in_query = true;
		std::size_t next = 0;
		for (const Condition &c : query.conditions) {
			const double v = values[next++];
			const double upper = c.op == Comparison::Between ? values[next++] : 0.0;
			in_query = in_query && Holds(c.op, kCuts[j], v, upper);
		}
		const bool in_cover = !iv.empty() && iv.lo <= std::int32_t(j) && std::int32_t(j) <= iv.hi;
		if (in_query != in_cover)
			Fail("projection labels a public value differently from the query",
			     text + " [class " + std::to_string(which) + ", public value " + FormatFloat8(kCuts[j]) +
			         ", cover query " + std::to_string(q) + "]");
	}
	// The engine's path agrees (it parses the text itself: stop at an embedded NUL as a C string would).
	std::size_t q2 = 0;
	if (!Try("ModelProjectNumericQuery", [&] { q2 = ModelProjectNumericQuery(f.model[which], text.c_str()); }))
		Fail("engine refused a query the cover accepted", text);
	if (q2 != q)
		Fail("engine and cover projections differ", text);
	const double answer = ModelAnswer(f.model[which], q);
	if (!(answer >= 0.0 && answer <= 1.0))
		Fail("answer outside [0, 1]", text);
	(void) ModelCoverQueryShape(f.model[which], q);
	// The rendered cover query reads back as itself.
	const std::string rendered = cover.Render(q, FormatForRender, nullptr);
	if (rendered.find("IS NOT NULL") == std::string::npos) {
		std::size_t back = 0;
		if (!Try("reparse rendered", [&] { back = ModelProjectNumericQuery(f.model[which], rendered.c_str()); }))
			Fail("rendered cover query does not parse", rendered);
		if (back != q)
			Fail("rendered cover query projects elsewhere", rendered + " <- " + text);
	}
}

#endif  // PAP_FUZZ_PARSERS_ONLY

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
		for (const Literal *lit : {&c.value, &c.upper}) {
			if (lit == &c.upper && c.op != Comparison::Between)
				break;
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

#ifndef PAP_FUZZ_PARSERS_ONLY
void
FuzzOne(const Fixture &f, std::string_view input)
{
	const std::string text(input);  // for the C-string entry points (stops at the first NUL)

	// --- class texts (the parsers' own steps run in FuzzParsers) ---
	Try("ParseQueryClass", [&] {
		const QueryClass cls = ParseQueryClass(input);
		const QueryClass again = ParseQueryClass(cls.Text());  // canonical text is stable
		if (again.Text() != cls.Text() || again.column != cls.column || again.kind != cls.kind)
			Fail("canonical class text does not read back", text + " -> " + cls.Text());
	});
	Try("ParseClassForDefine", [&] {
		const ParsedClass pc = ParseClassForDefine(text.c_str(), TrackedAllocate);
		if (pc.canonical_text == nullptr || pc.column == nullptr)
			Fail("ParseClassForDefine returned NULL");
	});
	Try("BuildDefinedRelease", [&] {
		const double values[3] = {1.5, 10.0, kInf};
		const std::int64_t counts[3] = {2, 3, 1};
		const DefinedRelease d = BuildDefinedRelease(text.c_str(), values, counts, 3, 1, 1000, TrackedAllocate);
		if (d.cut_count != 3 || d.public_rows != 7)
			Fail("BuildDefinedRelease miscounted", text);
	});
	Try("LoadReleaseModel", [&] {
		const std::size_t cells = kCuts.size() + 2;
		std::vector<double> synthetic(cells, 1.0 / double(cells));
		ReleaseModel *m = LoadReleaseModel(text.c_str(), kCuts.data(), kCuts.size(), synthetic.data(), cells, 10);
		FreeReleaseModel(m);
	});
	Try("ParseMechanism", [&] { (void) ParseMechanism(text.c_str()); });
	Try("ParseUniformPrior", [&] { (void) ParseUniformPrior(text.c_str()); });

	// --- query texts ---
	QueryText query;
	std::vector<double> values;
	const bool numeric = FuzzParsers(input, query, values);
	if (query.conditions.empty())
		return;

	// The temporal path: literals handed out one by one, values supplied by the caller.
	Try("ParseQueryForModel", [&] {
		ParsedQuery *pq = ParseQueryForModel(text.c_str());
		const std::size_t n = ParsedQueryLiteralCount(pq);
		std::vector<double> axis(n, 0.0);
		for (std::size_t i = 0; i < n; i++)
			(void) ParsedQueryLiteral(pq, i);
		Try("ModelProjectParsedQuery", [&] { (void) ModelProjectParsedQuery(f.model[1], pq, axis.data()); });
		FreeParsedQuery(pq);
	});

	if (!numeric || text.size() != input.size())
		return;  // not a numeric query, or an embedded NUL the C-string path would cut
	for (int which = 0; which < 2; which++)
		CheckProjection(f, which, query, values, text);
}

#endif  // PAP_FUZZ_PARSERS_ONLY

}  // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	const std::string_view input(reinterpret_cast<const char *>(data), size);
	try {
#ifdef PAP_FUZZ_PARSERS_ONLY
		QueryText query;
		std::vector<double> values;
		(void) FuzzParsers(input, query, values);
#else
		static Fixture *fixture = MakeFixture();
		FuzzOne(*fixture, input);
#endif
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
