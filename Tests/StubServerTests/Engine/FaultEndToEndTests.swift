import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Each fault as curl and URLSession see it (docs/FAULTS.md's table).
@Suite(.serialized, .tags(.process)) struct FaultEndToEndTests {
    static let fixtures = [
        route("/reset", outcome: .fault(.reset)),
        route("/empty", outcome: .fault(.empty)),
        route("/garbage", outcome: .fault(.garbage)),
        route("/truncated", outcome: .fault(.truncated)),
        route("/truncated", method: "HEAD", outcome: .fault(.truncated)),
        route("/badChunk", outcome: .fault(.badChunk)),
        route("/ne1011", outcome: .networkError(domain: NSURLErrorDomain, code: NSURLErrorBadServerResponse)),
        route("/ne1014", outcome: .networkError(domain: NSURLErrorDomain, code: NSURLErrorZeroByteResource)),
        route("/ne1017", outcome: .networkError(domain: NSURLErrorDomain, code: NSURLErrorCannotParseResponse)),
        route("/hang", outcome: .fault(.hang)),
        route("/lost", outcome: .networkError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost)),
        route("/timeout", outcome: .networkError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)),
        route("/late-reset", outcome: .fault(.reset), delay: 0.3),
    ]

    @Test(arguments: [("/reset", Int32(56)), ("/empty", 52), ("/garbage", 8), ("/lost", 56), ("/truncated", 18),
                      ("/badChunk", 56), ("/ne1011", 52), ("/ne1014", 18), ("/ne1017", 56)])
    func curlReportsEachFault(path: String, exitCode: Int32) throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let result = try Curl.run([server.url(path)])
        #expect(result.status == exitCode, "\(path): \(result.stderr)")
    }

    /// A fault that sends a head sends the route's CORS headers in it (a cross-origin page's
    /// browser then reports the fault, not a missing Allow-Origin); one that sends nothing cannot.
    @Test(arguments: ["/truncated", "/badChunk", "/garbage"])
    func aFaultThatSendsAHeadCarriesCORS(path: String) throws {
        let server = try TestServer(fixtures: Self.fixtures, cors: CORSPolicy(enabled: true))
        defer { server.stop() }
        let bytes = RawHTTP.exchange(port: server.port, bytes: Array("GET \(path) HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:3000\r\n\r\n".utf8))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: http://localhost:3000\r\n"), "\(text)")
        let plain = RawHTTP.exchange(port: server.port, bytes: Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(!String(decoding: plain, as: UTF8.self).contains("Access-Control"), "no Origin, no CORS")
    }

    /// HEAD has no body to cut short, so `truncated` cuts the status line instead.
    @Test func truncatedFailsAHeadRequestToo() throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let result = try Curl.run(["-I", server.url("/truncated")])
        #expect(result.status == 52, "\(result.stderr)")
    }

    @Test func hangHoldsUntilTheClientGivesUp() throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let start = Date()
        let result = try Curl.run([server.url("/timeout")], maxTime: 1)
        #expect(result.status == 28)
        #expect(Date().timeIntervalSince(start) >= 1)
    }

    @Test func hangIsClosedByTheServerAtItsCap() throws {
        let server = try TestServer(fixtures: Self.fixtures) { $0.hangCapSeconds = 0.5 }
        defer { server.stop() }
        let start = Date()
        let result = try Curl.run([server.url("/hang")], maxTime: 5)
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 52)
        #expect(elapsed >= 0.5 && elapsed < 4)
    }

    @Test func aDelayedFaultWaitsFirst() throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let start = Date()
        let result = try Curl.run([server.url("/late-reset")])
        #expect(result.status == 56)
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test(arguments: [
        ("/reset", NSURLErrorNetworkConnectionLost),
        ("/lost", NSURLErrorNetworkConnectionLost),
        ("/empty", NSURLErrorBadServerResponse),
        ("/ne1011", NSURLErrorBadServerResponse),
        ("/garbage", NSURLErrorUnknown),
        ("/truncated", NSURLErrorUnknown),
        ("/badChunk", NSURLErrorUnknown),
        ("/timeout", NSURLErrorTimedOut),
    ])
    func urlSessionReportsEachFault(path: String, code: Int) async throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let fetched = await HTTPFetch.get(server.url(path), timeout: 1)
        #expect(fetched.status == nil)
        #expect((fetched.error as NSError?)?.domain == NSURLErrorDomain)
        #expect(fetched.errorCode == code, "\(path): \(String(describing: fetched.error))")
    }
}
