/* The server's TLS identity (certificate chain and private key) as GnuTLS holds it, replaceable while the daemon
 * runs: libmicrohttpd asks for it at each handshake through fb_tls_certificate_callback, so a renewed certificate is
 * presented from the next connection on without restarting the listener. */
#ifndef FIELDBOOK_SERVER_TLS_H
#define FIELDBOOK_SERVER_TLS_H

typedef struct fb_tls_identity fb_tls_identity;

/* Reads a PEM certificate chain (the server's first) and its PEM private key. Returns 0, or a GnuTLS error code
 * (negative) that fb_tls_error_text describes. */
int fb_tls_identity_load(const char *chain_pem, const char *key_pem, fb_tls_identity **out);

void fb_tls_identity_free(fb_tls_identity *identity);

const char *fb_tls_error_text(int code);

/* Presents identity on the daemon listening on listen_fd from the next handshake on, and takes it over. Returns 0, or
 * -1 when every slot is taken. */
int fb_tls_present(int listen_fd, fb_tls_identity *identity);

/* Frees what was presented on listen_fd; called once its daemon has stopped, before the socket is closed. */
void fb_tls_forget(int listen_fd);

/* The gnutls_certificate_retrieve_function2 for MHD_OPTION_HTTPS_CERT_CALLBACK. */
void *fb_tls_certificate_callback(void);

#endif
