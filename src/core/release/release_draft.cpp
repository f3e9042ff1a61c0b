// Defining a release (api/release_api.hpp, "defining a release"): axes, granularity, domain and cover, from the
// class text and what the glue reads from the public table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/api/release_api.hpp"
#include "core/axes/categorical_axis.hpp"
#include "core/axes/gap_spread.hpp"  // AxisValueStep
#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/axis_granularity.hpp"
#include "core/classes/halfspace_cover.hpp"
#include "core/classes/predicate_cover.hpp"
#include "core/language/query_text.hpp"
#include "core/release/declared_domain.hpp"
#include "core/release/layout_choice.hpp"
#include "core/release/release_layout.hpp"

namespace pap::core {

namespace {

bool
IsOrdered(ValueType type)
{
	return type == ValueType::Number || type == ValueType::Date || type == ValueType::Timestamp ||
	       type == ValueType::TimestampTz;
}

}  // namespace

class ReleaseDraft {
public:
	ReleaseDraft(const char *class_text, double alpha, Granularity granularity)
	    : alpha_(alpha), granularity_(granularity)
	{
		layout_.spec = ParseClassSpec(class_text);
		canonical_ = layout_.spec.CanonicalText();
		column_types_.resize(layout_.spec.columns.size());
		column_steps_.resize(layout_.spec.columns.size());
		column_labels_.resize(layout_.spec.columns.size());
		check_listed_.resize(layout_.spec.columns.size());
		column_not_null_.resize(layout_.spec.columns.size());
	}

	const ClassSpec &
	spec() const
	{
		return layout_.spec;
	}
	const std::string &
	canonical() const
	{
		return canonical_;
	}

	void
	SetColumnType(std::size_t i, ValueType type, const std::string &type_name)
	{
		const ClassSpec &spec = layout_.spec;
		const std::string &column = spec.columns.at(i);
		const std::string cls = ClassKindName(spec.kind);
		auto refuse = [&](const std::string &needs, const std::string &hint) {
			throw Error(ErrorKind::DatatypeMismatch,
			            "column \"" + column + "\" has type " + type_name + ", but " + cls + " needs " + needs, {},
			            hint);
		};
		switch (spec.kind) {
		case ClassKind::Thresholds:
		case ClassKind::Ranges:
		case ClassKind::Boxes:
		case ClassKind::Orthants:
			if (!IsOrdered(type))
				refuse("numeric, date or timestamp columns",
				       "Use marginals(k; ...) for categorical and boolean columns.");
			break;
		case ClassKind::Halfspaces:
			if (type != ValueType::Number)
				refuse("numeric columns", "Directions weigh numbers: cast other columns in a view.");
			break;
		case ClassKind::Stumps:
			if (type != ValueType::Boolean)
				refuse("boolean columns", "Use marginals(1; ...) for columns of other types.");
			break;
		case ClassKind::Marginals:
		case ClassKind::Predicates: break;
		}
		column_types_[i] = type;
	}

	// An enum column's labels (the type's, public: the catalog), which are its axis's categories.
	void
	SetColumnLabels(std::size_t i, const char *const *labels, std::size_t count)
	{
		if (column_types_.at(i) != ValueType::Enum)
			throw Error(ErrorKind::Internal, "labels for a column that is not of an enum type");
		if (count == 0)
			throw Error(ErrorKind::InvalidParameter,
			            "enum type of column \"" + layout_.spec.columns.at(i) + "\" has no labels",
			            "A column of an enum type without labels holds only NULL: no query of the class can name a "
			            "value of it.",
			            "Add the type's labels (ALTER TYPE ... ADD VALUE) or leave the column out of the class.");
		std::vector<std::string> sorted(labels, labels + count);
		std::sort(sorted.begin(), sorted.end());
		if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
			throw Error(ErrorKind::Internal, "an enum type's labels are not distinct");
		column_labels_.at(i) = std::move(sorted);
	}

