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

/// Requests built to hurt: a huge body to an unmatched path must not hold its loop or come back
/// echoed, and the 404 and the journal never show a secret the request carried.
@Suite(.tags(.process)) struct HostileRequestEndToEndTests {
    static let routes = [
        route("/zen", outcome: ok("zen")),
        route("/users", method: "POST", body: .json(.object([("name", .string("octocat"))])), outcome: ok("created", status: 201)),
    ]

    /// An 8 MB JSON body to a path no route has: the report compares no body past 64 KiB, the 404
    /// stays small, and the journal keeps none of it (too large to redact).
    @Test func aHugeBodyIsNotExplainedOrEchoed() throws {
        let server = try TestServer(fixtures: Self.routes) { $0.workers = 1 }
        defer { server.stop() }
        let items = (0..<120_000).map { #"{"id":\#($0),"password":"p\#($0)","name":"user\#($0)"}"# }.joined(separator: ",")
        let body = Data(#"{"name":"octocat","items":[\#(items)]}"#.utf8)
        #expect(body.count > 6_000_000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-big-\(UUID().uuidString).json")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let miss = try Curl.run(["-H", "Content-Type: application/json", "--data-binary", "@\(file.path)", "-w", "\n%{http_code}", server.url("/users")])
        #expect(miss.stdout.hasSuffix("\n404"))
        #expect(miss.stdout.utf8.count < 4096, "the 404 echoes no body: \(miss.stdout.utf8.count) bytes")
        #expect(miss.stdout.contains("body: not compared in this report ("), "\(miss.stdout)")
        #expect(!miss.stdout.contains("p119999"))
        let listed = try Curl.run([server.url("/__stubd/requests?path=/users")]).stdout
        #expect(listed.contains("\"bodyNote\"") && !listed.contains("p1199"), "\(listed.prefix(2000))")
        #expect(listed.utf8.count < 8192)
    }

    /// The 404's `query` is redacted as its differences are; a long difference is cut.
    @Test func theMissReportRedactsTheQueryAndCutsLongDifferences() throws {
        let server = try TestServer(fixtures: [route("/search", query: [NameValue("q", String(repeating: "a", count: 5000))], outcome: ok("found"))])
        defer { server.stop() }
        let miss = try Curl.run([server.url("/search?q=b&api_key=KEY-SECRET-1&access_token=TOKEN-SECRET-2")]).stdout
        #expect(!miss.contains("KEY-SECRET-1") && !miss.contains("TOKEN-SECRET-2"), "\(miss)")
        #expect(miss.contains("api_key=[redacted]"), "\(miss)")
        #expect(miss.contains("more characters not shown"), "\(miss)")
    }

    /// Multipart form fields named like secrets are redacted in the journal, whatever the
    /// boundary's case.
    @Test func multipartSecretsAreRedactedInTheJournal() throws {
        let server = try TestServer(fixtures: [route("/upload", method: "POST", outcome: ok("ok"))])
        defer { server.stop() }
        _ = try Curl.run(["-F", "user=octocat", "-F", "password=PART-SECRET-3", server.url("/upload")])
        let boundary = "Boundary-8C3A1F2E-AbCd"
        let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\nPART-SECRET-4\r\n--\(boundary)--\r\n"
        _ = try Curl.run(["-H", "Content-Type: multipart/form-data; boundary=\(boundary)", "--data-binary", body, server.url("/upload")])
        let listed = try Curl.run([server.url("/__stubd/requests?path=/upload")]).stdout
        #expect(listed.contains("octocat"), "other parts are kept: \(listed)")
        #expect(!listed.contains("PART-SECRET-3") && !listed.contains("PART-SECRET-4"), "\(listed)")
    }
}
