#include "core/classes/box_cover.hpp"

#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/interval_cover.hpp"
#include "core/language/query_text.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

class BoxCover final : public Cover {
public:
	explicit BoxCover(const CoverInput &input) : spec_(*input.spec)
	{
		const bool boxes = spec_.kind == ClassKind::Boxes;
		std::vector<std::size_t> cut_counts;
		for (std::size_t a = 0; a < spec_.columns.size(); a++) {
			axes_.emplace_back(boxes, input.axes->at(a));
			columns_.push_back(QuoteIdentifier(spec_.columns[a]));
			cut_counts.push_back(input.axes->at(a).cuts.size());
		}
		count_ = OrderedCoverCount(spec_, cut_counts);
	}

	// Listed when first asked for: PMW and MWEM are planned only when the cover fits their limit
	// (docs/query-classes.md, "Covers too large to list"), and nothing else reads the list.
	const ProductQueryList &
	Queries() const override
	{
		if (queries_.size() == count_)
			return queries_;
		if (count_ == kMaxCoverCount)
			throw Error(ErrorKind::Internal, "a box cover too large to count was asked for its list");
		const std::size_t k = axes_.size();
		queries_ = ProductQueryList();  // a list a cancel left half-built starts again
		queries_.Reserve(count_, count_ * k);
		// odometer over the per-axis indexes, axis 0 most significant
		std::vector<std::size_t> digits(k, 0);
		std::vector<AxisConstraint> constraints;
		std::uint64_t steps = 0;
		for (std::size_t q = 0; q < count_; q++) {
			PollInterrupt(steps);
			constraints.clear();
			for (std::size_t a = 0; a < k; a++)
				if (digits[a] != Unconstrained(a))
					constraints.push_back(AxisConstraint{std::uint32_t(a), axes_[a].Bins(digits[a])});
			queries_.Add(constraints);
			for (std::size_t a = k; a-- > 0;) {
				if (++digits[a] < Radix(a))
					break;
				digits[a] = 0;
			}
		}
		return queries_;
	}

	std::size_t
	QueryCount() const override
	{
		return count_;
	}

	// TRUE, every axis unconstrained: every other cover query is a subset of it.
	ProductQueryList
	Widest() const override
	{
		ProductQueryList widest;
		widest.Add(std::vector<AxisConstraint>{});
		return widest;
	}

	std::size_t
	Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const override
	{
		const std::vector<ColumnBounds> bounds =
		    CollectColumnBounds(spec_, parsed, literals, spec_.kind == ClassKind::Orthants);
		RequireOneCoverQuery(spec_, *parsed, bounds);
		if (count_ == kMaxCoverCount)
			throw Error(ErrorKind::LimitExceeded,
			            "query class " + spec_.CanonicalText() + " has too many cover queries to number them", {},
			            "Answer the query with pap.answer, which does not need its number.");
		std::size_t q = 0;
		for (std::size_t a = 0; a < axes_.size(); a++) {
			const ColumnBounds &b = bounds[a];
			q = q * Radix(a) + (b.mentioned ? axes_[a].Project(b.lower, b.upper) : Unconstrained(a));
		}
		return q;
	}

	std::string
	Render(std::size_t q) const override
	{
		if (q >= count_)
			throw Error(ErrorKind::Internal, "box cover query index out of range");
		std::vector<std::size_t> digits(axes_.size());
		for (std::size_t a = axes_.size(); a-- > 0;) {
			digits[a] = q % Radix(a);
			q /= Radix(a);
		}
		std::string text;
		for (std::size_t a = 0; a < axes_.size(); a++)
			if (digits[a] != Unconstrained(a))
				text += (text.empty() ? "" : " AND ") + axes_[a].Render(digits[a], columns_[a]);
		return text.empty() ? "TRUE" : text;
	}

	int
	VcDimension() const override
	{
		const int k = int(axes_.size());
		return spec_.kind == ClassKind::Boxes ? 2 * k : k;
	}

private:
	std::size_t
	Radix(std::size_t a) const
	{
		return axes_[a].size() + 1;
	}
	std::size_t
	Unconstrained(std::size_t a) const
	{
		return axes_[a].size();
	}

	ClassSpec spec_;
	std::vector<OrderedAxisCover> axes_;
	std::vector<std::string> columns_;  // quoted
	std::size_t count_ = 0;             // CoverCount of the product of (per-axis size + 1)
	mutable ProductQueryList queries_;
};

}  // namespace

std::unique_ptr<Cover>
MakeBoxCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if ((spec.kind != ClassKind::Boxes && spec.kind != ClassKind::Orthants) || spec.columns.empty() ||
	    input.axes == nullptr || input.axes->size() != spec.columns.size())
		throw Error(ErrorKind::Internal, "box cover built for another class or without one axis per column");
	return std::make_unique<BoxCover>(input);
}

}  // namespace pap::core
