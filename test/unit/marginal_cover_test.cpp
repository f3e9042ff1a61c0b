// MarginalCover and MarginalDomain (marginals(k; ...) and stumps over categorical bin coordinates), checked
// against brute force on small random public and private samples: the cover is exactly the first query of every
// distinct labeling of the distinct public cells (Algorithm 3 steps 1-4, dedup across attribute sets, one
// empty-pattern query); true counts; domain histograms with the outside-support cell; grouped evaluation against
// per-query sums; dense and public-support domains agreeing; the limits.
#include "core/marginal_cover.hpp"

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

#include "core/errors.hpp"
#include "test_support.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
using Cell = std::vector<std::int32_t>;

bool
Satisfies(const Cell &cell, const MarginalQuery &q)
{
	for (std::size_t j = 0; j < q.axes.size(); j++)
		if (cell[q.axes[j]] != q.values[j])
			return false;
	return true;
}

// Every query of marginals(k; ...) in the canonical order: k-subsets lexicographically, then NULL-free value tuples
// in mixed-radix order (last axis fastest). Written independently of the code under test.
void
EnumerateSubsets(std::size_t d, std::size_t k, std::size_t from, std::vector<std::size_t> &axes,
                 std::vector<std::vector<std::size_t>> &out)
{
	if (axes.size() == k) {
		out.push_back(axes);
		return;
	}
	for (std::size_t a = from; a < d; a++) {
		axes.push_back(a);
		EnumerateSubsets(d, k, a + 1, axes, out);
		axes.pop_back();
	}
}

std::vector<MarginalQuery>
AllClassQueries(const std::vector<std::int32_t> &radices, std::size_t k)
{
	std::vector<std::vector<std::size_t>> subsets;
	std::vector<std::size_t> axes;
	EnumerateSubsets(radices.size(), k, 0, axes, subsets);
	std::vector<MarginalQuery> all;
	for (const auto &s : subsets) {
		std::size_t count = 1;
		for (std::size_t a : s)
			count *= std::size_t(radices[a] - 1);
		for (std::size_t i = 0; i < count; i++) {
			MarginalQuery q{s, std::vector<std::int32_t>(k)};
			std::size_t rest = i;
			for (std::size_t j = k; j-- > 0;) {
				q.values[j] = std::int32_t(rest % std::size_t(radices[s[j]] - 1));
				rest /= std::size_t(radices[s[j]] - 1);
			}
			all.push_back(q);
		}
	}
	return all;
}

std::vector<std::size_t>
BruteLabeling(const std::vector<Cell> &distinct, const MarginalQuery &q)
{
	std::vector<std::size_t> l;
	for (std::size_t p = 0; p < distinct.size(); p++)
		if (Satisfies(distinct[p], q))
			l.push_back(p);
	return l;
}

std::vector<std::int32_t>
RandomRadices(std::mt19937_64 &gen)
{
	std::vector<std::int32_t> radices(1 + gen() % 4);
	for (std::int32_t &r : radices)
		r = 2 + std::int32_t(gen() % 4);  // 2..5: at least "other" (or one value) and NULL
	return radices;
}

// Skewed: low bins are frequent, so high categories (and "other") are often absent; NULL appears sometimes.
Cell
RandomCell(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices)
{
	Cell c(radices.size());
	for (std::size_t a = 0; a < radices.size(); a++) {
		const std::int32_t r = radices[a];
		if (gen() % 8 == 0)
			c[a] = r - 1;
		else
			c[a] = std::int32_t(std::min<std::uint64_t>(gen() % std::uint64_t(r), gen() % std::uint64_t(r)));
	}
	return c;
}

std::vector<Cell>
RandomCells(std::mt19937_64 &gen, const std::vector<std::int32_t> &radices, std::size_t n)
{
	std::vector<Cell> cells(n);
	for (Cell &c : cells)
		c = RandomCell(gen, radices);
	return cells;
}

std::vector<Cell>
AllCells(const std::vector<std::int32_t> &radices)
{
	std::vector<Cell> cells(1, Cell());
	for (std::int32_t r : radices) {
		std::vector<Cell> next;
		for (const Cell &c : cells)
			for (std::int32_t v = 0; v < r; v++) {
				Cell e = c;
				e.push_back(v);
				next.push_back(e);
			}
		cells = next;
	}
	return cells;
}

