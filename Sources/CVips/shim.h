/* libvips, for photos (Sources/Imaging/PhotoProcessor.swift is the one Swift file that calls it). libvips passes
   optional arguments as NULL-terminated varargs, which Swift cannot call, so each call Fieldbook makes is wrapped here
   with fixed arguments. */
#ifndef FIELDBOOK_VIPS_SHIM_H
#define FIELDBOOK_VIPS_SHIM_H

#include <vips/vips.h>

/* Starts libvips once per process. Each upload is read once, so libvips's operation cache would only hold memory and
   open files: it is turned off. */
static inline int fieldbook_vips_start(void) {
    /* A damaged upload is refused with a message of Fieldbook's own; libvips's warnings about it are only noise in the log. */
    g_setenv("VIPS_WARNING", "0", FALSE);
    if (VIPS_INIT("fieldbook")) return -1;
    vips_cache_set_max(0);
    vips_concurrency_set(2);
    return 0;
}

/* The loader libvips would use for the file, found from its first bytes (not its name), or NULL. */
static inline const char *fieldbook_vips_loader(const char *path) {
    return vips_foreign_find_load(path);
}

/* The image's header (size and metadata); pixels are decoded only when something reads them. */
static inline VipsImage *fieldbook_vips_header(const char *path) {
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/* The file's image made upright by its orientation tag and fitted inside size x size (never enlarged), decoding only
   what that size needs (JPEG shrink-on-load); a damaged or truncated file is an error, not a grey half. */
static inline int fieldbook_vips_fit_file(const char *path, int size, VipsImage **out) {
    return vips_thumbnail(path, out, size, "height", size, "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

/* An encoded image fitted inside size x size (never enlarged). */
static inline int fieldbook_vips_fit_buffer(const void *bytes, size_t length, int size, VipsImage **out) {
    return vips_thumbnail_buffer((void *) bytes, length, out, size, "height", size, "size", VIPS_SIZE_DOWN, NULL);
}

/* 8-bit sRGB, transparency flattened onto white: what a JPEG can hold, whatever came in (16-bit PNG, CMYK, grey). */
static inline int fieldbook_vips_to_srgb(VipsImage *in, VipsImage **out) {
    VipsImage *colour = NULL, *flat = NULL;
    if (vips_colourspace(in, &colour, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
    if (vips_image_hasalpha(colour)) {
        double white[3] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int failed = vips_flatten(colour, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(colour);
        if (failed) return -1;
    } else {
        flat = colour;
    }
    int failed = vips_cast(flat, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(flat);
    return failed;
}

/* A baseline JPEG with every piece of metadata left out (EXIF with its GPS position, XMP, IPTC, ICC profile,
   comments): a photo of someone's home must not say where it is. */
static inline int fieldbook_vips_jpeg(VipsImage *in, int quality, void **bytes, size_t *length) {
    return vips_jpegsave_buffer(in, bytes, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

/* The header of an encoded image (read from memory, never decoded) and the loader found from its first bytes; NULL
   when no loader reads it. */
static inline VipsImage *fieldbook_vips_buffer_header(const void *bytes, size_t length, const char **loader) {
    *loader = vips_foreign_find_load_buffer(bytes, length);
    if (!*loader) return NULL;
    return vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/* True when the image carries any of the metadata a photo must not keep. */
static inline int fieldbook_vips_has_metadata(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_EXIF_NAME) != 0 || vips_image_get_typeof(image, VIPS_META_XMP_NAME) != 0
        || vips_image_get_typeof(image, VIPS_META_IPTC_NAME) != 0 || vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

/* A metadata string (EXIF fields are named like "exif-ifd2-DateTimeOriginal"), or NULL when the image has none. */
static inline const char *fieldbook_vips_text(VipsImage *image, const char *name) {
    const char *value = NULL;
    if (vips_image_get_typeof(image, name) == 0) return NULL;
    if (vips_image_get_string(image, name, &value)) { vips_error_clear(); return NULL; }
    return value;
}

/* What libvips last reported, cleared once read. */
static inline void fieldbook_vips_take_error(char *into, size_t capacity) {
    snprintf(into, capacity, "%s", vips_error_buffer());
    vips_error_clear();
}

static inline void fieldbook_vips_release(VipsImage *image) { if (image) g_object_unref(image); }
static inline void fieldbook_vips_free(void *bytes) { g_free(bytes); }

#endif
