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
		std::size_t count = 1;
		for (std::size_t a = 0; a < spec_.columns.size(); a++) {
			axes_.emplace_back(boxes, input.axes->at(a));
			columns_.push_back(QuoteIdentifier(spec_.columns[a]));
			count *= Radix(a);  // fits: the caller checked the size against max_queries
		}
		const std::size_t k = axes_.size();
		queries_.Reserve(count, count * k);
		// odometer over the per-axis indexes, axis 0 most significant
		std::vector<std::size_t> digits(k, 0);
		std::vector<AxisConstraint> constraints;
		std::uint64_t steps = 0;
		for (std::size_t q = 0; q < count; q++) {
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
	}

	const ProductQueryList &
	Queries() const override
	{
		return queries_;
	}

	std::size_t
	Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const override
	{
		const std::vector<ColumnBounds> bounds =
		    CollectColumnBounds(spec_, parsed, literals, spec_.kind == ClassKind::Orthants);
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
		if (q >= queries_.size())
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
	ProductQueryList queries_;
};

}  // namespace

std::unique_ptr<Cover>
MakeBoxCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if ((spec.kind != ClassKind::Boxes && spec.kind != ClassKind::Orthants) || spec.columns.empty() ||
	    input.axes == nullptr || input.axes->size() != spec.columns.size())
		throw Error(ErrorKind::Internal, "box cover built for another class or without one axis per column");
	std::vector<std::size_t> cut_counts;
	std::string detail;
	for (std::size_t a = 0; a < spec.columns.size(); a++) {
		cut_counts.push_back((*input.axes)[a].cuts.size());
		detail += (a ? ", " : "The axes have ") + std::to_string(cut_counts[a]) + " cut points in column " +
		          QuoteIdentifier(spec.columns[a]);
	}
	const double size = OrderedCoverSize(spec, cut_counts);
	if (!(size <= double(input.max_queries)))
		throw Error(ErrorKind::LimitExceeded,
		            "query class " + spec.CanonicalText() + " would have " + FormatFloat8(size) +
		                " cover queries, more than the limit of " + std::to_string(input.max_queries),
		            detail + ".", CoverLimitHint(spec, *input.axes, input.max_queries));
	return std::make_unique<BoxCover>(input);
}

}  // namespace pap::core
