/* libgettextpo, opened for reading catalogs at start-up (include/CGettextPO.h says why it is not linked).

   The declarations below are libgettextpo's stable API (soname libgettextpo.so.0; po_file_read is po_file_read_v3, as
   gettext-po.h defines it), written here so that building needs no -dev package. */
#include "CGettextPO.h"

#include <CLibraryLoader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct po_file *po_file_t;
typedef struct po_message_iterator *po_message_iterator_t;
typedef struct po_message *po_message_t;

struct po_xerror_handler {
    void (*xerror)(int severity, po_message_t message, const char *filename, size_t lineno, size_t column,
                   int multiline_p, const char *message_text);
    void (*xerror2)(int severity, po_message_t message1, const char *filename1, size_t lineno1, size_t column1,
                    int multiline_p1, const char *message_text1, po_message_t message2, const char *filename2,
                    size_t lineno2, size_t column2, int multiline_p2, const char *message_text2);
};

enum { PO_SEVERITY_WARNING = 0, PO_SEVERITY_FATAL_ERROR = 2 };

static struct {
    po_file_t (*file_read)(const char *filename, const struct po_xerror_handler *handler);
    void (*file_free)(po_file_t file);
    const char *(*file_domain_header)(po_file_t file, const char *domain);
    char *(*header_field)(const char *header, const char *field);
    po_message_iterator_t (*message_iterator)(po_file_t file, const char *domain);
    void (*message_iterator_free)(po_message_iterator_t iterator);
    po_message_t (*next_message)(po_message_iterator_t iterator);
    const char *(*msgctxt)(po_message_t message);
    const char *(*msgid)(po_message_t message);
    const char *(*msgid_plural)(po_message_t message);
    const char *(*msgstr)(po_message_t message);
    const char *(*msgstr_plural)(po_message_t message, int index);
    int (*is_fuzzy)(po_message_t message);
    int (*is_obsolete)(po_message_t message);
} po;

static const FieldbookSymbol functions[] = {
    { "po_file_read_v3", offsetof(__typeof__(po), file_read) },
    { "po_file_free", offsetof(__typeof__(po), file_free) },
    { "po_file_domain_header", offsetof(__typeof__(po), file_domain_header) },
    { "po_header_field", offsetof(__typeof__(po), header_field) },
    { "po_message_iterator", offsetof(__typeof__(po), message_iterator) },
    { "po_message_iterator_free", offsetof(__typeof__(po), message_iterator_free) },
    { "po_next_message", offsetof(__typeof__(po), next_message) },
    { "po_message_msgctxt", offsetof(__typeof__(po), msgctxt) },
    { "po_message_msgid", offsetof(__typeof__(po), msgid) },
    { "po_message_msgid_plural", offsetof(__typeof__(po), msgid_plural) },
    { "po_message_msgstr", offsetof(__typeof__(po), msgstr) },
    { "po_message_msgstr_plural", offsetof(__typeof__(po), msgstr_plural) },
    { "po_message_is_fuzzy", offsetof(__typeof__(po), is_fuzzy) },
    { "po_message_is_obsolete", offsetof(__typeof__(po), is_obsolete) },
};

struct FieldbookPOFile {
    po_file_t file;
    po_message_iterator_t iterator;
};

/* Readers on several threads (a test suite's servers starting at once) share the library: it is opened by the first
   and closed by the last, under this lock, so no thread calls into it after another unmapped it. */
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static void *library;
static int users;

/* libgettextpo reports problems through a handler with no user data, so one catalog is read at a time and its first
   problem kept here. A fatal one must not return to the library: the read is left with longjmp. */
static pthread_mutex_t reading = PTHREAD_MUTEX_INITIALIZER;
static char *problem;
static size_t problem_size;
static int problem_count;
static jmp_buf fatal;

static void note_problem(int severity, po_message_t message, const char *filename, size_t lineno, size_t column,
                         int multiline_p, const char *message_text) {
    (void) message; (void) column; (void) multiline_p;
    if (severity == PO_SEVERITY_WARNING) return;
    if (problem_count++ == 0) {
        if (filename && lineno != (size_t) -1)
            snprintf(problem, problem_size, "%s:%zu: %s", filename, lineno, message_text);
        else
            snprintf(problem, problem_size, "%s", message_text);
        size_t length = strlen(problem);
        while (length > 0 && problem[length - 1] == '\n') problem[--length] = '\0';
    }
    if (severity == PO_SEVERITY_FATAL_ERROR) longjmp(fatal, 1);
}

