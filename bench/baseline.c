/* The design's limit: a minimal libevent evhttp server answering every request with the same
 * 119-byte JSON body, one event loop. stubd's benchmark compares itself with this.
 * Build: cc -O2 -o baseline baseline.c -levent ; run: ./baseline PORT */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char body[] =
    "{\"login\":\"octocat\",\"id\":583231,\"name\":\"The Octocat\",\"company\":\"@github\","
    "\"location\":\"San Francisco\",\"public_repos\":8888}";

static void on_request(struct evhttp_request *req, void *arg) {
    (void)arg;
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", "application/json");
    evbuffer_add_reference(evhttp_request_get_output_buffer(req), body, sizeof body - 1, NULL, NULL);
    evhttp_send_reply(req, 200, "OK", NULL);
}

static void on_signal(evutil_socket_t fd, short events, void *arg) {
    (void)fd;
    (void)events;
    event_base_loopbreak(arg);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 18200;
    signal(SIGPIPE, SIG_IGN);
    /* The event configuration stubd's loops use: the epoll change list (one epoll_ctl per fd per
     * loop turn) and the precise timer. */
    struct event_config *config = event_config_new();
    event_config_set_flag(config, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
    struct event_base *base = event_base_new_with_config(config);
    event_config_free(config);
    struct evhttp *http = evhttp_new(base);
    if (!base || !http) return 1;
    evhttp_set_timeout(http, 30);
    evhttp_set_default_content_type(http, NULL);
    evhttp_set_gencb(http, on_request, NULL);
    if (!evhttp_bind_socket_with_handle(http, "127.0.0.1", port)) {
        fprintf(stderr, "baseline: cannot bind 127.0.0.1:%d\n", port);
        return 1;
    }
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    struct event *intr = evsignal_new(base, SIGINT, on_signal, base);
    event_add(term, NULL);
    event_add(intr, NULL);
    printf("baseline: serving on http://127.0.0.1:%d\n", port);
    fflush(stdout);
    event_base_dispatch(base);
    event_free(term);
    event_free(intr);
    evhttp_free(http);
    event_base_free(base);
    return 0;
}
