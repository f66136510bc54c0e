#ifndef CLIBEVENTTLS_SHIM_H
#define CLIBEVENTTLS_SHIM_H

/* First, for the same reason as in CLibevent's shim (glibc feature selection). */
#include <sys/types.h>

#include <event2/event.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* SSL_set_tlsext_host_name is a macro; Swift cannot call it. Sets SNI. */
static inline int stubd_ssl_set_sni(SSL *ssl, const char *host) {
    return (int)SSL_set_tlsext_host_name(ssl, host);
}

/* SSL_CTX_set_min_proto_version is a macro too. */
static inline int stubd_ssl_ctx_min_tls12(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

#endif
