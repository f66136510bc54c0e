/* Opens COUNT connections to 127.0.0.1:PORT, spread evenly over RAMP seconds, sends one
 * "GET PATH" (Connection: close) on each, and reads every streamed response to EOF with epoll on
 * one thread, noting when each event arrives (an event is one "data: " line; the route sends
 * EVENTS events, the first FIRST seconds after the head, then one every BETWEEN seconds). An
 * event's lateness is its arrival minus its due time: BETWEEN after the event before it, on the
 * same connection (so neither the client's nor the kernel's delay in delivering the head counts). Prints how many streams ended whole, the
 * lateness percentiles over every event, how many were more than 5 ms late, and stubd's RSS
 * (PID's /proc status) before and when every stream is open and waiting between events.
 * Bounded by a 60 s deadline.
 * Build: cc -O2 -o stream_client stream_client.c ; run: ./stream_client PORT COUNT PATH EVENTS FIRST BETWEEN PID */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "client_clock.h"

struct conn { int fd; double head, last; int events, state, bytes; char tail[8]; };

static long rss_kb(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) kb = atol(line + 6);
    fclose(f);
    return kb;
}

int main(int argc, char **argv) {
    if (argc < 9) { fprintf(stderr, "usage: stream_client PORT COUNT PATH EVENTS FIRST BETWEEN PID RAMP\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[2]), expected = atoi(argv[4]), pid = atoi(argv[7]);
    double first = atof(argv[5]), between = atof(argv[6]), ramp = atof(argv[8]);
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    char request[512];
    int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n", argv[3]);
    struct conn *conns = calloc(count, sizeof *conns);
    double *lateness = calloc((size_t)count * expected, sizeof *lateness);
    long samples = 0, before = rss_kb(pid), during = -1;
    int ep = epoll_create1(0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    int finished = 0, whole = 0, headed = 0, opened = 0;
    double start = now(), deadline = start + 60 + ramp, all_headed = 0;
    struct epoll_event events[1024];
    char buffer[65536];
    while (finished < count && now() < deadline) {
        /* Open the connections due by now. */
        int due = ramp > 0 ? (int)((now() - start) / ramp * count) + 1 : count;
        for (; opened < count && opened < due; opened++) {
            conns[opened].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            connect(conns[opened].fd, (struct sockaddr *)&address, sizeof address);
            struct epoll_event event = {.events = EPOLLOUT | EPOLLIN, .data.u32 = opened};
            epoll_ctl(ep, EPOLL_CTL_ADD, conns[opened].fd, &event);
        }
        int n = epoll_wait(ep, events, 1024, 1);
        double t = now();
        /* Every head in and the first events still ahead: the memory of open, idle streams. */
        if (during < 0 && all_headed > 0 && t - all_headed > first / 2) during = rss_kb(pid);
        for (int k = 0; k < n; k++) {
            struct conn *c = &conns[events[k].data.u32];
            if (c->state == 0 && (events[k].events & EPOLLOUT)) {
                if (write(c->fd, request, length) != length) { c->state = 2; finished++; close(c->fd); continue; }
                c->state = 1;
                struct epoll_event event = {.events = EPOLLIN, .data.u32 = events[k].data.u32};
                epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &event);
            } else if (c->state == 1 && (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
                ssize_t got;
                while ((got = read(c->fd, buffer, sizeof buffer)) > 0) {
                    if (c->bytes == 0) {
                        c->head = t;
                        if (++headed == count) all_headed = t;
                    }
                    c->bytes += got;
                    /* Count "data: " occurrences, including one cut across reads. */
                    char joined[sizeof buffer + 8];
                    int keep = (int)strnlen(c->tail, 6);
                    memcpy(joined, c->tail, keep);
                    memcpy(joined + keep, buffer, got);
                    int total = keep + (int)got;
                    for (int p = 0; p + 6 <= total; p++) {
                        if (p + 6 > keep && !memcmp(joined + p, "data: ", 6)) {
                            if (c->events > 0) lateness[samples++] = (t - (c->last + between)) * 1e3;
                            c->last = t;
                            c->events++;
                        }
                    }
                    int tail = total < 5 ? total : 5;
                    memset(c->tail, 0, sizeof c->tail);
                    memcpy(c->tail, joined + total - tail, tail);
                }
                if (got == 0 || (got < 0 && errno != EAGAIN)) {
                    c->state = 2;
                    finished++;
                    if (c->events == expected) whole++;
                    close(c->fd);
                }
            }
        }
    }
    (void)first;
    if (!samples) { printf("streams_whole=0 of=%d\n", count); return 0; }
    qsort(lateness, samples, sizeof *lateness, compare);
    long late = 0;
    for (long i = 0; i < samples; i++) if (lateness[i] > 5) late++;
    printf("streams_whole=%d of=%d events=%ld late_p50_ms=%.2f late_p99_ms=%.2f late_max_ms=%.2f over_5ms=%ld "
           "rss_before_mb=%.1f rss_open_mb=%.1f kb_per_stream=%.1f\n",
           whole, count, samples, lateness[samples / 2], lateness[(long)(samples * 0.99)], lateness[samples - 1], late,
           before / 1024.0, during / 1024.0, during > 0 ? (double)(during - before) / count : -1.0);
    return 0;
}
