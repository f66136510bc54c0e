import Foundation
import Testing
import FixtureFiles
import StubModel
@testable import Importers
import StubdTestTags

/// Socket-free conversion checks: what a WireMock mapping becomes, field by field.
@Suite(.tags(.inMemory)) struct WireMockImporterTests {
    static func convert(_ mapping: String, files: [String: String] = [:]) throws -> ImportedFile {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-wm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/mappings", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/__files", withIntermediateDirectories: true)
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: root + "/mappings/m.json"))
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/__files/" + name)) }
        return try #require(WireMockImporter.importRoot(root).first)
    }

    @Test func anyMethodBecomesOneRoutePerMethod() throws {
        let file = try Self.convert(#"{"request": {"method": "ANY", "urlPath": "/x"}, "response": {"body": "x"}}"#)
        #expect(file.fixtures.map(\.request.method) == ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
        #expect(file.fixtures.allSatisfy { $0.request.query.othersAllowed }, "urlPath ignores the query, as in WireMock")
    }

    /// Issue 49: a path pattern and a literal path of the same priority reaching one request are
    /// answered by WireMock's load order and by stubd's rule (the literal): said at import, naming the
    /// request; a priority between them leaves nothing to say.
    @Test func aPatternBesideALiteralOfTheSamePriorityIsReported() throws {
        let tied = try Self.convert(#"""
            {"mappings": [{"request": {"method": "GET", "urlPathPattern": "/p/[0-9]+"}, "response": {"body": "pattern"}},
                          {"request": {"method": "GET", "urlPath": "/p/215"}, "response": {"body": "literal"}},
                          {"request": {"method": "GET", "urlPath": "/p/abc"}, "response": {"body": "other"}},
                          {"request": {"method": "POST", "urlPath": "/p/216"}, "response": {"body": "post"}}]}
            """#)
        let said = tied.unsupported.filter { $0.contains("both answer") }
        #expect(said.count == 1, "\(tied.unsupported)")
        #expect(said.first?.contains("both answer GET /p/215 at priority 5; WireMock answers with the one it loaded last, stubd with the literal path") == true)
        let ranked = try Self.convert(#"""
            {"mappings": [{"priority": 1, "request": {"method": "GET", "urlPathPattern": "/p/[0-9]+"}, "response": {"body": "pattern"}},
                          {"request": {"method": "GET", "urlPath": "/p/215"}, "response": {"body": "literal"}}]}
            """#)
        #expect(!ranked.unsupported.contains { $0.contains("both answer") }, "\(ranked.unsupported)")
    }

    @Test func delaysAreConvertedFromMilliseconds() throws {
        let file = try Self.convert(#"""
            {"request": {"url": "/d"}, "response": {"delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4, "maxValue": 500}}}
            """#)
        #expect(file.fixtures.first?.delayDistribution == .lognormal(median: 0.08, sigma: 0.4, max: 0.5))
    }

    @Test func basicAuthAndFramingHeaders() throws {
        let file = try Self.convert(#"""
            {"request": {"url": "/a", "basicAuthCredentials": {"username": "u", "password": "p"}},
             "response": {"headers": {"Content-Length": "3", "X-Ok": ["1", "2"]}, "body": "abc"}}
            """#)
        let fixture = try #require(file.fixtures.first)
        #expect(fixture.request.headerMatches == [NamedMatch("authorization", .equalTo("Basic dTpw", caseInsensitive: false))])
        guard case .response(let response) = fixture.outcome else { Issue.record("not a response"); return }
        #expect(response.headers == [NameValue("X-Ok", "1"), NameValue("X-Ok", "2")])
        #expect(file.unsupported == ["\(file.file): response.headers.Content-Length: not supported (stubd frames the body itself and sets it)"])
    }
}

/// WireMock's webhook listener, in both of its spellings, as stubd webhooks.
@Suite(.tags(.inMemory)) struct WireMockWebhookImportTests {
    @Test func postServeActionsAndServeEventListenersBecomeWebhooks() throws {
        let file = try WireMockImporterTests.convert(#"""
            {"request": {"method": "POST", "urlPath": "/pay"}, "response": {"status": 202},
             "postServeActions": [{"name": "webhook", "parameters": {
                "method": "POST", "url": "http://localhost:8089/callback/{{jsonPath originalRequest.body '$.id'}}",
                "headers": {"Content-Type": "application/json", "Content-Length": "9"},
                "body": "{\"paid\": \"{{originalRequest.headers.X-Order}}\"}",
                "delay": {"type": "fixed", "milliseconds": 1500}}}],
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://localhost:8089/b", "base64Body": "aGk=",
                "delay": {"type": "uniform", "lower": 100, "upper": 300}}},
                {"name": "audit", "parameters": {}}]}
            """#)
        let hooks = try #require(file.fixtures.first?.webhooks)
        #expect(hooks.count == 2)
        #expect(hooks[0].url.source == "http://localhost:8089/callback/{{jsonPath request.body '$.id'}}")
        #expect(hooks[0].headers == [NameValue("Content-Type", "application/json")], "framing headers are stubd's")
        #expect(String(decoding: hooks[0].body, as: UTF8.self) == #"{"paid": "{{request.headers.X-Order}}"}"#)
        #expect(hooks[0].delay == 1.5)
        #expect(hooks[1].body == Array("hi".utf8) && hooks[1].delay == 0.2)
        #expect(file.unsupported.contains { $0.contains("serveEventListeners[0].parameters.delay: not supported (a uniform delay") })
        #expect(file.unsupported.contains { $0.contains("serveEventListeners[1]: not supported (the listener \"audit\"") })
        #expect(!file.unsupported.contains { $0.contains("postServeActions") }, "\(file.unsupported)")
    }

    @Test func aWebhookWhoseTemplateStubdCannotReadIsLeftOutAndReported() throws {
        let file = try WireMockImporterTests.convert(#"""
            {"request": {"url": "/x"}, "response": {"status": 200},
             "postServeActions": {"webhook": {"url": "http://h/{{originalResponse.body}}"}}}
            """#)
        #expect(file.fixtures.first?.webhooks == [])
        #expect(file.unsupported.contains { $0.contains("postServeActions.webhook.url: not supported (template column 10") }, "\(file.unsupported)")
    }
}
