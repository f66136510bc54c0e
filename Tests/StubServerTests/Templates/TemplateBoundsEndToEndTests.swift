import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdTemplates
import StubdTestTags

/// Templated output is bounded per request and cannot split or smuggle headers (issue 30), over
/// real sockets: an amplifying template is refused at its bound with a 500 naming the route and the
/// flag, header values keep no control character but TAB.
@Suite(.tags(.process))
struct TemplateBoundsEndToEndTests {
    static func server(_ routes: String, limit: Int = TemplateState.defaultOutputLimit) throws -> TestServer {
        let fixtures = try FixtureReader(file: "t.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
        return try TestServer(fixtures: fixtures, settings: { $0.templateOutputLimit = limit })
    }

    @Test func anAmplifyingTemplateIsRefusedAtItsBound() throws {
        let echo8 = String(repeating: "{{request.body}}", count: 8)
        let server = try Self.server(#"{"name": "amplify", "request": {"method": "POST", "path": "/echo"}, "response": {"text": "\#(echo8)", "template": true}}"#)
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-amplify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        // 1 MB echoed eight times passes 4 × (template + request) + 64 KiB.
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: file)
        let refused = try Curl.run(["-w", "\n%{http_code}", "--data-binary", "@" + file.path, server.url("/echo")])
        #expect(refused.stdout.hasSuffix("\n500"), "\(refused.stdout.suffix(400))")
        #expect(refused.stdout.contains("route amplify") && refused.stdout.contains("--template-output-limit"), "\(refused.stdout.prefix(400))")
        #expect(refused.stdout.utf8.count < 4096, "the refusal is short, not the amplified body")
        // Echoing it once fits.
        let once = try Self.server(#"{"name": "once", "request": {"method": "POST", "path": "/echo"}, "response": {"text": "{{request.body}}", "template": true}}"#)
        defer { once.stop() }
        let echoed = try Curl.run(["-o", "/dev/null", "-w", "%{http_code} %{size_download}", "--data-binary", "@" + file.path, once.url("/echo")])
        #expect(echoed.stdout == "200 1000000")
    }

    @Test func theAbsoluteLimitCapsEvenATemplateThatFitsItsMultiple() throws {
        let server = try Self.server(#"{"name": "echo", "request": {"method": "POST", "path": "/echo"}, "response": {"json": {"copy": "{{request.body}}"}, "template": true}}"#,
                                     limit: 64 << 10)
        defer { server.stop() }
        let refused = try Curl.run(["-w", "\n%{http_code}", "--data-binary", String(repeating: "b", count: 100_000), server.url("/echo")])
        #expect(refused.stdout.hasSuffix("\n500") && refused.stdout.contains("65536 bytes"), "\(refused.stdout.prefix(300))")
    }

    @Test func headerValuesKeepNoControlCharacterButTab() throws {
        let server = try Self.server(#"{"name": "h", "request": {"method": "GET", "pathTemplate": "/h/{v}"}, "response": {"headers": {"X-Echo": "[{{request.path.v}}]"}, "template": true, "text": "ok"}}"#)
        defer { server.stop() }
        let answer = try Curl.run(["-i", server.url("/h/a%09b%0Bc%0Cd%00e%7Ff%0D%0AX-Injected:%201")])
        #expect(answer.stdout.contains("X-Echo: [a\tbcdefX-Injected: 1]\r\n"), "\(answer.stdout)")
        #expect(!answer.stdout.contains("\r\nX-Injected"))
    }
}
