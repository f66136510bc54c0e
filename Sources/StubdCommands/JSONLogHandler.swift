import Foundation
import Logging
import StubModel

/// `--log-format json`: one JSON object per line on standard error — `time`, `level`, `message`
/// and the line's fields (`method`, `url`, `status`, `route`, `latencyMs`, …) — for CI systems
/// that index logs.
struct JSONLogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var members: [(key: String, value: JSONValue)] = [
            ("time", .string(Self.timestamp())),
            ("level", .string(event.level.rawValue)),
            ("message", .string(event.message.description)),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            members.append((key, Self.json(merged[key]!)))
        }
        let line = JSONWriter.write(.object(members), pretty: false) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let value):
            if let number = value as? Double { return .number(number) }
            if let number = value as? Int { return .number(Double(number)) }
            if let flag = value as? Bool { return .bool(flag) }
            return .string(value.description)
        case .array(let values): return .array(values.map(json))
        case .dictionary(let values): return .object(values.keys.sorted().map { ($0, json(values[$0]!)) })
        }
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
