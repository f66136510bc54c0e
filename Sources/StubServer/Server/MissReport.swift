import StubModel

/// The 404 a request gets when no stub matches: JSON naming the request and the closest routes
/// with what differed in each, so the client or the fixture can be fixed in one look.
enum MissReport {
    static func reply(for request: IncomingRequest, nearMisses: [NearMiss]) -> PreparedReply {
        var members: [(key: String, value: JSONValue)] = [
            ("error", .string("no stub matches \(request.method) \(PathSegments(raw: request.rawPath))")),
            ("method", .string(request.method)),
            ("path", .string(request.rawPath)),
        ]
        if let query = request.rawQuery { members.append(("query", .string(query))) }
        members.append(("closest", .array(nearMisses.map { miss in
            let pattern = miss.route.fixture.request
            return .object([
                ("name", .string(miss.route.name)),
                ("source", .string(miss.route.fixture.source)),
                ("method", .string(pattern.method)),
                ("path", .string(pattern.path.description)),
                ("differences", .array(miss.differences.map { .string($0) })),
            ])
        })))
        let body = Array((JSONWriter.write(.object(members), pretty: true) + "\n").utf8)
        return PreparedReply(status: 404, headers: [NameValue("Content-Type", "application/json")], body: body)
    }

    /// `closest: zen (path: expected /zen, got /zenn)`, for the log line.
    static func logSummary(_ nearMisses: [NearMiss]) -> String {
        guard let first = nearMisses.first else { return "no routes loaded" }
        return "closest: \(first.route.name) (\(first.differences.joined(separator: "; ")))"
    }
}
