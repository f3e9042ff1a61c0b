// Helpers shared by the core unit tests: checking the kind of a pap::core::Error, PostgreSQL's float8 order
// written out by hand (the brute-force side of the tests), small random public samples with ties, NaN and the
// infinities, and samples of a Zipf population (the error model's simulated checks).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/classes/cover.hpp"
#include "core/language/query_text.hpp"
#include "core/mechanisms/pmw_plan.hpp"

namespace pap::core::test {

// The largest change, over every neighbour obtained by moving one row of the histogram h to another cell, of the
// counts a mechanism measures (counts_of(histogram), a vector of integers): {l1, l2^2}, by brute force.
template <typename CountsOf>
std::pair<double, double>
LargestMovedRowChange(const std::vector<std::int64_t> &h, CountsOf counts_of)
{
	const std::vector<std::int64_t> before = counts_of(h);
	double max_l1 = 0, max_l2 = 0;
	for (std::size_t from = 0; from < h.size(); from++)
		for (std::size_t to = 0; to < h.size(); to++) {
			if (h[from] == 0)
				continue;
			std::vector<std::int64_t> g = h;
			g[from]--;
			g[to]++;
			const std::vector<std::int64_t> after = counts_of(g);
			double l1 = 0, l2 = 0;
			for (std::size_t i = 0; i < after.size(); i++) {
				l1 += std::abs(double(after[i] - before[i]));
				l2 += double(after[i] - before[i]) * double(after[i] - before[i]);
			}
			max_l1 = std::max(max_l1, l1);
			max_l2 = std::max(max_l2, l2);
		}
	return {max_l1, max_l2};
}

// The data-independent mechanisms' tests: a plan input of `cells` cells and as many cover queries, n = 10,000,
// m = 1,000.
inline PlanInput
HistogramPlanInput(double epsilon, double delta, std::size_t cells)
{
	PlanInput in;
	in.private_rows = 10000;
	in.public_rows = 1000;
	in.cover_size = cells;
	in.cells = cells;
	in.epsilon = epsilon;
	in.delta = delta;
	return in;
}

// An InterruptCheck that always asks to stop.
inline bool
AlwaysInterrupted()
{
	return true;
}

inline const char *
KindName(ErrorKind kind)
{
	switch (kind) {
	case ErrorKind::InvalidParameter: return "InvalidParameter";
	case ErrorKind::SyntaxError: return "SyntaxError";
	case ErrorKind::QueryOutsideClass: return "QueryOutsideClass";
	case ErrorKind::UndefinedColumn: return "UndefinedColumn";
	case ErrorKind::DatatypeMismatch: return "DatatypeMismatch";
	case ErrorKind::DataException: return "DataException";
	case ErrorKind::LimitExceeded: return "LimitExceeded";
	case ErrorKind::RandomSourceFailure: return "RandomSourceFailure";
	case ErrorKind::Cancelled: return "Cancelled";
	case ErrorKind::Internal: return "Internal";
	}
	return "?";
}

// "InvalidParameter", "no error", or "other exception: ..." for what running f raised.
template <typename F>
std::string
OutcomeOf(F &&f)
{
	try {
		f();
	} catch (const Error &e) {
		return KindName(e.kind());
	} catch (const std::exception &e) {
		return std::string("other exception: ") + e.what();
	}
	return "no error";
}

// EXPECT_PAP_ERROR(ErrorKind::Internal, statement): the statement throws pap::core::Error of exactly that kind.
#define EXPECT_PAP_ERROR(kind, ...)                                                                                    \
	EXPECT_EQ(::pap::core::test::OutcomeOf([&]() { __VA_ARGS__; }), ::pap::core::test::KindName(kind)) << #__VA_ARGS__

// PostgreSQL's float8 order, spelled out independently of the code under test: a rank for the special values,
// ordinary comparison otherwise. -0.0 and 0.0 are equal; NaN equals NaN and is above +Infinity.
inline int
PgCompare(double a, double b)
{
	const bool an = std::isnan(a), bn = std::isnan(b);
	if (an || bn)
		return an == bn ? 0 : (an ? 1 : -1);
	return a < b ? -1 : (a > b ? 1 : 0);
}
inline bool
PgLt(double a, double b)
{
	return PgCompare(a, b) < 0;
}
inline bool
PgLe(double a, double b)
{
	return PgCompare(a, b) <= 0;
}
inline bool
PgEq(double a, double b)
{
	return PgCompare(a, b) == 0;
}

// Same value and same sign bit (NaN equals NaN): what "stored exactly" means for a cut.
inline bool
SameDouble(double a, double b)
{
	if (std::isnan(a) || std::isnan(b))
		return std::isnan(a) && std::isnan(b);
	return std::memcmp(&a, &b, sizeof a) == 0;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Values that exercise every corner of the order: infinities, NaN, both zeros, ties, and close neighbours.
inline const std::vector<double> &
SpecialPool()
{
	static const std::vector<double> pool = {-kInf, -1e300, -7.5, -2.0, -0.0, 0.0,   1e-300, 1.0,
	                                         1.5,   2.0,    3.0,  7.0,  9.25, 1e300, kInf,   kNaN};
	return pool;
}

// count values drawn from the pool, with repeats.
inline std::vector<double>
RandomPublicSample(std::mt19937_64 &gen, std::size_t count)
{
	const std::vector<double> &pool = SpecialPool();
	std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
	std::vector<double> out;
	for (std::size_t i = 0; i < count; i++)
		out.push_back(pool[pick(gen)]);
	return out;
}

// The pool plus midpoints between neighbours and a few values outside it: constants and private values that
// fall both on and between public values.
inline std::vector<double>
ProbeValues()
{
	std::vector<double> probes = SpecialPool();
	const std::vector<double> finite = {-1e300, -7.5, -2.0, 0.0, 1e-300, 1.0, 1.5, 2.0, 3.0, 7.0, 9.25, 1e300};
	for (std::size_t i = 0; i + 1 < finite.size(); i++)
		probes.push_back(finite[i] / 2 + finite[i + 1] / 2);
	for (double v : {-1e308, -3.0, 0.5, 5.0, 8.0, 100.0, 1e308, std::numeric_limits<double>::max(),
	                 std::numeric_limits<double>::lowest(), std::numeric_limits<double>::denorm_min()})
		probes.push_back(v);
	return probes;
}

// A conjunction with its literal values, as the glue hands it to Cover::Project.
struct ProjectedQuery {
	QueryText text;
	std::vector<LiteralValue> literals;
};

// Appends "column op c" (BETWEEN c AND c2) with its numeric literal values.
inline void
AddNumericCondition(ProjectedQuery &query, const std::string &column, Comparison op, double c, double c2 = 0.0)
{
	Condition cond;
	cond.column = column;
	cond.op = op;
	query.text.conditions.push_back(cond);
	query.literals.push_back(LiteralValue{c, {}});
	if (op == Comparison::Between)
		query.literals.push_back(LiteralValue{c2, {}});
}

// Whether a non-NULL value v satisfies "v op c" (BETWEEN c AND c2) in PostgreSQL's float8 order.
inline bool
SatisfiesAsPostgres(Comparison op, double v, double c, double c2)
{
	switch (op) {
	case Comparison::LessEqual: return PgLe(v, c);
	case Comparison::Less: return PgLt(v, c);
	case Comparison::GreaterEqual: return PgLe(c, v);
	case Comparison::Greater: return PgLt(c, v);
	case Comparison::Equal: return PgEq(v, c);
	case Comparison::Between: return PgLe(c, v) && PgLe(v, c2);
	case Comparison::In:
	case Comparison::IsNull:
	case Comparison::IsNotNull: break;  // not comparisons of one value with a bound
	}
	return false;
}

// A text for the parsers' robustness tests: with probability 1/random_every a random string of up to 23 bytes,
// else a seed with 1..max_mutations edits (insert, delete, replace, truncate, duplicate a slice). random_byte
// draws the bytes; the draws from rng are those the tests were written with, so their sequences are unchanged.
template <typename Rng, typename RandomByte>
std::string
MutatedText(int i, int random_every, int max_mutations, Rng &rng, const std::vector<std::string> &seeds,
            RandomByte &&random_byte)
{
	std::string text;
	if (i % random_every == 0) {
		const std::size_t length = rng() % 24;
		for (std::size_t k = 0; k < length; ++k)
			text += random_byte();
		return text;
	}
	text = seeds[rng() % seeds.size()];
	const int mutations = 1 + static_cast<int>(rng() % std::uint64_t(max_mutations));
	for (int m = 0; m < mutations; ++m) {
		const std::size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
		switch (rng() % 5) {
		case 0:  // insert
			text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), random_byte());
			break;
		case 1:  // delete
			if (at < text.size())
				text.erase(at, 1);
			break;
		case 2:  // replace
			if (at < text.size())
				text[at] = random_byte();
			break;
		case 3:  // truncate
			text.resize(at);
			break;
		default:  // duplicate a slice
			if (at < text.size())
				text.insert(at, text.substr(at, 1 + rng() % 8));
			break;
		}
	}
	return text;
}

