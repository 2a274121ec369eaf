/* libcurl, for the node's requests to its hub (Sources/Sync/CurlTransfer.swift is the one Swift file that calls it).
   curl_easy_setopt and curl_easy_getinfo take variable arguments, which Swift cannot call: each use has a typed
   function here. */
#ifndef FIELDBOOK_CURL_SHIM_H
#define FIELDBOOK_CURL_SHIM_H

#include <curl/curl.h>

/* Once, before any handle: the options of a default build (TLS included). */
static inline CURLcode fieldbook_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

typedef size_t (*fieldbook_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode fieldbook_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fieldbook_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fieldbook_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fieldbook_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fieldbook_curl_set_write(CURL *handle, fieldbook_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline long fieldbook_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