	// The values a CHECK constraint allows a number or text column (public: the catalog), as its cast to text prints
	// them: a categorical axis's categories (ReleaseAxis::check_list).
	void
	SetColumnCheckList(std::size_t i, const char *const *values, std::size_t count)
	{
		const std::optional<ValueType> type = column_types_.at(i);
		if (type != ValueType::Number && type != ValueType::Text)
			throw Error(ErrorKind::Internal, "a CHECK list for a column that is not of a number or text type");
		std::vector<std::string> sorted(values, values + count);
		std::sort(sorted.begin(), sorted.end());
		if (sorted.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
			throw Error(ErrorKind::Internal, "a CHECK list is empty or its values are not distinct");
		column_labels_.at(i) = std::move(sorted);
		check_listed_.at(i) = true;
	}

	void
	SetColumnNotNull(std::size_t i, bool not_null)
	{
		column_not_null_.at(i) = not_null;
	}

	void
	SetColumnValueStep(std::size_t i, double step)
	{
		if (!(step >= 0.0) || !std::isfinite(step))
			throw Error(ErrorKind::Internal, "a column's value step must be finite and not negative");
		column_steps_.at(i) = step;
	}

	// rows: the public rows of each label point (granularity auto plans the predicates unmerged on them too).
	void
	MergePredicateLabels(const std::int32_t *points, const std::int64_t *rows, std::size_t count)
	{
		const std::size_t p = layout_.spec.predicates.size();
		label_points_.assign(points, points + count * p);
		label_rows_.assign(rows, rows + count);
		RequireOneConditionLabelsAlike();
		const PredicateMerge merge = MergePredicates(p, label_points_);
		SetPredicateAxes(layout_, merge);
		merged_representatives_ = merge.representatives;
		predicates_merged_ = true;
	}

	std::string
	PredicateLabelSql() const
	{
		// The grid scan's form (release_layout.cpp, LayoutScanSelectList), so that both reads evaluate a predicate in
		// the same place: postgres_fdw ships a CASE to the foreign server, not IS TRUE (NULL is 0 in both).
		std::string sql;
		for (const std::string &p : layout_.spec.predicates)
			sql += "CASE WHEN (" + p + ") THEN 1 ELSE 0 END, ";
		return sql + "pg_catalog.count(*)";
	}

	// The axes, created once every column type is known (or the predicates merged).
	std::vector<ReleaseAxis> &
	Axes()
	{
		if (axes_made_)
			return layout_.axes;
		const ClassSpec &spec = layout_.spec;
		if (spec.kind == ClassKind::Predicates) {
			if (!predicates_merged_)
				throw Error(ErrorKind::Internal, "predicate labels must be read before the axes");
		} else {
			for (std::size_t i = 0; i < column_types_.size(); i++)
				if (!column_types_[i])
					throw Error(ErrorKind::Internal, "a column's type is unknown");
			if (spec.kind == ClassKind::Halfspaces) {
				RequireDistinctDirections(spec);  // before any scan of the public table
				for (const std::vector<double> &w : spec.directions) {
					ReleaseAxis axis;
					axis.kind = AxisKind::Linear;
					axis.value_type = ValueType::Number;
					axis.label = LinearAxisLabel(spec.columns, w);
					layout_.axes.push_back(std::move(axis));
				}
			} else {
				const bool categorical = DraftColumnsAreCategorical(this);
				for (std::size_t i = 0; i < spec.columns.size(); i++) {
					ReleaseAxis axis;
					axis.kind = categorical ? AxisKind::Categorical : AxisKind::Numeric;
					axis.value_type = *column_types_[i];
					if (!categorical)
						axis.value_step = column_steps_[i].value_or(AxisValueStep(axis.value_type));
					axis.label = spec.columns[i];
					if (categorical && axis.value_type == ValueType::Boolean)
						axis.categories = CategoricalAxis::Boolean().categories();
					if (categorical && axis.value_type == ValueType::Enum) {
						if (column_labels_[i].empty())
							throw Error(ErrorKind::Internal, "an enum column's labels are unknown");
						axis.categories = column_labels_[i];
					}
					if (categorical && check_listed_[i]) {
						axis.categories = column_labels_[i];
						axis.check_list = true;
					}
					layout_.axes.push_back(std::move(axis));
				}
			}
		}
		axes_made_ = true;
		learned_.assign(layout_.axes.size(), false);
		return layout_.axes;
	}

	// nullptr-equivalent (empty) when the axis needs nothing from the public table.
	std::string
	MarginalSql(std::size_t a)
	{
		const ReleaseAxis &axis = Axes().at(a);
		switch (axis.kind) {
		case AxisKind::Numeric: return ReleaseLayout::AxisValueSql(axis.label, axis.value_type);
		case AxisKind::Linear:
			return ReleaseLayout::LinearValueSql(layout_.spec.columns, layout_.spec.directions.at(a));
		case AxisKind::Categorical:
			// The categories are the type's: nothing to learn. A CHECK list is read too, to refuse a public value
			// outside it (SetCategories): only the private table's constraint holds the list.
			if (axis.ClosedCategories() && !axis.check_list)
				return {};
			return "(" + SqlIdentifier(axis.label) + ")::pg_catalog.text";
		case AxisKind::Predicate: return {};
		}
		return {};
	}

	void
	SetNumericMarginal(std::size_t a, const double *values, const std::int64_t *rows, std::size_t count,
	                   std::int64_t null_rows)
	{
		ReleaseAxis &axis = Axes().at(a);
		if (axis.kind != AxisKind::Numeric && axis.kind != AxisKind::Linear)
			throw Error(ErrorKind::Internal, "a numeric marginal for a non-numeric axis");
		std::vector<std::size_t> order(count);
		std::iota(order.begin(), order.end(), std::size_t(0));
		std::sort(order.begin(), order.end(),
		          [&](std::size_t x, std::size_t y) { return PgFloatLess(values[x], values[y]); });
		axis.public_values.clear();
		axis.public_counts.clear();
		std::int64_t total = null_rows;
		for (std::size_t i : order) {
			if (rows[i] <= 0)
				throw Error(ErrorKind::Internal, "a public marginal row count must be positive");
			if (!axis.public_values.empty() && !PgFloatLess(axis.public_values.back(), values[i]))
				throw Error(ErrorKind::Internal, "public marginal values are not distinct");
			axis.public_values.push_back(values[i]);
			axis.public_counts.push_back(rows[i]);
			total += rows[i];
		}
		if (axis.public_values.empty())
			throw Error(ErrorKind::DataException, "the public table has no non-NULL value of " + axis.label,
			            "Every axis learns its cut points from the public values.");
		public_rows_ = total;
		learned_[a] = true;
	}

	void
	SetCategories(std::size_t a, const char *const *texts, std::size_t count)
	{
		ReleaseAxis &axis = Axes().at(a);
		if (axis.kind != AxisKind::Categorical)
			throw Error(ErrorKind::Internal, "categories for a non-categorical axis");
		std::vector<std::string> values(texts, texts + count);
		if (axis.check_list) {
			for (const std::string &v : values)
				if (!std::binary_search(axis.categories.begin(), axis.categories.end(), v))
					throw Error(ErrorKind::DataException,
					            "the public table holds value '" + v + "' of column \"" + axis.label +
					                "\", which the private table's CHECK constraint does not allow",
					            "The release counts on no row of either table holding a value outside the "
					            "constraint's list: it is the axis's categories.",
					            "Delete those public rows, or list the value in the constraint.");
			learned_[a] = true;
			return;
		}
		if (values.empty())
			throw Error(ErrorKind::DataException,
			            "the public table has no non-NULL value in column \"" + axis.label + "\"",
			            "Every categorical axis learns its categories from the public values.");
		axis.categories = CategoricalAxis::FromPublicValues(std::move(values)).categories();
		learned_[a] = true;
	}

	// A declared domain instead of a public table (declared_domain.hpp): one weight per declared value, so that the
	// cuts are the declared values themselves and the "public" histogram is uniform over the declared points.
	void
	DeclareNumeric(std::size_t a, const std::vector<double> &values)
	{
		declared_ = true;
		const std::vector<std::int64_t> ones(values.size(), 1);
		SetNumericMarginal(a, values.data(), ones.data(), values.size(), 0);
	}

	void
	DeclareCategories(std::size_t a, const char *const *texts, std::size_t count)
	{
		declared_ = true;
		const ReleaseAxis &axis = Axes().at(a);
		if (count == 0)
			throw Error(ErrorKind::InvalidParameter,
			            "the declared domain of column \"" + axis.label + "\" has no category", {},
			            "Declare the column as {\"" + axis.label + "\": {\"categories\": [...]}}.");
		SetCategories(a, texts, count);
	}

	// Every point of the declared grid, with weight one: a full-grid domain, refused when it does not fit cell_limit.
	void
	DeclareFullGrid(std::uint64_t cell_limit, std::size_t max_queries)
	{
		RequireDeclarableClass(layout_.spec.kind);
		declared_ = true;
		ChooseCutsOnce();
		const std::vector<std::int32_t> radices = layout_.Radices();
		std::vector<std::int32_t> declared_bins;  // per axis: the bins that hold a declared value come first
		std::uint64_t cells = 1, points = 1;
		bool over = false;
		for (std::size_t a = 0; a < layout_.axes.size(); a++) {
			const ReleaseAxis &axis = layout_.axes[a];
			const std::size_t bins = axis.kind == AxisKind::Categorical ? axis.categories.size() : axis.cuts.size();
			declared_bins.push_back(std::int32_t(bins));
			// Stops multiplying once over the limit, so nothing overflows. points <= cells.
			const std::uint64_t radix = std::uint64_t(std::max<std::int32_t>(radices[a], 1));
			over = over || cells > cell_limit / radix;
			if (!over)
				cells *= radix, points *= std::uint64_t(bins);
		}
		if (over)
			throw Error(ErrorKind::LimitExceeded,
			            "the declared domain has more cells than pap_release.max_cells (" + std::to_string(cell_limit) +
			                ")",
			            "A release without a public table runs on every cell of its declared grid (its values, plus "
			            "one bin above the largest and one for NULL per ordered column).",
			            "Declare coarser steps, fewer categories or fewer columns, or have a superuser raise "
			            "pap_release.max_cells.");
		const std::size_t d = layout_.axes.size();
		std::vector<std::int32_t> flat;
		flat.reserve(std::size_t(points) * d);
		std::vector<std::int32_t> point(d, 0);
		std::uint64_t steps = 0;
		for (std::uint64_t k = 0; k < points; k++) {
			PollInterrupt(steps);
			flat.insert(flat.end(), point.begin(), point.end());
			for (std::size_t a = d; a-- > 0;) {  // the next point, last axis fastest
				if (++point[a] < declared_bins[a])
					break;
				point[a] = 0;
			}
		}
		const std::vector<std::int64_t> ones(std::size_t(points), 1);
		SetPublicPoints(flat.data(), ones.data(), std::size_t(points), cell_limit, max_queries);
	}

	bool
	PlansLayout() const
	{
		return granularity_ == Granularity::Auto && !declared_;
	}

	bool
	declared() const
	{
		return declared_;
	}

	void
	ChooseCutsOnce()
	{
		if (cuts_chosen_)
			return;
		std::vector<ReleaseAxis> &axes = Axes();
		for (std::size_t a = 0; a < axes.size(); a++)
			if (!MarginalSql(a).empty() && !learned_[a])
				throw Error(ErrorKind::Internal, "an axis was not learned from the public table");
		// Auto scans the public table at a cut at every public value; SetPublicPoints then coarsens
		// (layout_choice.hpp).
		max_bin_rows_ =
		    granularity_ != Granularity::Alpha || declared_ ? 0.0 : MaxBinRows(layout_.spec, alpha_, public_rows_);
		for (ReleaseAxis &axis : axes)
			if (axis.Ordered())
				axis.cuts = ChooseCuts(axis.public_values, axis.public_counts, max_bin_rows_);
		select_list_ = layout_.ScanSelectList();
		MakeCatalogView();  // the scan's parameters are read through it
		cuts_chosen_ = true;
	}

	const std::string &
	ScanSelectList()
	{
		ChooseCutsOnce();
		return select_list_;
	}

	void
	SetPublicPoints(const std::int32_t *points, const std::int64_t *rows, std::size_t count, std::uint64_t cell_limit,
	                std::size_t max_queries)
	{
		ChooseCutsOnce();
		const std::size_t d = layout_.axes.size();
		const std::vector<std::int32_t> radices = layout_.Radices();
		// Distinct points, sorted (the scan groups by them; sorting makes the stored layout canonical).
		std::vector<std::size_t> order(count);
		std::iota(order.begin(), order.end(), std::size_t(0));
		for (std::size_t i = 0; i < count; i++)
			for (std::size_t a = 0; a < d; a++)
				if (points[i * d + a] < 0 || points[i * d + a] >= radices[a])
					throw Error(ErrorKind::Internal, "a public grid point lies outside its axes");
		std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
			return std::lexicographical_compare(points + x * d, points + x * d + d, points + y * d, points + y * d + d);
		});
		layout_.public_points.clear();
		layout_.public_point_counts.clear();
		std::int64_t total = 0;
		for (std::size_t k = 0; k < count; k++) {
			const std::int32_t *p = points + order[k] * d;
			const std::size_t m = layout_.public_point_counts.size();
			if (m > 0 && std::equal(p, p + d, layout_.public_points.data() + (m - 1) * d))
				layout_.public_point_counts.back() += rows[order[k]];
			else {
				layout_.public_points.insert(layout_.public_points.end(), p, p + d);
				layout_.public_point_counts.push_back(rows[order[k]]);
			}
			total += rows[order[k]];
		}
		if (total == 0)
			throw Error(ErrorKind::DataException, "the public table is empty");
		public_rows_ = total;
		if (layout_.spec.kind == ClassKind::Predicates)
			RequireLabelScanMatchesGridScan();
		RequireCategoriesShowTheirRows();
		if (granularity_ == Granularity::Auto && !declared_)
			ChooseLayoutByModel(cell_limit, max_queries);
		else {
			const CellDomain chosen = CellDomain::Choose(radices, layout_.public_points, cell_limit);
			layout_.domain_kind = chosen.kind();
			domain_reason_ = chosen.reason();
			granularity_text_ = GranularityText();
		}
		const CellDomain domain = layout_.MakeDomain();
		const std::unique_ptr<Cover> cover = layout_.MakeReleaseCover(max_queries);
		cover_size_ = std::int64_t(cover->QueryCount());
		vc_dimension_ = cover->VcDimension();
		cell_count_ = std::int64_t(domain.CellCount());
		public_histogram_ = layout_.PublicHistogram(domain);
		MakeCatalogView();
		finished_ = true;
		// The label points served the checks and the unmerged plan above: up to a point per public row, not kept.
		std::vector<std::int32_t>().swap(label_points_);
		std::vector<std::int64_t>().swap(label_rows_);
	}

