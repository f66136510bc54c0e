import Foundation
import StubModel
import StubdEngine

/// `PUT /__stubd/clock` (`{"now": "2026-01-01T09:00:00Z"}`) and `DELETE /__stubd/clock`: the
/// time templates see, fixed for one session (with `X-Stubd-Session`) or for requests without one.
struct ClockAdmin {
    let admin: StubAdmin

    func set(_ body: [UInt8], session: SessionID?) -> PreparedReply {
        guard case .string(let text)? = (try? JSONParser.parse(body))?["now"], let date = Self.parse(text) else {
            return AdminReply.error("expected a body like {\"now\": \"2026-01-01T09:00:00Z\"} (ISO 8601, with a zone)", status: 400)
        }
        admin.templates.setClock(date, session: session)
        return AdminReply.json(.object([("now", .string(Self.format(date)))]))
    }

    func clear(session: SessionID?) -> PreparedReply {
        admin.templates.setClock(nil, session: session)
        return AdminReply.json(.object([("now", .string("real time"))]))
    }

    /// `PUT /__stubd/random` (`{"seed": 42}`, or `{"seed": null}` for unpredictable values again).
    func seed(_ body: [UInt8], session: SessionID?) -> PreparedReply {
        guard let parsed = try? JSONParser.parse(body), let value = parsed["seed"] else {
            return AdminReply.error("expected a body like {\"seed\": 42}", status: 400)
        }
        switch value {
        case .null:
            admin.templates.setSeed(nil, session: session)
        case .number(let number) where number >= 0 && number == number.rounded() && number < 9_007_199_254_740_992:
            admin.templates.setSeed(UInt64(number), session: session)
        default:
            return AdminReply.error("seed must be a whole number from 0 to 2^53, or null", status: 400)
        }
        return AdminReply.json(.object([("seed", value)]))
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
