// Warnings where an answer or a plan may mislead, and pap_release.strict (answer_warnings.hpp).
#include "pg/answer_warnings.hpp"
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/guc.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
}

// A warning, or under pap_release.strict an error of the given SQLSTATE.
static int
PitfallLevel()
{
	return pap_strict ? ERROR : WARNING;
}

static int
PitfallCode(int strict_code)
{
	return pap_strict ? strict_code : ERRCODE_WARNING;
}

// Types whose equality is the equality of their output text (the category is that text, docs/query-classes.md),
// under a deterministic collation: no check needed.
static bool
EqualityIsTextEquality(Oid type)
{
	return type == TEXTOID || type == VARCHAROID || type == NAMEOID || type == CHAROID || type == INT2OID ||
	       type == INT4OID || type == INT8OID || type == BOOLOID || type == OIDOID || type == UUIDOID ||
	       type_is_enum(type);
}

// The public categories of the literal's column equal to it under the column's own equality but of another text:
// the first one in *first and their number. A category is read back by the type's input function under the
// settings it was printed with.
static int
CategoriesEqualUnderColumnEquality(const PapCachedRelease *release, const pap::core::LiteralTarget &t, const char *text,
                                   const char **first, Oid *collation)
{
	Oid type;
	PapValueTypeOfReleaseColumn(release->private_table, t.column, &type);
	const AttrNumber attnum = get_attnum(release->private_table, t.column);
	Oid column_type;
	int32 typmod;
	get_atttypetypmodcoll(release->private_table, attnum, &column_type, &typmod, collation);
	const bool deterministic = !OidIsValid(*collation) || get_collation_isdeterministic(*collation);
	if (deterministic && EqualityIsTextEquality(type))
		return 0;
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_EQ_OPR_FINFO);
	if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
		return 0;
	size_t count = 0;
	PAP_CORE(count = pap::core::ModelColumnCategoryCount(release->model, t.column));
	Oid input, ioparam;
	getTypeInputInfo(type, &input, &ioparam);
	const int level = PapBeginStableOutput();
	const Datum literal = OidInputFunctionCall(input, (char *)text, ioparam, -1);
	int equal = 0;
	for (size_t k = 0; k < count; k++) {
		const char *category = nullptr;
		PAP_CORE(category = pap::core::ModelColumnCategory(release->model, t.column, k));
		if (strcmp(category, text) == 0)
			continue;
		const Datum value = OidInputFunctionCall(input, (char *)category, ioparam, -1);
		if (DatumGetBool(FunctionCall2Coll(&tc->eq_opr_finfo, *collation, literal, value))) {
			if (equal++ == 0)
				*first = category;
		}
		if ((k & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	PapEndStableOutput(level);
	return equal;
}

void
PapCheckAnswerLiterals(const PapCachedRelease *release, const pap::core::ParsedQuery *parsed, const double *numbers,
                       const char *const *texts, bool refine)
{
	size_t count = 0;
	PAP_CORE(count = pap::core::ParsedQueryLiteralCount(parsed));
	for (size_t i = 0; i < count; i++) {
		if (texts[i] == nullptr)
			continue;
		pap::core::LiteralTarget t;
		PAP_CORE(t = pap::core::ParsedQueryLiteral(release->model, parsed, i));
		if (!t.known || t.kind != pap::core::AxisKind::Categorical)
			continue;
		const char *first = nullptr;
		Oid collation = InvalidOid;
		const int equal = CategoriesEqualUnderColumnEquality(release, t, texts[i], &first, &collation);
		if (equal > 0)
			ereport(PitfallLevel(),
			        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
			         errmsg("value %s of column \"%s\" is answered by its text, not by the column's equality",
			                quote_literal_cstr(texts[i]), t.column),
			         errdetail_plural("Under the equality of type %s%s%s it equals %d public category of another "
			                          "text (%s), whose rows the answer does not count.",
			                          "Under the equality of type %s%s%s it equals %d public categories of other "
			                          "texts (the first is %s), whose rows the answer does not count.",
			                          equal,
			                          format_type_be(get_atttype(release->private_table,
			                                                     get_attnum(release->private_table, t.column))),
			                          OidIsValid(collation) ? " with collation " : "",
			                          OidIsValid(collation) ? quote_identifier(get_collation_name(collation)) : "",
			                          equal, quote_literal_cstr(first)),
			         errhint("A category is the exact text of a value; write the value as the public table stores "
			                 "it, or add the answers of every matching category.")));
	}
	size_t unseen = 0;
	bool has_unseen = false, no_public_row = false, own_cells = false;
	// A query read from its own cells is an estimate of its own: only its projection answers like the others.
	PAP_CORE(has_unseen = pap::core::ModelUnseenCategory(release->model, parsed, texts, &unseen);
	         own_cells = pap::core::ModelAnswersFromOwnCells(release->model, parsed, refine);
	         no_public_row = !has_unseen && !own_cells &&
	                         pap::core::ModelMarginalWithoutPublicRow(release->model, parsed, numbers, texts));
	if (no_public_row)
		ereport(PitfallLevel(),
		        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
		         errmsg("no row of the public table has the values of this query"),
		         errdetail("Its values occur in the public table one by one but not together: it is answered like "
		                   "every query no public row satisfies, not as an estimate of its own."),
		         errhint("pap.answer_bounded gives the interval of such an answer. Set pap_release.strict to refuse "
		                 "such queries.")));
	if (has_unseen) {
		pap::core::LiteralTarget t;
		bool folded = false;
		PAP_CORE(t = pap::core::ParsedQueryLiteral(release->model, parsed, unseen);
		         folded = pap::core::ModelFoldedCategory(release->model, parsed, unseen));
		// A folded column's "other" bin holds public categories too (category_folding.hpp).
		const char *const folded_why = "The release folded the column's rarest public categories into its \"other\" "
		                               "bin to fit pap_release.max_cells; the value is one of them or one the public "
		                               "table never showed. ";
		const char *const answered =
		    own_cells ? (folded ? "It is answered with half the bin's share, or half the most one value of the "
		                          "bin can hold where that is less: the middle of what this value's can be, not an "
		                          "estimate of it."
		                        : "It is answered from the column's \"other\" bin, the share of every category the "
		                          "public table never showed together: half that share, or half the most one such "
		                          "value can hold where that is less, the middle of what this value's can be, not an "
		                          "estimate of it.")
		    : folded ? "It is answered like the query of the whole bin with the same other values (where no public row "
		               "has them, like every query no public row satisfies), not as an estimate of this value's."
		             : "It is answered like every query no public row satisfies (the cover query of the empty public "
		               "labeling), not as an estimate of this value's.";
		ereport(PitfallLevel(),
		        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
		         errmsg(folded ? "value %s of column \"%s\" is not a category of the release"
		                       : "value %s of column \"%s\" does not occur in the public table",
		                quote_literal_cstr(texts[unseen]), t.column),
		         errdetail("%s%s", folded ? folded_why : "", answered),
		         errhint("pap.answer_bounded gives the interval of such an answer (its lower end is 0). %s",
		                 folded ? "Raise pap_release.max_cells and define the release again to keep more categories; "
		                          "set pap_release.strict to refuse such queries."
		                        : "Set pap_release.strict to refuse such queries.")));
	}
}