	// What granularity auto plans its candidates with (layout_choice.hpp): the private row count, the privacy
	// parameters and beta, all public. Auto only; before SetPublicPoints.
	void
	SetLayoutPlanning(std::int64_t private_rows, double epsilon, double delta, double beta)
	{
		if (granularity_ != Granularity::Auto)
			throw Error(ErrorKind::Internal, "only granularity auto plans its layout");
		ValidatePrivacyParameters(epsilon, delta);
		ValidateAccuracyParameters(alpha_, beta);
		planning_.private_rows = private_rows;
		planning_.beta = beta;
		planning_.epsilon = epsilon;
		planning_.delta = delta;
		planning_set_ = true;
	}

	CatalogLayout
	Catalog() const
	{
		RequireFinished();
		return catalog_;
	}
	// Before SetPublicPoints: axes only (no public points yet).
	const CatalogLayout &
	AxesCatalog()
	{
		ChooseCutsOnce();
		return catalog_;
	}

	DraftSummary
	Summary() const
	{
		RequireFinished();
		// A declared domain has no public table: its weights stand in for one (public_histogram) but count no row.
		return DraftSummary{
		    declared_ ? 0 : public_rows_, cover_size_,  cell_count_, public_histogram_.data(), domain_reason_.c_str(),
		    granularity_text_.c_str(),    vc_dimension_};
	}

