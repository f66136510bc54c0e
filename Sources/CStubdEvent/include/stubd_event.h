#ifndef STUBD_EVENT_H
#define STUBD_EVENT_H

#include <stddef.h>

/* libevent calls that need its request struct (event2/http_struct.h), kept out of Swift: with that
   header in CLibevent, every evhttp_request pointer would import as a typed pointer instead of the
   OpaquePointer the engine uses. Only StubdEngine depends on this module. */
struct evhttp_request;

/* A request in the absolute form (`GET http://host/path`, what a proxy is sent) is flagged by
   libevent as a proxy request, and then kept alive only with `Proxy-Connection: keep-alive` in the
   request and in the reply: it closed every such connection after one answer without saying
   `Connection: close`. Clearing the flag keeps the connection as HTTP/1.1 says (alive unless
   `Connection: close`). */
void stubd_request_keep_alive_as_http11(struct evhttp_request *req);

/* Sends `code` with the headers already on `req`, `body` as one chunk and `trailers` ("Name:
   value\r\n" lines) as the chunked body's trailer section (RFC 9112 §7.1.2): libevent ends a
   chunked reply with "0\r\n\r\n" itself and has no way to add fields there. Returns 0, having
   sent nothing, when the request is not HTTP/1.1 (HTTP/1.0 has no chunks). */
int stubd_send_reply_with_trailers(struct evhttp_request *req, int code, const void *body, size_t length, const char *trailers);

#endif
