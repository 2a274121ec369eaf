#include "CBuildStamp.h"

/* Writable, so that the compiler cannot fold its contents into the code that reads them; `used`, so that it is kept. */
__attribute__((section(".fieldbook_commit"), used)) char fieldbook_commit[FIELDBOOK_COMMIT_SIZE] = "unknown";

const char *fieldbook_build_commit(void) { return fieldbook_commit; }
