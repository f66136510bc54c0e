#ifndef STUBD_TLS_H
#define STUBD_TLS_H

/* OpenSSL calls Swift cannot make itself (macros, a variadic function, a multi-step certificate
   build), as plain functions. OpenSSL's types are only named here, never defined, so this header
   needs no OpenSSL include path: Swift sees them as opaque pointers, the same ones COpenSSL and
   CLibeventTLS hand out. */

struct ssl_st;
struct ssl_ctx_st;
struct x509_st;
struct evp_pkey_st;
struct bio_st;

/* SSL_set_tlsext_host_name (a macro): sets SNI. 1 on success. */
int stubd_ssl_set_sni(struct ssl_st *ssl, const char *host);

/* SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) (a macro). 1 on success. */
int stubd_ssl_ctx_min_tls12(struct ssl_ctx_st *ctx);

/* The server side of ALPN: picks "h2" when the client offers it and offer_h2 is not 0, else
   "http/1.1" when the client offers that; a client offering neither gets no ALPN answer (and
   speaks HTTP/1.1, as before ALPN). */
void stubd_ssl_ctx_set_alpn(struct ssl_ctx_st *ctx, int offer_h2);

/* A new P-256 key (EVP_PKEY_Q_keygen is variadic). NULL on failure. */
struct evp_pkey_st *stubd_new_ec_key(void);

/* BIO_get_mem_data (a macro): the bytes a memory BIO holds. */
long stubd_bio_data(struct bio_st *bio, char **data);

/* The text OpenSSL gives for an error code ("error:0A000086:SSL routines::certificate verify
   failed"), or "no detail" for 0; in a buffer of the calling thread's, valid until its next call. */
const char *stubd_ssl_error_text(unsigned long code);

/* The same for the oldest error on this thread's OpenSSL error queue (taken off it). */
const char *stubd_ssl_last_error_text(void);

/* 1 when `cert` is still valid `seconds` from now (its notAfter is later), else 0. */
int stubd_certificate_valid_for(struct x509_st *cert, long seconds);

/* A certificate for `key`, named `commonName`, valid from an hour ago for `validDays`: a CA
   (self-signed when `issuer` is NULL) or a TLS server certificate for `subjectAltNames`
   ("DNS:localhost,IP:127.0.0.1") signed by `issuer`/`issuerKey`. NULL on failure. */
struct x509_st *stubd_make_certificate(struct evp_pkey_st *key, const char *commonName, struct x509_st *issuer,
                                       struct evp_pkey_st *issuerKey, int isCA, long validDays, const char *subjectAltNames);

/* A server context for the certificate and key in these PEM bytes (TLS 1.2 or later): an
   intercepting proxy's leaf for one host, made in memory. NULL on failure. */
struct ssl_ctx_st *stubd_ssl_ctx_from_pem(const char *certificate, long certificateLength, const char *key, long keyLength);

/* Picks the context a TLS connection on `fd` continues with, from the name the client sent
   (NULL without SNI), handing over one reference to it (released once the connection holds its
   own); NULL refuses the handshake. */
typedef struct ssl_ctx_st *(*stubd_context_chooser)(int fd, const char *servername, void *arg);

/* Calls `choose` during each ClientHello on `ctx` (OpenSSL's servername callback, which runs with
   or without SNI) and switches the connection to the context it returns. */
int stubd_ssl_ctx_set_chooser(struct ssl_ctx_st *ctx, stubd_context_chooser choose, void *arg);

#endif
