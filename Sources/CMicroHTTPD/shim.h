/* Fieldbook's only C: non-variadic wrappers Swift can call (Swift does not import variadic C). */
#ifndef FIELDBOOK_MHD_SHIM_H
#define FIELDBOOK_MHD_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* Settings for fb_start_daemon. With TLS, the certificate comes from tls_certificate_callback at each handshake (a
 * gnutls_certificate_retrieve_function2, CServerTLS's), so that it can be replaced while the daemon runs;
 * tls_priorities is GnuTLS's priority string. */
struct fb_daemon_settings {
    const char *host;
    uint16_t port;
    unsigned int thread_pool_size;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    size_t connection_memory_limit;
    void *tls_certificate_callback;
    const char *tls_priorities;
};

/* Starts a daemon bound to host:port (IPv4 or IPv6 literal), epoll with an internal thread pool. */
static inline struct MHD_Daemon *fb_start_daemon(const struct fb_daemon_settings *s,
                                                 MHD_AccessHandlerCallback handler, void *handler_cls,
                                                 MHD_RequestCompletedCallback completed, void *completed_cls,
                                                 MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                 int *error_out) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *addr = NULL;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG
                         | MHD_ALLOW_SUSPEND_RESUME; /* streaming responses park their connection */
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, s->host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(s->port);
        addr = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, s->host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(s->port);
        addr = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *error_out = 1; /* not an address literal */
        return NULL;
    }
    if (s->tls_certificate_callback) flags |= MHD_USE_TLS;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *)addr },
        { MHD_OPTION_THREAD_POOL_SIZE, s->thread_pool_size, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, s->connection_timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, s->connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->per_ip_connection_limit, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)s->connection_memory_limit, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_cls },
        { MHD_OPTION_HTTPS_CERT_CALLBACK, 0, s->tls_certificate_callback },
        { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)s->tls_priorities },
        { MHD_OPTION_END, 0, NULL },
    };
    if (!(flags & MHD_USE_TLS)) options[8].option = MHD_OPTION_END;
    *error_out = 0;
    return MHD_start_daemon(flags, s->port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon listens on (useful after binding port 0). */
static inline uint16_t fb_daemon_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The daemon's listening socket. */
static inline int fb_daemon_listen_socket(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
    return info ? info->listen_fd : -1;
}

/* Connections currently open on the daemon, for draining before shutdown. */
static inline unsigned int fb_daemon_connections(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/* The connection's socket, or -1 when unknown. */
static inline int fb_connection_socket(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The client's address as text ("" when unknown). */
static inline void fb_client_address(struct MHD_Connection *c, char *out, size_t out_len) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)out_len);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)out_len);
    }
}

#endif
