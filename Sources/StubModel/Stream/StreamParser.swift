import Foundation

/// Reads a streamed body back into events — SSE as an `EventSource` parses it, NDJSON line by
/// line — each with the pause before it, taken from when its last byte arrived: what recording
/// stores so that replay keeps the upstream's timing.
public enum StreamParser {
    /// The format a `Content-Type` names, if it is a stream stubd records as events.
    public static func format(contentType: String) -> StubStream.Format? {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "text/event-stream": return .sse
        case "application/x-ndjson", "application/jsonl", "application/json-seq", "application/stream+json": return .ndjson
        default: return nil
        }
    }

    /// The events of `body` in `format`, each with `delay` = seconds from the previous event's
    /// arrival (the first: from the head), rounded to the millisecond. Bytes after the last
    /// complete event are kept as a last event only for NDJSON (an SSE event without its blank
    /// line is not dispatched by clients either).
    public static func events(_ body: [UInt8], format: StubStream.Format, arrivals: [StreamArrival]) -> [StreamEvent] {
        var events: [(event: StreamEvent, end: Int)] = []
        switch format {
        case .sse: events = sse(body)
        case .ndjson, .chunked:
            var start = 0
            for (index, byte) in body.enumerated() where byte == UInt8(ascii: "\n") {
                let line = Array(body[start..<index]).trimmingCR
                if !line.isEmpty { events.append((StreamEvent(data: payload(line)), index + 1)) }
                start = index + 1
            }
            if start < body.count { events.append((StreamEvent(data: payload(Array(body[start...]))), body.count)) }
        }
        var previous = 0.0
        return events.map { item in
            let at = arrivals.first { $0.end >= item.end }?.seconds ?? arrivals.last?.seconds ?? previous
            var event = item.event
            event.delay = max(0, ((at - previous) * 1000).rounded() / 1000)
            previous = at
            return event
        }
    }

    /// Data as JSON when it is a JSON document written exactly as stubd writes it compactly (so
    /// replay sends the same bytes), else as text.
    private static func payload(_ bytes: [UInt8]) -> StreamEvent.Payload {
        let text = String(decoding: bytes, as: UTF8.self)
        if let json = try? JSONParser.parse(bytes), json.isDocument, JSONWriter.write(json, pretty: false) == text { return .json(json) }
        return .text(text)
    }

    /// SSE per the WHATWG parsing rules: lines end at CR LF, LF or CR; `field: value` (one space
    /// after the colon dropped); `data` lines joined with LF; a line starting with `:` is a
    /// comment; a blank line ends the event. Returns each event with the offset just past it.
    private static func sse(_ body: [UInt8]) -> [(event: StreamEvent, end: Int)] {
        var out: [(event: StreamEvent, end: Int)] = []
        var event = StreamEvent()
        var data: [String] = []
        var touched = false
        var index = 0
        var lineStart = 0
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index += 1
                continue
            }
            let line = Array(body[lineStart..<index])
            index += 1
            if byte == UInt8(ascii: "\r"), index < body.count, body[index] == UInt8(ascii: "\n") { index += 1 }
            lineStart = index
            if line.isEmpty {
                if touched {
                    if !data.isEmpty { event.data = payload(Array(data.joined(separator: "\n").utf8)) }
                    out.append((event, index))
                }
                event = StreamEvent()
                data = []
                touched = false
                continue
            }
            touched = true
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix(":") {
                let comment = text.dropFirst()
                event.comment = String(comment.hasPrefix(" ") ? comment.dropFirst() : comment)
                continue
            }
            let name: String
            var value: String
            if let colon = text.firstIndex(of: ":") {
                name = String(text[..<colon])
                value = String(text[text.index(after: colon)...])
                if value.hasPrefix(" ") { value.removeFirst() }
            } else {
                (name, value) = (text, "")
            }
            switch name {
            case "data": data.append(value)
            case "event": event.event = value
            case "id": event.id = value
            case "retry": event.retry = Int(value)
            default: break
            }
        }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Without a final CR (a CR LF line ending's).
    fileprivate var trimmingCR: [UInt8] { last == UInt8(ascii: "\r") ? Array(dropLast()) : self }
}
