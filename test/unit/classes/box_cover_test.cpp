// Tests of the boxes / orthants cover (Algorithm 3 steps 1-4; docs/query-classes.md) against brute force
// on small random 2-D and 3-D public samples with ties, NULLs, NaN and the infinities, at the finest granularity
// and with coarse cuts (ChooseCuts): (a) the finest cover labels the distinct public points in every way the
// class does (it is not deduplicated), and projects every such query to an agreeing cover query; (b) with coarse
// cuts each constrained axis's component has the fewest disagreements on that axis's public marginal, and an
// absent column stays unconstrained; (c) the mixed-radix layout; (d) rendered texts define exactly the cover
// query's cells and project back to it; (e) out-of-class queries, unknown columns and the limit hint.
#include "core/classes/box_cover.hpp"
#include "core/language/value_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/classes/axis_granularity.hpp"
#include "core/classes/interval_cover.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {
namespace {

using test::PgEq;
using test::PgLe;
using test::PgLt;
using Row = std::vector<std::optional<double>>;
using Labeling = std::vector<bool>;  // one entry per distinct public point

constexpr std::size_t kNoLimit = std::size_t(1) << 30;
const std::vector<std::string> kColumns = {"a", "b", "c"};

bool
SameValue(const std::optional<double> &x, const std::optional<double> &y)
{
	return (!x || !y) ? !x && !y : PgEq(*x, *y);
}

struct Sample {
	std::vector<Row> rows;      // the public table
	std::vector<Row> distinct;  // its distinct points
};

// count rows of d values from the special pool, each NULL with probability 1/5.
Sample
RandomSample(std::mt19937_64 &gen, std::size_t d, std::size_t count)
{
	Sample s;
	for (std::size_t i = 0; i < count; i++) {
		const std::vector<double> values = test::RandomPublicSample(gen, d);
		Row row(d);
		for (std::size_t a = 0; a < d; a++)
			if (gen() % 5 != 0)
				row[a] = values[a];
		s.rows.push_back(row);
	}
	for (const Row &row : s.rows) {
		bool seen = false;
		for (const Row &other : s.distinct) {
			bool same = true;
			for (std::size_t a = 0; a < d; a++)
				same = same && SameValue(row[a], other[a]);
			seen = seen || same;
		}
		if (!seen)
			s.distinct.push_back(row);
	}
	return s;
}

// Axis a's public marginal by hand (non-NULL values, hand-written float8 order) and its cuts.
ReleaseAxis
AxisOf(const Sample &s, std::size_t a, double max_bin_rows)
{
	std::vector<double> values;
	for (const Row &row : s.rows)
		if (row[a])
			values.push_back(*row[a]);
	std::stable_sort(values.begin(), values.end(), PgLt);
	ReleaseAxis axis;
	axis.label = kColumns[a];
	for (double v : values) {
		if (!axis.public_values.empty() && PgEq(axis.public_values.back(), v)) {
			axis.public_counts.back()++;
		} else {
			axis.public_values.push_back(v);
			axis.public_counts.push_back(1);
		}
	}
	axis.cuts = ChooseCuts(axis.public_values, axis.public_counts, max_bin_rows);
	return axis;
}

std::vector<ReleaseAxis>
AxesOf(const Sample &s, double max_bin_rows)
{
	std::vector<ReleaseAxis> axes;
	for (std::size_t a = 0; a < s.rows.front().size(); a++)
		axes.push_back(AxisOf(s, a, max_bin_rows));
	return axes;
}

ClassSpec
SpecOf(ClassKind kind, std::size_t d)
{
	ClassSpec spec;
	spec.kind = kind;
	spec.columns.assign(kColumns.begin(), kColumns.begin() + long(d));
	return spec;
}

std::unique_ptr<Cover>
Build(const ClassSpec &spec, const std::vector<ReleaseAxis> &axes, std::size_t limit = kNoLimit)
{
	return MakeBoxCover(CoverInput{&spec, &axes, nullptr, nullptr, nullptr, limit});
}

using Query = test::ProjectedQuery;

void
AddCondition(Query &query, std::size_t a, Comparison op, double c, double c2 = 0.0)
{
	test::AddNumericCondition(query, kColumns[a], op, c, c2);
}

// only_axis: judge only the conditions on that column (the per-axis query), else all of them.
bool
Satisfies(const Query &query, const Row &p, std::optional<std::size_t> only_axis = std::nullopt)
{
	std::size_t next = 0;
	for (const Condition &c : query.text.conditions) {
		const double c1 = query.literals[next++].number;
		const double c2 = c.op == Comparison::Between ? query.literals[next++].number : 0.0;
		const std::size_t a = std::size_t(std::find(kColumns.begin(), kColumns.end(), c.column) - kColumns.begin());
		if (only_axis && a != *only_axis)
			continue;
		if (!p[a] || !test::SatisfiesAsPostgres(c.op, *p[a], c1, c2))
			return false;
	}
	return true;
}

Query
Parse(const std::string &text)
{
	Query query;
	query.text = ParseQueryText(text);
	for (const Condition &c : query.text.conditions) {
		query.literals.push_back(LiteralValue{NumericLiteralValue(c.value), {}});
		if (c.op == Comparison::Between)
			query.literals.push_back(LiteralValue{NumericLiteralValue(c.upper), {}});
	}
	return query;
}

std::int32_t
BinOf(const ReleaseAxis &axis, const std::optional<double> &v)
{
	return v ? axis.NumericBin(*v) : axis.NullBin();
}

bool
InCoverQuery(const Cover &cover, std::size_t q, const std::vector<ReleaseAxis> &axes, const Row &p)
{
	const ProductQueryList &list = cover.Queries();
	for (const AxisConstraint *c = list.begin(q); c != list.end(q); ++c) {
		EXPECT_TRUE(c->bins.empty() || c->bins.hi < axes[c->axis].NullBin()) << "NULL is in no constraint";
		const std::int32_t bin = BinOf(axes[c->axis], p[c->axis]);
		if (bin < c->bins.lo || bin > c->bins.hi)
			return false;
	}
	return true;
}

// Per-axis options that realise every labeling of one axis: none, empty, and closed runs of public values
// (boxes) or "<= v" (orthants).
std::vector<Query>
AxisOptions(ClassKind kind, std::size_t a, const ReleaseAxis &axis)
{
	std::vector<Query> out(2);
	AddCondition(out[1], a, Comparison::Less, -test::kInf);
	const std::vector<double> &v = axis.public_values;
	for (std::size_t j = 0; j < v.size(); j++) {
		if (kind == ClassKind::Orthants) {
			out.emplace_back();
			AddCondition(out.back(), a, Comparison::LessEqual, v[j]);
			continue;
		}
		for (std::size_t i = 0; i <= j; i++) {
			out.emplace_back();
			AddCondition(out.back(), a, Comparison::Between, v[i], v[j]);
		}
	}
	return out;
}

Query
Conjunction(const std::vector<const Query *> &parts)
{
	Query q;
	for (const Query *p : parts) {
		q.text.conditions.insert(q.text.conditions.end(), p->text.conditions.begin(), p->text.conditions.end());
		q.literals.insert(q.literals.end(), p->literals.begin(), p->literals.end());
	}
	return q;
}

class BoxCoverTest : public ::testing::TestWithParam<ClassKind> {
protected:
	bool
	orthants() const
	{
		return GetParam() == ClassKind::Orthants;
	}
};

TEST_P(BoxCoverTest, FinestCoverRealisesEveryClassLabelingAndProjectsExactly)
{
	std::mt19937_64 gen(21);
	for (int round = 0; round < 40; round++) {
		const std::size_t d = 2 + std::size_t(round % 2);
		const Sample s = RandomSample(gen, d, 1 + gen() % (d == 2 ? 9 : 6));
		const std::vector<ReleaseAxis> axes = AxesOf(s, 0.0);
		const auto cover = Build(SpecOf(GetParam(), d), axes);
		std::set<Labeling> covered;
		for (std::size_t q = 0; q < cover->QueryCount(); q++) {
			Labeling l;
			for (const Row &p : s.distinct)
				l.push_back(InCoverQuery(*cover, q, axes, p));
			covered.insert(l);
		}
		std::vector<std::vector<Query>> options;
		for (std::size_t a = 0; a < d; a++)
			options.push_back(AxisOptions(GetParam(), a, axes[a]));
		std::vector<std::size_t> pick(d, 0);
		for (;;) {
			std::vector<const Query *> parts;
			for (std::size_t a = 0; a < d; a++)
				parts.push_back(&options[a][pick[a]]);
			const Query query = Conjunction(parts);
			Labeling l;
			for (const Row &p : s.distinct)
				l.push_back(Satisfies(query, p));
			EXPECT_TRUE(covered.count(l)) << "round " << round;
			const std::size_t projected = cover->Project("", &query.text, query.literals);
			for (std::size_t i = 0; i < s.distinct.size(); i++)
				EXPECT_EQ(InCoverQuery(*cover, projected, axes, s.distinct[i]), l[i]) << "round " << round;
			std::size_t a = d;
			while (a-- > 0 && ++pick[a] == options[a].size())
				pick[a] = 0;
			if (a == std::size_t(-1))
				break;
		}
	}
}

TEST_P(BoxCoverTest, CoarseProjectionHasPerAxisFewestDisagreements)
{
	std::mt19937_64 gen(22);
	static const Comparison kAll[] = {Comparison::LessEqual, Comparison::Less,  Comparison::GreaterEqual,
	                                  Comparison::Greater,   Comparison::Equal, Comparison::Between};
	const std::vector<double> constants = test::ProbeValues();
	for (int round = 0; round < 60; round++) {
		const std::size_t d = 2 + std::size_t(round % 2);
		const Sample s = RandomSample(gen, d, 1 + gen() % 20);
		const bool finest = round % 4 == 0;
		const double limit = finest ? 0.0 : double(1 + gen() % s.rows.size());
		const std::vector<ReleaseAxis> axes = AxesOf(s, limit);
		const auto cover = Build(SpecOf(GetParam(), d), axes);
		std::vector<OrderedAxisCover> axis_covers;
		for (const ReleaseAxis &axis : axes)
			axis_covers.emplace_back(!orthants(), axis);
		for (int i = 0; i < 40; i++) {
			Query query;
			std::vector<bool> mentioned(d, false);
			for (std::size_t n = gen() % 4; n > 0; n--) {
				const std::size_t a = gen() % d;
				mentioned[a] = true;
				AddCondition(query, a, kAll[gen() % (orthants() ? 2 : 6)], constants[gen() % constants.size()],
				             constants[gen() % constants.size()]);
			}
			const std::size_t p = cover->Project("", &query.text, query.literals);
			const ProductQueryList &list = cover->Queries();
			for (std::size_t a = 0; a < d; a++) {
				const AxisConstraint *c = list.begin(p);
				while (c != list.end(p) && c->axis != a)
					++c;
				EXPECT_EQ(c != list.end(p), bool(mentioned[a])) << "an absent column is unconstrained";
				if (c == list.end(p))
					continue;
				// disagreements on axis a's public marginal of a bin interval with the conditions on column a
				const auto disagreements = [&](const CellInterval &bins) {
					std::int64_t n = 0;
					for (std::size_t k = 0; k < axes[a].public_values.size(); k++) {
						Row p(d);
						p[a] = axes[a].public_values[k];
						const std::int32_t bin = axes[a].NumericBin(*p[a]);
						if ((bins.lo <= bin && bin <= bins.hi) != Satisfies(query, p, a))
							n += axes[a].public_counts[k];
					}
					return n;
				};
				const std::int64_t got = disagreements(c->bins);
				std::int64_t best = got;
				for (std::size_t k = 0; k < axis_covers[a].size(); k++)
					best = std::min(best, disagreements(axis_covers[a].Bins(k)));
				EXPECT_EQ(got, best) << "round " << round << " query " << i << " axis " << a;
				if (finest) {
					EXPECT_EQ(got, 0) << "round " << round << " query " << i << " axis " << a;
				}
			}
			for (const Row &row : s.distinct)
				if (finest) {
					EXPECT_EQ(InCoverQuery(*cover, p, axes, row), Satisfies(query, row)) << "round " << round;
				}
		}
	}
}

TEST_P(BoxCoverTest, MixedRadixLayoutOfPerAxisCovers)
{
	std::mt19937_64 gen(23);
	const Sample s = RandomSample(gen, 3, 12);
	const std::vector<ReleaseAxis> axes = AxesOf(s, 3.0);
	const auto cover = Build(SpecOf(GetParam(), 3), axes);
	std::vector<OrderedAxisCover> axis_covers;
	std::size_t size = 1;
	for (const ReleaseAxis &axis : axes) {
		axis_covers.emplace_back(!orthants(), axis);
		size *= axis_covers.back().size() + 1;
	}
	ASSERT_EQ(cover->QueryCount(), size);
	EXPECT_EQ(cover->VcDimension(), orthants() ? 3 : 6);
	const ProductQueryList &list = cover->Queries();
	for (std::size_t q = 0; q < size; q++) {
		std::size_t rest = q;
		std::vector<std::size_t> digits(3);
		for (std::size_t a = 3; a-- > 0;) {
			digits[a] = rest % (axis_covers[a].size() + 1);
			rest /= axis_covers[a].size() + 1;
		}
		const AxisConstraint *c = list.begin(q);
		for (std::size_t a = 0; a < 3; a++) {
			if (digits[a] == axis_covers[a].size())
				continue;  // unconstrained: no constraint on a
			ASSERT_NE(c, list.end(q));
			EXPECT_EQ(c->axis, a);
			EXPECT_EQ(c->bins.lo, axis_covers[a].Bins(digits[a]).lo);
			EXPECT_EQ(c->bins.hi, axis_covers[a].Bins(digits[a]).hi);
			++c;
		}
		EXPECT_EQ(c, list.end(q));
	}
	EXPECT_EQ(cover->Render(size - 1), "TRUE");
	EXPECT_EQ(list.ConstraintCount(size - 1), 0u);
}

TEST_P(BoxCoverTest, RenderedTextsDefineTheCellsAndProjectBack)
{
	std::mt19937_64 gen(24);
	for (int round = 0; round < 16; round++) {
		const std::size_t d = 2 + std::size_t(round % 2);
		const Sample s = RandomSample(gen, d, 1 + gen() % 8);
		const std::vector<ReleaseAxis> axes = AxesOf(s, round % 4 < 2 ? 0.0 : 2.0);
		const auto cover = Build(SpecOf(GetParam(), d), axes);
		// points on and between public values, and NULLs
		std::vector<Row> points = s.distinct;
		const std::vector<double> probes = test::ProbeValues();
		for (int i = 0; i < 40; i++) {
			Row p(d);
			for (std::size_t a = 0; a < d; a++)
				if (gen() % 6 != 0)
					p[a] = probes[gen() % probes.size()];
			points.push_back(p);
		}
		for (std::size_t q = 0; q < cover->QueryCount(); q++) {
			const std::string text = cover->Render(q);
			if (text == "TRUE") {
				EXPECT_EQ(cover->Queries().ConstraintCount(q), 0u);
				const Query none;
				EXPECT_EQ(cover->Project(text, &none.text, none.literals), q);
				continue;
			}
			const Query parsed = Parse(text);
			ASSERT_EQ(cover->Project(text, &parsed.text, parsed.literals), q) << text;
			for (const Row &p : points)
				ASSERT_EQ(Satisfies(parsed, p), InCoverQuery(*cover, q, axes, p)) << text;
		}
	}
}

INSTANTIATE_TEST_SUITE_P(Classes, BoxCoverTest, ::testing::Values(ClassKind::Boxes, ClassKind::Orthants),
                         [](const ::testing::TestParamInfo<ClassKind> &info) {
	                         return std::string(ClassKindName(info.param));
                         });

TEST(BoxCover, OutsideTheClassAndOtherColumns)
{
	std::mt19937_64 gen(25);
	const Sample s = RandomSample(gen, 2, 6);
	const std::vector<ReleaseAxis> axes = AxesOf(s, 0.0);
	const auto orthants = Build(SpecOf(ClassKind::Orthants, 2), axes);
	const auto boxes = Build(SpecOf(ClassKind::Boxes, 2), axes);
	const auto project = [](const Cover &cover, const char *text) {
		const Query q = Parse(text);
		return cover.Project(text, &q.text, q.literals);
	};
	for (const char *text : {"a >= 1", "a <= 1 AND b > 2", "b = 3", "a BETWEEN 1 AND 2", "a + b <= 3"})
		EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, project(*orthants, text)) << text;
	try {
		project(*orthants, "a > 1");
		ADD_FAILURE();
	} catch (const Error &e) {
		EXPECT_NE(std::string(e.what()).find("orthants(a, b)"), std::string::npos) << e.what();
		EXPECT_NE(e.detail().find("col <= c and col < c"), std::string::npos) << e.detail();
	}
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, project(*boxes, "1*a + 2*b <= 3"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, project(*boxes, "a <= 1 AND z > 2"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, project(*orthants, "z <= 1"));
	EXPECT_NO_THROW(project(*boxes, "a <= 1 AND a > -3 AND b BETWEEN 1 AND 2 AND b = 1"));
	const ClassSpec wrong = SpecOf(ClassKind::Boxes, 3);
	EXPECT_PAP_ERROR(ErrorKind::Internal, Build(wrong, axes));
}

TEST(BoxCover, AnySizeIsBuiltAndListedOnlyWhenAsked)
{
	Sample s;
	for (int v = 0; v < 2000; v++)
		s.rows.push_back(Row{double(v % 200), double(v % 50)});
	for (ClassKind kind : {ClassKind::Boxes, ClassKind::Orthants}) {
		const ClassSpec spec = SpecOf(kind, 2);
		const std::unique_ptr<Cover> cover = Build(spec, AxesOf(s, 0.0), 10);  // the limit is not read
		const std::size_t expected = kind == ClassKind::Boxes ? (200 * 201 / 2 + 2) * (50 * 51 / 2 + 2) : 202 * 52;
		EXPECT_EQ(cover->QueryCount(), expected);
		// TRUE is the widest query; the list, when asked for, has every query and starts with the empty one.
		const ProductQueryList widest = cover->Widest();
		ASSERT_EQ(widest.size(), 1u);
		EXPECT_EQ(widest.ConstraintCount(0), 0u);
		EXPECT_EQ(cover->Render(expected - 1), "TRUE");
		EXPECT_EQ(cover->Queries().size(), expected);
		EXPECT_EQ(cover->Queries().ConstraintCount(expected - 1), 0u);
	}
	// Finest boxes over two axes of 20000 public values each: 4 x 10^16 queries, projected onto and rendered from
	// the per-axis covers, never listed. Over three axes, more than a count holds: counted as kMaxCoverCount,
	// built, and its queries have no index (the release model answers them by their per-axis projections).
	Sample wide;
	for (int v = 0; v < 20000; v++)
		wide.rows.push_back(Row{double(v), double(3 * v), double(7 * v)});
	const std::vector<ReleaseAxis> axes = AxesOf(wide, 0.0);
	const std::vector<ReleaseAxis> two(axes.begin(), axes.begin() + 2);
	const std::unique_ptr<Cover> large = Build(SpecOf(ClassKind::Boxes, 2), two, 10);
	EXPECT_EQ(large->QueryCount(), (std::size_t(20000) * 20001 / 2 + 2) * (std::size_t(20000) * 20001 / 2 + 2));
	Query query;
	AddCondition(query, 0, Comparison::Greater, 100.0);
	AddCondition(query, 1, Comparison::LessEqual, 7002.0);
	const std::size_t q = large->Project("", &query.text, query.literals);
	EXPECT_EQ(large->Render(q), "a > 100 AND b <= 7002");
	const std::unique_ptr<Cover> huge = Build(SpecOf(ClassKind::Boxes, 3), axes, 10);
	EXPECT_EQ(huge->QueryCount(), kMaxCoverCount);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, huge->Project("", &query.text, query.literals));
	EXPECT_PAP_ERROR(ErrorKind::Internal, huge->Queries());
}

}  // namespace
}  // namespace pap::core
