// The engine's view of a cover H~ (Algorithm 3, steps 1-4; docs/query-classes.md): the cover queries of a class
// as product queries over the release's axes (product_query.hpp), the projection of any query of the class onto
// them, and their readable text. Cells and domains are not the cover's business (cell_domain.hpp): every cover
// query is a set of bins per axis, so it is evaluated on any domain over the same axes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/axes/release_axis.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/query_text.hpp"
#include "core/workloads/product_query.hpp"

namespace pap::core {

// The value of the i-th literal of a parsed query, read for the column it is compared with: `number` for a
// Numeric axis (float8 or the temporal axis value), `text` for a Categorical axis (the column type's canonical
// output text of the literal; "true"/"false" for booleans). The glue fills the one the axis needs.
struct LiteralValue {
	double number = 0.0;
	std::string text;
};

class Cover {
public:
	virtual ~Cover() = default;
	// Every cover query, in the cover's canonical order (index = cover query id, stable for a given input). The
	// ordered classes list theirs when first asked (their covers may be too large to list: docs/query-classes.md,
	// "Covers too large to list"); only the mechanisms that read every cover query ask.
	virtual const ProductQueryList &Queries() const = 0;
	// |H~|, without listing the cover (CoverCount: at most kMaxCoverCount).
	virtual std::size_t
	QueryCount() const
	{
		return Queries().size();
	}
	// Cover queries whose cells include every cover query's cells (the widest ones), so that the most cells a cover
	// query spans is read without listing the cover.
	virtual ProductQueryList
	Widest() const
	{
		return Queries();
	}
	// The cover query a query projects to: the one with the fewest public disagreements (at the finest
	// granularity, the paper's unique match). `parsed` and `literals` (LiteralCount(*parsed) values, reading
	// order) for every class but predicates; predicates read only `text` (one of the listed predicates,
	// compared after trimming surrounding whitespace) and get parsed == nullptr.
	// Errors: Error(UndefinedColumn) for a column outside the class, Error(QueryOutsideClass) naming the class for
	// a well-formed query of another shape (the message says what the class accepts).
	virtual std::size_t Project(std::string_view text, const QueryText *parsed,
	                            const std::vector<LiteralValue> &literals) const = 0;
	// The query's own cells, as constraints on its axes (the axes it leaves out are free), for the classes whose
	// queries are cell sets of the grid (marginals and stumps: one bin per named axis); the query is checked as by
	// Project, with its errors. Answering from them is sound only where the domain holds every cell they name (a
	// full grid). Error(Internal) for the other classes.
	virtual std::vector<AxisConstraint>
	OwnCells(std::string_view /*text*/, const QueryText * /*parsed*/,
	         const std::vector<LiteralValue> & /*literals*/) const
	{
		throw Error(ErrorKind::Internal, "the query class has no reading of a query's own cells");
	}
	// Readable query text of cover query q that projects back to q, e.g. "carat <= 1 AND price > 326",
	// "age = 37 AND sex = 1", "1*x + 2*y <= 3.5", a listed predicate; "TRUE" for the unconstrained query.
	// Values print as literals of the column's type (value_format.hpp).
	virtual std::string Render(std::size_t q) const = 0;
	// Of the class, for the planner's public-sample bounds.
	virtual int VcDimension() const = 0;

protected:
	Cover() = default;
	Cover(const Cover &) = default;
	Cover(Cover &&) = default;
	Cover &operator=(const Cover &) = default;
	Cover &operator=(Cover &&) = default;
};

// What every cover is built from: the class, its axes (cuts and categories already chosen), and the public rows
// as grid points over those axes (flat: point i, axis a at i * axes.size() + a; distinct, with row counts).
struct CoverInput {
	const ClassSpec *spec;
	const std::vector<ReleaseAxis> *axes;
	const std::vector<std::int32_t> *public_points;
	const std::vector<std::int64_t> *public_point_counts;
	// predicates only: for each listed predicate, the index of its axis (the representative it merged into).
	const std::vector<std::int32_t> *predicate_axis;
	// Error(LimitExceeded) beyond it, for the classes that list their cover as they build it (marginals,
	// halfspaces, predicates); an ordered class's cover is never refused for its size.
	std::size_t max_queries;
};
std::unique_ptr<Cover> MakeCover(const CoverInput &input);

}  // namespace pap::core

#include "core/base/core_only.hpp"
