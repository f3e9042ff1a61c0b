// The answer of one query text from a cached release (fmgr_answer.cpp), shared by pap.answer and the bounded
// answers (fmgr_answer_bound.cpp). Include after postgres.h.
#pragma once
#include "pg/model_cache.hpp"
#include "pg/text_position.hpp"

// The answer (fraction of the private rows) of query; with bound != nullptr also its error bound
// (pap::core::ModelAnswerBound), whose estimate is the answer returned. origin: where the text came from, for the
// caret of an error in it (nullptr: none).
double PapAnswerQuery(const PapCachedRelease *release, const char *query, bool refine,
                      pap::core::AnswerBound *bound = nullptr, const PapTextOrigin *origin = nullptr);