	std::string scratch;                   // the last string handed to the glue
	InterruptCheck interrupted = nullptr;  // polled by the long steps (InterruptScope)

private:
	void
	RequireFinished() const
	{
		if (!finished_)
			throw Error(ErrorKind::Internal, "the release draft is not complete");
	}

	// Granularity auto: the layout at every public value (layout_) becomes the candidate the error model predicts
	// best. An empty private table has nothing to plan for: alpha's layout, as a definition at alpha would build.
	void
	ChooseLayoutByModel(std::uint64_t cell_limit, std::size_t max_queries)
	{
		if (!planning_set_)
			throw Error(ErrorKind::Internal, "granularity auto needs the planning request before the public points");
		if (planning_.private_rows <= 0) {
			max_bin_rows_ = MaxBinRows(layout_.spec, alpha_, public_rows_);
			layout_ = CoarsenLayout(layout_, max_bin_rows_);
			const CellDomain chosen = CellDomain::Choose(layout_.Radices(), layout_.public_points, cell_limit);
			layout_.domain_kind = chosen.kind();
			domain_reason_ = chosen.reason();
			granularity_text_ = "auto: the private table is empty, nothing to plan for; " + GranularityText();
			return;
		}
		planning_.public_rows = public_rows_;
		planning_.alpha = alpha_;
		planning_.cell_limit = cell_limit;
		planning_.max_cover_queries = max_queries;
		LayoutChoice choice = ChooseLayout(WithNotNullAxes(layout_), planning_);
		if (std::optional<LayoutChoice> unmerged = UnmergedPredicatesChoice(choice.predicted))
			choice = std::move(*unmerged);
		layout_ = std::move(choice.layout);
		for (ReleaseAxis &axis : layout_.axes)
			axis.not_null = false;  // read again by every plan and run, never stored
		max_bin_rows_ = choice.max_bin_rows;
		granularity_text_ = std::move(choice.granularity);
		domain_reason_ = std::move(choice.domain_reason);
	}

