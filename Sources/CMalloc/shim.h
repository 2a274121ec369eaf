/* glibc's allocator settings (Sources/App/MallocArenas.swift is the one Swift file that calls it). M_ARENA_MAX is
   only in <malloc.h>, which Swift's Glibc module leaves out. */
#ifndef FIELDBOOK_MALLOC_SHIM_H
#define FIELDBOOK_MALLOC_SHIM_H

#ifdef __linux__
#include <malloc.h>
#endif

/* At most `arenas` malloc arenas for the whole process; 0 where the C library has no such setting (glibc answers 1 once set). */
static inline int fieldbook_limit_malloc_arenas(int arenas) {
#ifdef __linux__
    return mallopt(M_ARENA_MAX, arenas);
#else
    (void) arenas;
    return 0;
#endif
}

#endif
