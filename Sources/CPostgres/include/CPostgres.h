/* libpq, PostgreSQL's C client, for the PostgreSQL hub (Sources/PostgresHub/LibPQ.swift is the one Swift file that
   calls it).

   libpq is opened when the hub first connects, not linked: it brings OpenSSL, Kerberos, LDAP and SASL, about fifteen
   libraries that every node and every SQLite hub loaded, relocated and held resident without ever calling (issue 15).
   libpq's own header still gives the types, the constants and each function's signature; Swift calls the functions
   through the table `fieldbook_libpq_open` fills. */
#ifndef FIELDBOOK_POSTGRES_H
#define FIELDBOOK_POSTGRES_H

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#error "libpq's header libpq-fe.h is missing: install libpq-dev (scripts/install-deps.sh does)"
#endif

/* Every libpq function Fieldbook calls: the table's field, and the function. */
#define FIELDBOOK_LIBPQ_FUNCTIONS(F) \
    F(connectdb, PQconnectdb) F(finish, PQfinish) F(status, PQstatus) F(transactionStatus, PQtransactionStatus) \
    F(errorMessage, PQerrorMessage) F(socket, PQsocket) F(exec, PQexec) F(execParams, PQexecParams) \
    F(sendQueryParams, PQsendQueryParams) F(enterPipelineMode, PQenterPipelineMode) \
    F(exitPipelineMode, PQexitPipelineMode) F(pipelineSync, PQpipelineSync) F(getResult, PQgetResult) \
    F(resultStatus, PQresultStatus) F(resultErrorField, PQresultErrorField) F(resultErrorMessage, PQresultErrorMessage) \
    F(clear, PQclear) F(ntuples, PQntuples) F(nfields, PQnfields) F(fname, PQfname) F(getisnull, PQgetisnull) \
    F(getvalue, PQgetvalue) F(consumeInput, PQconsumeInput) F(notifies, PQnotifies) F(freemem, PQfreemem)

#define FIELDBOOK_LIBPQ_FIELD(field, function) __typeof__(function) *_Nonnull field;
typedef struct {
    FIELDBOOK_LIBPQ_FUNCTIONS(FIELDBOOK_LIBPQ_FIELD)
} FieldbookLibPQ;
#undef FIELDBOOK_LIBPQ_FIELD

/* Opens libpq, to be called once per process: its functions, or NULL with the reason in `fieldbook_libpq_failure`. */
const FieldbookLibPQ *_Nullable fieldbook_libpq_open(void);
const char *_Nullable fieldbook_libpq_failure(void);

#endif