std::uint64_t
GridSize(const std::vector<std::int32_t> &radices)
{
	std::uint64_t n = 1;
	for (std::int32_t r : radices)
		n *= std::uint64_t(r);
	return n;
}

TEST(MarginalCover, ClassSizeIsElementarySymmetricPolynomial)
{
	const MarginalCover c({4, 3, 2}, 2, {}, kNoLimit);
	EXPECT_EQ(c.ClassSize(), 3u * 2 + 3u * 1 + 2u * 1);
	EXPECT_EQ(MarginalCover({4, 3, 2}, 3, {}, kNoLimit).ClassSize(), 6u);
	EXPECT_EQ(MarginalCover({4, 3, 2}, 1, {}, kNoLimit).ClassSize(), 6u);
	// 64 axes of 1000 bins, k = 20: saturates; the attribute-set count C(64, 20) is over any sane limit.
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MarginalCover(std::vector<std::int32_t>(64, 1000), 20, {}, 1000000));
}

TEST(MarginalCover, AbsentCategoriesAreOneEmptyPatternQuery)
{
	// One axis: bins 0 = "a", 1 = "b", 2 = "c", 3 = other, 4 = NULL. Public rows only "a" and NULL.
	const MarginalCover c({5}, 1, {{0}, {4}, {0}}, kNoLimit);
	ASSERT_EQ(c.DistinctPublicCells().size(), 2u);
	// "= a" labels {a}; "= b", "= c", "= other" all label nothing: one cover query, represented by "= b".
	ASSERT_EQ(c.QueryCount(), 2u);
	EXPECT_EQ(c.Query(0).values, std::vector<std::int32_t>{0});
	EXPECT_EQ(c.Query(1).values, std::vector<std::int32_t>{1});
	EXPECT_EQ(c.EmptyPatternQuery(), 1u);
	for (std::int32_t v : {1, 2, 3})
		EXPECT_EQ(c.Project(MarginalQuery{{0}, {v}}), 1u);
	EXPECT_EQ(c.Project(MarginalQuery{{0}, {0}}), 0u);
	// NULL, out-of-range values, wrong arity and unsorted axes are outside the class.
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, c.Project(MarginalQuery{{0}, {4}}));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, c.Project(MarginalQuery{{0}, {7}}));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, c.Project(MarginalQuery{{}, {}}));
	const MarginalCover c2({3, 3}, 2, {}, kNoLimit);
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, c2.Project(MarginalQuery{{1, 0}, {0, 0}}));
	EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, c2.Project(MarginalQuery{{0, 0}, {0, 0}}));
	// No public rows: the whole class is one empty-pattern query.
	EXPECT_EQ(c2.QueryCount(), 1u);
	EXPECT_EQ(c2.EmptyPatternQuery(), 0u);
	// Every value realised: no empty pattern.
	const MarginalCover c3({3}, 1, {{0}, {1}}, kNoLimit);
	EXPECT_EQ(c3.QueryCount(), 2u);
	EXPECT_EQ(c3.EmptyPatternQuery(), c3.QueryCount());
}

TEST(MarginalCover, DedupAcrossAttributeSets)
{
	// Stumps over three booleans (0 false, 1 true, 2 NULL); public a and b always equal, c NULL.
	const MarginalCover s = MarginalCover::Stumps(3, {{0, 0, 2}, {1, 1, 2}, {1, 1, 2}}, kNoLimit);
	// a = false ~ b = false, a = true ~ b = true, c = false ~ c = true ~ empty.
	ASSERT_EQ(s.QueryCount(), 3u);
	EXPECT_EQ(s.Project(MarginalQuery{{1}, {1}}), s.Project(MarginalQuery{{0}, {1}}));
	EXPECT_EQ(s.Project(MarginalQuery{{2}, {0}}), s.EmptyPatternQuery());
	EXPECT_EQ(s.Query(s.EmptyPatternQuery()).axes, std::vector<std::size_t>{2});
	EXPECT_EQ(s.AttributeSetCount(), 2u);  // {a}, {c}: {b} contributes no new labeling
	EXPECT_EQ(s.ClassSize(), 6u);
}

