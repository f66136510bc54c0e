/* OpenSSL helpers for StubdCertificates and the engine; see include/stubd_tls.h. */
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "stubd_tls.h"

int stubd_ssl_set_sni(SSL *ssl, const char *host) {
    return (int)SSL_set_tlsext_host_name(ssl, host);
}

int stubd_ssl_ctx_min_tls12(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

static const unsigned char alpn_h2_h1[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
static const unsigned char alpn_h1[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

static int stubd_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in, unsigned int inlen,
                             void *arg) {
    (void)ssl;
    const unsigned char *prefs = arg ? alpn_h2_h1 : alpn_h1;
    unsigned int prefs_length = arg ? sizeof alpn_h2_h1 : sizeof alpn_h1;
    if (SSL_select_next_proto((unsigned char **)out, outlen, prefs, prefs_length, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    return SSL_TLSEXT_ERR_OK;
}

void stubd_ssl_ctx_set_alpn(SSL_CTX *ctx, int offer_h2) {
    SSL_CTX_set_alpn_select_cb(ctx, stubd_alpn_select, offer_h2 ? (void *)1 : NULL);
}

EVP_PKEY *stubd_new_ec_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

long stubd_bio_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

const char *stubd_ssl_error_text(unsigned long code) {
    static _Thread_local char buffer[256];
    if (code == 0) return "no detail";
    ERR_error_string_n(code, buffer, sizeof buffer);
    return buffer;
}

const char *stubd_ssl_last_error_text(void) {
    return stubd_ssl_error_text(ERR_get_error());
}

int stubd_certificate_valid_for(X509 *cert, long seconds) {
    time_t when = time(NULL) + seconds;
    return X509_cmp_time(X509_get0_notAfter(cert), &when) > 0;
}

static int stubd_add_extension(X509 *cert, X509V3_CTX *ctx, int nid, const char *value) {
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, ctx, nid, value);
    if (extension == NULL) return 0;
    int ok = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

/* A certificate for `key`, named `commonName`, valid from an hour ago for `validDays`: a CA
   (self-signed when `issuer` is NULL) or a TLS server certificate for `subjectAltNames`
   ("DNS:localhost,IP:127.0.0.1") signed by `issuer`/`issuerKey`. NULL on failure. */
X509 *stubd_make_certificate(EVP_PKEY *key, const char *commonName, X509 *issuer, EVP_PKEY *issuerKey,
                             int isCA, long validDays, const char *subjectAltNames) {
    X509 *cert = X509_new();
    if (cert == NULL) return NULL;
    unsigned char serial[16];
    BIGNUM *number = NULL;
    int ok = X509_set_version(cert, 2) && RAND_bytes(serial, sizeof serial) == 1;
    if (ok) { serial[0] &= 0x7F; number = BN_bin2bn(serial, sizeof serial, NULL); ok = number != NULL; }
    if (ok) ok = BN_to_ASN1_INTEGER(number, X509_get_serialNumber(cert)) != NULL;
    BN_free(number);
    ok = ok && X509_gmtime_adj(X509_getm_notBefore(cert), -3600) != NULL
            && X509_gmtime_adj(X509_getm_notAfter(cert), validDays * 86400L) != NULL
            && X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    ok = ok && X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)"stubd", -1, -1, 0)
            && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)commonName, -1, -1, 0)
            && X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer ? issuer : cert, cert, NULL, NULL, 0);
    if (isCA) {
        ok = ok && stubd_add_extension(cert, &ctx, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
                && stubd_add_extension(cert, &ctx, NID_key_usage, "critical,keyCertSign,cRLSign")
                && stubd_add_extension(cert, &ctx, NID_subject_key_identifier, "hash");
    } else {
        ok = ok && stubd_add_extension(cert, &ctx, NID_basic_constraints, "critical,CA:FALSE")
                && stubd_add_extension(cert, &ctx, NID_key_usage, "critical,digitalSignature")
                && stubd_add_extension(cert, &ctx, NID_ext_key_usage, "serverAuth")
                && stubd_add_extension(cert, &ctx, NID_subject_key_identifier, "hash")
                && stubd_add_extension(cert, &ctx, NID_authority_key_identifier, "keyid:always")
                && stubd_add_extension(cert, &ctx, NID_subject_alt_name, subjectAltNames);
    }
    ok = ok && X509_sign(cert, issuerKey ? issuerKey : key, EVP_sha256()) > 0;
    if (!ok) { X509_free(cert); return NULL; }
    return cert;
}

SSL_CTX *stubd_ssl_ctx_from_pem(const char *certificate, long certificateLength, const char *key, long keyLength) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    BIO *certificateBIO = BIO_new_mem_buf(certificate, (int)certificateLength);
    BIO *keyBIO = BIO_new_mem_buf(key, (int)keyLength);
    X509 *x509 = certificateBIO ? PEM_read_bio_X509(certificateBIO, NULL, NULL, NULL) : NULL;
    EVP_PKEY *pkey = keyBIO ? PEM_read_bio_PrivateKey(keyBIO, NULL, NULL, NULL) : NULL;
    int ok = x509 && pkey && SSL_CTX_use_certificate(ctx, x509) == 1 && SSL_CTX_use_PrivateKey(ctx, pkey) == 1
        && SSL_CTX_check_private_key(ctx) == 1;
    X509_free(x509);
    EVP_PKEY_free(pkey);
    BIO_free(certificateBIO);
    BIO_free(keyBIO);
    if (!ok) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

struct stubd_chooser {
    stubd_context_chooser choose;
    void *arg;
};

static int stubd_servername(SSL *ssl, int *alert, void *arg) {
    (void)alert;
    struct stubd_chooser *chooser = arg;
    SSL_CTX *chosen = chooser->choose(SSL_get_fd(ssl), SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name), chooser->arg);
    if (!chosen) return SSL_TLSEXT_ERR_ALERT_FATAL;
    SSL_set_SSL_CTX(ssl, chosen);
    /* The chooser handed over a reference; the connection holds its own now. */
    SSL_CTX_free(chosen);
    return SSL_TLSEXT_ERR_OK;
}

int stubd_ssl_ctx_set_chooser(SSL_CTX *ctx, stubd_context_chooser choose, void *arg) {
    struct stubd_chooser *chooser = OPENSSL_malloc(sizeof *chooser);
    if (!chooser) return 0;
    chooser->choose = choose;
    chooser->arg = arg;
    /* Lives as long as the context, which lives as long as the engine's interception front. */
    SSL_CTX_set_tlsext_servername_arg(ctx, chooser);
    return (int)SSL_CTX_set_tlsext_servername_callback(ctx, stubd_servername);
}
