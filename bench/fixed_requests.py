#!/usr/bin/env python3
"""Sends exactly N keep-alive GETs to 127.0.0.1:PORT PATH, one at a time, and checks each is a
200 (PATH and HOST optional). Used with valgrind's callgrind to count instructions per request: (Ir(N) - Ir(0)) / N."""
import socket
import sys

port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "/r/0/item"
host = sys.argv[4] if len(sys.argv) > 4 else "bench"
request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: fixed/1\r\nAccept: */*\r\n\r\n".encode()
with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
    buffer = b""
    for _ in range(count):
        s.sendall(request)
        while True:
            head, sep, rest = buffer.partition(b"\r\n\r\n")
            if sep:
                length = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0])
                if len(rest) >= length:
                    assert head.startswith(b"HTTP/1.1 200"), head[:40]
                    buffer = rest[length:]
                    break
            buffer += s.recv(65536)
