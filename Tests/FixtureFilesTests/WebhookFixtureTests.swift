import Testing
import FixtureFiles
import StubModel
import StubdTestTags

/// `"webhooks"` in fixture files: what is read, what is refused (with the field and the fix),
/// and that the writer's output reads back equal.
@Suite(.tags(.inMemory)) struct WebhookFixtureTests {
    static func read(_ routes: String) throws(FixtureErrors) -> [Fixture] {
        try FixtureReader(file: "w.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
    }

    static func problems(_ webhook: String) -> String {
        do {
            _ = try read(#"{"request": {"method": "GET", "path": "/x"}, "response": {"status": 200}, "webhooks": [\#(webhook)]}"#)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func aWebhookIsReadWithItsDefaultsAndWrittenBackEqual() throws {
        let fixtures = try Self.read(#"""
            {"request": {"method": "POST", "path": "/orders"}, "response": {"status": 201},
             "webhooks": [{"url": "http://127.0.0.1:9000/hook/{{request.path.[0]}}", "json": {"id": "{{uuid}}"}},
                          {"method": "put", "url": "https://hooks.example/x", "headers": {"X-A": "1"}, "text": "t",
                           "delay": "250ms", "retries": 3, "retryDelay": 2}]}
            """#)
        let hooks = try #require(fixtures.first?.webhooks)
        #expect(hooks.count == 2)
        #expect(hooks[0].method == "POST" && hooks[0].delay == 0 && hooks[0].retries == 0 && hooks[0].retryDelay == 1)
        #expect(hooks[0].url.source == "http://127.0.0.1:9000/hook/{{request.path.[0]}}" && !hooks[0].url.isConstant)
        #expect(hooks[1].method == "PUT" && hooks[1].delay == 0.25 && hooks[1].retries == 3 && hooks[1].retryDelay == 2)
        #expect(hooks[1].headers == [NameValue("X-A", "1")] && hooks[1].body == Array("t".utf8))
        let again = try FixtureReader(file: "w.json") { _ throws(FixtureReader.FixtureProblem) in [] }
            .read(Array(FixtureWriter.text(for: fixtures).utf8))
        #expect(again == fixtures, "written and read back: \(FixtureWriter.text(for: fixtures))")
    }

    @Test func badWebhooksAreRefusedWithTheFieldAndTheFix() {
        #expect(Self.problems(#"{"json": {}}"#).contains("routes[0].webhooks[0].url: missing"))
        #expect(Self.problems(#"{"url": "ftp://x/y"}"#).contains("routes[0].webhooks[0].url: \"ftp://x/y\": webhooks are sent over http:// or https:// only"))
        #expect(Self.problems(#"{"url": "/relative"}"#).contains("is not an absolute URL"))
        #expect(Self.problems(#"{"url": "http://u:p@h/"}"#).contains("put credentials in an Authorization header"))
        #expect(Self.problems(#"{"url": "http://h/{{request.nope}}"}"#).contains("routes[0].webhooks[0].url: template column 10"))
        #expect(Self.problems(#"{"url": "http://h/", "json": {"a": "{{uuid"}}"#).contains("routes[0].webhooks[0].json.a: template column 1"))
        #expect(Self.problems(#"{"url": "http://h/", "retries": 11}"#).contains("retries: expected an integer from 0 to 10"))
        #expect(Self.problems(#"{"url": "http://h/", "delay": -1}"#).contains("delay: expected seconds from 0 to 3600"))
        #expect(Self.problems(#"{"url": "http://h/", "headers": {"Content-Length": "3"}}"#).contains("stubd sets Content-Length itself"))
        #expect(Self.problems(#"{"url": "http://h/", "status": 200}"#).contains("webhooks[0].status: unknown field"))
        #expect(Self.problems(#"{"url": "http://h/"}"#).isEmpty)
    }
}
