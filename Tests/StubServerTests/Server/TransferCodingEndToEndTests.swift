import Foundation
import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A transfer coding stubd does not understand is answered 501 and the connection closed (RFC
/// 9112 §6.1), instead of libevent ignoring it and reading the body by Content-Length — two
/// parsers reading one request differently is how smuggling starts (issue 30).
@Suite(.tags(.socket))
struct TransferCodingEndToEndTests {
    @Test(arguments: ["xchunked", "gzip, chunked", "identity"])
    func anUnknownCodingIs501(coding: String) throws {
        let server = try TestServer(fixtures: [route("/a", method: "POST", outcome: ok("a"))])
        defer { server.stop() }
        // (With a Content-Length beside it, libevent itself answers 400.)
        let raw = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n1\r\nA\r\n0\r\n\r\n"
        let answer = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(raw.utf8)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 501"), "\(coding): \(answer.prefix(80))")
        #expect(answer.contains("RFC 9112"))
    }

    @Test func chunkedInAnyCaseIsRead() throws {
        let server = try TestServer(fixtures: [route("/a", method: "POST", outcome: ok("a"))])
        defer { server.stop() }
        let raw = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n1\r\nA\r\n0\r\n\r\n"
        let answer = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(raw.utf8)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
    }
}
