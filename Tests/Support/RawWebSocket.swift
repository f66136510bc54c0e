import Foundation
import StubdSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A WebSocket client over a plain blocking socket, for Swift tests on a platform whose
/// `URLSessionWebSocketTask` cannot run (swift-corelibs on Debian 12: "WebSockets not supported by
/// libcurl"): the upgrade with the headers given, masked text frames out, the server's frames in.
package final class RawWebSocket {
    private let fd: Int32
    private var pending: [UInt8] = []
    /// The upgrade answer's head.
    package private(set) var head = ""

    /// Opens `path` on 127.0.0.1:`port`; nil when the server does not answer 101.
    package init?(port: Int, path: String, headers: [(String, String)] = []) {
        fd = RawHTTP.connectLoopback(port: port)
        guard fd >= 0 else { return nil }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        System.sendAll(fd, Array((request + "\r\n").utf8))
        while true {
            if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                break
            }
            guard readMore() else { break }
        }
        guard head.hasPrefix("HTTP/1.1 101") else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    private func readMore() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        pending += buffer[0..<count]
        return true
    }

    /// Sends a masked text frame.
    package func send(_ text: String) {
        let payload = Array(text.utf8), key: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) } else { frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] }
        frame += key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
        System.sendAll(fd, frame)
    }

    /// The next text message, or `close CODE` for a close frame; nil when the connection ends.
    package func receive() -> String? {
        while true {
            if pending.count >= 2 {
                let opcode = pending[0] & 0x0F
                var length = Int(pending[1] & 0x7F), header = 2
                if length == 126, pending.count >= 4 { length = Int(pending[2]) << 8 | Int(pending[3]); header = 4 }
                if pending.count >= header + length, length < 126 || header == 4 {
                    let payload = Array(pending[header..<(header + length)])
                    pending.removeFirst(header + length)
                    if opcode == 0x8 { return "close \(payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005)" }
                    return String(decoding: payload, as: UTF8.self)
                }
            }
            guard readMore() else { return nil }
        }
    }
}
