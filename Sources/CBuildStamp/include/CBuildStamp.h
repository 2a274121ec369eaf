/* The commit a program was built from. `make release` writes it into the linked program's .fieldbook_commit section
   (scripts/stamp-commit.sh, with objcopy) rather than handing it to the compiler: a new commit then changes one
   section of one file instead of every module's compiler flags, which would rebuild them all. */
#ifndef FIELDBOOK_BUILD_STAMP_H
#define FIELDBOOK_BUILD_STAMP_H

/* The section's size: a 40-digit commit hash, a marker for uncommitted changes, and the terminating zero. */
#define FIELDBOOK_COMMIT_SIZE 64

/* The commit, or "unknown" in a program built without the stamp (`swift build` alone). */
const char *fieldbook_build_commit(void);

#endif
