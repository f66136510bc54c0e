/* Opens COUNT connections to 127.0.0.1:PORT, sends one "GET PATH" (Connection: close) on each as
 * soon as it connects, and reads every response to EOF with epoll on one thread. Prints how many
 * were 200, the time from first send to last response, and per-request latency percentiles and
 * timer error (latency - DELAY). Bounded by a 30 s deadline.
 * Build: cc -O2 -o delay_client delay_client.c ; run: ./delay_client PORT COUNT PATH DELAY_SECONDS */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "client_clock.h"

struct conn { int fd; double sent, done; int status, bytes, state; char head[16]; };

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: delay_client PORT COUNT PATH DELAY\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[2]);
    double delay = atof(argv[4]);
    char request[512];
    int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n", argv[3]);
    struct conn *conns = calloc(count, sizeof *conns);
    int ep = epoll_create1(0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    double first = 0;
    for (int i = 0; i < count; i++) {
        conns[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        connect(conns[i].fd, (struct sockaddr *)&address, sizeof address);
        struct epoll_event event = {.events = EPOLLOUT | EPOLLIN, .data.u32 = i};
        epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &event);
    }
    int finished = 0;
    double deadline = now() + 30;
    struct epoll_event events[1024];
    char buffer[65536];
    while (finished < count && now() < deadline) {
        int n = epoll_wait(ep, events, 1024, 100);
        for (int k = 0; k < n; k++) {
            struct conn *c = &conns[events[k].data.u32];
            if (c->state == 0 && (events[k].events & EPOLLOUT)) {
                c->sent = now();
                if (!first) first = c->sent;
                if (write(c->fd, request, length) != length) { c->state = 2; finished++; close(c->fd); continue; }
                c->state = 1;
                struct epoll_event event = {.events = EPOLLIN, .data.u32 = events[k].data.u32};
                epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &event);
            } else if (c->state == 1 && (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
                ssize_t got;
                while ((got = read(c->fd, buffer, sizeof buffer)) > 0) {
                    if (c->bytes < 12) memcpy(c->head + c->bytes, buffer, got < 12 - c->bytes ? got : 12 - c->bytes);
                    c->bytes += got;
                }
                if (got == 0 || (got < 0 && errno != EAGAIN)) {
                    c->done = now();
                    c->status = c->bytes >= 12 ? atoi(c->head + 9) : 0;
                    c->state = 2;
                    finished++;
                    close(c->fd);
                }
            }
        }
    }
    double last = 0, *latency = calloc(count, sizeof *latency);
    int ok = 0;
    for (int i = 0; i < count; i++) {
        if (conns[i].status == 200) { latency[ok++] = conns[i].done - conns[i].sent; }
        if (conns[i].done > last) last = conns[i].done;
    }
    qsort(latency, ok, sizeof *latency, compare);
    if (!ok) { printf("answered=0 of=%d\n", count); return 0; }
    printf("answered=%d of=%d completion_s=%.3f latency_p50_ms=%.2f latency_p99_ms=%.2f latency_max_ms=%.2f "
           "timer_err_p50_ms=%.2f timer_err_p99_ms=%.2f timer_err_max_ms=%.2f\n",
           ok, count, last - first, latency[ok / 2] * 1e3, latency[(int)(ok * 0.99)] * 1e3, latency[ok - 1] * 1e3,
           (latency[ok / 2] - delay) * 1e3, (latency[(int)(ok * 0.99)] - delay) * 1e3, (latency[ok - 1] - delay) * 1e3);
    return 0;
}
