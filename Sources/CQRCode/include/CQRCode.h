/* libqrencode, for the QR code of the "Add a device" page (Sources/Imaging/QRCode.swift is the one Swift file that
   calls it).

   It is opened with dlopen when the first code is drawn, like libvips (CVips.h): a server whose administrator never
   opens that page loads nothing for it, and a machine without libqrencode4 still serves every other page. So this
   header declares only what Fieldbook needs and includes none of libqrencode's own. */
#ifndef FIELDBOOK_QRCODE_H
#define FIELDBOOK_QRCODE_H

/* A drawn code: `width` x `width` modules, row by row, each 1 when dark. */
typedef struct {
    int version;
    int width;
    unsigned char *modules;
} FieldbookQRCode;

/* Opens libqrencode, once per process. 0 when it is ready; -1 otherwise, with the reason in
   `fieldbook_qr_start_failure`. */
int fieldbook_qr_start(void);

const char *fieldbook_qr_start_failure(void);

/* The smallest code that holds `text` as bytes at error correction level M (15%: a printed page survives a crease),
   or NULL when it does not fit. Free it with `fieldbook_qr_release`. */
FieldbookQRCode *fieldbook_qr_encode(const char *text);

void fieldbook_qr_release(FieldbookQRCode *code);

#endif
