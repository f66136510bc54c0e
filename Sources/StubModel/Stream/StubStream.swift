/// A response sent as a series of events over time: Server-Sent Events, NDJSON lines, or plain
/// chunks of a chunked body — the head at once, then each event after its pause, each written
/// to the socket as its own piece.
///
/// The stream is a value of the fixture; what one request receives (pauses drawn with the
/// session's seed, templates rendered, the fault applied) is worked out per request by the
/// server and handed to the engine as a script of timed writes.
public struct StubStream: Sendable, Equatable {
    /// How events are framed on the wire.
    public enum Format: String, Sendable, CaseIterable {
        /// `text/event-stream`: `id:`/`event:`/`retry:`/`data:` lines, a blank line after each event.
        case sse
        /// `application/x-ndjson`: one JSON value (or text) per line.
        case ndjson
        /// Plain chunked text: each event's data as it is, nothing added.
        case chunked

        /// The `Content-Type` sent when the fixture names none.
        public var contentType: String {
            switch self {
            case .sse: return "text/event-stream; charset=utf-8"
            case .ndjson: return "application/x-ndjson"
            case .chunked: return "text/plain; charset=utf-8"
            }
        }
    }

    /// The status of the head (200 unless said).
    public var status: Int
    /// Headers of the head, in order (`Content-Type` and `Cache-Control` added for the format
    /// when the fixture gives none).
    public var headers: [NameValue]
    /// How events are framed.
    public var format: Format
    /// The events, in order.
    public var events: [StreamEvent]
    /// When each event goes.
    public var pacing: StreamPacing
    /// Cut each event's bytes into two writes at a place clients must reassemble, if set.
    public var split: StreamSplit?
    /// What goes wrong inside the stream, if anything.
    public var fault: StreamFault?
    /// Whether event data are templates (`"template": true`), rendered per request.
    public var template: Bool

    /// Creates a stream.
    public init(status: Int = 200, headers: [NameValue] = [], format: Format = .sse, events: [StreamEvent],
                pacing: StreamPacing = StreamPacing(), split: StreamSplit? = nil, fault: StreamFault? = nil, template: Bool = false) {
        self.status = status
        self.headers = headers
        self.format = format
        self.events = events
        self.pacing = pacing
        self.split = split
        self.fault = fault
        self.template = template
    }

    /// `headers` with the format's `Content-Type`, `Cache-Control: no-cache` and
    /// `X-Content-Type-Options: nosniff` added where the fixture gives none (proxies and browsers
    /// must neither buffer nor sniff a stream).
    public static func headersWithDefaults(_ headers: [NameValue], format: Format) -> [NameValue] {
        var out = headers
        func add(_ name: String, _ value: String) {
            if !out.contains(where: { $0.name.equalsIgnoringCase(name) }) { out.append(NameValue(name, value)) }
        }
        add("Content-Type", format.contentType)
        add("Cache-Control", "no-cache")
        add("X-Content-Type-Options", "nosniff")
        return out
    }
}

/// When a stream's events go: the first after `first` seconds, each next one `between` seconds
/// after the one before, each pause moved by up to ± `jitter` seconds — drawn from the session's
/// seeded random sequence (`PUT /__stubd/seed`), so a seeded test sees the same pauses every run.
/// An event's own `delay` replaces the pause before it.
public struct StreamPacing: Sendable, Equatable {
    /// Seconds from the head to the first event (time to first token).
    public var first: Double
    /// Seconds between events.
    public var between: Double
    /// Largest change, either way, to each pause (never below 0).
    public var jitter: Double

    /// Creates a pacing; the default sends every event at once.
    public init(first: Double = 0, between: Double = 0, jitter: Double = 0) {
        self.first = first
        self.between = between
        self.jitter = jitter
    }

    /// The pause before event `index` (0-based) whose own delay is `own`, with `random` a value
    /// in 0..<1 for the jitter.
    public func pause(before index: Int, own: Double?, random: Double) -> Double {
        let base = own ?? (index == 0 ? first : between)
        guard jitter > 0 else { return base }
        return max(0, base + (random * 2 - 1) * jitter)
    }
}

/// Where an event's bytes are cut into two writes, so a client must join pieces to read it — the
/// bug class of stream parsers that decode each read on its own.
public enum StreamSplit: String, Sendable, CaseIterable {
    /// Inside the event's first multi-byte UTF-8 character (the middle of the event if it has none).
    case utf8
    /// Inside the event's first line, before its end.
    case line

    /// Pause between the two pieces, long enough that they arrive in separate reads.
    public static let gap = 0.02

    /// The offset at which `bytes` are cut (0 < offset < count), or nil for fewer than 2 bytes.
    public func cut(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        switch self {
        case .utf8:
            // The first lead byte of a multi-byte character: cut after it.
            if let lead = bytes.firstIndex(where: { $0 >= 0xC0 }), lead + 1 < bytes.count { return lead + 1 }
            return bytes.count / 2
        case .line:
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            return max(1, min(end, bytes.count - 1) / 2 + (end > 1 ? 1 : 0))
        }
    }
}

/// What goes wrong inside a stream, after `after` events have been sent.
public struct StreamFault: Sendable, Equatable {
    /// The ways a stream can fail.
    public enum Kind: String, Sendable, CaseIterable {
        /// TCP reset (RST) after the events sent: a connection error mid-stream.
        case reset
        /// Close the connection (FIN) without ending the chunked body: an incomplete transfer.
        case close
        /// Send nothing more and hold the connection: `seconds` later (or at the hang cap) it is
        /// closed without ending the body. A client with a read timeout reports a timeout.
        case stall
        /// Send the next event malformed — its data cut after half its characters, its SSE type
        /// kept — then go on with the rest.
        case malformed
        /// End the body properly, leaving the remaining events out (no `[DONE]`, no `message_stop`).
        case end
    }

    /// Which failure.
    public var kind: Kind
    /// Events sent before it (0: right after the head).
    public var after: Int
    /// For `stall`: seconds before the connection is closed (nil: the server's hang cap).
    public var seconds: Double?

    /// Creates a fault.
    public init(_ kind: Kind, after: Int, seconds: Double? = nil) {
        self.kind = kind
        self.after = after
        self.seconds = seconds
    }

    /// `event` made malformed in `format`: its other fields kept (an SSE client still dispatches
    /// it by type), its data cut after half its characters — JSON that does not parse, a line that
    /// stops short. Data that is empty becomes a cut-off JSON value of stubd's own.
    public static func malformed(_ event: StreamEvent, payload: String?, format: StubStream.Format) -> [UInt8] {
        let text = payload ?? event.data?.text ?? ""
        let cut = text.count >= 2 ? String(text.prefix(text.count / 2)) : "{\"stubd\": \"malformed\", \"cut\": "
        var broken = event
        broken.data = .text(cut)
        return broken.encoded(as: format, data: cut)
    }
}
