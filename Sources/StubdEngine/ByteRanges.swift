import StubdHTTP
import Foundation

/// `Range: bytes=…` on a route's answer (RFC 9110 §14): what AVPlayer, ExoPlayer and a browser's
/// `<audio>`/`<video>` send to seek. A single range of a 200 answer with a body is answered 206
/// with `Content-Range` and that slice; a range past the end 416 with `Content-Range: bytes */N`;
/// several ranges get the whole body (200), as RFC 9110 allows a server to; `If-Range` with an
/// `ETag` or `Last-Modified` the answer does not carry gets the whole body. Delay and dribble
/// apply to what is sent. Only requests that carry `Range` pay for it. HTTP semantics, not
/// routing: the server asks it for a route's answer (`StubHandler`), never for the admin API's.
public enum ByteRanges {
    /// The plan for `request` when its `Range` applies to `plan`'s answer; nil leaves it whole.
    public static func apply(to plan: ReplyPlan, request: IncomingRequest) -> ReplyPlan? {
        guard request.sentRange, request.method == "GET" || request.method == "HEAD", let header = request.header("Range"),
              case .response(let reply) = plan.content, reply.status == 200, !reply.body.isEmpty else { return nil }
        if let validator = request.header("If-Range"), !matches(validator, reply.headers) { return nil }
        let length = reply.body.count
        switch parse(header, length: length) {
        case .none:
            return nil
        case .unsatisfiable:
            var out = plan
            out.content = .response(PreparedReply(status: 416, headers: [NameValue("Content-Range", "bytes */\(length)")], body: []))
            out.dribble = nil
            return out
        case .range(let range):
            var headers = reply.headers.filter { !$0.name.equalsIgnoringCase("Content-Range") }
            headers.append(NameValue("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"))
            if !headers.contains(where: { $0.name.equalsIgnoringCase("Accept-Ranges") }) { headers.append(NameValue("Accept-Ranges", "bytes")) }
            var out = plan
            out.content = .response(PreparedReply(status: 206, headers: headers, body: Array(reply.body[range])))
            return out
        }
    }

    /// What a `Range` header asks of a body.
    public enum Parsed: Equatable {
        /// No usable byte range (another unit, a syntax error, several ranges): the whole body.
        case none
        /// No byte of the range exists.
        case unsatisfiable
        /// The bytes to send.
        case range(Range<Int>)
    }

    /// `bytes=0-99`, `bytes=500-`, `bytes=-200` against a body of `length` bytes. Positions are
    /// RFC 9110's `1*DIGIT` (no sign); one past `Int.max` reads as "more than there is", so
    /// `bytes=0-9223372036854775807` is the whole body from 0, as the RFC means it.
    public static func parse(_ header: String, length: Int) -> Parsed {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .none }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .none }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces), last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = CheckedNumber.decimalDigits(last) else { return .none }
            // No byte of an empty body can be sent (found by FuzzHTTPHead: an empty 0..<0 range).
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .range(max(0, length - min(suffix, length))..<length)
        }
        guard let start = CheckedNumber.decimalDigits(first) else { return .none }
        if last.isEmpty { return start < length ? .range(start..<length) : .unsatisfiable }
        guard let end = CheckedNumber.decimalDigits(last), end >= start else { return .none }
        guard start < length else { return .unsatisfiable }
        // `end` may be Int.max: clamp before the + 1.
        return .range(start..<(min(end, length - 1) + 1))
    }

    /// Whether `If-Range`'s validator is the answer's strong `ETag` or its `Last-Modified`.
    private static func matches(_ validator: String, _ headers: [NameValue]) -> Bool {
        let value = validator.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard !value.hasPrefix("W/"), let etag = headers.first(where: { $0.name.equalsIgnoringCase("ETag") })?.value else { return false }
            return etag.trimmingCharacters(in: .whitespaces) == value
        }
        return headers.first { $0.name.equalsIgnoringCase("Last-Modified") }?.value.trimmingCharacters(in: .whitespaces) == value
    }
}
