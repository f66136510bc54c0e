import Foundation
import Testing
@testable import FixtureFiles
import StubModel
import StubdTestTags

/// `"anyValueFor"` (what recorded fixtures use for redacted fields): read, written back the same,
/// and refused where it cannot apply.
@Suite(.tags(.inMemory))
struct AnyValueForTests {
    static func read(_ text: String) throws(FixtureErrors) -> [Fixture] {
        try FixtureReader(file: "f.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
    }

    @Test func itIsReadAndWrittenBack() throws {
        let text = #"{"recordedFrom": "http://x", "routes": [{"request": {"method": "POST", "path": "/login", "body": {"json": {"password": "[redacted]", "user": "u"}, "anyValueFor": ["password"]}}, "response": {"status": 200}}]}"#
        let fixtures = try Self.read(text)
        #expect(fixtures[0].request.body.anyValueFor == ["password"])
        let again = try Self.read(FixtureWriter.text(for: fixtures))
        #expect(again == fixtures)
        #expect(again[0].request.body.anyValueFor == ["password"])
    }

    @Test func itNeedsAJSONOrFormBody() {
        let text = #"{"request": {"method": "POST", "path": "/a", "body": {"text": "x", "anyValueFor": ["password"]}}, "response": {"status": 200}}"#
        #expect(throws: FixtureErrors.self) { try Self.read(text) }
        do { _ = try Self.read(text) } catch {
            #expect(error.description == "f.json: request.body.anyValueFor: applies to a json or form body only; give one beside it")
        }
    }
}
