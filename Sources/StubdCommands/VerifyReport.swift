import Foundation
import StubModel
import StubdSystem

/// `stubd verify`'s findings as files CI reads: JSON (`--json FILE`) for scripts, JUnit XML
/// (`--junit FILE`) for the test-report views of GitHub Actions, GitLab, Jenkins and Xcode Cloud —
/// one test case per route checked, a failure per drifted route, skipped routes as skipped. Like
/// the printed report they hold paths and kinds of drift, never live values.
struct VerifyReport {
    /// One route's outcome.
    struct Route {
        let name: String
        let source: String
        let method: String
        let path: String
        /// Nil: not sent (not concrete or not safe); empty: no drift.
        let drift: [String]?
    }

    var routes: [Route] = []
    let upstream: String

    var json: JSONValue {
        .object([
            ("upstream", .string(upstream)),
            ("checked", .number(Double(routes.filter { $0.drift != nil }.count))),
            ("drifted", .number(Double(routes.filter { !($0.drift?.isEmpty ?? true) }.count))),
            ("skipped", .number(Double(routes.filter { $0.drift == nil }.count))),
            ("routes", .array(routes.map { route in
                var members: [(key: String, value: JSONValue)] = [("name", .string(route.name)), ("source", .string(route.source)),
                                                                  ("method", .string(route.method)), ("path", .string(route.path))]
                if let drift = route.drift { members.append(("drift", .array(drift.map { .string($0) }))) } else { members.append(("skipped", .bool(true))) }
                return .object(members)
            })),
        ])
    }

    var junit: String {
        let failures = routes.filter { !($0.drift?.isEmpty ?? true) }.count
        let skipped = routes.filter { $0.drift == nil }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"stubd verify\" tests=\"\(routes.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(Self.escape("fixtures against \(upstream)"))\" tests=\"\(routes.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
        for route in routes {
            xml += "    <testcase classname=\"\(Self.escape(route.source))\" name=\"\(Self.escape("\(route.name) \(route.method) \(route.path)"))\""
            guard let drift = route.drift else {
                xml += ">\n      <skipped message=\"not concrete or not safe to send\"/>\n    </testcase>\n"
                continue
            }
            if drift.isEmpty {
                xml += "/>\n"
            } else {
                xml += ">\n      <failure message=\"\(Self.escape("drifted from the fixture: \(drift.count) change(s)"))\">\(Self.escape(drift.joined(separator: "\n")))</failure>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    static func escape(_ text: String) -> String { MarkupEscaping.escape(text) }

    /// Writes `text` whole to `path` (a reader never sees half a report).
    static func write(_ text: String, to path: String, flag: String) throws {
        do {
            try System.writeFileDurably(Array(text.utf8), to: path)
        } catch {
            printError("stubd: error: \(flag) \(path) cannot be written (\(error)); give a path in a folder you can write")
            throw error
        }
    }
}
