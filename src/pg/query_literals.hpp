// The literals of a query text that carry casts ('2021-01-01'::date, CAST('5' AS int), date '2021-01-01'), read
// as PostgreSQL reads them, and values of SQL types turned into what the core compares (docs/reference.md,
// "Query texts"). Include after postgres.h (through glue.hpp).
#pragma once
#include "pg/glue.hpp"
#include "pg/text_position.hpp"

// Literal i of parsed (its target t) with its casts applied in order, each an explicit cast as in SQL ('5.7'::int
// is 6), then read for the column it is compared with: sets *number for a numeric target (a number, or a temporal
// type's axis value), *text for a categorical one. Errors point into origin's text.
void PapCastLiteral(const pap::core::ReleaseModel *model, Oid private_table, const pap::core::ParsedQuery *parsed,
                    size_t i, const pap::core::LiteralTarget &t, const PapTextOrigin *origin, double *number,
                    const char **text);

// Whether text is one of the release's categories of column. An enum label that is one is the literal's canonical
// text as it is: the release answers by the labels it was run over, so a label the type's owner renamed since is
// not refused by today's enum_in (22P02), while a text that is no label of either is still refused by it.
bool PapIsReleaseCategory(const pap::core::ReleaseModel *model, const char *column, const char *text);

// A value of SQL type `type` as the core compares it with a column whose core type is value_type (numeric axes
// only): numbers as float8 (through their text, as a literal is read), dates and timestamps as axis positions.
// Raises 42804 when the value's type cannot be compared with such a column.
double PapAxisValueOfDatum(Datum value, Oid type, pap::core::ValueType value_type, const char *column);

// Frees parsed when the current memory context is reset or deleted: a parsed query outlives no statement, and a
// PostgreSQL error (a literal's input function) never skips its freeing.
void PapFreeWithCurrentContext(pap::core::ParsedQuery *parsed);
