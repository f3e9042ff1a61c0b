#include "pg/error_bridge.hpp"

#include <stdexcept>

extern "C" {
#include "postgres.h"
#include "miscadmin.h"
}

#include "pg/text_position.hpp"

// Called inside PapCallCore's try block only: throws, never calls PostgreSQL.
void
PapThrowInjectedError(int kind)
{
	switch (kind) {
	case 1: throw std::runtime_error("injected std::runtime_error (pap_release.debug_inject_error = 1)");
	case 2: throw std::bad_alloc();
	case 3:
		throw pap::core::Error(pap::core::ErrorKind::Internal,
		                       "injected pap::core::Error (pap_release.debug_inject_error = 3)");
	default: throw 42;
	}
}

void
PapReportCoreError(const PapCoreError *err)
{
	PapReportCoreErrorAt(err, nullptr);
}

void
PapReportCoreErrorAt(const PapCoreError *err, const PapTextOrigin *origin)
{
	using pap::core::ErrorKind;
	int code;
	switch (err->kind) {
	case int(ErrorKind::InvalidParameter): code = ERRCODE_INVALID_PARAMETER_VALUE; break;
	case int(ErrorKind::SyntaxError): code = ERRCODE_SYNTAX_ERROR; break;
	case int(ErrorKind::QueryOutsideClass): code = ERRCODE_INVALID_PARAMETER_VALUE; break;
	case int(ErrorKind::UndefinedColumn): code = ERRCODE_UNDEFINED_COLUMN; break;
	case int(ErrorKind::DatatypeMismatch): code = ERRCODE_DATATYPE_MISMATCH; break;
	case int(ErrorKind::DataException): code = ERRCODE_DATA_EXCEPTION; break;
	case int(ErrorKind::LimitExceeded): code = ERRCODE_PROGRAM_LIMIT_EXCEEDED; break;
	case int(ErrorKind::RandomSourceFailure): code = ERRCODE_SYSTEM_ERROR; break;
	case int(ErrorKind::Cancelled):
		CHECK_FOR_INTERRUPTS();  // raises the real cancel or termination
		code = ERRCODE_QUERY_CANCELED;
		break;
	case -1: code = ERRCODE_OUT_OF_MEMORY; break;
	default: code = ERRCODE_INTERNAL_ERROR; break;
	}
	ereport(ERROR, (errcode(code), errmsg("%s", err->message), err->detail[0] ? errdetail("%s", err->detail) : 0,
	                err->hint[0] ? errhint("%s", err->hint) : 0,
	                origin != nullptr && err->position >= 0 ? PapTextErrPosition(origin, size_t(err->position)) : 0));
	pg_unreachable();
}
