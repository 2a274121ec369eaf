#include "CPostgres.h"

#include <CLibraryLoader.h>

static FieldbookLibPQ functions;
static char failure[512];

static const FieldbookSymbol symbols[] = {
#define FIELDBOOK_LIBPQ_SYMBOL(field, function) {#function, offsetof(FieldbookLibPQ, field)},
    FIELDBOOK_LIBPQ_FUNCTIONS(FIELDBOOK_LIBPQ_SYMBOL)
#undef FIELDBOOK_LIBPQ_SYMBOL
};

/* Called once per process: LibPQ.swift keeps the answer in a `static let`, as PhotoProcessor does libvips's. */
const FieldbookLibPQ *fieldbook_libpq_open(void) {
#ifdef __APPLE__
    const char *names[] = {"libpq.5.dylib"};
#else
    const char *names[] = {"libpq.so.5"};
#endif
    /* Pipeline mode (one round trip for a pushed operation's statements) came with libpq 14. */
    size_t count = sizeof symbols / sizeof symbols[0];
    void *opened = fieldbook_library_open(names, 1, "libpq5 (libpq 14 or later)", symbols, count, &functions, failure,
                                          sizeof failure);
    return opened ? &functions : NULL;
}

const char *fieldbook_libpq_failure(void) { return failure[0] ? failure : NULL; }
