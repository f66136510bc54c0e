#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H

/* Must come first: Debian's event2/event-config.h defines _GNU_SOURCE. A system header
 * included before it fixes glibc's feature selection (glibc's headers start with its feature
 * header), which keeps every libc type in this module identical to SwiftGlibc's (otherwise
 * clean debug builds fail with fd_set merge errors). <sys/types.h> exists on macOS too. */
#include <sys/types.h>

#include <event2/event.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <event2/util.h>
#include <event2/dns.h>

/* evutil_socket_t is a #define on POSIX, invisible to Swift; give it a name. */
typedef evutil_socket_t clev_socket_t;

/* evtimer_new is a macro; Swift cannot call it. */
static inline struct event *clev_timer_new(struct event_base *base, event_callback_fn cb, void *arg) {
    return event_new(base, -1, 0, cb, arg);
}

#endif
