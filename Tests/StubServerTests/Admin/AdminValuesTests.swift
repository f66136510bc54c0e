import Foundation
import Testing
import StubModel
@testable import StubServer

/// The admin API's typed bodies, without a socket: what reads, what is refused and with which
/// field named, and what the answers write.
@Suite struct AdminValuesTests {
    static func refusal<Body: AdminRequestBody>(_ type: Body.Type, _ text: String) -> String? {
        do {
            _ = try Body.read(Array(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func scenarioClockAndSeedBodiesRead() throws {
        #expect(try ScenarioChange.read(Array(#"{"state": "Step 2"}"#.utf8)).state == "Step 2")
        #expect(try ClockSetting.read(Array(#"{"now": "2026-01-01T09:00:00Z"}"#.utf8)).now == Date(timeIntervalSince1970: 1_767_258_000))
        #expect(try ClockSetting.read(Array(#"{"now": "2026-01-01T09:00:00.500+01:00"}"#.utf8)).now == Date(timeIntervalSince1970: 1_767_254_400.5))
        #expect(try SeedSetting.read(Array(#"{"seed": 42}"#.utf8)).seed == 42)
        #expect(try SeedSetting.read(Array(#"{"seed": null}"#.utf8)).seed == nil)
        #expect(try CollectionItems.read(Array(#"[{"id": 1}, {"id": "b"}]"#.utf8)).items.count == 2)
    }

    @Test func badBodiesAreRefusedWithWhatABodyLooksLike() {
        #expect(Self.refusal(ScenarioChange.self, "state=2") == #"expected a body like {"state": "Step 2"}"#)
        #expect(Self.refusal(ScenarioChange.self, #"{"state": 2}"#) == #"expected a body like {"state": "Step 2"}"#)
        #expect(Self.refusal(ClockSetting.self, #"{"now": "tomorrow"}"#)?.hasPrefix(#"expected a body like {"now": "#) == true)
        #expect(Self.refusal(ClockSetting.self, #"{"now": "2026-01-01T09:00:00"}"#) != nil, "a time without a zone")
        #expect(Self.refusal(SeedSetting.self, "{}") == #"expected a body like {"seed": 42}"#)
        #expect(Self.refusal(SeedSetting.self, #"{"seed": -1}"#) == "seed must be a whole number from 0 to 2^53, or null")
        #expect(Self.refusal(SeedSetting.self, #"{"seed": 1.5}"#) == "seed must be a whole number from 0 to 2^53, or null")
        #expect(Self.refusal(CollectionItems.self, #"{"id": 1}"#) == "expected a JSON array of objects")
    }

    @Test func aRecordingStartNamesTheFieldThatDoesNotRead() throws {
        let start = try RecordingStart.read(Array(#"{"upstream": "https://api.example.com", "out": "rec", "sequences": true, "keep": ["X-Id"], "overwrite": true}"#.utf8))
        #expect(start.upstream == "https://api.example.com")
        #expect(start.options.out == "rec" && start.options.sequences && start.options.overwrite && start.options.keep == ["X-Id"])
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "outt": "x"}"#) == "outt: unknown field; allowed: upstream, out, sequences, keep, overwrite")
        #expect(Self.refusal(RecordingStart.self, #"{"out": "x"}"#)?.hasPrefix("upstream: missing") == true)
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "out": ""}"#) == "out: expected a folder path")
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "sequences": "yes"}"#) == "sequences: expected true or false")
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "keep": "X-Id"}"#) == "keep: expected an array of names")
        #expect(Self.refusal(RecordingStart.self, "[]")?.hasPrefix("expected a body like") == true)
    }

    @Test func aFixtureWriteNeedsAPlainNameAndADocument() throws {
        let write = try FixtureWrite.read(Array(#"{"file": "users.json", "document": {"routes": []}}"#.utf8))
        #expect(write.file == "users.json" && !write.overwrite)
        #expect(Self.refusal(FixtureWrite.self, #"{"file": "../x.json", "document": {}}"#)?.hasPrefix("file: give a plain file name") == true)
        #expect(Self.refusal(FixtureWrite.self, #"{"file": "x.json"}"#) == "document: missing; give the fixture file's content")
        #expect(Self.refusal(FixtureWrite.self, "not json") == "the body is not a JSON object")
    }

    @Test func answersWriteTheDocumentedJSON() {
        #expect(JSONWriter.write(ScenarioSet(name: "login", state: "Step 2").json, pretty: false) == #"{"login":"Step 2"}"#)
        #expect(JSONWriter.write(SeedReading(seed: nil).json, pretty: false) == #"{"seed":null}"#)
        #expect(JSONWriter.write(SeedReading(seed: 7).json, pretty: false) == #"{"seed":7}"#)
        #expect(JSONWriter.write(CollectionCount(name: "users", count: 3).json, pretty: false) == #"{"name":"users","count":3}"#)
        #expect(FixtureWritten(path: "/tmp/a.json").status == 201)
        #expect(ClockReading(now: "real time").status == 200)
    }

    /// The table reads the body before the handler runs: a body that does not read is a 400
    /// with the admin API's error shape, and the handler is never called.
    @Test func theTableRefusesABadBodyBeforeTheHandler() throws {
        let called = Counter()
        let endpoint = AdminEndpoint("PUT", "x", body: ScenarioChange.self) { (_, change) throws(AdminRefusal) -> ScenarioSet in
            called.add()
            return ScenarioSet(name: "x", state: change.state)
        }
        guard case .now(let handle) = endpoint.handler else { Issue.record("a typed endpoint answers at once"); return }
        func call(_ body: String) -> PreparedReply {
            handle(AdminEndpoint.Call(admin: StubAdmin(fixtures: try! RouteTable(fixtures: [])), request: IncomingRequest(method: "PUT", rawPath: "/__stubd/x", body: Array(body.utf8)),
                                      session: nil, parameters: [], query: []))
        }
        let refused = call("nope")
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""error": "expected a body like"#))
        #expect(called.value == 0)
        let answered = call(#"{"state": "on"}"#)
        #expect(answered.status == 200 && String(decoding: answered.body, as: UTF8.self).contains(#""x": "on""#))
        #expect(called.value == 1)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
