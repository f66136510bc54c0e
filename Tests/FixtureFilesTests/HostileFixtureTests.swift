import Foundation
import Testing
@testable import FixtureFiles
import StubModel
import StubdTestTags

/// Fixtures that would lie about what is served are refused (or reported) with their
/// `file: field: problem` line.
@Suite(.tags(.inMemory))
struct HostileFixtureTests {
    static func loadError(_ bytes: [UInt8]) throws -> String? {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(bytes).write(to: root.appendingPathComponent("bad.json"))
        do {
            _ = try FixtureLoader.load(paths: [root.path])
            return nil
        } catch {
            return error.description.replacingOccurrences(of: root.path, with: "ROOT")
        }
    }

    @Test func invalidUTF8IsRefusedWithItsLineAndColumn() throws {
        let bytes = Array(#"{"request": {"method": "GET", "path": "/a"},"#.utf8) + [10] + Array(#" "response": {"text": "caf"#.utf8) + [0xE9]
            + Array(#""}}"#.utf8)
        #expect(try Self.loadError(bytes) == "ROOT/bad.json: invalid JSON at line 2, column 27: invalid UTF-8 (byte 0xE9); save the file as UTF-8")
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"request": {"method": "GET", "path": "/a"}, "response": {"text": "ok"}}"#.utf8)
        #expect(try Self.loadError(bytes) == nil)
    }

    @Test func aNonTextByteIsNamedAsAByte() throws {
        #expect(try Self.loadError([0xFF, 0xFE, 0x7B]) == "ROOT/bad.json: invalid JSON at line 1, column 1: unexpected byte 0xFF; expected a value")
    }

    @Test(arguments: [
        (#"{"request": {"method": "GET", "path": "/a"}, "response": {"headers": {"X Bad": "v"}}}"#,
         #"ROOT/bad.json: response.headers.X Bad: "X Bad" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only; no spaces or colons)"#),
        (#"{"request": {"method": "GET", "path": "/a"}, "response": {"headers": {"X-Split": "a\r\nSet-Cookie: b"}}}"#,
         "ROOT/bad.json: response.headers.X-Split: the value contains a carriage return (CR), which HTTP header values cannot carry; remove it"),
        (#"{"request": {"method": "GET", "path": "/a"}, "response": {"headers": {"X-Nul": "a\u0000b"}}}"#,
         "ROOT/bad.json: response.headers.X-Nul: the value contains the control character U+0, which HTTP header values cannot carry; remove it"),
        (#"{"request": {"method": "GET", "path": "/__stubd/routes"}, "response": {}}"#,
         #"ROOT/bad.json: request.path: "/__stubd/routes" is under /__stubd/, which is the admin API's; no stub is ever served there. Use another path"#),
        (#"{"request": {"method": "GET", "pathTemplate": "/__stubd/{x}"}, "response": {}}"#,
         #"ROOT/bad.json: request.pathTemplate: "/__stubd/{x}" is under /__stubd/, which is the admin API's; no stub is ever served there. Use another path"#),
    ])
    func badHeadersAndAdminPathsAreRefused(fixture: String, expected: String) throws {
        #expect(try Self.loadError(Array(fixture.utf8)) == expected)
    }

    @Test func filesThatLookLikeFixturesButAreNotReadAreReported() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-unread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["a.json", "b.JSON", "c.yaml", "d.yml", "notes.txt", "__files/body.yaml"] {
            try Data("{}".utf8).write(to: root.appendingPathComponent(name))
        }
        let warnings = FixtureLoader.unreadFileWarnings(paths: [root.path]).map { $0.replacingOccurrences(of: root.path, with: "ROOT") }
        #expect(warnings == [
            "ROOT/b.JSON: not read; rename it to end in .json (lower case)",
            "ROOT/c.yaml: not read; stubd reads JSON fixtures (*.json) only; convert it, or move it under __files/ if it is a body",
            "ROOT/d.yml: not read; stubd reads JSON fixtures (*.json) only; convert it, or move it under __files/ if it is a body",
        ])
    }

    @Test func aFolderOfThousandsOfFilesWithLongNamesIsWalkedWhole() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<3000 {
            let name = String(repeating: "x", count: index % 200) + "-\(index).json"
            try Data(#"{"request": {"method": "GET", "path": "/r/\#(index)"}, "response": {}}"#.utf8).write(to: root.appendingPathComponent(name))
        }
        #expect(FixtureLoader.fixtureFiles(under: root.path).count == 3000)
        #expect(try FixtureLoader.load(paths: [root.path]).count == 3000)
    }
}

/// Authoring mistakes are all reported in one run, and common slips get a hint.
@Suite(.tags(.inMemory))
struct FixtureAuthoringTests {
    @Test func everyProblemOfEveryRouteAndFileIsReportedAtOnce() throws {
        let fixtures = try TemporaryFixtures([
            "a.json": #"""
                {"routes": [
                  {"request": {"method": "get", "path": "users"}, "response": {"status": 700}},
                  {"request": {"method": "GET", "path": "/ok"}, "response": {"text": "fine"}},
                  {"request": {"method": "GET", "path": "/b"}, "fault": "rest", "delay": "soon"}
                ]}
                """#,
            "b.json": #"{"request": {"method": "GET", "path": "/c", "query": 5}, "response": {"text": "x"}, "priority": 0}"#,
        ])
        let lines = (fixtures.loadError() ?? "").split(separator: "\n").map(String.init)
        #expect(lines == [
            #"ROOT/a.json: routes[0].request.method: "get" is not an HTTP method; use upper case, e.g. "GET" or "POST""#,
            #"ROOT/a.json: routes[0].request.path: "users" must start with "/""#,
            "ROOT/a.json: routes[0].response.status: expected an integer from 100 to 599, found 700",
            "ROOT/a.json: routes[2].fault: unknown fault \"rest\"; use one of reset, empty, truncated, badChunk, garbage, hang",
            #"ROOT/a.json: routes[2].delay: expected seconds from 0 to 3600 as a number (0.5) or with a unit ("500ms", "0.5s"), found "soon""#,
            "ROOT/b.json: request.query: expected an object of name: value (or name: [values]), found a number",
            "ROOT/b.json: priority: expected an integer from 1 (highest) upward, found 0; routes without one have 5",
        ])
    }

    @Test func delaysTakeAUnit() throws {
        let fixtures = try TemporaryFixtures(["a.json": #"""
            {"routes": [
              {"request": {"method": "GET", "path": "/ms"}, "response": {}, "delay": "1500ms"},
              {"request": {"method": "GET", "path": "/s"}, "response": {}, "delay": "1.5s"},
              {"request": {"method": "GET", "path": "/n"}, "response": {}, "delay": 1.5}
            ]}
            """#])
        #expect(try FixtureLoader.load(paths: [fixtures.root]).map(\.delay) == [1.5, 1.5, 1.5])
    }
}
