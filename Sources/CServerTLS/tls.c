#include "CServerTLS.h"

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The most certificates read from one chain file: a server certificate and its intermediates. */
#define FB_TLS_CHAIN_LIMIT 8
/* Daemons serving TLS in one process at once (tests start several). */
#define FB_TLS_SLOTS 32

struct fb_tls_identity {
    gnutls_pcert_st certificates[FB_TLS_CHAIN_LIMIT];
    unsigned int count;
    gnutls_privkey_t key;
    /* Identities this one replaced: a handshake in flight may still use them, so they are freed with the daemon. */
    struct fb_tls_identity *replaced;
};

struct fb_tls_slot {
    int listen_fd;
    fb_tls_identity *identity;
};

static struct fb_tls_slot slots[FB_TLS_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static void free_chain(fb_tls_identity *identity) {
    while (identity) {
        fb_tls_identity *next = identity->replaced;
        for (unsigned int i = 0; i < identity->count; i++) gnutls_pcert_deinit(&identity->certificates[i]);
        if (identity->key) gnutls_privkey_deinit(identity->key);
        free(identity);
        identity = next;
    }
}

int fb_tls_identity_load(const char *chain_pem, const char *key_pem, fb_tls_identity **out) {
    *out = NULL;
    fb_tls_identity *identity = calloc(1, sizeof *identity);
    if (!identity) return GNUTLS_E_MEMORY_ERROR;
    gnutls_datum_t chain = { (unsigned char *)chain_pem, (unsigned int)strlen(chain_pem) };
    gnutls_datum_t key = { (unsigned char *)key_pem, (unsigned int)strlen(key_pem) };
    identity->count = FB_TLS_CHAIN_LIMIT;
    int result = gnutls_pcert_list_import_x509_raw(identity->certificates, &identity->count, &chain,
                                                   GNUTLS_X509_FMT_PEM, 0);
    if (result < 0) {
        identity->count = 0;
        free_chain(identity);
        return result;
    }
    if ((result = gnutls_privkey_init(&identity->key)) < 0
        || (result = gnutls_privkey_import_x509_raw(identity->key, &key, GNUTLS_X509_FMT_PEM, NULL, 0)) < 0) {
        free_chain(identity);
        return result;
    }
    *out = identity;
    return 0;
}

void fb_tls_identity_free(fb_tls_identity *identity) { free_chain(identity); }

const char *fb_tls_error_text(int code) { return gnutls_strerror(code); }

int fb_tls_present(int listen_fd, fb_tls_identity *identity) {
    int result = -1;
    pthread_mutex_lock(&slots_lock);
    struct fb_tls_slot *free_slot = NULL;
    for (int i = 0; i < FB_TLS_SLOTS; i++) {
        if (slots[i].identity && slots[i].listen_fd == listen_fd) {
            identity->replaced = slots[i].identity;
            slots[i].identity = identity;
            result = 0;
            break;
        }
        if (!slots[i].identity && !free_slot) free_slot = &slots[i];
    }
    if (result != 0 && free_slot) {
        free_slot->listen_fd = listen_fd;
        free_slot->identity = identity;
        result = 0;
    }
    pthread_mutex_unlock(&slots_lock);
    return result;
}

void fb_tls_forget(int listen_fd) {
    fb_tls_identity *gone = NULL;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < FB_TLS_SLOTS; i++) {
        if (slots[i].identity && slots[i].listen_fd == listen_fd) {
            gone = slots[i].identity;
            slots[i].identity = NULL;
            break;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    free_chain(gone);
}

/* The daemon a handshake belongs to is found from its session: libmicrohttpd keeps the connection there, and every
 * thread of a daemon's pool shares its listening socket. */
static int retrieve_certificate(gnutls_session_t session, const gnutls_datum_t *req_ca_rdn, int nreqs,
                                const gnutls_pk_algorithm_t *pk_algos, int pk_algos_length, gnutls_pcert_st **pcert,
                                unsigned int *pcert_length, gnutls_privkey_t *privkey) {
    (void)req_ca_rdn; (void)nreqs; (void)pk_algos; (void)pk_algos_length;
    struct MHD_Connection *connection = gnutls_session_get_ptr(session);
    if (!connection) return -1;
    const union MHD_ConnectionInfo *owner = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    if (!owner || !owner->daemon) return -1;
    const union MHD_DaemonInfo *listening = MHD_get_daemon_info(owner->daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (!listening) return -1;
    int result = -1;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < FB_TLS_SLOTS; i++) {
        if (slots[i].identity && slots[i].listen_fd == listening->listen_fd) {
            *pcert = slots[i].identity->certificates;
            *pcert_length = slots[i].identity->count;
            *privkey = slots[i].identity->key;
            result = 0;
            break;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return result;
}

void *fb_tls_certificate_callback(void) { return (void *)&retrieve_certificate; }
