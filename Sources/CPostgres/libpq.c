#include "CPostgres.h"

#include <CLibraryLoader.h>
#include <pthread.h>

static FieldbookLibPQ functions;
static int opened;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const FieldbookSymbol symbols[] = {
#define FIELDBOOK_LIBPQ_SYMBOL(field, function) {#function, offsetof(FieldbookLibPQ, field)},
    FIELDBOOK_LIBPQ_FUNCTIONS(FIELDBOOK_LIBPQ_SYMBOL)
#undef FIELDBOOK_LIBPQ_SYMBOL
};

static void open_libpq(void) {
#ifdef __APPLE__
    const char *names[] = {"libpq.5.dylib"};
#else
    const char *names[] = {"libpq.so.5"};
#endif
    /* Pipeline mode (one round trip for a pushed operation's statements) came with libpq 14. */
    opened = fieldbook_library_open(names, 1, "libpq5 (libpq 14 or later)", symbols, sizeof symbols / sizeof symbols[0],
                                    &functions, failure, sizeof failure) != NULL;
}

const FieldbookLibPQ *fieldbook_libpq_open(void) {
    pthread_once(&once, open_libpq);
    return opened ? &functions : NULL;
}

const char *fieldbook_libpq_failure(void) { return failure[0] ? failure : NULL; }
