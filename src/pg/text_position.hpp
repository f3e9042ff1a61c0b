// Where in the calling SQL a text the core parses (a query, a query class) came from, so that an error in it is
// reported with PostgreSQL's errposition, as the server's own parser reports errors: psql then shows the line with
// a caret. Include after postgres.h.
#pragma once

extern "C" {
#include "postgres.h"
#include "fmgr.h"
}

// The text of argument argno of fcinfo's function call (text: its C string, as the core parses it).
struct PapTextOrigin {
	FunctionCallInfo fcinfo;
	int argno;
	const char *text;
};

// For use inside ereport, like errposition: marks the 0-based byte offset in origin's text. When the argument is
// a string literal of the statement being run (the function call's argument is a Const whose location in
// debug_query_string spells exactly the text), the caret goes into that literal (errposition); otherwise the text
// is shown as the internal query with the caret in it (internalerrquery, internalerrposition).
int PapTextErrPosition(const PapTextOrigin *origin, size_t offset);

// An error context callback that marks offset in origin's text for errors PostgreSQL raises while the glue reads
// a part of the text (a literal's input function, a cast, a type name). Push with PapPushTextPosition, pop with
// PapPopTextPosition before the struct goes out of scope.
struct PapTextPositionCallback {
	ErrorContextCallback callback;
	const PapTextOrigin *origin;
	size_t offset;
};
void PapPushTextPosition(PapTextPositionCallback *c, const PapTextOrigin *origin, size_t offset);
void PapPopTextPosition(PapTextPositionCallback *c);
