// Tests of the boxes / orthants cover (Algorithm 3 steps 1-4; reference/seeds.md §1.4, §1.8) against brute force
// on small random 2-D and 3-D public samples with ties, NULLs, NaN and the infinities: (a) the cover realises
// exactly the labelings boxes (orthants) realise on the distinct public points, with duplicates (the cover is not
// deduplicated); (b) Project returns a cover query that agrees with the query on every distinct public point;
// (c) a point lies in a cell of a cover query iff it satisfies the query's representative; (d) the workload sums
// cells exactly; (e) out-of-class queries, unknown columns and limits raise the right errors.
#include "core/box_cover.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/box_workload.hpp"
#include "core/class_spec.hpp"
#include "core/errors.hpp"
#include "core/query_text.hpp"
#include "test_support.hpp"

namespace pap::core {
namespace {

using test::PgLe;
using test::PgLt;
using Row = std::vector<std::optional<double>>;
using Labeling = std::vector<bool>;  // one entry per distinct public point

constexpr std::size_t kNoLimit = std::size_t(1) << 30;
constexpr std::uint64_t kNoCellLimit = std::uint64_t(1) << 30;

const std::vector<std::string> kColumns = {"a", "b", "c"};

struct Sample {
	std::vector<Row> rows;      // the public table
	std::vector<Row> distinct;  // its distinct points, by the hand-written float8 order
};

bool
SameValue(const std::optional<double> &x, const std::optional<double> &y)
{
	if (!x || !y)
		return !x && !y;
	return test::PgEq(*x, *y);
}

bool
SameRow(const Row &x, const Row &y)
{
	for (std::size_t a = 0; a < x.size(); a++)
		if (!SameValue(x[a], y[a]))
			return false;
	return true;
}

// count rows of d values from the special pool, each NULL with probability 1/5; every column keeps a value.
Sample
RandomSample(std::mt19937_64 &gen, std::size_t d, std::size_t count)
{
	Sample s;
	for (std::size_t i = 0; i < count; i++) {
		const std::vector<double> values = test::RandomPublicSample(gen, d);
		Row row(d);
		for (std::size_t a = 0; a < d; a++)
			if (gen() % 5 != 0 || i == 0)
				row[a] = values[a];
		s.rows.push_back(row);
	}
	for (const Row &row : s.rows) {
		bool seen = false;
		for (const Row &other : s.distinct)
			seen = seen || SameRow(row, other);
		if (!seen)
			s.distinct.push_back(row);
	}
	return s;
}

BoxCover
MakeCover(ClassKind kind, const Sample &s, std::size_t limit = kNoLimit)
{
	const std::size_t d = s.rows.front().size();
	std::vector<NumericAxis> axes;
	for (std::size_t a = 0; a < d; a++) {
		std::vector<double> values;
		for (const Row &row : s.rows)
			if (row[a])
				values.push_back(*row[a]);
		axes.push_back(NumericAxis::FromPublicValues(values));
	}
	return BoxCover(kind, std::vector<std::string>(kColumns.begin(), kColumns.begin() + long(d)), axes, limit,
	                kNoCellLimit);
}

bool
InBox(const std::vector<CellInterval> &box, const std::vector<std::int32_t> &coordinates)
{
	for (std::size_t a = 0; a < box.size(); a++)
		if (coordinates[a] < box[a].lo || coordinates[a] > box[a].hi)
			return false;
	return true;
}

Labeling
CoverLabeling(const BoxCover &cover, std::size_t q, const std::vector<Row> &points)
{
	const std::vector<CellInterval> box = cover.Box(q);
	Labeling out;
	for (const Row &p : points)
		out.push_back(InBox(box, cover.grid().CoordinatesOf(cover.CellOf(p))));
	return out;
}

// A query as conditions plus the literal values Project takes, satisfied by brute force.
struct RandomQuery {
	QueryText text;
	std::vector<double> values;
};

bool
Compare(Comparison op, double v, double c, double c2)
{
	switch (op) {
	case Comparison::LessEqual: return PgLe(v, c);
	case Comparison::Less: return PgLt(v, c);
	case Comparison::GreaterEqual: return PgLe(c, v);
	case Comparison::Greater: return PgLt(c, v);
	case Comparison::Equal: return PgLe(c, v) && PgLe(v, c);
	case Comparison::Between: return PgLe(c, v) && PgLe(v, c2);
	}
	return false;
}

bool
Satisfies(const RandomQuery &query, const Row &p)
{
	std::size_t next = 0;
	for (const Condition &c : query.text.conditions) {
		std::size_t a = 0;
		while (kColumns[a] != c.column)
			a++;
		const double value = query.values[next++];
		const double upper = c.op == Comparison::Between ? query.values[next++] : 0.0;
		if (!p[a] || !Compare(c.op, *p[a], value, upper))
			return false;
	}
	return true;
}

// Each axis absent or bounded by 1-2 random conditions on probe constants (orthants: <= and < only).
RandomQuery
MakeRandomQuery(std::mt19937_64 &gen, ClassKind kind, std::size_t d)
{
	static const std::vector<double> probes = test::ProbeValues();
	const auto constant = [&]() { return probes[gen() % probes.size()]; };
	static const Comparison box_ops[] = {Comparison::LessEqual,    Comparison::Less,  Comparison::GreaterEqual,
	                                     Comparison::Greater,      Comparison::Equal, Comparison::Between};
	RandomQuery q;
	for (std::size_t a = 0; a < d; a++) {
		const std::size_t conditions = gen() % 3;  // 0 = column absent
		for (std::size_t i = 0; i < conditions; i++) {
			Condition c;
			c.column = kColumns[a];
			c.op = kind == ClassKind::Orthants ? (gen() % 2 ? Comparison::LessEqual : Comparison::Less)
			                                   : box_ops[gen() % 6];
			q.values.push_back(constant());
			if (c.op == Comparison::Between)
				q.values.push_back(constant());
			q.text.conditions.push_back(c);
		}
	}
	return q;
}

// Brute force: every labeling the class realises on the points. A box's labeling is the AND over axes of its
// per-axis labelings, so collect the per-axis labelings of many real one-dimensional conditions (absent, or a
// lower and/or upper bound on probe constants and the infinities), then AND every combination.
std::set<Labeling>
RealisedLabelings(ClassKind kind, const std::vector<Row> &points, std::size_t d)
{
	static const std::vector<double> probes = test::ProbeValues();
	std::vector<std::set<Labeling>> per_axis(d);
	for (std::size_t a = 0; a < d; a++) {
		per_axis[a].insert(Labeling(points.size(), true));  // column absent
		for (int lower_kind = 0; lower_kind < 3; lower_kind++)       // none, >=, >
			for (int upper_kind = 0; upper_kind < 3; upper_kind++)   // none, <=, <
				for (std::size_t li = 0; li < (lower_kind ? probes.size() : 1); li++)
					for (std::size_t ui = 0; ui < (upper_kind ? probes.size() : 1); ui++) {
						if (kind == ClassKind::Orthants && (lower_kind || !upper_kind))
							continue;
						if (!lower_kind && !upper_kind)
							continue;  // "col IS NOT NULL" is the run of every value: covered by wide bounds
						Labeling l;
						for (const Row &p : points) {
							bool in = bool(p[a]);
							if (in && lower_kind == 1)
								in = PgLe(probes[li], *p[a]);
							if (in && lower_kind == 2)
								in = PgLt(probes[li], *p[a]);
							if (in && upper_kind == 1)
								in = PgLe(*p[a], probes[ui]);
							if (in && upper_kind == 2)
								in = PgLt(*p[a], probes[ui]);
							l.push_back(in);
						}
						per_axis[a].insert(l);
					}
	}
	std::set<Labeling> out = {Labeling(points.size(), true)};
	for (std::size_t a = 0; a < d; a++) {
		std::set<Labeling> next;
		for (const Labeling &x : out)
			for (const Labeling &y : per_axis[a]) {
				Labeling z(points.size());
				for (std::size_t i = 0; i < z.size(); i++)
					z[i] = x[i] && y[i];
				next.insert(z);
			}
		out.swap(next);
	}
	return out;
}

struct Param {
	ClassKind kind;
	std::size_t d;
};

class BoxCoverRandom : public ::testing::TestWithParam<Param> {};

std::string
ParamName(const ::testing::TestParamInfo<Param> &info)
{
	return std::string(ClassKindName(info.param.kind)) + std::to_string(info.param.d) + "d";
}

INSTANTIATE_TEST_SUITE_P(Classes, BoxCoverRandom,
                         ::testing::Values(Param{ClassKind::Boxes, 2}, Param{ClassKind::Boxes, 3},
                                           Param{ClassKind::Orthants, 2}, Param{ClassKind::Orthants, 3}),
                         ParamName);

std::size_t
Seed(const Param &p, std::size_t salt)
{
	return salt * 100 + p.d * 10 + (p.kind == ClassKind::Boxes ? 1 : 2);
}

// (a) The set of public labelings of the cover equals the set boxes (orthants) realise; the size formula holds,
// and duplicates occur (documented choice: no deduplication).
TEST_P(BoxCoverRandom, CoverRealisesExactlyTheClassLabelings)
{
	const Param p = GetParam();
	std::mt19937_64 gen(Seed(p, 1));
	std::size_t with_duplicates = 0;
	for (int trial = 0; trial < (p.d == 2 ? 40 : 15); trial++) {
		const Sample s = RandomSample(gen, p.d, 1 + gen() % (p.d == 2 ? 8 : 5));
		const BoxCover cover = MakeCover(p.kind, s);
		std::vector<std::size_t> distinct;
		double expected_size = 1;
		for (std::size_t a = 0; a < p.d; a++) {
			distinct.push_back(cover.axis(a).cut_count());
			const double m = double(cover.axis(a).cut_count());
			expected_size *= p.kind == ClassKind::Boxes ? m * (m + 1) / 2 + 2 : m + 2;
		}
		EXPECT_EQ(double(cover.QueryCount()), expected_size);
		EXPECT_EQ(BoxCover::CoverSize(p.kind, distinct), expected_size);
		std::set<Labeling> cover_labelings;
		for (std::size_t q = 0; q < cover.QueryCount(); q++) {
			EXPECT_EQ(cover.QueryIndex(cover.AxisIndexes(q)), q);
			cover_labelings.insert(CoverLabeling(cover, q, s.distinct));
		}
		EXPECT_EQ(cover_labelings, RealisedLabelings(p.kind, s.distinct, p.d)) << "trial " << trial;
		if (cover_labelings.size() < cover.QueryCount())
			with_duplicates++;
	}
	EXPECT_GT(with_duplicates, 0u);  // the product cover is a superset of one-query-per-pattern
}

// (b) Project agrees with the query on every distinct public point (and on every public row).
TEST_P(BoxCoverRandom, ProjectAgreesOnPublicPoints)
{
	const Param p = GetParam();
	std::mt19937_64 gen(Seed(p, 2));
	for (int trial = 0; trial < 60; trial++) {
		const Sample s = RandomSample(gen, p.d, 1 + gen() % 10);
		const BoxCover cover = MakeCover(p.kind, s);
		for (int i = 0; i < 100; i++) {
			const RandomQuery query = MakeRandomQuery(gen, p.kind, p.d);
			const std::size_t projected = cover.Project(query.text, query.values);
			ASSERT_LT(projected, cover.QueryCount());
			Labeling expected;
			for (const Row &point : s.rows)
				expected.push_back(Satisfies(query, point));
			EXPECT_EQ(CoverLabeling(cover, projected, s.rows), expected) << "trial " << trial << " query " << i;
		}
	}
}

bool
SatisfiesShape(const std::optional<CoverQueryShape> &shape, const std::optional<double> &v)
{
	if (!shape)
		return true;  // unconstrained: NULL included
	if (shape->empty || !v)
		return false;
	if (shape->lower.present && !(shape->lower.inclusive ? PgLe(shape->lower.value, *v) : PgLt(shape->lower.value, *v)))
		return false;
	if (shape->upper.present && !(shape->upper.inclusive ? PgLe(*v, shape->upper.value) : PgLt(*v, shape->upper.value)))
		return false;
	return true;
}

// (c) A point (public values, probes, NULL) lies in a cell of cover query q iff it satisfies q's representative.
TEST_P(BoxCoverRandom, CellsMatchTheRepresentative)
{
	const Param p = GetParam();
	std::mt19937_64 gen(Seed(p, 3));
	const std::vector<double> probes = test::ProbeValues();
	for (int trial = 0; trial < 10; trial++) {
		const Sample s = RandomSample(gen, p.d, 1 + gen() % 5);
		const BoxCover cover = MakeCover(p.kind, s);
		std::vector<Row> points = s.rows;
		for (int i = 0; i < 40; i++) {
			Row row(p.d);
			for (std::size_t a = 0; a < p.d; a++)
				if (gen() % 6 != 0)
					row[a] = probes[gen() % probes.size()];
			points.push_back(row);
		}
		for (std::size_t q = 0; q < cover.QueryCount(); q++) {
			const Labeling in_cells = CoverLabeling(cover, q, points);
			for (std::size_t i = 0; i < points.size(); i++) {
				bool satisfied = true;
				for (std::size_t a = 0; a < p.d; a++)
					satisfied = satisfied && SatisfiesShape(cover.AxisShape(q, a), points[i][a]);
				ASSERT_EQ(in_cells[i], satisfied) << "trial " << trial << " q " << q << " point " << i;
			}
		}
	}
}

// (d) The workload's answers are the brute-force sums over each cover query's cells.
TEST_P(BoxCoverRandom, WorkloadSumsCells)
{
	const Param p = GetParam();
	std::mt19937_64 gen(Seed(p, 4));
	for (int trial = 0; trial < 8; trial++) {
		const Sample s = RandomSample(gen, p.d, 1 + gen() % 5);
		const BoxCover cover = MakeCover(p.kind, s);
		const BoxWorkload workload = cover.MakeWorkload();
		ASSERT_EQ(workload.QueryCount(), cover.QueryCount());
		ASSERT_EQ(workload.CellCount(), cover.CellCount());
		std::vector<std::int64_t> histogram(cover.CellCount());
		std::vector<double> weights(cover.CellCount());
		for (std::size_t i = 0; i < histogram.size(); i++) {
			histogram[i] = std::int64_t(gen() % 7);
			weights[i] = double(gen() % 1000) / 1000.0;
		}
		std::vector<std::int64_t> counts;
		std::vector<double> answers;
		workload.EvaluateCounts(histogram, counts);
		workload.Evaluate(weights, answers);
		for (std::size_t q = 0; q < cover.QueryCount(); q++) {
			const std::vector<CellInterval> box = cover.Box(q);
			std::int64_t count = 0;
			double sum = 0;
			for (std::size_t cell = 0; cell < cover.CellCount(); cell++)
				if (InBox(box, cover.grid().CoordinatesOf(cell))) {
					count += histogram[cell];
					sum += weights[cell];
				}
			ASSERT_EQ(counts[q], count) << "q " << q;
			ASSERT_NEAR(answers[q], sum, 1e-9) << "q " << q;
			ASSERT_NEAR(workload.EvaluateOne(q, weights), sum, 1e-9) << "q " << q;
		}
	}
}

std::vector<double>
LiteralValues(const QueryText &query)
{
	std::vector<double> values;
	for (const Condition &c : query.conditions) {
		values.push_back(NumericLiteralValue(c.value));
		if (c.op == Comparison::Between)
			values.push_back(NumericLiteralValue(c.upper));
	}
	return values;
}

std::size_t
ProjectText(const BoxCover &cover, const char *text)
{
	const QueryText query = ParseQueryText(text);
	return cover.Project(query, LiteralValues(query));
}

BoxCover
FixedCover(ClassKind kind)
{
	// a: {1, 2, 3}, b: {10, 20} with a NULL
	Sample s;
	s.rows = {{1.0, 10.0}, {2.0, std::nullopt}, {3.0, 20.0}, {2.0, 20.0}};
	return MakeCover(kind, s);
}

std::string
Format(double v, const void *)
{
	return FormatFloat8(v);
}

// (e) Out-of-class queries, unknown columns, limits; and a few fixed projections and renderings.
TEST(BoxCover, ErrorsAndFixedCases)
{
	const BoxCover orthants = FixedCover(ClassKind::Orthants);
	EXPECT_EQ(orthants.QueryCount(), 5u * 4u);
	EXPECT_EQ(orthants.ClassText(), "orthants(a, b)");
	for (const char *text : {"a >= 1", "a > 1", "a = 2", "a BETWEEN 1 AND 2", "a <= 2 AND b > 3", "b = 10"})
		EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ProjectText(orthants, text)) << text;
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, ProjectText(orthants, "z <= 1"));
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, ProjectText(orthants, "a <= 1 AND c <= 1"));
	EXPECT_PAP_ERROR(ErrorKind::Internal, orthants.Project(ParseQueryText("a <= 1"), {}));

	const std::size_t q = ProjectText(orthants, "a <= 2.5 AND b < 20");
	EXPECT_EQ(orthants.Render(q, Format, nullptr), "a <= 2 AND b <= 10");
	EXPECT_EQ(orthants.Render(ProjectText(orthants, "b <= 100"), Format, nullptr), "b <= 20");
	EXPECT_EQ(orthants.Render(ProjectText(orthants, "a <= 0 AND a <= 5"), Format, nullptr), "a < 1");

	const BoxCover boxes = FixedCover(ClassKind::Boxes);
	EXPECT_EQ(boxes.QueryCount(), 8u * 5u);
	EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, ProjectText(boxes, "a > 1 AND z < 3"));
	EXPECT_EQ(boxes.Render(ProjectText(boxes, "a > 1 AND a < 3"), Format, nullptr), "a > 1 AND a <= 2");
	EXPECT_EQ(boxes.Render(ProjectText(boxes, "b > 0"), Format, nullptr), "b IS NOT NULL");
	EXPECT_EQ(boxes.Render(ProjectText(boxes, "a BETWEEN 2 AND 9 AND b = 20"), Format, nullptr), "a > 1 AND b > 10");
	const std::size_t all = boxes.QueryIndex({boxes.UnconstrainedIndex(0), boxes.UnconstrainedIndex(1)});
	EXPECT_EQ(boxes.Render(all, Format, nullptr), "TRUE");
	EXPECT_EQ(boxes.Box(all)[1].hi, boxes.axis(1).NullBin());  // an absent column keeps the NULL rows

	// Limits: 8 * 5 = 40 box queries; the grid is 5 * 4 = 20 cells.
	Sample s;
	s.rows = {{1.0, 10.0}, {2.0, std::nullopt}, {3.0, 20.0}, {2.0, 20.0}};
	EXPECT_NO_THROW(MakeCover(ClassKind::Boxes, s, 40));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MakeCover(ClassKind::Boxes, s, 39));
	const std::vector<NumericAxis> axes = {NumericAxis::FromPublicValues({1, 2, 3}),
	                                       NumericAxis::FromPublicValues({10, 20})};
	EXPECT_NO_THROW(BoxCover(ClassKind::Boxes, {"a", "b"}, axes, 40, 20));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, BoxCover(ClassKind::Boxes, {"a", "b"}, axes, 40, 19));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxCover(ClassKind::Ranges, {"a", "b"}, axes, 40, 20));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxCover(ClassKind::Boxes, {"a", "a"}, axes, 40, 20));
	EXPECT_PAP_ERROR(ErrorKind::Internal, BoxCover(ClassKind::Boxes, {"a"}, axes, 40, 20));
	EXPECT_PAP_ERROR(ErrorKind::Internal, boxes.AxisIndexes(boxes.QueryCount()));
	EXPECT_PAP_ERROR(ErrorKind::Internal, boxes.QueryIndex({0, 5}));
	// 100 axes of 1000 values: the size is checked in doubles before anything is built.
	EXPECT_GT(BoxCover::CoverSize(ClassKind::Boxes, std::vector<std::size_t>(100, 1000)), 1e300);
}

}  // namespace
}  // namespace pap::core
