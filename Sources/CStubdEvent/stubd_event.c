/* libevent helpers for StubdEngine that need libevent's public request struct; see include/stubd_event.h. */
#include <sys/types.h>

#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/http_struct.h>

#include "stubd_event.h"

void stubd_request_keep_alive_as_http11(struct evhttp_request *req) {
    req->flags &= ~EVHTTP_PROXY_REQUEST;
}

int stubd_send_reply_with_trailers(struct evhttp_request *req, int code, const void *body, size_t length, const char *trailers) {
    if (req->major != 1 || req->minor < 1) return 0;
    evhttp_send_reply_start(req, code, NULL);
    struct evhttp_connection *connection = evhttp_request_get_connection(req);
    if (length > 0) {
        struct evbuffer *chunk = evbuffer_new();
        if (chunk != NULL) {
            evbuffer_add(chunk, body, length);
            evhttp_send_reply_chunk(req, chunk);
            evbuffer_free(chunk);
        }
    }
    if (connection != NULL && req->chunked) {
        /* The last chunk with the trailer section in place of libevent's bare "0\r\n\r\n". */
        struct evbuffer *output = bufferevent_get_output(evhttp_connection_get_bufferevent(connection));
        evbuffer_add(output, "0\r\n", 3);
        evbuffer_add(output, trailers, strlen(trailers));
        evbuffer_add(output, "\r\n", 2);
        req->chunked = 0;
    }
    evhttp_send_reply_end(req);
    return 1;
}
