/* zlib for gzip-compressed responses and ZIP archives; deflateInit2 and inflateInit2 are macros, so they are wrapped in
   functions Swift can call. */
#ifndef FIELDBOOK_ZLIB_SHIM_H
#define FIELDBOOK_ZLIB_SHIM_H

#include <zlib.h>

/* A deflate stream writing the gzip format (window bits 15 + 16) at `level`. */
static inline int fieldbook_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/* A raw deflate stream (no header or trailer: window bits -15), for pieces compressed apart and joined into one gzip member. */
static inline int fieldbook_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

/* A raw inflate stream (window bits -15): a ZIP archive's deflated members. */
static inline int fieldbook_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

#endif
