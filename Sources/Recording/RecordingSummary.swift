public import StubModel

/// What a recording did, printed when it stops (SIGINT/SIGTERM, or the admin API's stop): counts,
/// the files written, and the names of redacted values — never the values.
public struct RecordingSummary: Sendable, Equatable {
    /// The upstream recorded from.
    public var upstream: String
    /// The folder written to.
    public var out: String
    /// Requests answered by the upstream (each one recorded or counted below).
    public var requests = 0
    /// Requests the upstream did not answer (502 to the client, nothing written).
    public var upstreamFailures = 0
    /// Fixture files written (relative to `out`), sorted.
    public var files: [String] = []
    /// Distinct requests seen again with a different answer.
    public var repeatsWithOtherAnswers = 0
    /// Whether those were recorded as sequences (`--sequences`) or only their first answer kept.
    public var sequences = false
    /// Hand-written files that answer a request, so it was not recorded.
    public var keptHandWritten: [String] = []
    /// Names whose values were redacted (headers, query parameters, fields), sorted.
    public var redactedNames: [String] = []
    /// Bodies stored as sent because they could not be decoded, and failed writes.
    public var problems: [String] = []

    /// The lines a terminal shows.
    public var lines: [String] {
        var lines = ["recorded \(requests) request(s) from \(upstream) into \(out): \(files.count) fixture file(s) written"]
        if upstreamFailures > 0 { lines.append("\(upstreamFailures) request(s) got no answer from the upstream (502, nothing written)") }
        if repeatsWithOtherAnswers > 0 {
            lines.append(sequences ? "\(repeatsWithOtherAnswers) request(s) answered differently when repeated: recorded as responses sequences"
                                   : "\(repeatsWithOtherAnswers) request(s) answered differently when repeated: kept the first answer (--sequences records them all)")
        }
        if !keptHandWritten.isEmpty {
            lines.append("not recorded, a hand-written fixture answers them: \(keptHandWritten.joined(separator: ", ")) (--overwrite replaces a file of the same name)")
        }
        lines.append(redactedNames.isEmpty ? "redacted: nothing" : "redacted values of: \(redactedNames.joined(separator: ", "))")
        lines += problems
        return lines
    }

    /// The admin API's answer.
    public var json: JSONValue {
        .object([
            ("upstream", .string(upstream)), ("out", .string(out)), ("requests", .number(Double(requests))),
            ("upstreamFailures", .number(Double(upstreamFailures))), ("files", .array(files.map { .string($0) })),
            ("repeatsWithOtherAnswers", .number(Double(repeatsWithOtherAnswers))), ("sequences", .bool(sequences)),
            ("keptHandWritten", .array(keptHandWritten.map { .string($0) })),
            ("redactedNames", .array(redactedNames.map { .string($0) })), ("problems", .array(problems.map { .string($0) })),
        ])
    }
}
