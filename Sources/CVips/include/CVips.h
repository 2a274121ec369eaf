/* libvips, for photos (Sources/Imaging/PhotoProcessor.swift is the one Swift file that calls it).

   libvips is opened with dlopen when the first photo is processed, not linked: it brings about 100 shared libraries
   (GLib, the image codecs, librsvg, OpenEXR, HDF5...) that held about 14 MB resident in a server that had processed
   no photo, and took their share of every start-up (issue 15). So this header declares only what Fieldbook calls,
   with an opaque image, and includes none of libvips's own headers; fieldbook_vips.c resolves each function once.

   libvips passes optional arguments as NULL-terminated varargs, which Swift cannot call, so each call Fieldbook makes
   is wrapped with fixed arguments. */
#ifndef FIELDBOOK_VIPS_H
#define FIELDBOOK_VIPS_H

#include <stddef.h>

/* A libvips image (VipsImage), only ever handled through the functions below. */
typedef struct FieldbookVipsImage FieldbookVipsImage;

/* Opens libvips and starts it, once per process. 0 when it is ready; -1 otherwise, with the reason in
   `fieldbook_vips_start_failure`. */
int fieldbook_vips_start(void);

/* Why the start failed (libvips missing, or older than 8.12), or NULL. */
const char *fieldbook_vips_start_failure(void);

/* The loader libvips would use for the file, found from its first bytes (not its name), or NULL. */
const char *fieldbook_vips_loader(const char *path);

/* The image's header (size and metadata); pixels are decoded only when something reads them. */
FieldbookVipsImage *fieldbook_vips_header(const char *path);

int fieldbook_vips_width(FieldbookVipsImage *image);
int fieldbook_vips_height(FieldbookVipsImage *image);

/* The file's image made upright by its orientation tag and fitted inside size x size (never enlarged), decoding only
   what that size needs (JPEG shrink-on-load); a damaged or truncated file is an error, not a grey half. */
int fieldbook_vips_fit_file(const char *path, int size, FieldbookVipsImage **out);

/* An encoded image fitted inside size x size (never enlarged). */
int fieldbook_vips_fit_buffer(const void *bytes, size_t length, int size, FieldbookVipsImage **out);

/* 8-bit sRGB, transparency flattened onto white: what a JPEG can hold, whatever came in (16-bit PNG, CMYK, grey). */
int fieldbook_vips_to_srgb(FieldbookVipsImage *in, FieldbookVipsImage **out);

/* A baseline JPEG with every piece of metadata left out (EXIF with its GPS position, XMP, IPTC, ICC profile,
   comments): a photo of someone's home must not say where it is. */
int fieldbook_vips_jpeg(FieldbookVipsImage *in, int quality, void **bytes, size_t *length);

/* The header of an encoded image (read from memory, never decoded) and the loader found from its first bytes; NULL
   when no loader reads it. */
FieldbookVipsImage *fieldbook_vips_buffer_header(const void *bytes, size_t length, const char **loader);

/* True when the image carries any of the metadata a photo must not keep. */
int fieldbook_vips_has_metadata(FieldbookVipsImage *image);

/* A metadata string (EXIF fields are named like "exif-ifd2-DateTimeOriginal"), or NULL when the image has none. */
const char *fieldbook_vips_text(FieldbookVipsImage *image, const char *name);

/* What libvips last reported, cleared once read. */
void fieldbook_vips_take_error(char *into, size_t capacity);

void fieldbook_vips_release(FieldbookVipsImage *image);
void fieldbook_vips_free(void *bytes);

#endif
