/* SQLite's library-wide settings, which GRDB leaves alone (Sources/Storage/SQLiteLibrary.swift is the one Swift file
   that calls them). sqlite3_config is variadic, which Swift cannot call: each setting gets a plain function here. */
#ifndef FIELDBOOK_SQLITE_SHIM_H
#define FIELDBOOK_SQLITE_SHIM_H

#include <sqlite3.h>

/* How many bytes a statement or savepoint journal keeps in memory before it moves to a temporary file.
   SQLITE_MISUSE once the library is initialised (the first connection opened). */
static inline int fieldbook_sqlite_set_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

#endif
