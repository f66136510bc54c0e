import Foundation
import StubdSystem

/// Many HTTP/1.1 requests at once over plain sockets, driven by poll(2) on one thread, for
/// concurrency checks that URLSession's per-host connection limit would hide.
package enum RawHTTP {
    package struct Outcome {
        /// Status code per connection; nil if the connection failed or timed out.
        package let statuses: [Int?]
        /// Wall time from the first send to the last complete response.
        package let seconds: Double
    }

    /// Opens `count` connections to 127.0.0.1:`port`, sends `request` on each (it must ask for
    /// `Connection: close`), reads until every peer closes or `deadline` seconds pass.
    package static func concurrent(count: Int, port: Int, request: String, deadline: Double = 20) -> Outcome {
        let start = Date()
        let received = concurrentRaw(count: count, port: port, request: request, deadline: deadline)
        return Outcome(statuses: received.map(statusCode), seconds: Date().timeIntervalSince(start))
    }

    private static func concurrentRaw(count: Int, port: Int, request: String, deadline: Double) -> [[UInt8]] {
        var fds: [Int32] = []
        for _ in 0..<count { fds.append(connectLoopback(port: port)) }
        let start = Date()
        let bytes = Array(request.utf8)
        for fd in fds where fd >= 0 { System.sendAll(fd, bytes) }
        var received = [[UInt8]](repeating: [], count: count)
        var open = Set(fds.indices.filter { fds[$0] >= 0 })
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty, Date().timeIntervalSince(start) < deadline {
            var pollfds = open.map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
            let indices = Array(open)
            let ready = poll(&pollfds, nfds_t(pollfds.count), 100)
            if ready <= 0 { continue }
            for (position, entry) in pollfds.enumerated() where entry.revents != 0 {
                let index = indices[position]
                let n = recv(entry.fd, &buffer, buffer.count, 0)
                if n > 0 {
                    received[index] += buffer[0..<n]
                } else {
                    open.remove(index)
                }
            }
        }
        for fd in fds where fd >= 0 { close(fd) }
        return received
    }

    /// Like `concurrent`, returning each response's body (after the blank line).
    package static func concurrentBodies(count: Int, port: Int, request: String, deadline: Double = 20) -> [String] {
        concurrentRaw(count: count, port: port, request: request, deadline: deadline).map { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            return text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        }
    }

    /// One request and its response on an open keep-alive connection (reads until the body
    /// announced by Content-Length has arrived).
    package static func roundTrip(_ fd: Int32, _ request: String) -> String {
        System.sendAll(fd, Array(request.utf8))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
            let text = String(decoding: received, as: UTF8.self)
            guard let headerEnd = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<headerEnd.lowerBound].lowercased()
            let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text[headerEnd.upperBound...].utf8.count >= length { return text }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Sends raw bytes on one connection and returns everything read until the peer closes.
    package static func exchange(port: Int, bytes: [UInt8], timeout: Double = 5) -> [UInt8] {
        let fd = connectLoopback(port: port)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        System.sendAll(fd, bytes)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            result += buffer[0..<n]
        }
        return result
    }

    /// A blocking TCP connection to 127.0.0.1:`port`, or -1.
    package static func connectLoopback(port: Int) -> Int32 {
        System.connectLoopback(port: port, receiveTimeout: 30) ?? -1
    }

    private static func statusCode(_ bytes: [UInt8]) -> Int? {
        let head = String(decoding: bytes.prefix(32), as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(head.dropFirst(9).prefix(3))
    }
}