// A population of `values` values with shares proportional to 1 / rank (Zipf), and samples of it: each value's rows
// in a sample of `rows` rows, drawn with the caller's generator.
class ZipfPopulation {
public:
	explicit ZipfPopulation(std::size_t values) : shares_(values)
	{
		double total = 0;
		for (std::size_t v = 0; v < values; v++)
			total += (shares_[v] = 1.0 / double(v + 1));
		for (double &share : shares_)
			share /= total;
		draw_ = std::discrete_distribution<std::size_t>(shares_.begin(), shares_.end());
	}
	const std::vector<double> &
	shares() const
	{
		return shares_;
	}
	std::vector<std::int64_t>
	Counts(int rows, std::mt19937_64 &random)
	{
		std::vector<std::int64_t> counts(shares_.size(), 0);
		for (int r = 0; r < rows; r++)
			counts[draw_(random)]++;
		return counts;
	}

private:
	std::vector<double> shares_;
	std::discrete_distribution<std::size_t> draw_;
};

// Whether work(size) takes time linear in size rather than quadratic, whatever the machine and its load: the run at
// size is compared with the run at size / 16 (16 times as long if linear, 256 times if quadratic), the smaller run
// the fastest of three and the larger one tried up to three times (a preemption falls on one try), with 20 ms of
// slack for the clock. A timed bound ("under 2 seconds") could fail under load.
template <typename Work>
::testing::AssertionResult
GrowsLinearly(Work &&work, std::size_t size)
{
	const auto seconds = [&](std::size_t n) {
		const auto start = std::chrono::steady_clock::now();
		work(n);
		return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	};
	double small = INFINITY;
	for (int i = 0; i < 3; i++)
		small = std::min(small, seconds(size / 16));
	double large = INFINITY;
	for (int i = 0; i < 3; i++) {
		large = std::min(large, seconds(size));
		if (large <= 64.0 * small + 0.02)
			return ::testing::AssertionSuccess();
	}
	return ::testing::AssertionFailure() << "size " << size << " took " << large << " s, size " << size / 16 << " took "
	                                     << small << " s (at most 64 times as long expected)";
}

}  // namespace pap::core::test