static void note_problem2(int severity, po_message_t message1, const char *filename1, size_t lineno1, size_t column1,
                          int multiline_p1, const char *message_text1, po_message_t message2, const char *filename2,
                          size_t lineno2, size_t column2, int multiline_p2, const char *message_text2) {
    (void) message2; (void) filename2; (void) lineno2; (void) column2; (void) multiline_p2; (void) message_text2;
    note_problem(severity, message1, filename1, lineno1, column1, multiline_p1, message_text1);
}

static const struct po_xerror_handler handler = { note_problem, note_problem2 };

int fieldbook_po_start(char *failure, size_t failure_size) {
    pthread_mutex_lock(&loading);
    if (library) {
        users++;
        pthread_mutex_unlock(&loading);
        return 0;
    }
#ifdef __APPLE__
    const char *names[] = {"libgettextpo.0.dylib", "libgettextpo.dylib"};
#else
    const char *names[] = {"libgettextpo.so.0", "libgettextpo.so"};
#endif
    library = fieldbook_library_open(names, sizeof names / sizeof names[0], "libgettextpo0", functions,
                                     sizeof functions / sizeof functions[0], &po, failure, failure_size);
    if (library) users++;
    int opened = library ? 0 : -1;
    pthread_mutex_unlock(&loading);
    return opened;
}

void fieldbook_po_finish(void) {
    pthread_mutex_lock(&loading);
    if (users > 0 && --users == 0 && library) {
        dlclose(library);
        library = NULL;
    }
    pthread_mutex_unlock(&loading);
}

FieldbookPOFile *fieldbook_po_open(const char *path, char *failure, size_t failure_size) {
    if (!library) {
        snprintf(failure, failure_size, "libgettextpo is not open");
        return NULL;
    }
    pthread_mutex_lock(&reading);
    problem = failure;
    problem_size = failure_size;
    problem_count = 0;
    failure[0] = '\0';
    po_file_t file = NULL;
    if (setjmp(fatal) == 0) file = po.file_read(path, &handler);
    int failed = problem_count > 0 || !file;
    pthread_mutex_unlock(&reading);
    if (failed) {
        if (file) po.file_free(file);
        if (!failure[0]) snprintf(failure, failure_size, "%s could not be read", path);
        return NULL;
    }
    FieldbookPOFile *opened = calloc(1, sizeof *opened);
    if (!opened) {
        po.file_free(file);
        snprintf(failure, failure_size, "out of memory");
        return NULL;
    }
    opened->file = file;
    return opened;
}

int fieldbook_po_header_field(FieldbookPOFile *file, const char *field, char *value, size_t value_size) {
    const char *header = po.file_domain_header(file->file, NULL);
    if (!header) return -1;
    char *found = po.header_field(header, field);
    if (!found) return -1;
    snprintf(value, value_size, "%s", found);
    free(found);
    return 0;
}

int fieldbook_po_next(FieldbookPOFile *file, FieldbookPOEntry *entry) {
    if (!file->iterator) file->iterator = po.message_iterator(file->file, NULL);
    po_message_t message = po.next_message(file->iterator);
    if (!message) return -1;
    memset(entry, 0, sizeof *entry);
    entry->context = po.msgctxt(message);
    entry->msgid = po.msgid(message);
    entry->msgid_plural = po.msgid_plural(message);
    entry->msgstr = po.msgstr(message);
    if (entry->msgid_plural) {
        while (entry->plural_count < FIELDBOOK_PO_MAX_PLURALS) {
            const char *form = po.msgstr_plural(message, entry->plural_count);
            if (!form) break;
            entry->msgstr_plural[entry->plural_count++] = form;
        }
    }
    entry->fuzzy = po.is_fuzzy(message);
    entry->obsolete = po.is_obsolete(message);
    return 0;
}

void fieldbook_po_close(FieldbookPOFile *file) {
    if (!file) return;
    if (file->iterator) po.message_iterator_free(file->iterator);
    po.file_free(file->file);
    free(file);
}
