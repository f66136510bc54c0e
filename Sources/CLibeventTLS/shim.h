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

/* Helpers for OpenSSL macros Swift cannot call live in the CStubdTLS C target. */

#endif
