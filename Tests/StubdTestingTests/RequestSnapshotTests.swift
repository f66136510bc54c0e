import AdminContract
import Foundation
import StubModel
import StubdTestSupport
import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// Request snapshots: the canonical text (order of keys and parameters does not matter, secrets
/// stay redacted), written on the first run, matched after, a change shown as a diff.
@Suite(.tags(.socket)) struct RequestSnapshotTests {
    static func record(url: String, body: String?, type: String = "application/json") -> RequestRecord {
        var record = RequestRecord()
        record.sequence = 1
        record.method = "POST"
        record.url = url
        record.session = "s"
        record.headers = [NameValue("User-Agent", "x/1"), NameValue("Content-Type", type)]
        record.body = body
        record.bodySize = body?.utf8.count ?? 0
        record.matched = true
        record.status = 200
        record.latencyMs = 1
        return record
    }

    @Test func theTextIsCanonical() {
        let a = RequestSnapshot.text([Self.record(url: "/v2/items?b=2&a=1", body: #"{"z": 1, "a": {"y": [1, 2], "b": "[redacted]"}}"#)])
        let b = RequestSnapshot.text([Self.record(url: "/v2/items?a=1&b=2", body: #"{"a":{"b":"[redacted]","y":[1,2]},"z":1}"#)])
        #expect(a == b)
        #expect(a == "POST /v2/items\n  query: a=1&b=2\n  Content-Type: application/json\n  body: {\"a\":{\"b\":\"[redacted]\",\"y\":[1,2]},\"z\":1}\n", "\(a)")
        let form = RequestSnapshot.text([Self.record(url: "/f", body: "b=2&a=1", type: "application/x-www-form-urlencoded")])
        #expect(form.contains("body: a=1&b=2"))
        #expect(RequestSnapshot.diff(expected: "A\nB\nC", got: "A\nX\nC") == "  A\n- B\n+ X")
    }

    @Test func aSnapshotIsWrittenThenMatchedAndAChangeIsShown() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-snap-\(UUID().uuidString)")
        let testFile = folder.appendingPathComponent("LoginTests.swift").path
        func run(password: String) async throws -> Result<Void, any Error> {
            let session = try await Stubd.session(baseURL: stubd.url)
            try await session.stub(UserAPI.login(user: "ada", password: password))
            _ = try await AppClient.send(UserAPI.login(user: "ada", password: password), stubd: stubd.url, session: session.id)
            _ = try await AppClient.send(UserAPI.search(query: "swift stub", page: 2), stubd: stubd.url, session: session.id)
            let result: Result<Void, any Error>
            do {
                try await session.assertRequestsMatchSnapshot(named: "login", filePath: testFile)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            try await session.end()
            return result
        }
        if case .failure(let error) = try await run(password: "pw") { Issue.record("the first run failed: \(error)") }
        let file = folder.appendingPathComponent("__Snapshots__/LoginTests/login.txt").path
        let written = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        #expect(written.contains("POST /v2/session") && written.contains("GET /v2/search") && written.contains("query: page=2&q=swift%20stub"), "\(written)")
        #expect(!written.contains("\"pw\""), "the password is redacted: \(written)")
        // The same requests again: they match.
        if case .failure(let error) = try await run(password: "pw") { Issue.record("\(error)") }
        // The app now sends another user: the snapshot fails with the changed line.
        let session = try await Stubd.session(baseURL: stubd.url)
        _ = try await AppClient.send(UserAPI.login(user: "bob", password: "pw"), stubd: stubd.url, session: session.id)
        _ = try await AppClient.send(UserAPI.search(query: "swift stub", page: 2), stubd: stubd.url, session: session.id)
        do {
            try await session.assertRequestsMatchSnapshot(named: "login", filePath: testFile)
            Issue.record("a changed request matched the snapshot")
        } catch {
            #expect("\(error)".contains(#"- "#) && "\(error)".contains(#""bob""#) && "\(error)".contains("+ "), "\(error)")
        }
    }
}
