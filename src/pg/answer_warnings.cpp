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

// One categorical column of a query whose equality is not the equality of its categories' texts (a type such as
// numeric, or a nondeterministic collation): its public categories read back once per call by the type's input
// function, under the settings they were printed with, so that a long IN list costs one comparison per literal and
// category, not an input call too.
struct ColumnEquality {
	const char *column;
	Oid collation;
	FmgrInfo *equal;  // nullptr: the texts' equality is the column's (or the type has none): nothing to check
	Oid input, ioparam;
	size_t count;
	const char **texts;
	Datum *values;
};

static ColumnEquality
ColumnEqualityOf(const PapCachedRelease *release, const char *column)
{
	ColumnEquality c{};
	c.column = column;
	Oid type;
	PapValueTypeOfReleaseColumn(release->private_table, column, &type);
	const AttrNumber attnum = get_attnum(release->private_table, column);
	Oid column_type;
	int32 typmod;
	get_atttypetypmodcoll(release->private_table, attnum, &column_type, &typmod, &c.collation);
	const bool deterministic = !OidIsValid(c.collation) || get_collation_isdeterministic(c.collation);
	if (deterministic && EqualityIsTextEquality(type))
		return c;
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_EQ_OPR_FINFO);
	if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
		return c;
	c.equal = &tc->eq_opr_finfo;
	getTypeInputInfo(type, &c.input, &c.ioparam);
	PAP_CORE(c.count = pap::core::ModelColumnCategoryCount(release->model, column));
	c.texts = (const char **)palloc0(sizeof(char *) * (c.count + 1));
	c.values = (Datum *)palloc0(sizeof(Datum) * (c.count + 1));
	const int level = PapBeginStableOutput();
	for (size_t k = 0; k < c.count; k++) {
		PAP_CORE(c.texts[k] = pap::core::ModelColumnCategory(release->model, column, k));
		c.values[k] = OidInputFunctionCall(c.input, (char *)c.texts[k], c.ioparam, -1);
		if ((k & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	PapEndStableOutput(level);
	return c;
}

// The public categories equal to a literal under its column's own equality but of another text: the first one in
// *first and their number.
static int
CategoriesEqualUnderColumnEquality(const ColumnEquality &c, const char *text, const char **first)
{
	if (c.equal == nullptr)
		return 0;
	const int level = PapBeginStableOutput();
	const Datum literal = OidInputFunctionCall(c.input, (char *)text, c.ioparam, -1);
	PapEndStableOutput(level);
	int equal = 0;
	for (size_t k = 0; k < c.count; k++) {
		if (strcmp(c.texts[k], text) != 0 &&
		    DatumGetBool(FunctionCall2Coll(c.equal, c.collation, literal, c.values[k])) && equal++ == 0)
			*first = c.texts[k];
		if ((k & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return equal;
}

void
PapCheckAnswerLiterals(const PapCachedRelease *release, const pap::core::ParsedQuery *parsed, const double *numbers,
                       const char *const *texts, bool refine)
{
	size_t count = 0;
	PAP_CORE(count = pap::core::ParsedQueryLiteralCount(parsed));
	// One warning per query, for its first such literal, with the number of the others (an IN list of 150,000
	// numbers sent 150,000 warnings to the client and the server's log: a review). Under pap_release.strict the
	// first is an error. The columns' categories are read once (palloc'd: an error frees them with the context).
	ColumnEquality *columns = nullptr;
	size_t column_count = 0, capacity = 0, offending = 0, first_literal = 0, first_column = 0;
	int first_equal = 0;
	const char *first_category = nullptr;
	for (size_t i = 0; i < count && !(offending > 0 && pap_strict); i++) {
		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();  // an IN list may hold many literals, each compared with every category
		if (texts[i] == nullptr)
			continue;
		pap::core::LiteralTarget t;
		PAP_CORE(t = pap::core::ParsedQueryLiteral(release->model, parsed, i));
		if (!t.known || t.kind != pap::core::AxisKind::Categorical)
			continue;
		size_t c = 0;
		while (c < column_count && strcmp(columns[c].column, t.column) != 0)
			c++;
		if (c == column_count) {
			if (column_count == capacity) {
				capacity = capacity == 0 ? 4 : 2 * capacity;
				columns = columns == nullptr ? (ColumnEquality *)palloc(sizeof(ColumnEquality) * capacity)
				                             : (ColumnEquality *)repalloc(columns, sizeof(ColumnEquality) * capacity);
			}
			columns[column_count++] = ColumnEqualityOf(release, t.column);
		}
		const char *category = nullptr;
		const int equal = CategoriesEqualUnderColumnEquality(columns[c], texts[i], &category);
		if (equal > 0 && offending++ == 0) {
			first_literal = i;
			first_column = c;
			first_equal = equal;
			first_category = category;
		}
	}
	if (offending > 0) {
		const char *column = columns[first_column].column;
		const Oid collation = columns[first_column].collation;
		ereport(PitfallLevel(),
		        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
		         errmsg("value %s of column \"%s\" is answered by its text, not by the column's equality",
		                quote_literal_cstr(texts[first_literal]), column),
		         errdetail_plural(
		             "Under the equality of type %s%s%s it equals %d public category of another "
		             "text (%s), whose rows the answer does not count.%s",
		             "Under the equality of type %s%s%s it equals %d public categories of other "
		             "texts (the first is %s), whose rows the answer does not count.%s",
		             first_equal,
		             format_type_be(get_atttype(release->private_table, get_attnum(release->private_table, column))),
		             OidIsValid(collation) ? " with collation " : "",
		             OidIsValid(collation) ? quote_identifier(get_collation_name(collation)) : "", first_equal,
		             quote_literal_cstr(first_category),
		             offending == 2  ? " So is one other value of this query."
		             : offending > 2 ? psprintf(" So are %zu other values of this query.", offending - 1)
		                             : ""),
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
PapCheckAgainstPublicTable(const char *release, const char *requested, const pap::core::PlanSummary &plan)
{
	pap::core::MechanismChoice choice;
	PAP_CORE(choice = pap::core::ParseMechanism(requested));
	if (!(plan.predicted_error > plan.public_only_error))
		return;
	// A guarding PMW keeps the public table's answers unless one is off by more than its threshold: its prediction
	// is higher because it covers a shifted public sample, which public_only_error assumes away, not because it
	// answers worse (docs/mechanisms.md §10, "A shifted public sample").
	if (plan.pmw_guards_prior && strcmp(pap::core::MechanismName(plan.chosen), "pmw") == 0)
		return;
	// auto: no mechanism is predicted to beat the public table on this layout at this epsilon, and a run would
	// spend the budget all the same (a release's layout is planned at pap_release.layout_epsilon when it is
	// defined, 1 by default, not at the epsilon of its run).
	if (choice == pap::core::MechanismChoice::Auto) {
		ereport(PitfallLevel(),
		        (errcode(PitfallCode(ERRCODE_INVALID_PARAMETER_VALUE)),
		         errmsg("release \"%s\" is predicted worse than the public table alone", release),
		         errdetail("auto's choice, \"%s\", is predicted a max error over the class of %.3g of the private "
		                   "rows, the public table's own answers %.3g (pap.plan's predicted_error and "
		                   "public_only_error); both predictions take the public table to be a sample of the private "
		                   "table's population.",
		                   pap::core::MechanismName(plan.chosen), plan.predicted_error, plan.public_only_error),
		         errhint("A larger epsilon lowers the prediction, and so may the release defined again with "
		                 "pap_release.layout_epsilon set to this epsilon (its layout is planned at that setting).")));
		return;
	}
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