// (a) exactly one cover query per distinct labeling, the first in canonical order; Project matches labelings.
TEST(MarginalCover, CoverIsFirstQueryOfEveryDistinctLabeling)
{
	std::mt19937_64 gen(101);
	for (int trial = 0; trial < 300; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::size_t k = 1 + gen() % radices.size();
		const std::vector<Cell> pub = RandomCells(gen, radices, gen() % 12);
		const MarginalCover cover(radices, int(k), pub, kNoLimit);
		std::vector<Cell> distinct(pub);
		std::sort(distinct.begin(), distinct.end());
		distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
		ASSERT_EQ(cover.DistinctPublicCells(), distinct);

		const std::vector<MarginalQuery> all = AllClassQueries(radices, k);
		ASSERT_EQ(cover.ClassSize(), all.size());
		std::map<std::vector<std::size_t>, std::size_t> first;  // labeling -> index into expected
		std::vector<MarginalQuery> expected;
		for (const MarginalQuery &q : all) {
			const std::vector<std::size_t> l = BruteLabeling(distinct, q);
			if (first.emplace(l, expected.size()).second)
				expected.push_back(q);
		}
		ASSERT_EQ(cover.QueryCount(), expected.size()) << "trial " << trial;
		std::set<std::vector<std::size_t>> sets;
		for (std::size_t q = 0; q < expected.size(); q++) {
			EXPECT_EQ(cover.Query(q).axes, expected[q].axes);
			EXPECT_EQ(cover.Query(q).values, expected[q].values);
			EXPECT_EQ(cover.Labeling(cover.Query(q)), BruteLabeling(distinct, expected[q]));
			EXPECT_EQ(cover.AttributeSet(cover.GroupOf(q)), cover.Query(q).axes);
			sets.insert(cover.Query(q).axes);
		}
		EXPECT_EQ(sets.size(), cover.AttributeSetCount());
		const auto empty = first.find(std::vector<std::size_t>{});
		EXPECT_EQ(cover.EmptyPatternQuery(), empty == first.end() ? cover.QueryCount() : empty->second);
		for (const MarginalQuery &q : all)
			ASSERT_EQ(cover.Project(q), first.at(BruteLabeling(distinct, q)));
	}
}

