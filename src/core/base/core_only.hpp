// Included last by every src/core file: the core must stay free of PostgreSQL headers, so that it can be
// unit-tested without a server and so that no PostgreSQL macro (Min, Max, snprintf, ...) leaks into it.
#pragma once
#if defined(POSTGRES_H)
static_assert(false, "src/core must not include PostgreSQL headers; put that code in src/pg");
#endif
