/* libvips, opened when the first photo is processed (see include/CVips.h for why it is not linked).

   The declarations below are the parts of libvips 8's stable API (soname libvips.so.42) that Fieldbook calls, written
   here because libvips's headers cannot be included without linking it. The enumeration values are libvips 8's: the
   photo tests (Tests/ImagingTests) exercise each of them on real files. */
#include "CVips.h"

#include <CLibraryLoader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef FieldbookVipsImage VipsImage;

/* libvips's enumerations, as vips/image.h, vips/resample.h, vips/foreign.h and vips/colour.h number them. */
enum { ACCESS_SEQUENTIAL = 1 };            /* VipsAccess: RANDOM, SEQUENTIAL, ... */
enum { SIZE_DOWN = 2 };                    /* VipsSize: BOTH, UP, DOWN, FORCE */
enum { FAIL_ON_ERROR = 2 };                /* VipsFailOn: NONE, TRUNCATED, ERROR, WARNING */
enum { INTERPRETATION_SRGB = 22 };         /* VipsInterpretation */
enum { FORMAT_UCHAR = 0 };                 /* VipsBandFormat */
enum { LOG_LEVEL_WARNING = 1 << 4 };       /* GLib's GLogLevelFlags */

/* Every function Fieldbook calls, resolved together: all of them, or libvips is not used. */
static struct {
    int (*version)(int flag);
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    void (*concurrency_set)(int concurrency);
    const char *(*find_load)(const char *filename);
    const char *(*find_load_buffer)(const void *data, size_t size);
    VipsImage *(*new_from_file)(const char *name, ...);
    VipsImage *(*new_from_buffer)(const void *buf, size_t len, const char *option_string, ...);
    int (*get_width)(const VipsImage *image);
    int (*get_height)(const VipsImage *image);
    size_t (*get_typeof)(const VipsImage *image, const char *name);
    int (*get_string)(const VipsImage *image, const char *name, const char **out);
    int (*hasalpha)(VipsImage *image);
    int (*thumbnail)(const char *filename, VipsImage **out, int width, ...);
    int (*thumbnail_buffer)(void *buf, size_t len, VipsImage **out, int width, ...);
    int (*colourspace)(VipsImage *in, VipsImage **out, int space, ...);
    void *(*array_double_new)(const double *array, int n);
    void (*area_unref)(void *area);
    int (*flatten)(VipsImage *in, VipsImage **out, ...);
    int (*cast)(VipsImage *in, VipsImage **out, int format, ...);
    int (*jpegsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    unsigned (*log_set_handler)(const char *domain, int levels,
                                void (*handler)(const char *, int, const char *, void *), void *data);
} vips;

static const FieldbookSymbol functions[] = {
#define FUNCTION(field, symbol) { symbol, offsetof(__typeof__(vips), field) }
    FUNCTION(version, "vips_version"), FUNCTION(init, "vips_init"), FUNCTION(cache_set_max, "vips_cache_set_max"),
    FUNCTION(concurrency_set, "vips_concurrency_set"), FUNCTION(find_load, "vips_foreign_find_load"),
    FUNCTION(find_load_buffer, "vips_foreign_find_load_buffer"), FUNCTION(new_from_file, "vips_image_new_from_file"),
    FUNCTION(new_from_buffer, "vips_image_new_from_buffer"), FUNCTION(get_width, "vips_image_get_width"),
    FUNCTION(get_height, "vips_image_get_height"), FUNCTION(get_typeof, "vips_image_get_typeof"),
    FUNCTION(get_string, "vips_image_get_string"), FUNCTION(hasalpha, "vips_image_hasalpha"),
    FUNCTION(thumbnail, "vips_thumbnail"), FUNCTION(thumbnail_buffer, "vips_thumbnail_buffer"),
    FUNCTION(colourspace, "vips_colourspace"), FUNCTION(array_double_new, "vips_array_double_new"),
    FUNCTION(area_unref, "vips_area_unref"), FUNCTION(flatten, "vips_flatten"), FUNCTION(cast, "vips_cast"),
    FUNCTION(jpegsave_buffer, "vips_jpegsave_buffer"), FUNCTION(error_buffer, "vips_error_buffer"),
    FUNCTION(error_clear, "vips_error_clear"), FUNCTION(object_unref, "g_object_unref"), FUNCTION(free, "g_free"),
    FUNCTION(log_set_handler, "g_log_set_handler"),
#undef FUNCTION
};

static char start_failure[512];

/* A damaged upload is refused with a message of Fieldbook's own; libvips's warnings about it are only noise in the log. */
static void drop_warning(const char *domain, int level, const char *message, void *data) {
    (void) domain; (void) level; (void) message; (void) data;
}

/* FIELDBOOK_LIBVIPS names another library (a path, or a name the loader finds) in place of the usual ones. */
static int open_libvips(void) {
#ifdef __APPLE__
    const char *names[] = {"libvips.42.dylib", "libvips.dylib"};
#else
    const char *names[] = {"libvips.so.42", "libvips.so"};
#endif
    size_t count = sizeof names / sizeof names[0];
    const char *chosen = getenv("FIELDBOOK_LIBVIPS");
    if (chosen && *chosen) { names[0] = chosen; count = 1; }
    return fieldbook_library_open(names, count, "libvips42 (libvips 8.12 or later)", functions,
                                  sizeof functions / sizeof functions[0], &vips, start_failure, sizeof start_failure) != NULL;
}

/* The `fail_on` option Fieldbook gives vips_thumbnail came with libvips 8.12; an older one would refuse every photo. */
static int is_recent_enough(void) {
    int major = vips.version(0), minor = vips.version(1);
    if (major > 8 || (major == 8 && minor >= 12)) return 1;
    snprintf(start_failure, sizeof start_failure, "libvips %d.%d is too old: libvips 8.12 or later is needed", major, minor);
    return 0;
}

/* Called once per process (PhotoProcessor's `started`). Each upload is read once, so libvips's operation cache would
   only hold memory and open files: it is turned off. */
int fieldbook_vips_start(void) {
    if (!open_libvips() || !is_recent_enough()) return -1;
    vips.log_set_handler("VIPS", LOG_LEVEL_WARNING, drop_warning, NULL);
    if (vips.init("fieldbook")) {
        snprintf(start_failure, sizeof start_failure, "libvips did not start: %s", vips.error_buffer());
        return -1;
    }
    vips.cache_set_max(0);
    vips.concurrency_set(2);
    return 0;
}

const char *fieldbook_vips_start_failure(void) { return start_failure[0] ? start_failure : NULL; }

const char *fieldbook_vips_loader(const char *path) { return vips.find_load(path); }

VipsImage *fieldbook_vips_header(const char *path) {
    return vips.new_from_file(path, "access", ACCESS_SEQUENTIAL, NULL);
}

int fieldbook_vips_width(VipsImage *image) { return vips.get_width(image); }
int fieldbook_vips_height(VipsImage *image) { return vips.get_height(image); }

int fieldbook_vips_fit_file(const char *path, int size, VipsImage **out) {
    return vips.thumbnail(path, out, size, "height", size, "size", SIZE_DOWN, "fail_on", FAIL_ON_ERROR, NULL);
}

int fieldbook_vips_fit_buffer(const void *bytes, size_t length, int size, VipsImage **out) {
    return vips.thumbnail_buffer((void *) bytes, length, out, size, "height", size, "size", SIZE_DOWN, NULL);
}

int fieldbook_vips_to_srgb(VipsImage *in, VipsImage **out) {
    VipsImage *colour = NULL, *flat = NULL;
    if (vips.colourspace(in, &colour, INTERPRETATION_SRGB, NULL)) return -1;
    if (vips.hasalpha(colour)) {
        double white[3] = {255, 255, 255};
        void *background = vips.array_double_new(white, 3);
        int failed = vips.flatten(colour, &flat, "background", background, NULL);
        vips.area_unref(background);
        vips.object_unref(colour);
        if (failed) return -1;
    } else {
        flat = colour;
    }
    int failed = vips.cast(flat, out, FORMAT_UCHAR, NULL);
    vips.object_unref(flat);
    return failed;
}

int fieldbook_vips_jpeg(VipsImage *in, int quality, void **bytes, size_t *length) {
    return vips.jpegsave_buffer(in, bytes, length, "Q", quality, "strip", 1, "optimize_coding", 1, NULL);
}

VipsImage *fieldbook_vips_buffer_header(const void *bytes, size_t length, const char **loader) {
    *loader = vips.find_load_buffer(bytes, length);
    if (!*loader) return NULL;
    return vips.new_from_buffer(bytes, length, "", "access", ACCESS_SEQUENTIAL, NULL);
}

int fieldbook_vips_has_metadata(VipsImage *image) {
    static const char *names[] = {"exif-data", "xmp-data", "iptc-data", "icc-profile-data"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (vips.get_typeof(image, names[i]) != 0) return 1;
    }
    return 0;
}

const char *fieldbook_vips_text(VipsImage *image, const char *name) {
    const char *value = NULL;
    if (vips.get_typeof(image, name) == 0) return NULL;
    if (vips.get_string(image, name, &value)) { vips.error_clear(); return NULL; }
    return value;
}

void fieldbook_vips_take_error(char *into, size_t capacity) {
    snprintf(into, capacity, "%s", vips.error_buffer());
    vips.error_clear();
}

void fieldbook_vips_release(VipsImage *image) { if (image) vips.object_unref(image); }
void fieldbook_vips_free(void *bytes) { vips.free(bytes); }
