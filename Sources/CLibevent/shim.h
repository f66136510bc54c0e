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
#include <stdlib.h>
#include <string.h>

/* evutil_socket_t is a #define on POSIX, invisible to Swift; give it a name. */
typedef evutil_socket_t clev_socket_t;

/* The event-base flags every stubd loop is made with, as one int (C enum constants import into
   Swift as different types on different systems): the precise timer (libevent 2.1 on Linux
   times events with CLOCK_MONOTONIC_COARSE otherwise, whose ticks let a 0.2 s delay end ~3 ms
   early) and, with epoll, the change list (one epoll_ctl per descriptor per loop turn; no
   descriptor in a loop is a dup of another in it). Other backends ignore the second. */
static inline int clev_loop_flags(void) {
    return EVENT_BASE_FLAG_PRECISE_TIMER | EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST;
}

/* evtimer_new is a macro; Swift cannot call it. */
static inline struct event *clev_timer_new(struct event_base *base, event_callback_fn cb, void *arg) {
    return event_new(base, -1, 0, cb, arg);
}

/* Appends one entry to an evhttp header list without evhttp_add_header's value check, so the
   value may carry further header lines ("text/plain\r\nX-Other: 1"): evhttp writes each entry as
   "key: value\r\n", so a reply's constant headers go out as one entry — one allocation pair and
   one printf instead of one of each per header. Only for lines stubd has checked itself, and
   never for names evhttp looks up (Date, Content-Length, Connection, Proxy-Connection). evhttp
   frees the entry with the list (libevent's default allocator is malloc). 0, or -1 out of memory. */
static inline int clev_append_header_lines(struct evkeyvalq *headers, const char *key, const char *value) {
    struct evkeyval *entry = calloc(1, sizeof(struct evkeyval));
    if (entry == NULL) return -1;
    entry->key = strdup(key);
    entry->value = strdup(value);
    if (entry->key == NULL || entry->value == NULL) {
        free(entry->key);
        free(entry->value);
        free(entry);
        return -1;
    }
    entry->next.tqe_next = NULL;
    entry->next.tqe_prev = headers->tqh_last;
    *headers->tqh_last = entry;
    headers->tqh_last = &entry->next.tqe_next;
    return 0;
}

#endif
