/* The design's limit: a minimal libevent evhttp server answering every request with the same
 * 119-byte JSON body, one event loop, made with stubd's event configuration. Given a certificate
 * and key it serves HTTPS instead, its connections made by libevent's OpenSSL bufferevents as
 * stubd's are, with head and body joined into one TLS record as stubd joins them. stubd's
 * benchmark compares itself with both.
 * Build: cc -O2 -o baseline baseline.c $(pkg-config --cflags --libs libevent_openssl openssl)
 * Run:   ./baseline PORT [CERT.pem KEY.pem] */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static const char body[] =
    "{\"login\":\"octocat\",\"id\":583231,\"name\":\"The Octocat\",\"company\":\"@github\","
    "\"location\":\"San Francisco\",\"public_repos\":8888}";

static int tls;

static void on_request(struct evhttp_request *req, void *arg) {
    (void)arg;
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", "application/json");
    evbuffer_add_reference(evhttp_request_get_output_buffer(req), body, sizeof body - 1, NULL, NULL);
    evhttp_send_reply(req, 200, "OK", NULL);
    if (!tls) return;
    struct evbuffer *output = bufferevent_get_output(evhttp_connection_get_bufferevent(evhttp_request_get_connection(req)));
    if (evbuffer_get_length(output) <= 16384) evbuffer_pullup(output, -1);
}

static struct bufferevent *on_connection(struct event_base *base, void *arg) {
    SSL *ssl = SSL_new(arg);
    struct bufferevent *bev = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
    if (bev) bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    return bev;
}

static void on_signal(evutil_socket_t fd, short events, void *arg) {
    (void)fd;
    (void)events;
    event_base_loopbreak(arg);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 18200;
    tls = argc > 3;
    signal(SIGPIPE, SIG_IGN);
    SSL_CTX *context = NULL;
    if (tls) {
        context = SSL_CTX_new(TLS_server_method());
        SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
        if (SSL_CTX_use_certificate_chain_file(context, argv[2]) != 1 || SSL_CTX_use_PrivateKey_file(context, argv[3], SSL_FILETYPE_PEM) != 1) {
            ERR_print_errors_fp(stderr);
            return 1;
        }
    }
    /* The event configuration stubd's loops use: the epoll change list (one epoll_ctl per fd per
     * loop turn) and the precise timer. */
    struct event_config *config = event_config_new();
    event_config_set_flag(config, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
    struct event_base *base = event_base_new_with_config(config);
    event_config_free(config);
    struct evhttp *http = base ? evhttp_new(base) : NULL;
    if (!base || !http) return 1;
    evhttp_set_timeout(http, 30);
    evhttp_set_default_content_type(http, NULL);
    if (tls) evhttp_set_bevcb(http, on_connection, context);
    evhttp_set_gencb(http, on_request, NULL);
    if (!evhttp_bind_socket_with_handle(http, "127.0.0.1", port)) {
        fprintf(stderr, "baseline: cannot bind 127.0.0.1:%d\n", port);
        return 1;
    }
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    struct event *intr = evsignal_new(base, SIGINT, on_signal, base);
    event_add(term, NULL);
    event_add(intr, NULL);
    printf("baseline: serving on %s://127.0.0.1:%d\n", tls ? "https" : "http", port);
    fflush(stdout);
    event_base_dispatch(base);
    event_free(term);
    event_free(intr);
    evhttp_free(http);
    event_base_free(base);
    if (context) SSL_CTX_free(context);
    return 0;
}
