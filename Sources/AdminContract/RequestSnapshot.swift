import Foundation
public import StubModel

/// What an app sent, in a canonical, diffable text: per request the method and path, the query
/// sorted, an allow-list of headers, and the body — JSON with sorted keys, form pairs sorted,
/// multipart parts by name, other text as it is — with secrets already redacted by the journal.
/// Two runs that sent the same requests give the same text, whatever the order of a dictionary's
/// keys or a query's parameters; what changed reads as a line diff. Shared by the server
/// (`GET /__stubd/requests/snapshot`, for tests in other languages) and the Swift kit.
public enum RequestSnapshot {
    /// Headers kept by default: the ones that change what a server does with a request; the rest
    /// (User-Agent, Date, connection headers, tracing ids) vary between runs and machines.
    public static let defaultHeaders = ["Accept", "Content-Type", "Authorization", "X-Api-Key"]

    /// The snapshot text of `requests`, oldest first.
    public static func text(_ requests: [RequestRecord], headers: [String] = defaultHeaders) -> String {
        requests.map { entry($0, headers: headers) }.joined(separator: "\n") + (requests.isEmpty ? "" : "\n")
    }

    static func entry(_ record: RequestRecord, headers kept: [String]) -> String {
        let components = URLComponents(string: record.url)
        var lines = ["\(record.method) \(components?.percentEncodedPath ?? record.path)"]
        let query = (components?.percentEncodedQueryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.sorted()
        if !query.isEmpty { lines.append("  query: " + query.joined(separator: "&")) }
        for name in kept {
            for header in record.headers where header.name.caseInsensitiveCompare(name) == .orderedSame {
                lines.append("  \(name): \(header.value)")
            }
        }
        if let body = body(record) { lines.append("  body: " + body) }
        return lines.joined(separator: "\n")
    }

    private static func body(_ record: RequestRecord) -> String? {
        if record.bodySize == 0 { return nil }
        guard let text = record.body else {
            return record.bodyNote.map { "(\($0))" } ?? "(\(record.bodySize) bytes, binary)"
        }
        let type = record.headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value.lowercased() ?? ""
        if let json = try? JSONParser.parse(Array(text.utf8)) {
            return JSONWriter.write(json.sortingKeys, pretty: false)
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return text.split(separator: "&").map(String.init).sorted().joined(separator: "&")
        }
        var shown = text
        if record.bodySize > text.utf8.count { shown += " … (\(record.bodySize) bytes in all)" }
        return shown.replacingOccurrences(of: "\r\n", with: "\\r\\n").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The lines where `expected` and `got` differ, as `- expected` / `+ got` around the first
    /// difference (and a count of the rest): what a failed snapshot shows.
    public static func diff(expected: String, got: String) -> String {
        let old = expected.components(separatedBy: "\n"), new = got.components(separatedBy: "\n")
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let removed = old[prefix..<(old.count - suffix)], added = new[prefix..<(new.count - suffix)]
        let context = prefix > 0 ? ["  " + old[prefix - 1]] : []
        return (context + removed.map { "- " + $0 } + added.map { "+ " + $0 }).joined(separator: "\n")
    }
}

/// `GET /__stubd/requests/snapshot`: the session's (or the filter's) requests as `RequestSnapshot`
/// text, for tests in any language to compare with a file.
public struct RequestSnapshotText: AdminBody {
    /// The canonical text.
    public let snapshot: String

    /// This text.
    public init(_ snapshot: String) {
        self.snapshot = snapshot
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        snapshot = try JSONFields(json, usage: "expected the snapshot object").string("snapshot")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("snapshot", .string(snapshot))]) }
}
