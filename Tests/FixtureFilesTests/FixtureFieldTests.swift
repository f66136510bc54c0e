import Foundation
public import Testing
@testable import FixtureFiles
public import StubModel
import StubdTestTags

/// `FixtureField` is the one list of the fixture format's fields: every row's example is read,
/// written and read back equal with its key in place; every part of a request pattern has a
/// row; and docs/FIXTURES.md documents exactly the table's fields.
@Suite(.tags(.inMemory))
struct FixtureFieldTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ text: String) throws(FixtureErrors) -> [Fixture] {
        try FixtureReader(file: "f.json") { _ throws(FixtureReader.FixtureProblem) in Array(#"{"id": 1}"#.utf8) }.read(Array(text.utf8))
    }

    /// The object a field of `object` lives in, within one written route.
    static func container(_ object: FixtureField.Object, in route: JSONValue) -> JSONValue? {
        switch object {
        case .route, .file: route
        case .request: route["request"]
        case .requestBody: route["request"]?["body"]
        case .response: route["response"] ?? route["responses"].flatMap { if case .array(let list) = $0 { list.first } else { nil } }
        }
    }

    @Test(arguments: FixtureField.all.filter { $0.example != nil })
    func everyFieldIsReadWrittenAndReadBack(field: FixtureField) throws {
        let fixtures = try Self.read(field.example!)
        let written = FixtureWriter.route(fixtures[0])
        if field.written {
            let object = try #require(Self.container(field.object, in: written), "\(field.documentedName): the written route has no \(field.object.rawValue)")
            #expect(object[field.key] != nil, "\(field.documentedName) is read but not written back: \(JSONWriter.write(written, pretty: false))")
        }
        let again = try Self.read(JSONWriter.write(written, pretty: false))
        #expect(again == fixtures, "\(field.documentedName) does not survive a write and a read")
    }

    @Test func everyKeyTheWriterWritesIsInTheTable() throws {
        for field in FixtureField.all where field.example != nil {
            let written = FixtureWriter.route(try Self.read(field.example!)[0])
            for object in [FixtureField.Object.route, .request, .requestBody, .response] {
                guard case .object(let members)? = Self.container(object, in: written) else { continue }
                let declared = Set(FixtureField.keys(of: object))
                #expect(members.allSatisfy { declared.contains($0.key) }, "\(field.documentedName)'s route writes \(object.rawValue) keys outside the table: \(members.map(\.key))")
            }
        }
    }

    @Test func everyRequestPartHasAField() throws {
        var kinds = Set<RequestPart.Kind>()
        for field in FixtureField.all where field.object == .request || field.object == .requestBody {
            for part in try Self.read(field.example!)[0].request.parts { kinds.insert(part.kind) }
        }
        #expect(kinds == Set(RequestPart.Kind.allCases), "request parts no field example reaches: \(Set(RequestPart.Kind.allCases).subtracting(kinds))")
    }

    @Test func theTableFailsAFieldItDoesNotKnow() {
        #expect(throws: FixtureErrors.self) { try Self.read(#"{"request": {"method": "GET", "path": "/p", "hostname": "x"}, "response": {}}"#) }
    }

    /// The names in the first column of FIXTURES.md's field table (`response.json` / `text`
    /// names `response.text` too), and the quoted keys of its `request.body` row.
    static func documented() throws -> (names: Set<String>, bodyRow: String) {
        let text = try String(contentsOf: root.appendingPathComponent("docs/FIXTURES.md"), encoding: .utf8)
        var names = Set<String>()
        var bodyRow = ""
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            let first = cells[1]
            let quoted = first.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let prefix = quoted.first.flatMap { $0.contains(".") ? String($0[..<$0.lastIndex(of: ".")!]) + "." : nil } ?? ""
            for name in quoted { names.insert(name.contains(".") ? name : prefix + name) }
            if quoted == ["request.body"] { bodyRow = String(line) }
        }
        return (names, bodyRow)
    }

    @Test func theManualDocumentsExactlyTheTable() throws {
        let (documented, bodyRow) = try Self.documented()
        let declared = Set(FixtureField.all.filter { $0.object != .requestBody }.map(\.documentedName))
        #expect(declared.subtracting(documented).isEmpty, "in FixtureField but not in docs/FIXTURES.md's table: \(declared.subtracting(documented).sorted())")
        #expect(documented.subtracting(declared).isEmpty, "in docs/FIXTURES.md's table but not in FixtureField: \(documented.subtracting(declared).sorted())")
        for field in FixtureField.all where field.object == .requestBody {
            #expect(bodyRow.contains("\"\(field.key)\""), "request.body's \(field.key) is not in docs/FIXTURES.md's request.body row")
        }
    }

    /// Issue 59: a route's field written inside its answer says where it belongs; a file that is
    /// an array names the object it should be; a path with CR LF and a host wildcard are refused.
    @Test func misplacedFieldsAndShapesNameTheFix() {
        func problem(_ text: String) -> String {
            do { _ = try Self.read(text); return "" } catch { return error.errors.map(\.description).joined(separator: "\n") }
        }
        #expect(problem(#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"text": "x", "delay": 1}}]}"#)
                    .contains(#"routes[0].response.delay: "delay" belongs on the route, beside "response""#))
        #expect(problem(#"[{"request": {"method": "GET", "path": "/a"}}]"#).contains(#"{"routes": [ … ]}"#))
        #expect(problem(#"{"routes": [{"request": {"method": "GET", "path": "/a\r\nb"}, "response": {"text": "x"}}]}"#).contains("control character U+000D"))
        #expect(problem(#"{"routes": [{"request": {"method": "GET", "path": "/a", "host": "*.x.test"}, "response": {"text": "x"}}]}"#)
                    .contains("host wildcards are not matched"))
    }
}

extension FixtureField: CustomTestStringConvertible {
    public var testDescription: String { documentedName }
}
