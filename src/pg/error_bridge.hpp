// The one crossing from C++ to PostgreSQL errors (docs/architecture.md, "The wall"). PAP_CORE(statements) runs
// core code inside try/catch, copies any error into a plain struct, leaves the catch block, and only then raises
// the PostgreSQL ERROR: no exception ever reaches PostgreSQL and ereport never longjmps over a live C++ object.
// Include this file, like every core header, before postgres.h.
#pragma once
#include <cstdio>
#include <exception>
#include <new>

#include "core/base/errors.hpp"
#include "pg/guc.hpp"  // pap_debug_inject_error

struct PapCoreError {
	int kind;       // a pap::core::ErrorKind, or -1 for std::bad_alloc, -2 for any other exception
	long position;  // pap::core::Error::position(): byte offset in the text the user wrote, or -1
	char message[1024];
	char detail[1024];
	char hint[512];
};

template <typename F>
bool
PapCallCore(PapCoreError *err, F &&body) noexcept
{
	err->kind = -2;
	err->position = -1;
	err->message[0] = err->detail[0] = err->hint[0] = '\0';
	try {
		body();
		return true;
	} catch (const pap::core::Error &e) {
		err->kind = int(e.kind());
		if (e.position() != pap::core::Error::kNoPosition)
			err->position = long(e.position());
		std::snprintf(err->message, sizeof err->message, "%s", e.what());
		std::snprintf(err->detail, sizeof err->detail, "%s", e.detail().c_str());
		std::snprintf(err->hint, sizeof err->hint, "%s", e.hint().c_str());
	} catch (const std::bad_alloc &) {
		err->kind = -1;
		std::snprintf(err->message, sizeof err->message, "out of memory in pap_release");
	} catch (const std::exception &e) {
		std::snprintf(err->message, sizeof err->message, "pap_release internal error: %s", e.what());
	} catch (...) {
		std::snprintf(err->message, sizeof err->message, "pap_release internal error: unknown C++ exception");
	}
	return false;
}

// Raises the PostgreSQL error for err (SQLSTATE by kind; see docs/reference.md). Never returns.
[[noreturn]] void PapReportCoreError(const PapCoreError *err);

// The text a core call parses and where it came from (pg/text_position.hpp): PAP_CORE_AT reports an error's
// position in it as errposition.
struct PapTextOrigin;
[[noreturn]] void PapReportCoreErrorAt(const PapCoreError *err, const PapTextOrigin *origin);

// Test hook (docs/robustness.md): the superuser-only setting pap_release.debug_inject_error (guc.hpp). When it is
// not 0, every PAP_CORE body throws before it runs: 1 std::runtime_error, 2 std::bad_alloc,
// 3 pap::core::Error(Internal), 4 an int. Pure C++, no PostgreSQL call: it runs inside the try.
[[noreturn]] void PapThrowInjectedError(int kind);

#define PAP_CORE(...) PAP_CORE_AT(nullptr, __VA_ARGS__)

// PAP_CORE for a call that parses the text of origin (a const PapTextOrigin *, or nullptr).
#define PAP_CORE_AT(origin, ...)                                                                                       \
	do {                                                                                                               \
		PapCoreError pap_core_error_;                                                                                  \
		if (!PapCallCore(&pap_core_error_, [&]() {                                                                     \
			    if (pap_debug_inject_error != 0)                                                                       \
				    PapThrowInjectedError(pap_debug_inject_error);                                                     \
			    __VA_ARGS__;                                                                                           \
		    }))                                                                                                        \
			PapReportCoreErrorAt(&pap_core_error_, (origin));                                                          \
	} while (0)
