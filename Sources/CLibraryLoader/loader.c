#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void *open_first(const char *const names[], size_t name_count, const char *package, char *failure,
                        size_t failure_size) {
    for (size_t i = 0; i < name_count; i++) {
        void *handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        /* The first name's reason is the telling one (a library it needs is missing, say). */
        if (i == 0) snprintf(failure, failure_size, "%s could not be opened (%s); install %s", names[0], dlerror(), package);
    }
    return NULL;
}

void *fieldbook_library_open(const char *const names[], size_t name_count, const char *package,
                             const FieldbookSymbol symbols[], size_t symbol_count, void *table,
                             char *failure, size_t failure_size) {
    void *handle = open_first(names, name_count, package, failure, failure_size);
    if (!handle) return NULL;
    for (size_t i = 0; i < symbol_count; i++) {
        void *symbol = dlsym(handle, symbols[i].name);
        if (!symbol) {
            snprintf(failure, failure_size, "%s has no %s: install a newer %s", names[0], symbols[i].name, package);
            dlclose(handle);
            return NULL;
        }
        memcpy((char *) table + symbols[i].offset, &symbol, sizeof symbol);
    }
    return handle;
}
