// errposition for the texts the core parses (text_position.hpp).
#include "pg/text_position.hpp"

extern "C" {
#include "mb/pg_wchar.h"
#include "nodes/primnodes.h"
#include "tcop/tcopprot.h"
#include "utils/elog.h"
}

// The bytes the search below may compare in all: it runs while an error is being reported, where no cancel is
// heard, over a statement the caller writes (up to 1 GB, with as many quotes as it likes). Past them the caret goes
// on the query text itself.
constexpr size_t kLiteralSearchBytes = size_t(1) << 24;

// Whether the string literal opening at source[quote] ('...' with '' for a quote, as standard_conforming_strings
// writes it) spells exactly text; *at: the source offset of text's byte `offset` (the closing quote for its end).
// Each byte compared is taken from *budget; false once it is spent.
static bool
LiteralSpells(const char *source, size_t source_length, size_t quote, const char *text, size_t offset, int *at,
              size_t *budget)
{
	if (quote >= source_length || source[quote] != '\'')
		return false;
	size_t i = quote + 1;
	for (size_t j = 0;; j++) {
		if (*budget == 0)
			return false;
		--*budget;
		if (j == offset)
			*at = int(i);
		if (i >= source_length)
			return false;
		const bool is_quote = source[i] == '\'';
		if (is_quote && source[i + 1] != '\'')
			return text[j] == '\0';  // the closing quote: the whole text must have matched
		if (text[j] != source[i])
			return false;
		i += is_quote ? 2 : 1;
	}
}

// The byte offset in debug_query_string of byte `offset` of the argument's text, when the argument is a string
// literal of that statement, or -1. The literal is the Const's location in the leader; a parallel worker's plan
// has lost the locations (they are not serialised), so there it is the one literal of the statement that spells
// the text, if there is exactly one: both find the same literal, and the caret is the same in both. The whole
// literal is compared with the text, so a location in another statement's text (a function body, a prepared
// statement) never places the caret on something else.
static int
StatementOffset(const PapTextOrigin *origin, size_t offset)
{
	FmgrInfo *flinfo = origin->fcinfo != nullptr ? origin->fcinfo->flinfo : nullptr;
	if (flinfo == nullptr || flinfo->fn_expr == nullptr || debug_query_string == nullptr ||
	    !IsA(flinfo->fn_expr, FuncExpr))
		return -1;
	List *args = ((FuncExpr *)flinfo->fn_expr)->args;
	if (origin->argno >= list_length(args))
		return -1;
	Node *arg = (Node *)list_nth(args, origin->argno);
	while (arg != nullptr && IsA(arg, RelabelType))
		arg = (Node *)((RelabelType *)arg)->arg;
	if (arg == nullptr || !IsA(arg, Const))
		return -1;
	const char *source = debug_query_string;
	const size_t source_length = strlen(source);
	size_t budget = kLiteralSearchBytes;
	int at = -1;
	const int location = ((Const *)arg)->location;
	if (location >= 0)
		return LiteralSpells(source, source_length, size_t(location), origin->text, offset, &at, &budget) ? at : -1;
	int found = -1;
	for (const char *quote = strchr(source, '\''); quote != nullptr; quote = strchr(quote + 1, '\'')) {
		const size_t start = size_t(quote - source);
		const char before = start > 0 ? source[start - 1] : ' ';
		if (before == '\'' || before == '_' || isalnum((unsigned char)before) || (before & 0x80) != 0)
			continue;  // inside another literal, or a prefixed one (E'...')
		if (budget == 0)
			return -1;  // too long a search to finish inside an error report
		if (!LiteralSpells(source, source_length, start, origin->text, offset, &at, &budget))
			continue;
		if (found >= 0)
			return -1;  // two literals spell the text: which one is meant is unknown
		found = at;
	}
	return budget == 0 ? -1 : found;  // a literal left unread might spell the text too
}

int
PapTextErrPosition(const PapTextOrigin *origin, size_t offset)
{
	const size_t length = strlen(origin->text);
	if (offset > length)
		offset = length;
	const int at = StatementOffset(origin, offset);
	if (at >= 0)
		return errposition(pg_mbstrlen_with_len(debug_query_string, at) + 1);
	internalerrquery(origin->text);
	return internalerrposition(pg_mbstrlen_with_len(origin->text, int(offset)) + 1);
}

static void
TextPositionCallback(void *arg)
{
	const PapTextPositionCallback *c = (const PapTextPositionCallback *)arg;
	// A position set by the failing code refers to another text (a type name's own parse): ours replaces it.
	errposition(0);
	PapTextErrPosition(c->origin, c->offset);
}

void
PapPushTextPosition(PapTextPositionCallback *c, const PapTextOrigin *origin, size_t offset)
{
	c->origin = origin;
	c->offset = offset;
	c->callback.callback = TextPositionCallback;
	c->callback.arg = c;
	c->callback.previous = error_context_stack;
	error_context_stack = &c->callback;
}

void
PapPopTextPosition(PapTextPositionCallback *c)
{
	error_context_stack = c->callback.previous;
}
