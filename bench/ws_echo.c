/* The reference for stubd's WebSocket figures: a minimal RFC 6455 echo server on one libevent
 * loop (the library stubd's engine uses), no HTTP framework: the upgrade head read up to its
 * blank line, the accept key made with OpenSSL's SHA-1, then each masked client frame echoed
 * back unmasked (text and binary; close answered, pings ponged). Whole frames only, up to 64 KiB
 * — enough for the benchmark's messages, not a server for anything else.
 * Build: cc -O2 -o ws_echo ws_echo.c $(pkg-config --cflags --libs libevent openssl)
 * Run:   ./ws_echo PORT   (0 picks a free port; the port is printed) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct peer { int upgraded; };

static void finish(struct bufferevent *bev, struct peer *peer) {
    bufferevent_free(bev);
    free(peer);
}

static int handshake(struct bufferevent *bev) {
    struct evbuffer *input = bufferevent_get_input(bev);
    struct evbuffer_ptr end = evbuffer_search(input, "\r\n\r\n", 4, NULL);
    if (end.pos < 0) return evbuffer_get_length(input) > 16384 ? -1 : 0;
    size_t length = (size_t)end.pos + 4;
    char *head = malloc(length + 1);
    evbuffer_remove(input, head, length);
    head[length] = 0;
    char *key = strcasestr(head, "\r\nSec-WebSocket-Key:");
    if (!key) { free(head); return -1; }
    key += 20;
    while (*key == ' ') key++;
    char *stop = strstr(key, "\r\n");
    char joined[128];
    int written = snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)(stop - key), key);
    free(head);
    if (written <= 0 || written >= (int)sizeof joined) return -1;
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((unsigned char *)joined, (size_t)written, digest);
    unsigned char accept[64];
    EVP_EncodeBlock(accept, digest, SHA_DIGEST_LENGTH);
    evbuffer_add_printf(bufferevent_get_output(bev),
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
    return 1;
}

/* Echoes every whole frame in the input; -1 when the connection should close. */
static int frames(struct bufferevent *bev) {
    struct evbuffer *input = bufferevent_get_input(bev);
    for (;;) {
        size_t available = evbuffer_get_length(input);
        if (available < 2) return 0;
        unsigned char head[8];
        evbuffer_copyout(input, head, available < 8 ? available : 8);
        int opcode = head[0] & 0x0F;
        size_t length = head[1] & 0x7F, header = 2;
        if (!(head[1] & 0x80) || length == 127) return -1;
        if (length == 126) {
            if (available < 4) return 0;
            length = (size_t)head[2] << 8 | head[3];
            header = 4;
        }
        if (available < header + 4 + length) return 0;
        unsigned char frame[4 + 65536];
        evbuffer_drain(input, header);
        evbuffer_remove(input, frame, 4 + length);
        unsigned char *payload = frame + 4;
        for (size_t i = 0; i < length; i++) payload[i] ^= frame[i & 3];
        if (opcode == 0x8) {
            unsigned char close[] = {0x88, 0x00};
            bufferevent_write(bev, close, sizeof close);
            return -1;
        }
        unsigned char out[4];
        size_t outHeader = 2;
        out[0] = 0x80 | (opcode == 0x9 ? 0xA : opcode);
        if (length < 126) out[1] = (unsigned char)length;
        else { out[1] = 126; out[2] = (unsigned char)(length >> 8); out[3] = (unsigned char)length; outHeader = 4; }
        if (opcode == 0xA) continue;
        bufferevent_write(bev, out, outHeader);
        bufferevent_write(bev, payload, length);
    }
}

static void on_read(struct bufferevent *bev, void *arg) {
    struct peer *peer = arg;
    if (!peer->upgraded) {
        int done = handshake(bev);
        if (done < 0) return finish(bev, peer);
        if (done == 0) return;
        peer->upgraded = 1;
    }
    if (frames(bev) < 0) {
        bufferevent_disable(bev, EV_READ);
        bufferevent_setcb(bev, NULL, NULL, NULL, NULL);
        finish(bev, peer);
    }
}

static void on_event(struct bufferevent *bev, short events, void *arg) {
    (void)events;
    finish(bev, arg);
}

static void on_accept(struct evconnlistener *listener, evutil_socket_t fd, struct sockaddr *address, int length, void *arg) {
    (void)address; (void)length; (void)arg;
    struct bufferevent *bev = bufferevent_socket_new(evconnlistener_get_base(listener), fd, BEV_OPT_CLOSE_ON_FREE);
    struct peer *peer = calloc(1, sizeof *peer);
    bufferevent_setcb(bev, on_read, NULL, on_event, peer);
    bufferevent_enable(bev, EV_READ | EV_WRITE);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    struct event_base *base = event_base_new();
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(argc > 1 ? atoi(argv[1]) : 0)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct evconnlistener *listener = evconnlistener_new_bind(base, on_accept, NULL, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 1024,
                                                              (struct sockaddr *)&address, sizeof address);
    if (!listener) { perror("ws_echo: bind"); return 1; }
    struct sockaddr_in bound;
    socklen_t size = sizeof bound;
    getsockname(evconnlistener_get_fd(listener), (struct sockaddr *)&bound, &size);
    printf("%d\n", ntohs(bound.sin_port));
    fflush(stdout);
    event_base_dispatch(base);
    return 0;
}
