// errposition for the texts the core parses (text_position.hpp).
#include "pg/text_position.hpp"

extern "C" {
#include "mb/pg_wchar.h"
#include "nodes/primnodes.h"
#include "tcop/tcopprot.h"
#include "utils/elog.h"
}

// The byte offset in debug_query_string of byte `offset` of the argument's text, when the argument is a string
// literal of that statement ('...' with '' for a quote, as standard_conforming_strings writes it), or -1. The
// whole literal is compared with the text, so a location that belongs to another statement's text (a function
// body, a prepared statement) never places the caret on something else.
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
	if (arg == nullptr || !IsA(arg, Const) || ((Const *)arg)->location < 0)
		return -1;
	const char *source = debug_query_string;
	const size_t source_length = strlen(source);
	size_t i = size_t(((Const *)arg)->location);
	if (i >= source_length || source[i] != '\'')
		return -1;
	i++;
	int found = -1;
	for (size_t j = 0;; j++) {
		if (j == offset)
			found = int(i);
		if (i >= source_length)
			return -1;
		const bool quote = source[i] == '\'';
		if (quote && source[i + 1] != '\'')
			return origin->text[j] == '\0' ? found : -1;  // the closing quote: the whole text must have matched
		if (origin->text[j] != source[i])
			return -1;
		i += quote ? 2 : 1;
	}
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