	// The layout as pap.plan will see it (ReleaseAxis::not_null): each numeric or categorical axis over a column the
	// glue found NOT NULL (SetColumnNotNull) has its NULL bin closed.
	ReleaseLayout
	WithNotNullAxes(ReleaseLayout layout) const
	{
		for (ReleaseAxis &axis : layout.axes) {
			if (axis.kind != AxisKind::Numeric && axis.kind != AxisKind::Categorical)
				continue;
			for (std::size_t i = 0; i < layout.spec.columns.size(); i++)
				if (column_not_null_[i] && layout.spec.columns[i] == axis.label)
					axis.not_null = true;
		}
		return layout;
	}

	// One predicate axis per representative of merge (its text the axis label).
	static void
	SetPredicateAxes(ReleaseLayout &layout, const PredicateMerge &merge)
	{
		layout.predicate_axis = merge.axis_of;
		layout.axes.clear();
		for (std::size_t r : merge.representatives) {
			ReleaseAxis axis;
			axis.kind = AxisKind::Predicate;
			axis.value_type = ValueType::Boolean;
			axis.label = layout.spec.predicates.at(r);
			layout.axes.push_back(std::move(axis));
		}
	}

	// Predicates of one condition (MergeEquivalentPredicates: one key) label every row alike, the public rows
	// included: a public row that tells two of them apart means their key is wrong, and the error model, which
	// counts conditions by key (MergedPredicatesError), would miss their disagreement. Checked at every granularity.
	void
	RequireOneConditionLabelsAlike() const
	{
		const std::size_t p = layout_.spec.predicates.size();
		const PredicateMerge merge = MergeEquivalentPredicates(layout_.spec.predicates);
		std::uint64_t steps = 0;
		for (std::size_t i = 0; i < label_rows_.size(); i++) {
			PollInterrupt(steps, p);
			for (std::size_t q = 0; q < p; q++)
				if (label_points_.at(i * p + q) !=
				    label_points_.at(i * p + merge.representatives.at(std::size_t(merge.axis_of[q]))))
					throw Error(ErrorKind::Internal, "predicates of one condition label a public row differently");
		}
	}

	// The label points over the given predicates' columns, summed: a map from point to public rows.
	std::map<std::vector<std::int32_t>, std::int64_t>
	LabelPointsOver(const std::vector<std::size_t> &predicates) const
	{
		const std::size_t p = layout_.spec.predicates.size();
		std::map<std::vector<std::int32_t>, std::int64_t> points;
		std::uint64_t steps = 0;
		for (std::size_t i = 0; i < label_rows_.size(); i++) {
			PollInterrupt(steps, predicates.size());
			std::vector<std::int32_t> point;
			point.reserve(predicates.size());
			for (std::size_t r : predicates)
				point.push_back(label_points_.at(i * p + r));
			points[point] += label_rows_[i];
		}
		return points;
	}

	// The label scan (every listed predicate) and the grid scan (the merged axes' predicates) are two statements
	// over the public table. They read one snapshot, but a public relation that returns other rows on each read
	// (a view over random() or TABLESAMPLE, a foreign table) would leave the merge and the points describing
	// different rows, and the unmerged plan points the release never counted: the two must agree on the merged
	// axes' predicates, point by point (the other predicates' labels come from the label scan alone).
	void
	RequireLabelScanMatchesGridScan() const
	{
		if (!predicates_merged_)
			throw Error(ErrorKind::Internal, "the predicates were not merged before the public points");
		const std::size_t d = layout_.axes.size();
		if (merged_representatives_.size() != d)
			throw Error(ErrorKind::Internal, "the merged predicates do not match the axes");
		std::map<std::vector<std::int32_t>, std::int64_t> grid;
		for (std::size_t k = 0; k < layout_.public_point_counts.size(); k++) {
			const auto first = layout_.public_points.begin() + std::ptrdiff_t(k * d);
			grid[std::vector<std::int32_t>(first, first + std::ptrdiff_t(d))] += layout_.public_point_counts[k];
		}
		if (grid != LabelPointsOver(merged_representatives_))
			throw Error(ErrorKind::DataException, "the public table returned different rows to two reads",
			            "The definition reads the public table twice: the labels of every listed predicate, then the "
			            "grid points of the predicates it merged. Their counts differ on those predicates.",
			            "Use a public table that returns the same rows on every read (not a view over random(), "
			            "TABLESAMPLE or a sequence, nor a foreign table whose rows change).");
	}

