#include "core/release_engine.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/interval_cover.hpp"  // NumericLiteralValue, FormatFloat8: no cover type is named here
#include "core/pmw_plan.hpp"
#include "core/query_class.hpp"

namespace pap::core {

namespace {

template <typename T>
T *
AllocateArray(Allocate allocate, std::size_t count)
{
	void *p = allocate(sizeof(T) * (count == 0 ? 1 : count));
	if (p == nullptr)
		throw std::bad_alloc();
	return static_cast<T *>(p);
}

char *
CopyString(Allocate allocate, const std::string &s)
{
	char *out = AllocateArray<char>(allocate, s.size() + 1);
	std::memcpy(out, s.c_str(), s.size() + 1);
	return out;
}

}  // namespace

ParsedClass
ParseClassForDefine(const char *class_text, Allocate allocate)
{
	const QueryClass cls = ParseQueryClass(class_text);
	return ParsedClass{CopyString(allocate, cls.Text()), CopyString(allocate, cls.column), cls.VcDimension()};
}

DefinedRelease
BuildDefinedRelease(const char *class_text, const double *values, const std::int64_t *counts, std::size_t value_count,
                    std::int64_t null_rows, std::size_t max_cover_queries, Allocate allocate)
{
	const QueryClass cls = ParseQueryClass(class_text);
	NumericAxis axis = NumericAxis::FromPublicValues(std::vector<double>(values, values + value_count));
	const std::unique_ptr<Cover> cover = MakeCover(cls, axis, max_cover_queries);
	DefinedRelease out{};
	out.cut_count = axis.cut_count();
	out.cuts = AllocateArray<double>(allocate, out.cut_count);
	std::copy(axis.cuts().begin(), axis.cuts().end(), out.cuts);
	out.cell_count = cover->CellCount();
	out.public_histogram = AllocateArray<std::int64_t>(allocate, out.cell_count);
	std::fill(out.public_histogram, out.public_histogram + out.cell_count, 0);
	std::int64_t rows = null_rows;
	for (std::size_t i = 0; i < value_count; i++) {
		if (counts[i] < 0)
			throw Error(ErrorKind::Internal, "negative public count");
		out.public_histogram[axis.BinOf(values[i])] += counts[i];
		rows += counts[i];
	}
	out.public_histogram[axis.NullBin()] += null_rows;
	out.cover_size = std::int64_t(cover->QueryCount());
	out.public_rows = rows;
	return out;
}

MechanismChoice
ParseMechanism(const char *text)
{
	const std::string m(text);
	if (m == "pmw" || m == "auto")
		return MechanismChoice::Pmw;
	throw Error(ErrorKind::InvalidParameter, "unknown mechanism \"" + m + "\"", {},
	            "Mechanisms available: pmw, auto (auto chooses pmw).");
}

bool
ParseUniformPrior(const char *text)
{
	const std::string p(text);
	if (p == "public")
		return false;
	if (p == "uniform")
		return true;
	throw Error(ErrorKind::InvalidParameter, "unknown prior \"" + p + "\"", {},
	            "Priors available: public (the public histogram over the cells), uniform.");
}

void
ValidatePrivacyParameters(double epsilon, double delta)
{
	if (!(std::isfinite(epsilon) && epsilon > 0.0))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be finite and positive, got " + FormatFloat8(epsilon));
	if (!(std::isfinite(delta) && delta >= 0.0 && delta < 1.0))
		throw Error(ErrorKind::InvalidParameter, "delta must be in [0, 1), got " + FormatFloat8(delta));
}

PlanSummary
MakePlan(const PlanRequest &r)
{
	ParseMechanism(r.mechanism);
	ValidatePrivacyParameters(r.epsilon, r.delta);
	const QueryClass cls = ParseQueryClass(r.class_text);
	PmwPlanInput in;
	in.private_rows = r.private_rows;
	in.public_rows = r.public_rows;
	in.cover_size = std::size_t(r.cover_size);
	in.cells = std::size_t(r.cell_count);
	in.vc_dimension = cls.VcDimension();
	in.epsilon = r.epsilon;
	in.delta = r.delta;
	in.alpha = r.alpha;
	in.beta = r.beta;
	in.uniform_prior = ParseUniformPrior(r.prior);
	const PmwPlan plan = PlanPmw(in);
	PlanSummary s{};
	s.predicted_error = plan.predicted_error;
	s.public_only_error = plan.public_only_error;
	s.converges = plan.converges;
	s.book_private_rows = plan.book_private_rows;
	s.book_public_rows = plan.book_public_rows;
	s.book_cutoff = plan.book_cutoff;
	s.cutoff = plan.parameters.cutoff;
	s.threshold = plan.parameters.threshold;
	s.approximate_accounting = plan.parameters.accounting == SparseVectorAccounting::Approximate;
	s.epsilon_split[0] = plan.epsilon_threshold;
	s.epsilon_split[1] = plan.epsilon_compare;
	s.noise_scales[0] = plan.parameters.threshold_noise.value();
	s.noise_scales[1] = plan.parameters.compare_noise.value();
	s.first_pass_factor = plan.parameters.first_pass_factor;
	s.max_passes = plan.parameters.max_passes;
	return s;
}

RunSummary
RunRelease(const RunRequest &r, Allocate allocate)
{
	const QueryClass cls = ParseQueryClass(r.plan.class_text);
	const std::unique_ptr<Cover> cover =
	    MakeCover(cls, NumericAxis::FromCuts(std::vector<double>(r.cuts, r.cuts + r.cut_count)),
	              std::size_t(r.plan.cover_size));
	const std::size_t cells = cover->CellCount();
	if (std::int64_t(cells) != r.plan.cell_count || std::int64_t(cover->QueryCount()) != r.plan.cover_size)
		throw Error(ErrorKind::Internal, "stored release does not match its class");
	std::vector<std::int64_t> histogram(r.private_histogram, r.private_histogram + cells);
	std::int64_t n = 0;
	for (std::int64_t h : histogram)
		n += h;
	PlanRequest plan_request = r.plan;
	plan_request.private_rows = n;
	RunSummary out{};
	out.plan = MakePlan(plan_request);

	// Rebuild the exact parameters the plan chose (MakePlan reports them as numbers; PlanPmw is deterministic).
	PmwPlanInput in;
	in.private_rows = n;
	in.public_rows = r.plan.public_rows;
	in.cover_size = cover->QueryCount();
	in.cells = cells;
	in.vc_dimension = cover->VcDimension();
	in.epsilon = r.plan.epsilon;
	in.delta = r.plan.delta;
	in.alpha = r.plan.alpha;
	in.beta = r.plan.beta;
	in.uniform_prior = ParseUniformPrior(r.plan.prior);
	const PmwPlan plan = PlanPmw(in);

	const std::vector<double> prior =
	    in.uniform_prior ? UniformPrior(cells)
	                    : PublicPrior(std::vector<std::int64_t>(r.public_histogram, r.public_histogram + cells));
	std::unique_ptr<RandomBitSource> rng;
	if (r.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(r.seed));
	else
		rng = std::make_unique<SecureRandomSource>(r.fill_secure, nullptr);
	const std::unique_ptr<Workload> workload = cover->NewWorkload();
	const PmwResult result = RunPmw(*workload, histogram, prior, plan.parameters, *rng, r.interrupted);

	out.synthetic = AllocateArray<double>(allocate, cells);
	std::copy(result.synthetic.begin(), result.synthetic.end(), out.synthetic);
	out.updates = result.updates;
	out.comparisons = result.comparisons;
	out.passes = result.passes;
	out.cutoff_reached = result.cutoff_reached;
	return out;
}

class ReleaseModel {
public:
	ReleaseModel(QueryClass cls, NumericAxis axis, std::vector<double> synthetic, std::int64_t private_rows)
	    : column_(cls.column), cover_(MakeCover(cls, std::move(axis), ~std::size_t(0))),
	      synthetic_(std::move(synthetic)), private_rows_(private_rows)
	{
		if (synthetic_.size() != cover_->CellCount())
			throw Error(ErrorKind::Internal, "stored synthetic distribution does not match the release's cells");
		// Every answer at once through the cover's workload (prefix sums for intervals): O(queries + cells).
		cover_->NewWorkload()->Evaluate(synthetic_, answers_);
	}
	const Cover &cover() const { return *cover_; }
	const std::string &column() const { return column_; }
	double Answer(std::size_t q) const
	{
		if (q >= cover_->QueryCount())
			throw Error(ErrorKind::Internal, "cover query index out of range");
		// Clamp the tiny negative or > 1 values that rounding in the prefix sums can produce.
		return std::min(1.0, std::max(0.0, answers_[q]));
	}
	double Weight(std::size_t cell) const { return synthetic_.at(cell); }
	std::int64_t private_rows() const { return private_rows_; }

private:
	std::string column_;
	std::unique_ptr<Cover> cover_;
	std::vector<double> synthetic_;
	std::vector<double> answers_;  // per cover query, unclamped
	std::int64_t private_rows_;
};

struct ParsedQuery {
	QueryText text;
	std::vector<const Literal *> literals;  // in reading order
};

ReleaseModel *
LoadReleaseModel(const char *class_text, const double *cuts, std::size_t cut_count, const double *synthetic,
                 std::size_t cell_count, std::int64_t private_rows)
{
	return new ReleaseModel(ParseQueryClass(class_text),
	                        NumericAxis::FromCuts(std::vector<double>(cuts, cuts + cut_count)),
	                        std::vector<double>(synthetic, synthetic + cell_count), private_rows);
}

void
FreeReleaseModel(ReleaseModel *model) noexcept
{
	delete model;
}

std::size_t ModelCoverSize(const ReleaseModel *m) { return m->cover().QueryCount(); }
std::size_t ModelCellCount(const ReleaseModel *m) { return m->cover().CellCount(); }
double ModelAnswer(const ReleaseModel *m, std::size_t q) { return m->Answer(q); }
double ModelCellWeight(const ReleaseModel *m, std::size_t cell) { return m->Weight(cell); }
std::int64_t ModelPrivateRows(const ReleaseModel *m) { return m->private_rows(); }
const char *ModelColumn(const ReleaseModel *m) { return m->column().c_str(); }

std::size_t
ModelProjectNumericQuery(const ReleaseModel *model, const char *query)
{
	const QueryText parsed = ParseQueryText(query);
	std::vector<double> values;
	for (const Condition &c : parsed.conditions) {
		values.push_back(NumericLiteralValue(c.value));
		if (c.op == Comparison::Between)
			values.push_back(NumericLiteralValue(c.upper));
	}
	return model->cover().Project(parsed, values);
}

ParsedQuery *
ParseQueryForModel(const char *query)
{
	auto parsed = std::make_unique<ParsedQuery>();
	parsed->text = ParseQueryText(query);
	for (const Condition &c : parsed->text.conditions) {
		parsed->literals.push_back(&c.value);
		if (c.op == Comparison::Between)
			parsed->literals.push_back(&c.upper);
	}
	return parsed.release();
}

void
FreeParsedQuery(ParsedQuery *query) noexcept
{
	delete query;
}

std::size_t ParsedQueryLiteralCount(const ParsedQuery *q) { return q->literals.size(); }
const char *ParsedQueryLiteral(const ParsedQuery *q, std::size_t i) { return q->literals.at(i)->text.c_str(); }

std::size_t
ModelProjectParsedQuery(const ReleaseModel *model, const ParsedQuery *query, const double *literal_values)
{
	return model->cover().Project(query->text,
	                              std::vector<double>(literal_values, literal_values + query->literals.size()));
}

CoverQueryShape
ModelCoverQueryShape(const ReleaseModel *model, std::size_t q)
{
	return model->cover().Shape(q);
}

CellShape
ModelCellShape(const ReleaseModel *model, std::size_t cell)
{
	return model->cover().ShapeOfCell(cell);
}

void
FormatFloat8Into(double value, char *buf, std::size_t size)
{
	const std::string s = FormatFloat8(value);
	std::snprintf(buf, size, "%s", s.c_str());
}

}  // namespace pap::core
