// The answering side of a finished release (release_engine.hpp, "answering"): the model built from the catalog
// and the parsing and projection of an analyst's query onto the cover.
#include <algorithm>
#include <cctype>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/engine_support.hpp"
#include "core/errors.hpp"
#include "core/interval_cover.hpp"  // NumericLiteralValue
#include "core/product_workload.hpp"
#include "core/release_engine.hpp"
#include "core/release_layout.hpp"

namespace pap::core {

class ReleaseModel {
public:
	ReleaseModel(ReleaseLayout layout, std::vector<double> synthetic, std::int64_t private_rows)
	    : layout_(std::move(layout)), domain_(layout_.MakeDomain()),
	      cover_(layout_.MakeReleaseCover(std::numeric_limits<std::size_t>::max())),
	      synthetic_(std::move(synthetic)), private_rows_(private_rows)
	{
		if (synthetic_.size() != domain_.CellCount())
			throw Error(ErrorKind::Internal, "stored synthetic distribution does not match the release's cells");
		// Every answer at once, by groups: O(groups x cells + queries).
		ProductWorkload(domain_, cover_->Queries()).Evaluate(synthetic_, answers_);
	}
	const ReleaseLayout &layout() const { return layout_; }
	const CellDomain &domain() const { return domain_; }
	const Cover &cover() const { return *cover_; }
	double Answer(std::size_t q) const
	{
		if (q >= cover_->QueryCount())
			throw Error(ErrorKind::Internal, "cover query index out of range");
		// Clamp the tiny negative or > 1 values that rounding in the prefix sums can produce.
		return std::min(1.0, std::max(0.0, answers_[q]));
	}
	double Weight(std::size_t cell) const { return synthetic_.at(cell); }
	std::int64_t private_rows() const { return private_rows_; }
	// The axis a column of the class is read on (numeric and categorical classes), or nullptr.
	const ReleaseAxis *AxisOfColumn(const std::string &column) const
	{
		for (const ReleaseAxis &axis : layout_.axes)
			if ((axis.kind == AxisKind::Numeric || axis.kind == AxisKind::Categorical) && axis.label == column)
				return &axis;
		return nullptr;
	}

private:
	ReleaseLayout layout_;
	CellDomain domain_;
	std::unique_ptr<Cover> cover_;
	std::vector<double> synthetic_;
	std::vector<double> answers_;  // per cover query, unclamped
	std::int64_t private_rows_;
};

struct ParsedQuery {
	std::string raw;
	bool parsed = false;  // false for predicates: the text is matched as it is
	QueryText text;
	struct Entry {
		const Literal *literal;
		const Condition *condition;
	};
	std::vector<Entry> literals;  // in reading order
};

ReleaseModel *
LoadReleaseModel(const CatalogLayout &layout, const double *synthetic, std::size_t cell_count,
                 std::int64_t private_rows)
{
	return new ReleaseModel(LayoutFromCatalog(layout), std::vector<double>(synthetic, synthetic + cell_count),
	                        private_rows);
}

void
FreeReleaseModel(ReleaseModel *model) noexcept
{
	delete model;
}

std::size_t ModelCoverSize(const ReleaseModel *m) { return m->cover().QueryCount(); }
std::size_t ModelCellCount(const ReleaseModel *m) { return m->domain().CellCount(); }
double ModelAnswer(const ReleaseModel *m, std::size_t q) { return m->Answer(q); }
double ModelCellWeight(const ReleaseModel *m, std::size_t cell) { return m->Weight(cell); }
std::int64_t ModelPrivateRows(const ReleaseModel *m) { return m->private_rows(); }

char *
ModelRenderQuery(const ReleaseModel *m, std::size_t q, Allocate allocate)
{
	return CopyString(allocate, m->cover().Render(q));
}

void
ModelDescribeCell(const ReleaseModel *m, std::size_t cell, char **bounds, char **json, Allocate allocate)
{
	std::string b, j;
	m->layout().DescribeCell(m->domain(), cell, b, j);
	*bounds = CopyString(allocate, b);
	*json = CopyString(allocate, j);
}

ParsedQuery *
ParseQueryForModel(const ReleaseModel *model, const char *query)
{
	auto parsed = std::make_unique<ParsedQuery>();
	parsed->raw = query;
	if (model->layout().spec.kind == ClassKind::Predicates)
		return parsed.release();
	parsed->parsed = true;
	// "TRUE", the query without conditions (pap.answers lists it for boxes and orthants), has no conditions.
	std::string trimmed(query);
	trimmed.erase(0, trimmed.find_first_not_of(" \t\r\n"));
	trimmed.erase(trimmed.find_last_not_of(" \t\r\n") + 1);
	for (char &c : trimmed)
		c = char(std::tolower(static_cast<unsigned char>(c)));
	if (trimmed == "true")
		return parsed.release();
	parsed->text = ParseQueryText(query);
	for (const Condition &c : parsed->text.conditions) {
		parsed->literals.push_back({&c.value, &c});
		if (c.op == Comparison::Between)
			parsed->literals.push_back({&c.upper, &c});
	}
	return parsed.release();
}

void
FreeParsedQuery(ParsedQuery *query) noexcept
{
	delete query;
}

std::size_t ParsedQueryLiteralCount(const ParsedQuery *q) { return q->literals.size(); }

LiteralTarget
ParsedQueryLiteral(const ReleaseModel *model, const ParsedQuery *q, std::size_t i)
{
	const ParsedQuery::Entry &e = q->literals.at(i);
	LiteralTarget t{e.literal->text.c_str(), AxisKind::Numeric, ValueType::Number, "", e.literal->quoted, true};
	// A linear condition's bound is a number; so is a plain bound on a column of halfspaces (direction (1, 0)).
	if (!e.condition->terms.empty() || model->layout().spec.kind == ClassKind::Halfspaces)
		return t;
	const ReleaseAxis *axis = model->AxisOfColumn(e.condition->column);
	if (axis == nullptr) {
		t.known = false;  // the cover reports the unknown column when it projects
		return t;
	}
	t.kind = axis->kind;
	t.type = axis->value_type;
	t.column = axis->label.c_str();
	return t;
}

double
ReadNumberLiteral(const ParsedQuery *q, std::size_t i)
{
	return NumericLiteralValue(*q->literals.at(i).literal);
}

std::size_t
ModelProject(const ReleaseModel *model, const ParsedQuery *q, const double *numbers, const char *const *texts)
{
	std::vector<LiteralValue> values(q->literals.size());
	for (std::size_t i = 0; i < values.size(); i++) {
		values[i].number = numbers[i];
		if (texts[i] != nullptr)
			values[i].text = texts[i];
	}
	return model->cover().Project(q->raw, q->parsed ? &q->text : nullptr, values);
}

}  // namespace pap::core