	// The categories come from one read of the public table and the grid points from another: a public relation
	// that returns other rows on each read could put public rows in an "other" bin, the one bin that must hold none
	// (it holds the values the public table never showed, and a folded release's rare categories: category_folding.hpp
	// and the error model tell a folded bin by its public rows).
	void
	RequireCategoriesShowTheirRows() const
	{
		const std::size_t d = layout_.axes.size();
		for (std::size_t k = 0; k < layout_.public_point_counts.size(); k++)
			for (std::size_t a = 0; a < d; a++) {
				const ReleaseAxis &axis = layout_.axes[a];
				if (axis.kind == AxisKind::Categorical && layout_.public_points[k * d + a] == axis.OtherBin())
					throw Error(
					    ErrorKind::DataException, "the public table returned different rows to two reads",
					    "The definition reads the public table twice: the categories of column \"" + axis.label +
					        "\", then the grid points, which hold a value the first read did not.",
					    "Use a public table that returns the same rows on every read (not a view over random(), "
					    "TABLESAMPLE or a sequence, nor a foreign table whose rows change).");
			}
	}

	// Predicates the public rows label alike share one axis (MergePredicates), and a query is then answered by
	// another's cover query, off by the private rows they disagree on, which the public sample never shows. Auto
	// also plans every condition on an axis of its own (MergeEquivalentPredicates: exact, at the cost of more
	// cells) and takes it when it predicts less than merged_prediction (docs/mechanisms.md §20, "Predicates").
	// nullopt: nothing was merged, or the unmerged grid fits no domain, or it predicts no less.
	std::optional<LayoutChoice>
	UnmergedPredicatesChoice(double merged_prediction)
	{
		if (layout_.spec.kind != ClassKind::Predicates ||
		    MergesOnlyEquivalentPredicates(layout_.spec.predicates, layout_.predicate_axis))
			return std::nullopt;
		const PredicateMerge merge = MergeEquivalentPredicates(layout_.spec.predicates);
		ReleaseLayout unmerged;
		unmerged.spec = layout_.spec;
		SetPredicateAxes(unmerged, merge);
		// The label points over the representatives' columns, sorted and summed (the scan's points, as
		// SetPublicPoints keeps them; RequireLabelScanMatchesGridScan checked them against the grid scan on the
		// merged axes' predicates).
		for (const auto &[point, rows] : LabelPointsOver(merge.representatives)) {
			unmerged.public_points.insert(unmerged.public_points.end(), point.begin(), point.end());
			unmerged.public_point_counts.push_back(rows);
		}
		std::optional<LayoutChoice> choice;
		try {
			choice = ChooseLayout(unmerged, planning_);
		} catch (const Error &e) {
			if (e.kind() != ErrorKind::LimitExceeded)
				throw;
			return std::nullopt;  // its grid, or its cover, exceeds a limit: keep the merged axes
		}
		if (!(choice->predicted < merged_prediction))
			return std::nullopt;
		char merged[32];
		std::snprintf(merged, sizeof merged, "%.3g", merged_prediction);
		choice->granularity += std::string("; every listed predicate on an axis of its own (merging those the public "
		                                   "rows label alike predicts ") +
		                       merged + ")";
		return choice;
	}

	std::string
	GranularityText() const
	{
		bool ordered = false;
		for (const ReleaseAxis &axis : layout_.axes)
			ordered = ordered || axis.Ordered();
		if (declared_)
			return ordered ? "declared: a cut at every value of the declared domain"
			               : "declared: categorical axes keep every declared category";
		if (!ordered)
			return "exact: categorical axes keep every public category";
		if (granularity_ == Granularity::Finest || !(max_bin_rows_ > 0.0))
			return "finest: a cut at every distinct public value";
		char buf[200];
		const int s = MovableEdges(layout_.spec);
		std::snprintf(buf, sizeof buf,
		              "alpha: cut points at public quantiles, at most %.4g%% of the public rows (alpha/%d, %.1f rows) "
		              "per bin",
		              100.0 * alpha_ / (4.0 * s), 4 * s, max_bin_rows_);
		return buf;
	}

