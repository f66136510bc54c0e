import Foundation
import Testing
import FixtureFiles
import StubModel
@testable import Importers

/// Socket-free conversion checks: what a WireMock mapping becomes, field by field.
@Suite struct WireMockImporterTests {
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
        #expect(file.fixtures.allSatisfy { $0.request.otherQueryAllowed }, "urlPath ignores the query, as in WireMock")
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
