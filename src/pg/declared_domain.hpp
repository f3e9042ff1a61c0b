// A declared domain's jsonb (docs/reference.md, pap.define_private_release): one column's declaration,
// {"min": ..., "max": ..., "step": ...} or {"categories": [...]}, read by PostgreSQL's own jsonb operators. Shared by
// pap.define_private_release (one declaration per column of the class) and pap.run_private_quantile (one column).
#pragma once
#include "pg/glue.hpp"

struct PapDeclaredColumn {
	bool present;      // the declaration exists (the domain names the column)
	bool is_object;    // ... as a JSON object
	bool has_unknown;  // ... with a member other than min, max, step, categories
	bool bounded;      // min, max and step are all JSON numbers
	double low, high, step;
	bool has_categories;  // categories is a JSON array of non-null scalars
	char **categories;
	size_t category_count;
};

// The declaration of `column` in a domain {"column": declaration, ...}; the caller's SPI connection is open.
PapDeclaredColumn PapReadDeclaredColumn(Datum domain, const char *column);
// A declaration on its own (the jsonb is the declaration); column names it in messages.
PapDeclaredColumn PapReadDeclaration(Datum declaration, const char *column);

// Raises 22023 unless a present declaration is an object with only min, max, step and categories.
void PapRequireDeclarationObject(const PapDeclaredColumn &d, const char *column);
