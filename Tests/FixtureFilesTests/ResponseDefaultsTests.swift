import Foundation
import Testing
@testable import FixtureFiles
import StubModel
import StubdTestTags

/// A response written in a fixture file without a `Content-Type` gets one for its body's kind,
/// and `X-Content-Type-Options: nosniff`, unless the file says `"defaultHeaders": false` (issue
/// 30: a text stub echoing a request was rendered as HTML); what the writer writes reads back
/// exactly as it was, so exports and recordings answer byte for byte as their source.
@Suite(.tags(.inMemory))
struct ResponseDefaultsTests {
    static func headers(_ response: String, files: [String: String] = [:]) throws -> [NameValue] {
        let fixtures = try TemporaryFixtures(["r.json": #"{"request": {"method": "GET", "path": "/a"}, "response": \#(response)}"#]
                                             .merging(files) { $1 })
        let loaded = try FixtureLoader.load(paths: [fixtures.root])
        guard case .response(let answer) = try #require(loaded.first).outcome else {
            Issue.record("not a response: \(loaded)")
            return []
        }
        return answer.headers
    }

    static let nosniff = NameValue("X-Content-Type-Options", "nosniff")

    @Test func eachBodyKindGetsItsType() throws {
        #expect(try Self.headers(#"{"text": "<b>hi</b>"}"#) == [NameValue("Content-Type", "text/plain; charset=utf-8"), Self.nosniff])
        #expect(try Self.headers(#"{"json": {"a": 1}}"#) == [NameValue("Content-Type", "application/json"), Self.nosniff])
        #expect(try Self.headers(#"{"base64": "AAE="}"#) == [NameValue("Content-Type", "application/octet-stream"), Self.nosniff])
        #expect(try Self.headers(#"{"bodyFile": "song.mp3"}"#, files: ["__files/song.mp3": "ID3"])
                == [NameValue("Content-Type", "audio/mpeg"), Self.nosniff])
        #expect(try Self.headers(#"{"bodyFile": "page.html"}"#, files: ["__files/page.html": "<p>"])
                == [NameValue("Content-Type", "text/html; charset=utf-8"), Self.nosniff])
    }

    @Test func whatTheFileSaysIsKept() throws {
        #expect(try Self.headers(#"{"headers": {"Content-Type": "text/html"}, "text": "<p>"}"#) == [NameValue("Content-Type", "text/html"), Self.nosniff])
        #expect(try Self.headers(#"{"headers": {"X-Content-Type-Options": "nosniff"}, "text": "a"}"#)
                == [NameValue("X-Content-Type-Options", "nosniff"), NameValue("Content-Type", "text/plain; charset=utf-8")])
        #expect(try Self.headers(#"{"text": "a", "defaultHeaders": false}"#).isEmpty)
        // Nothing to sniff: no body, no headers.
        #expect(try Self.headers(#"{"status": 204}"#).isEmpty)
    }

    @Test func aWrongDefaultHeadersValueIsRefusedWithItsField() throws {
        let error = try HostileFixtureTests.loadError(Array(#"{"request": {"method": "GET", "path": "/a"}, "response": {"text": "a", "defaultHeaders": "no"}}"#.utf8))
        #expect(error == "ROOT/bad.json: response.defaultHeaders: expected true or false")
    }

    @Test func writtenAnswersReadBackExactlyAsTheyWere() throws {
        let answers = [StubHTTPResponse(status: 200, body: Array(#"{"a":1}"#.utf8)),
                       StubHTTPResponse(status: 200, headers: [NameValue("Content-Type", "text/plain")], body: Array("zen".utf8)),
                       StubHTTPResponse(status: 200, body: [0, 255, 1]),
                       StubHTTPResponse(status: 200, headers: [NameValue("Content-Type", "text/plain"), Self.nosniff], body: Array("x".utf8)),
                       StubHTTPResponse(status: 204)]
        for answer in answers {
            let fixture = Fixture(name: "a", source: "swift", request: RequestPattern(method: "GET", path: "/a"), outcome: .response(answer))
            let text = FixtureWriter.text(for: [fixture])
            let needsFlag = !ResponseDefaults.added(for: .text, headers: answer.headers, bodyIsEmpty: answer.body.isEmpty).isEmpty
            #expect(text.contains(#""defaultHeaders": false"#) == needsFlag, "\(text)")
            let fixtures = try TemporaryFixtures(["w.json": text])
            let read = try FixtureLoader.load(paths: [fixtures.root])
            #expect(read.first?.outcome == .response(answer), "\(text)")
        }
    }

    @Test func aWebhookMessageIsSentAsWritten() throws {
        let fixtures = try TemporaryFixtures(["h.json": #"{"request": {"method": "POST", "path": "/p"}, "response": {"status": 202}, "webhooks": [{"url": "http://127.0.0.1:9/h", "json": {"a": 1}}]}"#])
        let loaded = try FixtureLoader.load(paths: [fixtures.root])
        #expect(try #require(loaded.first?.webhooks.first).headers.isEmpty)
    }
}
