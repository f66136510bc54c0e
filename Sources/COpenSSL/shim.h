#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* OpenSSL for the local CA (StubdCertificates): keys, certificates, PEM and DER. */
#include <sys/types.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#endif
