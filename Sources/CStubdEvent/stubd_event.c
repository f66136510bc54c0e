/* libevent helpers for StubdEngine that need libevent's public request struct; see include/stubd_event.h. */
#include <sys/types.h>

#include <event2/http.h>
#include <event2/http_struct.h>

#include "stubd_event.h"

void stubd_request_keep_alive_as_http11(struct evhttp_request *req) {
    req->flags &= ~EVHTTP_PROXY_REQUEST;
}
