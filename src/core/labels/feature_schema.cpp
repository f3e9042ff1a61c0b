#include "core/labels/feature_schema.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "core/base/errors.hpp"
#include "core/labels/caller_memory.hpp"

namespace pap::core {

namespace {

// The public quartiles of a numeric feature (Q1, median, Q3; duplicates merged): a fixed choice for every data
// set, which keeps a cell populated in chunks of a few dozen rows (docs/mechanisms.md §17).
std::vector<double>
QuartileCuts(std::vector<double> values)
{
	std::sort(values.begin(), values.end(), PgFloatLess);
	std::vector<double> cuts;
	for (int q = 1; q <= 3; q++) {
		const double v = values[(values.size() - 1) * std::size_t(q) / 4];
		if (std::isnan(v))
			continue;  // NaN sorts above every cut; it needs none
		if (cuts.empty() || PgFloatLess(cuts.back(), v))
			cuts.push_back(v);
	}
	return cuts;
}

}  // namespace

FeatureSchema
FeatureSchema::FromPublicRows(const LabelRows &rows)
{
	FeatureSchema s;
	for (std::size_t f = 0; f < rows.feature_count; f++) {
		const bool categorical = rows.categorical[f];
		s.categorical_.push_back(categorical);
		if (categorical) {
			std::vector<std::string> texts;
			for (std::size_t r = 0; r < rows.row_count; r++)
				if (const char *t = rows.texts[r * rows.feature_count + f])
					texts.emplace_back(t);
			if (texts.empty())
				throw Error(ErrorKind::DataException, "categorical feature " + std::to_string(f + 1) +
				                                          " has no non-NULL value in the public table");
			s.categories_.push_back(CategoricalAxis::FromPublicValues(std::move(texts)));
			s.centers_.push_back(0.0);
			s.spreads_.push_back(1.0);
			continue;
		}
		std::vector<double> values;
		double sum = 0.0, square = 0.0;
		std::size_t finite = 0;
		for (std::size_t r = 0; r < rows.row_count; r++) {
			const double v = rows.numbers[r * rows.feature_count + f];
			if (std::isnan(v))
				continue;
			values.push_back(v);
			if (std::isfinite(v)) {
				sum += v;
				square += v * v;
				finite++;
			}
		}
		if (finite == 0)
			throw Error(ErrorKind::DataException,
			            "numeric feature " + std::to_string(f + 1) + " has no finite value in the public table");
		const double mean = sum / double(finite);
		const double variance = std::max(0.0, square / double(finite) - mean * mean);
		const double spread = std::sqrt(variance);
		s.centers_.push_back(std::isfinite(mean) ? mean : 0.0);
		s.spreads_.push_back(std::isfinite(spread) && spread > 0.0 ? spread : 1.0);
		s.quartiles_.push_back(NumericAxis::FromCuts(QuartileCuts(std::move(values))));
	}
	s.Finish();
	return s;
}

FeatureSchema
FeatureSchema::FromData(const LabelSchemaData &d)
{
	FeatureSchema s;
	std::size_t cut_at = 0, category_at = 0;
	for (std::size_t f = 0; f < d.feature_count; f++) {
		s.categorical_.push_back(d.categorical[f]);
		s.centers_.push_back(d.centers[f]);
		s.spreads_.push_back(d.spreads[f]);
		const std::size_t cuts = std::size_t(d.cut_counts[f]), categories = std::size_t(d.category_counts[f]);
		if (cut_at + cuts > d.cut_total || category_at + categories > d.category_total)
			throw Error(ErrorKind::Internal, "stored labelling schema is inconsistent");
		if (d.categorical[f])
			s.categories_.push_back(CategoricalAxis::FromCategories(
			    std::vector<std::string>(d.categories + category_at, d.categories + category_at + categories)));
		else
			s.quartiles_.push_back(NumericAxis::FromCuts(std::vector<double>(d.cuts + cut_at, d.cuts + cut_at + cuts)));
		cut_at += cuts;
		category_at += categories;
	}
	s.Finish();
	return s;
}

void
FeatureSchema::Finish()
{
	numeric_count_ = quartiles_.size();
	hot_width_ = 0;
	cell_count_ = 1;
	for (const CategoricalAxis &a : categories_)
		hot_width_ += std::size_t(a.BinCount());
	auto widen = [this](std::uint64_t radix) {
		cell_count_ = cell_count_ > std::numeric_limits<std::uint64_t>::max() / radix
		                  ? std::numeric_limits<std::uint64_t>::max()
		                  : cell_count_ * radix;
	};
	for (const NumericAxis &a : quartiles_)
		widen(std::uint64_t(a.BinCount()));
	for (const CategoricalAxis &a : categories_)
		widen(std::uint64_t(a.BinCount()));
}

EncodedRow
FeatureSchema::Encode(const LabelRows &rows, std::size_t r) const
{
	EncodedRow e;
	e.numbers.reserve(numeric_count_);
	std::size_t numeric = 0, categorical = 0, hot_base = numeric_count_;
	for (std::size_t f = 0; f < categorical_.size(); f++) {
		if (categorical_[f]) {
			const CategoricalAxis &axis = categories_[categorical++];
			std::int32_t bin;
			if (rows.bins != nullptr) {
				bin = rows.bins[r * rows.feature_count + f];
				if (bin < 0 || bin >= axis.BinCount())
					throw Error(ErrorKind::Internal, "categorical bin outside its feature's categories");
			} else {
				const char *text = rows.texts[r * rows.feature_count + f];
				bin = text == nullptr ? axis.BinOfNull() : axis.BinOf(text);
			}
			e.hot.push_back(std::uint32_t(hot_base + std::size_t(bin)));
			hot_base += std::size_t(axis.BinCount());
			e.cell = e.cell * std::uint64_t(axis.BinCount()) + std::uint64_t(bin);
			continue;
		}
		const NumericAxis &axis = quartiles_[numeric++];
		const double v = rows.numbers[r * rows.feature_count + f];
		// NULL and NaN sit in the NULL bin and at the public mean; infinities are clamped to +-8 spreads.
		const std::int32_t bin = std::isnan(v) ? axis.NullBin() : axis.BinOf(v);
		double z = std::isnan(v) ? 0.0 : (v - centers_[f]) / spreads_[f];
		z = std::isnan(z) ? 0.0 : std::clamp(z, -8.0, 8.0);
		e.numbers.push_back(z);
		e.cell = e.cell * std::uint64_t(axis.BinCount()) + std::uint64_t(bin);
	}
	return e;
}

LabelSchemaData
FeatureSchema::Store(LabelAllocate allocate) const
{
	LabelSchemaData d;
	const std::size_t features = categorical_.size();
	d.feature_count = features;
	bool *categorical = AllocateLabelArray<bool>(allocate, features);
	double *centers = AllocateLabelArray<double>(allocate, features),
	       *spreads = AllocateLabelArray<double>(allocate, features);
	std::int32_t *cut_counts = AllocateLabelArray<std::int32_t>(allocate, features);
	std::int32_t *category_counts = AllocateLabelArray<std::int32_t>(allocate, features);
	std::vector<double> cuts;
	std::vector<const std::string *> categories;
	std::size_t numeric = 0, categorical_at = 0;
	for (std::size_t f = 0; f < features; f++) {
		categorical[f] = categorical_[f];
		centers[f] = centers_[f];
		spreads[f] = spreads_[f];
		cut_counts[f] = category_counts[f] = 0;
		if (categorical_[f]) {
			const CategoricalAxis &a = categories_[categorical_at++];
			category_counts[f] = std::int32_t(a.CategoryCount());
			for (const std::string &c : a.categories())
				categories.push_back(&c);
		} else {
			const NumericAxis &a = quartiles_[numeric++];
			cut_counts[f] = std::int32_t(a.cut_count());
			cuts.insert(cuts.end(), a.cuts().begin(), a.cuts().end());
		}
	}
	double *cut_array = AllocateLabelArray<double>(allocate, cuts.size());
	std::copy(cuts.begin(), cuts.end(), cut_array);
	char **category_array = AllocateLabelArray<char *>(allocate, categories.size());
	for (std::size_t i = 0; i < categories.size(); i++) {
		category_array[i] = AllocateLabelArray<char>(allocate, categories[i]->size() + 1);
		std::memcpy(category_array[i], categories[i]->c_str(), categories[i]->size() + 1);
	}
	d.categorical = categorical;
	d.centers = centers;
	d.spreads = spreads;
	d.cut_counts = cut_counts;
	d.cuts = cut_array;
	d.cut_total = cuts.size();
	d.category_counts = category_counts;
	d.categories = category_array;
	d.category_total = categories.size();
	d.cell_count = cell_count_ > std::uint64_t(INT64_MAX) ? INT64_MAX : std::int64_t(cell_count_);
	return d;
}

}  // namespace pap::core
