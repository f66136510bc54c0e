import Foundation
import StubModel
import StubdEngine

/// `PUT /__stubd/clock` (`{"now": "2026-01-01T09:00:00Z"}`) and `DELETE /__stubd/clock`: the
/// time templates see, fixed for one session (with `X-Stubd-Session`) or for requests without one.
struct ClockAdmin {
    let admin: StubAdmin

    func set(_ setting: ClockSetting, session: SessionID?) throws(AdminRefusal) -> ClockReading {
        do {
            try admin.templates.setClock(setting.now, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return ClockReading(now: Self.format(setting.now))
    }

    func clear(session: SessionID?) -> PreparedReply {
        // Taking a clock away only gives bytes back.
        try? admin.templates.setClock(nil, session: session)
        return AdminReply.json(ClockReading(now: "real time").json)
    }

    /// `PUT /__stubd/random` (`{"seed": 42}`, or `{"seed": null}` for unpredictable values again).
    func seed(_ setting: SeedSetting, session: SessionID?) throws(AdminRefusal) -> SeedReading {
        do {
            try admin.templates.setSeed(setting.seed, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return SeedReading(seed: setting.seed)
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