void
PapCheckRequestedMechanism(const char *release, const char *requested, const pap::core::PlanSummary &plan)
{
	pap::core::MechanismChoice choice;
	PAP_CORE(choice = pap::core::ParseMechanism(requested));
	if (choice == pap::core::MechanismChoice::Auto || !(plan.predicted_error > plan.public_only_error))
		return;
	// A guarding PMW keeps the public table's answers unless one is off by more than its threshold: its prediction
	// is higher because it covers a shifted public sample, which public_only_error assumes away, not because it
	// answers worse (docs/mechanisms.md §10, "A shifted public sample").
	if (plan.pmw_guards_prior && strcmp(pap::core::MechanismName(plan.chosen), "pmw") == 0)
		return;
	// auto's choice: the smallest prediction among the mechanisms that apply (ties to the first).
	const char *best = nullptr;
	double best_error = 0.0;
	for (size_t m = 0; m < pap::core::Mechanisms().size(); m++) {
		const pap::core::MechanismPrediction &p = plan.predictions[m];
		if (p.applies && (best == nullptr || p.predicted_error < best_error)) {
			best = pap::core::MechanismName(pap::core::MechanismChoice(m));
			best_error = p.predicted_error;
		}
	}
	ereport(PitfallLevel(),
	        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
	         errmsg("mechanism \"%s\" is predicted worse than the public table alone for release \"%s\"",
	                pap::core::MechanismName(plan.chosen), release),
	         errdetail("Its predicted max error over the class is %.3g of the private rows, the public table's own "
	                   "answers' %.3g (pap.plan's predicted_error and public_only_error).",
	                   plan.predicted_error, plan.public_only_error),
	         best != nullptr && strcmp(best, pap::core::MechanismName(plan.chosen)) != 0
	             ? errhint("mechanism => 'auto' would run \"%s\", predicted %.3g.", best, best_error)
	             : errhint("A larger epsilon or a larger public table lowers the prediction.")));
}