	void
	MakeCatalogView()
	{
		const std::vector<ReleaseAxis> &axes = layout_.axes;
		kinds_.clear(), types_.clear(), labels_.clear(), category_ptrs_.clear(), steps_.clear();
		check_lists_.reset(new bool[axes.size() + 1]);
		cut_counts_.clear(), cuts_.clear(), category_counts_.clear();
		value_counts_.clear(), values_.clear(), value_rows_.clear();
		for (const ReleaseAxis &axis : axes) {
			kinds_.push_back(AxisKindName(axis.kind));
			types_.push_back(ValueTypeName(axis.value_type));
			steps_.push_back(axis.value_step);
			check_lists_[std::size_t(&axis - axes.data())] = axis.check_list;
			labels_.push_back(axis.label.c_str());
			cut_counts_.push_back(std::int32_t(axis.cuts.size()));
			cuts_.insert(cuts_.end(), axis.cuts.begin(), axis.cuts.end());
			category_counts_.push_back(std::int32_t(axis.categories.size()));
			for (const std::string &c : axis.categories)
				category_ptrs_.push_back(c.c_str());
			value_counts_.push_back(std::int32_t(axis.public_values.size()));
			values_.insert(values_.end(), axis.public_values.begin(), axis.public_values.end());
			value_rows_.insert(value_rows_.end(), axis.public_counts.begin(), axis.public_counts.end());
		}
		catalog_ = CatalogLayout{canonical_.c_str(),
		                         axes.size(),
		                         kinds_.data(),
		                         types_.data(),
		                         labels_.data(),
		                         cut_counts_.data(),
		                         cuts_.data(),
		                         category_counts_.data(),
		                         category_ptrs_.data(),
		                         value_counts_.data(),
		                         values_.data(),
		                         value_rows_.data(),
		                         layout_.predicate_axis.size(),
		                         layout_.predicate_axis.data(),
		                         layout_.public_point_counts.size(),
		                         layout_.public_points.data(),
		                         layout_.public_point_counts.data(),
		                         layout_.domain_kind == DomainKind::Dense ? "full grid" : "public support",
		                         steps_.data(),
		                         check_lists_.get(),
		                         nullptr};
	}

	ReleaseLayout layout_;
	std::string canonical_;
	double alpha_;
	Granularity granularity_;
	LayoutPlanning planning_;
	bool planning_set_ = false;
	std::vector<std::optional<ValueType>> column_types_;
	std::vector<std::optional<double>> column_steps_;      // DraftSetColumnValueStep's; else the value type's
	std::vector<std::vector<std::string>> column_labels_;  // an enum's labels or a CHECK list, sorted by bytes
	std::vector<bool> check_listed_;                       // DraftSetColumnCheckList's: column_labels_ is a CHECK list
	std::vector<bool> column_not_null_;                    // DraftSetColumnNotNull's: planned with the NULL bin closed
	std::vector<std::int32_t> label_points_;  // predicates: the public label points over every listed predicate
	std::vector<std::int64_t> label_rows_;    // and their public rows
	std::vector<std::size_t> merged_representatives_;  // MergePredicates': the first predicate of each axis
	bool predicates_merged_ = false, axes_made_ = false, cuts_chosen_ = false, finished_ = false, declared_ = false;
	std::vector<bool> learned_;
	std::int64_t public_rows_ = 0;
	double max_bin_rows_ = 0.0;
	std::string select_list_, domain_reason_, granularity_text_;
	std::int64_t cover_size_ = 0, cell_count_ = 0;
	int vc_dimension_ = 1;
	std::vector<std::int64_t> public_histogram_;
	// The catalog view's storage.
	std::vector<const char *> kinds_, types_, labels_, category_ptrs_;
	std::vector<std::int32_t> cut_counts_, category_counts_, value_counts_;
	std::vector<double> cuts_, values_, steps_;
	std::vector<std::int64_t> value_rows_;
	std::unique_ptr<bool[]> check_lists_;
	CatalogLayout catalog_{};
};

Granularity
ParseGranularity(const char *text)
{
	const std::string g(text);
	if (g == "alpha")
		return Granularity::Alpha;
	if (g == "finest")
		return Granularity::Finest;
	if (g == "auto")
		return Granularity::Auto;
	throw Error(ErrorKind::InvalidParameter, "unknown granularity \"" + g + "\"", {},
	            "Granularities: auto (the cuts and domain the error model predicts best), alpha (public quantiles as "
	            "coarse as alpha allows), finest (every public value).");
}

ReleaseDraft *
BeginReleaseDraft(const char *class_text, double alpha, Granularity granularity, InterruptCheck interrupted)
{
	ReleaseDraft *draft = new ReleaseDraft(class_text, alpha, granularity);
	draft->interrupted = interrupted;
	return draft;
}

void
FreeReleaseDraft(ReleaseDraft *draft) noexcept
{
	delete draft;
}

const char *
DraftCanonicalClass(const ReleaseDraft *d)
{
	return d->canonical().c_str();
}
std::size_t
DraftColumnCount(const ReleaseDraft *d)
{
	return d->spec().columns.size();
}
const char *
DraftColumn(const ReleaseDraft *d, std::size_t i)
{
	return d->spec().columns.at(i).c_str();
}
bool
DraftColumnsAreCategorical(const ReleaseDraft *d)
{
	return d->spec().kind == ClassKind::Marginals || d->spec().kind == ClassKind::Stumps;
}

void
DraftSetColumnType(ReleaseDraft *d, std::size_t i, ValueType type, const char *type_name)
{
	d->SetColumnType(i, type, type_name);
}

void
DraftSetColumnValueStep(ReleaseDraft *d, std::size_t i, double step)
{
	d->SetColumnValueStep(i, step);
}

void
DraftSetColumnLabels(ReleaseDraft *d, std::size_t i, const char *const *labels, std::size_t count)
{
	d->SetColumnLabels(i, labels, count);
}

void
DraftSetColumnCheckList(ReleaseDraft *d, std::size_t i, const char *const *values, std::size_t count)
{
	d->SetColumnCheckList(i, values, count);
}

void
DraftSetColumnNotNull(ReleaseDraft *d, std::size_t i, bool not_null)
{
	d->SetColumnNotNull(i, not_null);
}

