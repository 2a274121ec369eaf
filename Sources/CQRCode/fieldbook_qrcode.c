/* libqrencode, opened when the first code is drawn (include/CQRCode.h says why it is not linked).

   The declarations below are libqrencode 4's stable API (soname libqrencode.so.4), written here because its header is
   not installed with the library: QRcode's layout, and the values of QRecLevel and QRencodeMode as qrencode.h numbers
   them. Tests/ImagingTests checks the codes drawn against the QR versions' sizes. */
#include "CQRCode.h"

#include <CLibraryLoader.h>
#include <stdlib.h>

typedef struct {
    int version;
    int width;
    unsigned char *data;
} QRcode;

enum { ECLEVEL_M = 1 };   /* QRecLevel: L, M, Q, H */
enum { MODE_8 = 2 };      /* QRencodeMode: NUM, AN, 8, KANJI, ... (NUL is -1) */

static struct {
    QRcode *(*encode_string)(const char *string, int version, int level, int hint, int casesensitive);
    void (*free)(QRcode *code);
} qrencode;

static const FieldbookSymbol functions[] = {
    { "QRcode_encodeString", offsetof(__typeof__(qrencode), encode_string) },
    { "QRcode_free", offsetof(__typeof__(qrencode), free) },
};

static char start_failure[512];

/* Called once per process (QRCode's `startFailure`). */
int fieldbook_qr_start(void) {
#ifdef __APPLE__
    const char *names[] = {"libqrencode.4.dylib", "libqrencode.dylib"};
#else
    const char *names[] = {"libqrencode.so.4", "libqrencode.so"};
#endif
    if (!fieldbook_library_open(names, sizeof names / sizeof names[0], "libqrencode4", functions,
                                sizeof functions / sizeof functions[0], &qrencode, start_failure, sizeof start_failure))
        return -1;
    return 0;
}

const char *fieldbook_qr_start_failure(void) { return start_failure[0] ? start_failure : NULL; }

/* Version 0 lets libqrencode choose the smallest version the text fits. */
FieldbookQRCode *fieldbook_qr_encode(const char *text) {
    QRcode *drawn = qrencode.encode_string(text, 0, ECLEVEL_M, MODE_8, 1);
    if (!drawn) return NULL;
    FieldbookQRCode *code = malloc(sizeof *code);
    unsigned char *modules = malloc((size_t) drawn->width * (size_t) drawn->width);
    if (!code || !modules) {
        free(code);
        free(modules);
        qrencode.free(drawn);
        return NULL;
    }
    /* Bit 0 of each of libqrencode's bytes says dark; the others say which part of the symbol the module is. */
    for (int i = 0; i < drawn->width * drawn->width; i++) modules[i] = drawn->data[i] & 1;
    code->version = drawn->version;
    code->width = drawn->width;
    code->modules = modules;
    qrencode.free(drawn);
    return code;
}

void fieldbook_qr_release(FieldbookQRCode *code) {
    if (!code) return;
    free(code->modules);
    free(code);
}