// (b) true counts over the full histogram; the domain histogram (support + outside cell); index mapping.
TEST(MarginalCover, TrueCountsAndDomainHistogram)
{
	std::mt19937_64 gen(202);
	for (int trial = 0; trial < 200; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::size_t k = 1 + gen() % radices.size();
		const MarginalCover cover(radices, int(k), RandomCells(gen, radices, gen() % 10), kNoLimit);
		const std::vector<Cell> priv = RandomCells(gen, radices, gen() % 40);
		const std::vector<std::int64_t> ones(priv.size(), 1);
		const std::vector<std::int64_t> truth = cover.TrueCounts(priv, ones);
		ASSERT_EQ(truth.size(), cover.QueryCount());
		const std::uint64_t full = GridSize(radices);
		// Dense (limit = full grid) and support (limit one below) domains.
		for (const std::uint64_t limit : {full, full - 1}) {
			const std::size_t support = cover.DistinctPublicCells().size() + 1;
			if (limit < support)
				continue;
			const MarginalDomain domain(cover, limit);
			const bool dense = limit == full;
			ASSERT_EQ(domain.Kind(), dense ? MarginalDomainKind::Dense : MarginalDomainKind::PublicSupport);
			const std::vector<std::int64_t> hist = domain.DomainHistogram(priv, ones);
			ASSERT_EQ(hist.size(), domain.CellCount());
			std::int64_t total = 0;
			for (std::int64_t h : hist)
				total += h;
			EXPECT_EQ(total, std::int64_t(priv.size()));
			std::vector<std::int64_t> via_domain;
			domain.MakeWorkload().EvaluateCounts(hist, via_domain);
			std::size_t outside_rows = 0;
			for (std::size_t q = 0; q < cover.QueryCount(); q++) {
				std::int64_t brute = 0, lost = 0;
				for (const Cell &c : priv) {
					const bool in_support = std::binary_search(cover.DistinctPublicCells().begin(),
					                                           cover.DistinctPublicCells().end(), c);
					if (Satisfies(c, cover.Query(q))) {
						brute++;
						lost += in_support ? 0 : 1;
					}
				}
				EXPECT_EQ(truth[q], brute);
				// Dense: the same. Support: exactly the rows outside the support are missing (why true answers
				// must come from TrueCounts, never from the domain histogram).
				EXPECT_EQ(via_domain[q], dense ? brute : brute - lost);
			}
			for (const Cell &c : priv) {
				std::uint64_t index = 0;
				for (std::size_t a = 0; a < radices.size(); a++)
					index = index * std::uint64_t(radices[a]) + std::uint64_t(c[a]);
				const std::size_t cell = domain.DomainCellOf(c);
				EXPECT_EQ(domain.DomainCellOfGridIndex(index), cell);
				if (dense) {
					EXPECT_EQ(cell, index);
				} else {
					const auto &sup = cover.DistinctPublicCells();
					const auto it = std::lower_bound(sup.begin(), sup.end(), c);
					if (it != sup.end() && *it == c) {
						EXPECT_EQ(cell, std::size_t(it - sup.begin()));
					} else {
						EXPECT_EQ(cell, domain.OutsideCell());
						outside_rows++;
					}
				}
			}
			if (!dense) {
				EXPECT_EQ(hist[domain.OutsideCell()], std::int64_t(outside_rows));
			}
		}
		// Private rows all inside the support: the support domain's counts equal the true counts.
		if (!cover.DistinctPublicCells().empty() && full - 1 >= cover.DistinctPublicCells().size() + 1) {
			std::vector<Cell> inside;
			for (std::size_t i = 0; i < 20; i++)
				inside.push_back(cover.DistinctPublicCells()[gen() % cover.DistinctPublicCells().size()]);
			const MarginalDomain domain(cover, full - 1);
			std::vector<std::int64_t> via_domain;
			const std::vector<std::int64_t> w(inside.size(), 3);
			domain.MakeWorkload().EvaluateCounts(domain.DomainHistogram(inside, w), via_domain);
			EXPECT_EQ(via_domain, cover.TrueCounts(inside, w));
		}
	}
}

// (c) grouped evaluation equals per-query sums, both domains; (d) dense and support agree on a distribution that
// lives on the support (any weight on the outside cell changes no answer).
TEST(MarginalCover, GroupedEvaluationAndDenseSupportAgreement)
{
	std::mt19937_64 gen(303);
	std::uniform_real_distribution<double> unit(0.0, 1.0);
	for (int trial = 0; trial < 200; trial++) {
		const std::vector<std::int32_t> radices = RandomRadices(gen);
		const std::size_t k = 1 + gen() % radices.size();
		const MarginalCover cover(radices, int(k), RandomCells(gen, radices, 1 + gen() % 10), kNoLimit);
		const std::uint64_t full = GridSize(radices);
		const std::size_t support = cover.DistinctPublicCells().size() + 1;
		if (full - 1 < support)
			continue;
		const MarginalDomain dense(cover, full), sparse(cover, full - 1);
		ASSERT_EQ(dense.Kind(), MarginalDomainKind::Dense);
		ASSERT_EQ(sparse.Kind(), MarginalDomainKind::PublicSupport);
		const MarginalWorkload wd = dense.MakeWorkload(), ws = sparse.MakeWorkload();
		ASSERT_EQ(wd.QueryCount(), cover.QueryCount());
		ASSERT_EQ(ws.CellCount(), support);

		std::vector<double> ww(ws.CellCount());
		for (double &x : ww)
			x = unit(gen);
		std::vector<double> wdense(wd.CellCount(), 0.0);
		for (std::size_t i = 0; i + 1 < support; i++)
			wdense[dense.DomainCellOf(cover.DistinctPublicCells()[i])] = ww[i];
		std::vector<double> full_weights(wd.CellCount());
		for (double &x : full_weights)
			x = unit(gen);

		std::vector<double> as, ad, afull;
		ws.Evaluate(ww, as);
		wd.Evaluate(wdense, ad);
		wd.Evaluate(full_weights, afull);
		const std::vector<Cell> grid = AllCells(radices);
		for (std::size_t q = 0; q < cover.QueryCount(); q++) {
			// (c) per-query sums by brute force.
			double bs = 0, bfull = 0;
			for (std::size_t i = 0; i + 1 < support; i++)
				if (Satisfies(cover.DistinctPublicCells()[i], cover.Query(q)))
					bs += ww[i];
			for (std::size_t i = 0; i < grid.size(); i++)
				if (Satisfies(grid[i], cover.Query(q)))
					bfull += full_weights[i];
			EXPECT_NEAR(as[q], bs, 1e-9);
			EXPECT_NEAR(ws.EvaluateOne(q, ww), bs, 1e-9);
			EXPECT_NEAR(afull[q], bfull, 1e-9);
			EXPECT_NEAR(wd.EvaluateOne(q, full_weights), bfull, 1e-9);
			// (d) same answers on the support-restricted distribution.
			EXPECT_NEAR(as[q], ad[q], 1e-9);
		}
		// The outside cell is in no query: AddToQueryCells never touches it.
		std::vector<double> log_w(ws.CellCount(), 0.0);
		for (std::size_t q = 0; q < ws.QueryCount(); q++)
			ws.AddToQueryCells(q, 1.0, log_w);
		EXPECT_EQ(log_w[sparse.OutsideCell()], 0.0);
	}
}

