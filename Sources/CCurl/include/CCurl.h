/* libcurl, for a node's requests to its hub (Sources/Sync/CurlTransfer.swift is the one Swift file that calls it).

   libcurl is opened with the first request to a hub, not linked: with the libraries it brings (SSH, RTMP, LDAP,
   Kerberos, HTTP/2, brotli...) it was loaded, relocated and held resident by every server, standalone ones included,
   which never send a request (issue 15). curl.h still gives the types, the options and each function's signature.

   curl_easy_setopt and curl_easy_getinfo take variable arguments, which Swift cannot call: each use has a typed
   function here. */
#ifndef FIELDBOOK_CURL_H
#define FIELDBOOK_CURL_H

#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
#else
#error "libcurl's header curl/curl.h is missing: install libcurl4-openssl-dev (scripts/install-deps.sh does)"
#endif

/* Every libcurl function Fieldbook calls: the table's field, and the function. */
#define FIELDBOOK_CURL_FUNCTIONS(F) \
    F(global_init, curl_global_init) F(easy_init, curl_easy_init) F(easy_setopt, curl_easy_setopt) \
    F(easy_getinfo, curl_easy_getinfo) F(easy_perform, curl_easy_perform) F(easy_reset, curl_easy_reset) \
    F(easy_cleanup, curl_easy_cleanup) F(easy_strerror, curl_easy_strerror) F(slist_append, curl_slist_append) \
    F(slist_free_all, curl_slist_free_all)

#define FIELDBOOK_CURL_FIELD(field, function) __typeof__(function) *_Nonnull field;
typedef struct {
    FIELDBOOK_CURL_FUNCTIONS(FIELDBOOK_CURL_FIELD)
} FieldbookCurl;
#undef FIELDBOOK_CURL_FIELD

/* Opens libcurl and initializes it (the options of a default build, TLS included), to be called once per process: its
   functions, or NULL with the reason in `fieldbook_curl_failure`. */
const FieldbookCurl *_Nullable fieldbook_curl_open(void);
const char *_Nullable fieldbook_curl_failure(void);

/* The typed forms of the variadic calls; only after `fieldbook_curl_open` succeeded. */
typedef size_t (*fieldbook_curl_write_callback)(char *_Nullable data, size_t size, size_t count, void *_Nullable context);
CURLcode fieldbook_curl_set_long(CURL *_Nonnull handle, CURLoption option, long value);
CURLcode fieldbook_curl_set_string(CURL *_Nonnull handle, CURLoption option, const char *_Nullable value);
CURLcode fieldbook_curl_set_pointer(CURL *_Nonnull handle, CURLoption option, const void *_Nullable value);
/* libcurl copies the bytes (CURL_BLOB_COPY): they need not outlive the call. */
CURLcode fieldbook_curl_set_blob(CURL *_Nonnull handle, CURLoption option, const void *_Nonnull bytes, size_t count);
CURLcode fieldbook_curl_set_size(CURL *_Nonnull handle, CURLoption option, curl_off_t value);
CURLcode fieldbook_curl_set_write(CURL *_Nonnull handle, fieldbook_curl_write_callback _Nonnull callback);
long fieldbook_curl_response_code(CURL *_Nonnull handle);

#endif
