/* Opening a shared library when it is first needed rather than linking it: every function Fieldbook calls from it is
   resolved together, all of them or the library is not used. CVips.h, CPostgres.h and CCurl.h say why theirs are
   opened so. */
#ifndef FIELDBOOK_LIBRARY_LOADER_H
#define FIELDBOOK_LIBRARY_LOADER_H

#include <stddef.h>

/* A function's name in the library, and where its address goes in the caller's table of function pointers. */
typedef struct {
    const char *name;
    size_t offset;
} FieldbookSymbol;

/* Opens the first of `names` (sonames such as "libpq.so.5", or paths) that the loader can open, and writes each
   symbol's address at its offset in `table`. The handle when every symbol was found; NULL otherwise, with the reason
   in `failure`, naming `package` as the fix. */
void *fieldbook_library_open(const char *const names[], size_t name_count, const char *package,
                             const FieldbookSymbol symbols[], size_t symbol_count, void *table,
                             char *failure, size_t failure_size);

#endif
