import Foundation
import Testing
import StubModel
@testable import AdminContract
import StubdTestTags

/// The admin API's typed bodies, without a socket: what reads, what is refused and with which
/// field named, what the answers write, and how a call's path is filled. Server and kit share
/// these declarations, so what one writes the other reads.
@Suite(.tags(.inMemory)) struct AdminBodiesTests {
    static func read<Body: AdminBody>(_ type: Body.Type, _ text: String) throws -> Body {
        try Body(json: JSONParser.parse(Array(text.utf8)))
    }

    static func refusal<Body: AdminBody>(_ type: Body.Type, _ text: String) -> String? {
        guard let json = try? JSONParser.parse(Array(text.utf8)) else { return "not JSON" }
        do throws(AdminBodyProblem) {
            _ = try Body(json: json)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func scenarioClockAndSeedBodiesRead() throws {
        #expect(try Self.read(ScenarioChange.self, #"{"state": "Step 2"}"#).state == "Step 2")
        #expect(try Self.read(ClockSetting.self, #"{"now": "2026-01-01T09:00:00Z"}"#).now == Date(timeIntervalSince1970: 1_767_258_000))
        #expect(try Self.read(ClockSetting.self, #"{"now": "2026-01-01T09:00:00.500+01:00"}"#).now == Date(timeIntervalSince1970: 1_767_254_400.5))
        #expect(try Self.read(SeedSetting.self, #"{"seed": 42}"#).seed == 42)
        #expect(try Self.read(SeedSetting.self, #"{"seed": null}"#).seed == nil)
        #expect(try Self.read(CollectionItems.self, #"[{"id": 1}, {"id": "b"}]"#).items.count == 2)
    }

    @Test func badBodiesAreRefusedWithWhatABodyLooksLike() {
        #expect(Self.refusal(ScenarioChange.self, "[]") == #"expected a body like {"state": "Step 2"}"#)
        #expect(Self.refusal(ScenarioChange.self, #"{"state": 2}"#) == "state: expected a string")
        #expect(Self.refusal(ClockSetting.self, #"{"now": "tomorrow"}"#)?.hasPrefix(#"expected a body like {"now": "#) == true)
        #expect(Self.refusal(ClockSetting.self, #"{"now": "2026-01-01T09:00:00"}"#) != nil, "a time without a zone")
        #expect(Self.refusal(SeedSetting.self, "{}") == #"expected a body like {"seed": 42}"#)
        #expect(Self.refusal(SeedSetting.self, #"{"seed": -1}"#) == "seed must be a whole number from 0 to 2^53, or null")
        #expect(Self.refusal(SeedSetting.self, #"{"seed": 1.5}"#) == "seed must be a whole number from 0 to 2^53, or null")
        #expect(Self.refusal(CollectionItems.self, #"{"id": 1}"#) == "expected a JSON array of objects")
    }

    @Test func aRecordingStartNamesTheFieldThatDoesNotRead() throws {
        let start = try Self.read(RecordingStart.self, #"{"upstream": "https://api.example.com", "out": "rec", "sequences": true, "keep": ["X-Id"], "overwrite": true}"#)
        #expect(start.upstream == "https://api.example.com")
        #expect(start.out == "rec" && start.sequences && start.overwrite && start.keep == ["X-Id"])
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "outt": "x"}"#) == "outt: unknown field; allowed: upstream, out, sequences, keep, overwrite")
        #expect(Self.refusal(RecordingStart.self, #"{"out": "x"}"#)?.hasPrefix("upstream: missing") == true)
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "out": ""}"#) == "out: expected a folder path")
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "sequences": "yes"}"#) == "sequences: expected true or false")
        #expect(Self.refusal(RecordingStart.self, #"{"upstream": "u", "keep": "X-Id"}"#) == "keep: expected an array")
        #expect(Self.refusal(RecordingStart.self, "[]")?.hasPrefix("expected a body like") == true)
    }

    @Test func aFixtureWriteNeedsAPlainNameAndADocument() throws {
        let write = try Self.read(FixtureWrite.self, #"{"file": "users.json", "document": {"routes": []}}"#)
        #expect(write.file == "users.json" && !write.overwrite)
        #expect(Self.refusal(FixtureWrite.self, #"{"file": "../x.json", "document": {}}"#)?.hasPrefix("file: give a plain file name") == true)
        #expect(Self.refusal(FixtureWrite.self, #"{"file": "x.json"}"#) == "document: missing; give the fixture file's content")
        #expect(Self.refusal(FixtureWrite.self, "[1]")?.hasPrefix("the body is not a JSON object") == true)
    }

    @Test func answersWriteTheDocumentedJSON() {
        #expect(JSONWriter.write(ScenarioSet(name: "login", state: "Step 2").json, pretty: false) == #"{"login":"Step 2"}"#)
        #expect(JSONWriter.write(SeedReading(seed: nil).json, pretty: false) == #"{"seed":null}"#)
        #expect(JSONWriter.write(SeedReading(seed: 7).json, pretty: false) == #"{"seed":7}"#)
        #expect(JSONWriter.write(CollectionCount(name: "users", count: 3).json, pretty: false) == #"{"name":"users","count":3}"#)
    }

    @Test func aCallsPathIsFilledOneEncodedSegmentPerParameter() {
        #expect(AdminContract.replaceRoute.path("r12") == "routes/r12")
        #expect(AdminContract.setScenario.path("log in/out") == "scenarios/log%20in%2Fout")
        #expect(AdminContract.health.path() == "health")
        #expect(AdminContract.setScenario.spec.description == "PUT /__stubd/scenarios/{name}")
        #expect(AdminContract.setScenario.spec.request == "ScenarioChange" && AdminContract.setScenario.spec.response == "ScenarioSet")
    }

    @Test func everyDeclaredCallIsListedOnce() {
        let described = AdminContract.all.map(\.description)
        #expect(Set(described).count == described.count, "no endpoint twice")
        #expect(described.allSatisfy { AdminContract.isAdmin(String($0.split(separator: " ")[1])) })
    }

    @Test func theAdminPathIsTheExactPrefixByBytes() {
        for (path, admin) in [("/__stubd", true), ("/__stubd/", true), ("/__stubd/routes?x=1", true), ("/__stubd/\u{301}", true),
                              ("/__stubdx", false), ("/__stub", false), ("/__STUBD/routes", false), ("/", false), ("", false),
                              ("/a/__stubd/", false)] {
            #expect(AdminContract.isAdmin(path) == admin, "\(path)")
        }
    }
}
