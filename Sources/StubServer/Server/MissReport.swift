import StubModel
import StubdEngine

/// The 404 a request gets when no stub matches: JSON naming the request and the closest routes
/// with what differed in each, so the client or the fixture can be fixed in one look.
enum MissReport {
    /// Characters of one difference the report echoes; the rest is counted, not sent.
    static let differenceLimit = 1024

    static func reply(for request: IncomingRequest, nearMisses: [NearMiss], redactor: Redactor) -> PreparedReply {
        var members: [(key: String, value: JSONValue)] = [
            ("error", .string("no stub matches \(request.method) \(PathSegments(raw: request.rawPath))")),
            ("method", .string(request.method)),
            ("path", .string(request.rawPath)),
        ]
        if let query = request.rawQuery { members.append(("query", .string(Self.cut(redactor.query(query))))) }
        members.append(("closest", .array(nearMisses.map { miss in
            let pattern = miss.route.fixture.request
            return .object([
                ("name", .string(miss.route.name)),
                ("source", .string(miss.route.fixture.source)),
                ("method", .string(pattern.method)),
                ("path", .string(pattern.path.description)),
                ("differences", .array(miss.differences.map { .string(Self.cut($0)) })),
            ])
        })))
        let body = Array((JSONWriter.write(.object(members), pretty: true) + "\n").utf8)
        return PreparedReply(status: 404, headers: [NameValue("Content-Type", "application/json")], body: body)
    }

    /// `text`, or its first `differenceLimit` characters and how many more there were.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > differenceLimit else { return text }
        let kept = String(text.prefix(differenceLimit))
        return kept + "… (\(text.count - kept.count) more characters not shown)"
    }

    /// `closest: zen (path: expected /zen, got /zenn)`, for the log line.
    static func logSummary(_ nearMisses: [NearMiss]) -> String {
        guard let first = nearMisses.first else { return "no routes loaded" }
        return cut("closest: \(first.route.name) (\(first.differences.joined(separator: "; ")))")
    }
}