std::size_t
DraftPredicateCount(const ReleaseDraft *d)
{
	return d->spec().predicates.size();
}
const char *
DraftPredicate(const ReleaseDraft *d, std::size_t i)
{
	return d->spec().predicates.at(i).c_str();
}

const char *
DraftPredicateLabelSql(const ReleaseDraft *d)
{
	ReleaseDraft *m = const_cast<ReleaseDraft *>(d);
	m->scratch = d->PredicateLabelSql();
	return m->scratch.c_str();
}

void
DraftMergePredicates(ReleaseDraft *d, const std::int32_t *label_points, const std::int64_t *point_rows,
                     std::size_t point_count)
{
	const InterruptScope scope(d->interrupted);
	d->MergePredicateLabels(label_points, point_rows, point_count);
}

std::size_t
DraftAxisCount(const ReleaseDraft *d)
{
	return const_cast<ReleaseDraft *>(d)->Axes().size();
}

const char *
DraftAxisMarginalSql(const ReleaseDraft *d, std::size_t axis)
{
	ReleaseDraft *m = const_cast<ReleaseDraft *>(d);
	m->scratch = m->MarginalSql(axis);
	return m->scratch.empty() ? nullptr : m->scratch.c_str();
}

bool
DraftAxisIsNumeric(const ReleaseDraft *d, std::size_t axis)
{
	return const_cast<ReleaseDraft *>(d)->Axes().at(axis).Ordered();
}

void
DraftSetNumericMarginal(ReleaseDraft *d, std::size_t axis, const double *values, const std::int64_t *rows,
                        std::size_t count, std::int64_t null_rows)
{
	const InterruptScope scope(d->interrupted);
	d->SetNumericMarginal(axis, values, rows, count, null_rows);
}

void
DraftSetCategories(ReleaseDraft *d, std::size_t axis, const char *const *texts, std::size_t count)
{
	const InterruptScope scope(d->interrupted);
	d->SetCategories(axis, texts, count);
}

const char *
DraftScanSelectList(ReleaseDraft *d)
{
	const InterruptScope scope(d->interrupted);
	return d->ScanSelectList().c_str();
}

ScanParameterKind
DraftScanParameter(const ReleaseDraft *d, std::size_t axis, const double **cuts, const char *const **categories,
                   std::size_t *count)
{
	const InterruptScope scope(d->interrupted);
	return LayoutScanParameter(const_cast<ReleaseDraft *>(d)->AxesCatalog(), axis, cuts, categories, count);
}

void
DraftSetPublicPoints(ReleaseDraft *d, const std::int32_t *points, const std::int64_t *rows, std::size_t point_count,
                     std::uint64_t cell_limit, std::size_t max_cover_queries)
{
	const InterruptScope scope(d->interrupted);
	d->SetPublicPoints(points, rows, point_count, cell_limit, max_cover_queries);
}

void
DraftSetLayoutPlanning(ReleaseDraft *d, std::int64_t private_rows, double epsilon, double delta, double beta)
{
	d->SetLayoutPlanning(private_rows, epsilon, delta, beta);
}

bool
DraftPlansLayout(const ReleaseDraft *d)
{
	return d->PlansLayout();
}

void
DraftDeclareNumericDomain(ReleaseDraft *d, std::size_t axis, double low, double high, double step,
                          std::uint64_t cell_limit)
{
	const InterruptScope scope(d->interrupted);
	const ReleaseAxis &a = d->Axes().at(axis);
	if (a.kind != AxisKind::Numeric)
		throw Error(ErrorKind::InvalidParameter,
		            "column \"" + a.label + "\" is categorical in this class: declare its categories", {},
		            "Declare it as {\"" + a.label + "\": {\"categories\": [...]}}.");
	d->DeclareNumeric(axis,
	                  DeclaredGrid(a.label, low, high, step,
	                               std::size_t(std::min<std::uint64_t>(cell_limit, std::uint64_t(INT32_MAX) - 2))));
}

void
DraftDeclareCategories(ReleaseDraft *d, std::size_t axis, const char *const *texts, std::size_t count)
{
	const InterruptScope scope(d->interrupted);
	const ReleaseAxis &a = d->Axes().at(axis);
	if (a.kind != AxisKind::Categorical)
		throw Error(ErrorKind::InvalidParameter,
		            "column \"" + a.label + "\" is ordered in this class: declare its bounds and step", {},
		            "Declare it as {\"" + a.label + "\": {\"min\": ..., \"max\": ..., \"step\": ...}}.");
	d->DeclareCategories(axis, texts, count);
}

void
DraftDeclareFullGrid(ReleaseDraft *d, std::uint64_t cell_limit, std::size_t max_cover_queries)
{
	const InterruptScope scope(d->interrupted);
	d->DeclareFullGrid(cell_limit, max_cover_queries);
}

bool
DraftIsDeclared(const ReleaseDraft *d)
{
	return d->declared();
}

void
DraftRequireDeclarable(const ReleaseDraft *d)
{
	RequireDeclarableClass(d->spec().kind);
}

void
RefuseUnboundedDomain(const char *column)
{
	throw UnboundedDomainError(column);
}

CatalogLayout
DraftCatalogLayout(const ReleaseDraft *d)
{
	return d->Catalog();
}
DraftSummary
DraftSummaryOf(const ReleaseDraft *d)
{
	return d->Summary();
}

}  // namespace pap::core
