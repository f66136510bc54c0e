/* The load client of stubd's WebSocket figures: CONNECTIONS conversations, each sending a masked
 * 4-byte text message and waiting for its 6-byte echo before the next, for SECONDS; prints the
 * round trips per second. One thread, poll(2): a client that costs far less than either server,
 * so the figure is the server's (a Python client was the limit before).
 * Build: cc -O2 -o ws_client ws_client.c
 * Run:   ./ws_client PORT PATH CONNECTIONS SECONDS */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const unsigned char ping[] = {0x81, 0x84, 1, 2, 3, 4, 'p' ^ 1, 'i' ^ 2, 'n' ^ 3, 'g' ^ 4};

static int open_conversation(int port, const char *path) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("ws_client: connect"); exit(1); }
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    char request[512];
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", path, port);
    if (write(fd, request, (size_t)length) != length) { perror("ws_client: write"); exit(1); }
    char head[4096];
    size_t got = 0;
    while (got < sizeof head - 1) {
        ssize_t n = read(fd, head + got, 1);
        if (n <= 0) { fprintf(stderr, "ws_client: no answer to the upgrade\n"); exit(1); }
        got += (size_t)n;
        if (got >= 4 && memcmp(head + got - 4, "\r\n\r\n", 4) == 0) break;
    }
    head[got] = 0;
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) { fprintf(stderr, "ws_client: upgrade refused: %.40s\n", head); exit(1); }
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: ws_client PORT PATH CONNECTIONS SECONDS\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[3]);
    double seconds = atof(argv[4]);
    struct pollfd *polls = calloc((size_t)count, sizeof *polls);
    int *received = calloc((size_t)count, sizeof *received);
    for (int i = 0; i < count; i++) {
        polls[i].fd = open_conversation(port, argv[2]);
        polls[i].events = POLLIN;
        if (write(polls[i].fd, ping, sizeof ping) != (ssize_t)sizeof ping) { perror("ws_client: write"); return 1; }
    }
    long trips = 0;
    double start = now(), deadline = start + seconds;
    while (now() < deadline) {
        if (poll(polls, (nfds_t)count, 100) < 0 && errno != EINTR) { perror("ws_client: poll"); return 1; }
        for (int i = 0; i < count; i++) {
            if (!(polls[i].revents & POLLIN)) continue;
            unsigned char buffer[64];
            ssize_t n = read(polls[i].fd, buffer, sizeof buffer);
            if (n <= 0) { fprintf(stderr, "ws_client: conversation %d ended\n", i); return 1; }
            received[i] += (int)n;
            while (received[i] >= 6) {
                received[i] -= 6;
                trips++;
                if (write(polls[i].fd, ping, sizeof ping) != (ssize_t)sizeof ping) { perror("ws_client: write"); return 1; }
            }
        }
    }
    printf("%.0f\n", (double)trips / (now() - start));
    return 0;
}
