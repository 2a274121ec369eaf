/* libgettextpo, gettext's own reader of .po catalogs (Sources/Translations/CatalogFile.swift is the one Swift file that
   calls it).

   Catalogs are read once, at start-up, so the library is opened with dlopen for the reading and closed after it: a
   running server holds none of it (with libunistring, about 2 MB mapped). This header declares only what Fieldbook
   needs and includes none of gettext's own, so building needs no -dev package; running needs libgettextpo0. */
#ifndef FIELDBOOK_GETTEXTPO_H
#define FIELDBOOK_GETTEXTPO_H

#include <stddef.h>

/* The plural forms a catalog entry may have; gettext's own headers carry no limit, and Arabic, with the most, has 6. */
#define FIELDBOOK_PO_MAX_PLURALS 8

/* One entry of a catalog, its texts owned by the open file (valid until fieldbook_po_close). */
typedef struct {
    const char *context;        /* NULL without msgctxt */
    const char *msgid;
    const char *msgid_plural;   /* NULL for an entry without plural */
    const char *msgstr;         /* "" for an entry with plural */
    const char *msgstr_plural[FIELDBOOK_PO_MAX_PLURALS];
    int plural_count;
    int fuzzy;
    int obsolete;
} FieldbookPOEntry;

typedef struct FieldbookPOFile FieldbookPOFile;

/* Opens libgettextpo. 0 when it is ready; -1 otherwise, with the reason in `failure`. */
int fieldbook_po_start(char *failure, size_t failure_size);

/* Closes libgettextpo once every file read is closed. */
void fieldbook_po_finish(void);

/* Reads a catalog; NULL when it cannot be read or has a syntax error, with the first problem (file:line: what) in
   `failure`. */
FieldbookPOFile *fieldbook_po_open(const char *path, char *failure, size_t failure_size);

/* A field of the catalog's header (`Plural-Forms`, `Language`), copied into `value`; 0 when found, -1 otherwise. */
int fieldbook_po_header_field(FieldbookPOFile *file, const char *field, char *value, size_t value_size);

/* The next entry, the header entry (empty msgid) included; 0 when there is one, -1 at the end. */
int fieldbook_po_next(FieldbookPOFile *file, FieldbookPOEntry *entry);

void fieldbook_po_close(FieldbookPOFile *file);

#endif
