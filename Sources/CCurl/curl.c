#include "CCurl.h"

#include <CLibraryLoader.h>
#include <stdio.h>

static FieldbookCurl functions;
static char failure[512];

static const FieldbookSymbol symbols[] = {
#define FIELDBOOK_CURL_SYMBOL(field, function) {#function, offsetof(FieldbookCurl, field)},
    FIELDBOOK_CURL_FUNCTIONS(FIELDBOOK_CURL_SYMBOL)
#undef FIELDBOOK_CURL_SYMBOL
};

/* Called once per process: CurlTransfer.swift keeps the answer in a `static let`, as PhotoProcessor does libvips's. */
const FieldbookCurl *fieldbook_curl_open(void) {
#ifdef __APPLE__
    const char *names[] = {"libcurl.4.dylib"};
#else
    const char *names[] = {"libcurl.so.4"};
#endif
    if (!fieldbook_library_open(names, 1, "libcurl4", symbols, sizeof symbols / sizeof symbols[0], &functions, failure,
                                sizeof failure)) {
        return NULL;
    }
    CURLcode code = functions.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl did not start: %s", functions.easy_strerror(code));
        return NULL;
    }
    return &functions;
}

const char *fieldbook_curl_failure(void) { return failure[0] ? failure : NULL; }

CURLcode fieldbook_curl_set_long(CURL *handle, CURLoption option, long value) {
    return functions.easy_setopt(handle, option, value);
}

CURLcode fieldbook_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return functions.easy_setopt(handle, option, value);
}

CURLcode fieldbook_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return functions.easy_setopt(handle, option, value);
}

CURLcode fieldbook_curl_set_blob(CURL *handle, CURLoption option, const void *bytes, size_t count) {
    struct curl_blob blob = {.data = (void *)bytes, .len = count, .flags = CURL_BLOB_COPY};
    return functions.easy_setopt(handle, option, &blob);
}

CURLcode fieldbook_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return functions.easy_setopt(handle, option, value);
}

CURLcode fieldbook_curl_set_write(CURL *handle, fieldbook_curl_write_callback callback) {
    return functions.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

long fieldbook_curl_response_code(CURL *handle) {
    long code = 0;
    functions.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
