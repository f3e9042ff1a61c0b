// MakeMarginalCover (marginals(k; ...) and stumps over categorical axes), checked against brute force on small
// random public points: the cover is exactly the first query (canonical order) of every distinct labeling of the
// public points (Algorithm 3 steps 1-4, dedup across attribute sets, one empty-pattern query); every query of the
// class projects to the cover query with its labeling; Render reads back (ParseQueryText + Project) to the same
// cover query; errors and limits.
#include "core/classes/marginal_cover.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {
namespace {

constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

// A class, its axes and public points, owning what CoverInput points to.
struct Fixture {
	ClassSpec spec;
	std::vector<ReleaseAxis> axes;
	std::vector<std::int32_t> points;  // flat, distinct, sorted
	std::vector<std::int64_t> counts;
	CoverInput
	Input(std::size_t max_queries = kNoLimit) const
	{
		return CoverInput{&spec, &axes, &points, &counts, nullptr, max_queries};
	}
};

ReleaseAxis
Categorical(const std::string &column, ValueType type, std::vector<std::string> categories)
{
	ReleaseAxis axis;
	axis.kind = AxisKind::Categorical;
	axis.value_type = type;
	axis.label = column;
	std::sort(categories.begin(), categories.end());
	axis.categories = categories;
	return axis;
}

// Class values of an axis, as the class defines them: categories, then "other" unless boolean.
std::int32_t
ValueCount(const ReleaseAxis &axis)
{
	return std::int32_t(axis.categories.size()) + (axis.value_type == ValueType::Boolean ? 0 : 1);
}

void
SetPoints(Fixture &f, std::vector<std::vector<std::int32_t>> rows)
{
	std::sort(rows.begin(), rows.end());
	rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
	f.points.clear();
	for (const auto &r : rows)
		f.points.insert(f.points.end(), r.begin(), r.end());
	f.counts.assign(rows.size(), 1);
}

// Random axes of every value type; points skewed to low bins, sometimes NULL, rarely "other".
Fixture
RandomFixture(std::mt19937_64 &gen, bool stumps, std::size_t max_rows = 10)
{
	Fixture f;
	const std::size_t d = 1 + gen() % 4;
	for (std::size_t a = 0; a < d; a++) {
		const std::string column = std::string(1, char('a' + a));
		f.spec.columns.push_back(column);
		const int type = stumps ? 2 : int(gen() % 3);
		if (type == 2) {
			f.axes.push_back(Categorical(column, ValueType::Boolean, {"false", "true"}));
		} else {
			std::vector<std::string> pool = type == 0 ? std::vector<std::string>{"M", "F", "O'Brien", "x y"}
			                                          : std::vector<std::string>{"37", "-3", "1.5", "100"};
			pool.resize(gen() % 4);  // 0..3 categories
			f.axes.push_back(Categorical(column, type == 0 ? ValueType::Text : ValueType::Number, pool));
		}
	}
	f.spec.kind = stumps ? ClassKind::Stumps : ClassKind::Marginals;
	f.spec.k = stumps ? 0 : int(1 + gen() % d);
	std::vector<std::vector<std::int32_t>> rows(gen() % max_rows);
	for (auto &r : rows)
		for (const ReleaseAxis &axis : f.axes) {
			const std::int32_t c = std::int32_t(axis.categories.size());
			if (gen() % 8 == 0)
				r.push_back(axis.NullBin());
			else if (c == 0 || (gen() % 16 == 0 && axis.value_type != ValueType::Boolean))
				r.push_back(axis.OtherBin());
			else
				r.push_back(std::int32_t(std::min(gen() % std::uint64_t(c), gen() % std::uint64_t(c))));
		}
	SetPoints(f, rows);
	return f;
}

struct Query {
	std::vector<std::int32_t> axes;    // increasing
	std::vector<std::int32_t> values;  // bins
};

// Every query of the class in canonical order, written independently: k-subsets lexicographically, then value
// tuples in mixed-radix order (last axis fastest).
void
Subsets(std::size_t d, std::size_t k, std::size_t from, std::vector<std::int32_t> &axes,
        std::vector<std::vector<std::int32_t>> &out)
{
	if (axes.size() == k) {
		out.push_back(axes);
		return;
	}
	for (std::size_t a = from; a < d; a++) {
		axes.push_back(std::int32_t(a));
		Subsets(d, k, a + 1, axes, out);
		axes.pop_back();
	}
}

std::vector<Query>
AllQueries(const Fixture &f)
{
	const std::size_t k = f.spec.kind == ClassKind::Stumps ? 1 : std::size_t(f.spec.k);
	std::vector<std::vector<std::int32_t>> subsets;
	std::vector<std::int32_t> axes;
	Subsets(f.axes.size(), k, 0, axes, subsets);
	std::vector<Query> all;
	for (const auto &s : subsets) {
		std::size_t count = 1;
		for (std::int32_t a : s)
			count *= std::size_t(ValueCount(f.axes[std::size_t(a)]));
		for (std::size_t i = 0; i < count; i++) {
			Query q{s, std::vector<std::int32_t>(k)};
			std::size_t rest = i;
			for (std::size_t j = k; j-- > 0;) {
				const std::size_t n = std::size_t(ValueCount(f.axes[std::size_t(s[j])]));
				q.values[j] = std::int32_t(rest % n);
				rest /= n;
			}
			all.push_back(q);
		}
	}
	return all;
}

std::vector<std::size_t>
Labeling(const Fixture &f, const Query &q)
{
	const std::size_t d = f.axes.size();
	std::vector<std::size_t> l;
	for (std::size_t p = 0; p * d < f.points.size(); p++) {
		bool match = true;
		for (std::size_t j = 0; j < q.axes.size(); j++)
			match = match && f.points[p * d + std::size_t(q.axes[j])] == q.values[j];
		if (match)
			l.push_back(p);
	}
	return l;
}

// The query as the glue hands it over: conditions in the given order, literal texts canonical ("other" = a value
// never seen publicly).
std::size_t
ProjectQuery(const Cover &cover, const Fixture &f, const Query &q, const std::vector<std::size_t> &order)
{
	QueryText text;
	std::vector<LiteralValue> literals;
	for (std::size_t j : order) {
		const ReleaseAxis &axis = f.axes[std::size_t(q.axes[j])];
		Condition c;
		c.column = f.spec.columns[std::size_t(q.axes[j])];
		c.op = Comparison::Equal;
		text.conditions.push_back(c);
		LiteralValue v;
		v.text = q.values[j] < std::int32_t(axis.categories.size()) ? axis.categories[std::size_t(q.values[j])]
		                                                            : "never seen";
		literals.push_back(v);
	}
	return cover.Project("", &text, literals);
}

// Parses a rendered query and projects it, literal texts as written (what the glue would pass for these types).
std::size_t
ProjectText(const Cover &cover, const std::string &text)
{
	const QueryText parsed = ParseQueryText(text);
	std::vector<LiteralValue> literals;
	for (const Condition &c : parsed.conditions) {
		LiteralValue v;
		v.text = c.value.text;
		literals.push_back(v);
	}
	return cover.Project(text, &parsed, literals);
}

void
CheckAgainstBruteForce(const Fixture &f, std::mt19937_64 &gen)
{
	const std::unique_ptr<Cover> cover = MakeMarginalCover(f.Input());
	const std::vector<Query> all = AllQueries(f);
	std::map<std::vector<std::size_t>, std::size_t> first;  // labeling -> expected cover index
	std::vector<Query> expected;
	for (const Query &q : all)
		if (first.emplace(Labeling(f, q), expected.size()).second)
			expected.push_back(q);
	const ProductQueryList &queries = cover->Queries();
	ASSERT_EQ(queries.size(), expected.size()) << f.spec.CanonicalText();
	for (std::size_t q = 0; q < expected.size(); q++) {
		ASSERT_EQ(queries.ConstraintCount(q), expected[q].axes.size());
		for (std::size_t j = 0; j < expected[q].axes.size(); j++) {
			const AxisConstraint &c = queries.begin(q)[j];
			EXPECT_EQ(c.axis, std::uint32_t(expected[q].axes[j]));
			EXPECT_EQ(c.bins.lo, expected[q].values[j]);
			EXPECT_EQ(c.bins.hi, expected[q].values[j]);
		}
		// Render reads back to the same cover query, unless it shows "other" (NOT IN / IS NOT NULL).
		const std::string text = cover->Render(q);
		bool other = false;
		for (std::size_t j = 0; j < expected[q].axes.size(); j++)
			other = other ||
			        expected[q].values[j] >= std::int32_t(f.axes[std::size_t(expected[q].axes[j])].categories.size());
		EXPECT_EQ(other, text.find("NOT IN (") != std::string::npos || text.find("IS NOT NULL") != std::string::npos)
		    << text;
		if (!other) {
			EXPECT_EQ(ProjectText(*cover, text), q) << text;
		}
	}
	for (const Query &q : all) {
		std::vector<std::size_t> order(q.axes.size());
		for (std::size_t j = 0; j < order.size(); j++)
			order[j] = j;
		std::shuffle(order.begin(), order.end(), gen);
		ASSERT_EQ(ProjectQuery(*cover, f, q, order), first.at(Labeling(f, q)));
	}
}

TEST(MarginalCover, CoverIsFirstQueryOfEveryDistinctLabeling)
{
	std::mt19937_64 gen(101);
	for (int trial = 0; trial < 400; trial++)
		CheckAgainstBruteForce(RandomFixture(gen, false), gen);
}

// Many public rows per tuple: the grouping of each attribute set's rows by tuple and its hash table (capacity the
// next power of two of twice the rows) at sizes that are not powers of two.
TEST(MarginalCover, ManyPublicRowsAgainstBruteForce)
{
	std::mt19937_64 gen(303);
	for (int trial = 0; trial < 60; trial++)
		CheckAgainstBruteForce(RandomFixture(gen, trial % 4 == 0, 300), gen);
}

TEST(MarginalCover, StumpsAgainstBruteForce)
{
	std::mt19937_64 gen(202);
	for (int trial = 0; trial < 200; trial++)
		CheckAgainstBruteForce(RandomFixture(gen, true), gen);
}

TEST(MarginalCover, DedupAcrossAttributeSetsAndRender)
{
	// stumps(a, b, c): public a and b always equal, c always NULL (bins: false 0, true 1, other 2, NULL 3).
	Fixture f;
	f.spec = ParseClassSpec("stumps(a, b, c)");
	for (const char *c : {"a", "b", "c"})
		f.axes.push_back(Categorical(c, ValueType::Boolean, {"false", "true"}));
	SetPoints(f, {{0, 0, 3}, {1, 1, 3}});
	const std::unique_ptr<Cover> s = MakeMarginalCover(f.Input());
	// a = false ~ b = false, a = true ~ b = true, c = false ~ c = true (empty).
	ASSERT_EQ(s->QueryCount(), 3u);
	EXPECT_EQ(s->Render(0), "a = false");
	EXPECT_EQ(s->Render(1), "a = true");
	EXPECT_EQ(s->Render(2), "c = false");
	EXPECT_EQ(ProjectText(*s, "b = TRUE"), 1u);
	EXPECT_EQ(ProjectText(*s, "c = true"), 2u);

	// marginals(2; age, sex, name): values print as literals of their type; "other" as NOT IN.
	Fixture m;
	m.spec = ParseClassSpec("marginals(1; age, name)");
	m.axes = {Categorical("age", ValueType::Number, {"37", "-3"}), Categorical("name", ValueType::Text, {"O'Brien"})};
	SetPoints(m, {{0, 0}, {1, 2}});
	const std::unique_ptr<Cover> c = MakeMarginalCover(m.Input());
	// age = -3 {0}, age = 37 {1}, age = other {} (empty), name = 'O''Brien' ~ age = -3.
	ASSERT_EQ(c->QueryCount(), 3u);
	EXPECT_EQ(c->Render(0), "age = -3");
	EXPECT_EQ(c->Render(1), "age = 37");
	EXPECT_EQ(c->Render(2), "age NOT IN (-3, 37)");
	EXPECT_EQ(ProjectText(*c, "name = 'O''Brien'"), 0u);
	EXPECT_EQ(ProjectText(*c, "name = 'nobody'"), 2u);
	EXPECT_EQ(c->VcDimension(), 3);  // two families: 2^3 <= 2 * 4, 2^4 > 2 * 5
	// No categories at all: "other" is any non-NULL value.
	Fixture e;
	e.spec = ParseClassSpec("marginals(1; t)");
	e.axes = {Categorical("t", ValueType::Text, {})};
	SetPoints(e, {{1}});
	const std::unique_ptr<Cover> ec = MakeMarginalCover(e.Input());
	ASSERT_EQ(ec->QueryCount(), 1u);
	EXPECT_EQ(ec->Render(0), "t IS NOT NULL");
}

TEST(MarginalCover, Errors)
{
	Fixture f;
	f.spec = ParseClassSpec("marginals(2; a, b, c)");
	for (const char *c : {"a", "b", "c"})
		f.axes.push_back(Categorical(c, ValueType::Text, {"u", "v"}));
	SetPoints(f, {{0, 1, 2}, {1, 1, 0}, {3, 0, 1}});
	const std::unique_ptr<Cover> c = MakeMarginalCover(f.Input());
	EXPECT_NO_THROW(ProjectText(*c, "c = 'u' AND a = 'v'"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(*c, "a = 'u'"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(*c, "a = 'u' AND b = 'u' AND c = 'u'"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(*c, "a = 'u' AND a = 'v'"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(*c, "a = 'u' AND b <= 'v'"));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(*c, "a = 'u' AND 1*b + 2*c <= 3"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, ProjectText(*c, "a = 'u' AND d = 'v'"));
	try {
		ProjectText(*c, "a = 'u'");
		FAIL();
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()), "query is outside the release's query class marginals(2; a, b, c)");
		EXPECT_NE(e.detail().find("contains conjunctions of exactly 2 equalities"), std::string::npos) << e.detail();
	}
	// Limits: C(3, 2) = 3 attribute sets; the cover itself.
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MakeMarginalCover(f.Input(2)));
	const std::size_t n = c->QueryCount();
	EXPECT_NO_THROW(MakeMarginalCover(f.Input(n)));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MakeMarginalCover(f.Input(n - 1)));
	// Stumps over a text column; a boolean axis must have exactly false and true.
	Fixture s = f;
	s.spec = ParseClassSpec("stumps(a, b, c)");
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, MakeMarginalCover(s.Input()));
	s.axes[0] = Categorical("a", ValueType::Boolean, {"true"});
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakeMarginalCover(s.Input()));
	// Points outside the axes, wrong axis count.
	Fixture bad = f;
	bad.points[0] = 4;
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakeMarginalCover(bad.Input()));
	bad = f;
	bad.axes.pop_back();
	EXPECT_PAP_ERROR(ErrorKind::Internal, MakeMarginalCover(bad.Input()));
}

TEST(MarginalCover, VcDimensionOfUnion)
{
	EXPECT_EQ(VcDimensionOfUnion(1), 1);   // 2^1 <= 1 * 2
	EXPECT_EQ(VcDimensionOfUnion(2), 3);   // 2^3 <= 2 * 4, 2^4 > 2 * 5
	EXPECT_EQ(VcDimensionOfUnion(10), 6);  // 2^6 <= 10 * 7, 2^7 > 10 * 8
	// The largest s in 1..200 with 2^s <= families * (s + 1), searched from the top.
	for (double families : {3.0, 1000.0, 1e6, 1e30}) {
		int s = 200;
		while (s > 1 && std::ldexp(1.0, s) > families * (s + 1))
			s--;
		EXPECT_EQ(VcDimensionOfUnion(families), s) << families;
	}
}

}  // namespace
}  // namespace pap::core
