/* libpq, PostgreSQL's C client, for the PostgreSQL hub (Sources/PostgresHub/LibPQ.swift is the one Swift file that
   calls it). */
#ifndef FIELDBOOK_POSTGRES_SHIM_H
#define FIELDBOOK_POSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
