#ifndef STUBD_EVENT_H
#define STUBD_EVENT_H

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

#endif
