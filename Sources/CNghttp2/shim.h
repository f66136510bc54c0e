#ifndef CNGHTTP2_SHIM_H
#define CNGHTTP2_SHIM_H

/* As in CLibevent's shim: a system header first, so glibc's feature selection is the one
 * SwiftGlibc sees. */
#include <sys/types.h>

#include <nghttp2/nghttp2.h>

/* nghttp2's error and flag constants are enum members whose imported types differ between
 * systems; the ones stubd passes back to nghttp2, as plain ints. */
static inline int cngh2_err_deferred(void) { return NGHTTP2_ERR_DEFERRED; }
static inline int cngh2_err_callback_failure(void) { return NGHTTP2_ERR_CALLBACK_FAILURE; }
static inline int cngh2_err_temporal_callback_failure(void) { return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; }
static inline int cngh2_err_pause(void) { return NGHTTP2_ERR_PAUSE; }

#endif
