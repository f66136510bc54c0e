/// One event of a stream: SSE fields, or a line of NDJSON, or a chunk of text.
public struct StreamEvent: Sendable, Equatable {
    /// An event's payload: text as written, or a JSON value written compactly.
    public enum Payload: Sendable, Equatable {
        /// Text, written as it is (for SSE, one `data:` line per line of it).
        case text(String)
        /// JSON, written compactly on one line.
        case json(JSONValue)

        /// The payload as it goes on the wire.
        public var text: String {
            switch self {
            case .text(let text): return text
            case .json(let value): return JSONWriter.write(value, pretty: false)
            }
        }
    }

    /// The payload (`data:` lines, the NDJSON line, the chunk).
    public var data: Payload?
    /// SSE `event:` (the event's type).
    public var event: String?
    /// SSE `id:` (the last event id a reconnecting client sends back).
    public var id: String?
    /// SSE `retry:` in milliseconds.
    public var retry: Int?
    /// SSE comment (`: text`), e.g. a keep-alive.
    public var comment: String?
    /// Seconds before this event, replacing the stream's pacing for it.
    public var delay: Double?

    /// Creates an event.
    public init(data: Payload? = nil, event: String? = nil, id: String? = nil, retry: Int? = nil, comment: String? = nil, delay: Double? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.comment = comment
        self.delay = delay
    }

    /// An SSE event with JSON data and an optional type.
    public static func json(_ value: JSONValue, event: String? = nil) -> StreamEvent {
        StreamEvent(data: .json(value), event: event)
    }

    /// The event's bytes in `format`, with `data` (the payload, rendered when templated) in
    /// place of its own.
    ///
    /// SSE: a comment line, then `id:`, `event:`, `retry:`, one `data:` line per line of the
    /// payload (CR LF, CR and LF all end a line, as the SSE parser reads them), then a blank line.
    /// NDJSON: the payload and a newline. Chunked: the payload alone.
    public func encoded(as format: StubStream.Format, data payload: String? = nil) -> [UInt8] {
        let text = payload ?? data?.text
        switch format {
        case .sse:
            var out = ""
            if let comment { out += comment.isEmpty ? ":\n" : ": \(Self.oneLine(comment))\n" }
            if let id { out += "id: \(Self.oneLine(id))\n" }
            if let event { out += "event: \(Self.oneLine(event))\n" }
            if let retry { out += "retry: \(retry)\n" }
            if let text {
                for line in Self.lines(text) { out += "data: \(line)\n" }
            }
            return Array((out + "\n").utf8)
        case .ndjson:
            return Array(((text ?? "") + "\n").utf8)
        case .chunked:
            return Array((text ?? "").utf8)
        }
    }

    /// The lines of `text` as an SSE parser splits them (CR LF, LF, CR).
    static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\r" {
                lines.append(current)
                current = ""
                if pending == "\n" { pending = scalars.next() }
            } else if scalar == "\n" {
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    /// A field value that cannot start a new line.
    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
    }
}