// (e) the limits.
TEST(MarginalCover, Limits)
{
	// 3 axes of 4 bins: 64 cells. Public support: 3 distinct cells, + outside = 4 domain cells.
	const MarginalCover cover({4, 4, 4}, 2, {{0, 0, 0}, {1, 2, 3}, {0, 0, 0}, {2, 1, 0}}, kNoLimit);
	EXPECT_EQ(MarginalDomain(cover, 64).Kind(), MarginalDomainKind::Dense);
	EXPECT_EQ(MarginalDomain(cover, 63).Kind(), MarginalDomainKind::PublicSupport);
	EXPECT_EQ(MarginalDomain(cover, 4).CellCount(), 4u);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MarginalDomain(cover, 3));
	try {
		MarginalDomain d(cover, 3);
		FAIL();
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()), "cell domain exceeds 3 cells");
		EXPECT_NE(e.detail().find("3 distinct public cells plus one cell outside the support"), std::string::npos);
	}
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalDomain(cover, 64).OutsideCell());
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalDomain(cover, 64).DomainCellOfGridIndex(64));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalDomain(cover, 10).DomainCellOf({0, 0, 4}));
	// A grid too large for 64 bits: support only, mapping by coordinates only.
	const MarginalCover huge(std::vector<std::int32_t>(40, 5000), 1, {std::vector<std::int32_t>(40, 7)}, kNoLimit);
	const MarginalDomain hd(huge, 1000);
	EXPECT_EQ(hd.Kind(), MarginalDomainKind::PublicSupport);
	EXPECT_FALSE(hd.GridIndexFits());
	EXPECT_EQ(hd.DomainCellOf(std::vector<std::int32_t>(40, 7)), 0u);
	EXPECT_EQ(hd.DomainCellOf(std::vector<std::int32_t>(40, 8)), 1u);
	EXPECT_PAP_ERROR(ErrorKind::Internal, hd.DomainCellOfGridIndex(0));
	EXPECT_EQ(hd.MakeWorkload().CellCount(), 2u);
	// Query limit: C(3, 2) = 3 attribute sets over a limit of 2; cover size over the limit.
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MarginalCover({4, 4, 4}, 2, {}, 2));
	const std::size_t n = cover.QueryCount();
	EXPECT_NO_THROW(MarginalCover({4, 4, 4}, 2, {{0, 0, 0}, {1, 2, 3}, {2, 1, 0}}, n));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, MarginalCover({4, 4, 4}, 2, {{0, 0, 0}, {1, 2, 3}, {2, 1, 0}}, n - 1));
	// Malformed input.
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalCover({4, 1}, 1, {}, kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalCover({4, 4}, 3, {}, kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalCover({4, 4}, 1, {{0}}, kNoLimit));
	EXPECT_PAP_ERROR(ErrorKind::Internal, MarginalCover({4, 4}, 1, {{0, 4}}, kNoLimit));
}

}  // namespace
}  // namespace pap::core
