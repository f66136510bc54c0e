import AdminContract
import StubModel
import StubServer
import StubdTemplates

/// `PUT /__stubd/clock` (`{"now": "2026-01-01T09:00:00Z"}`), `DELETE /__stubd/clock` and `PUT
/// /__stubd/random`: the time and the random values templates see, fixed for one session (with
/// `X-Stubd-Session`) or for requests without one.
struct ClockAdmin {
    let state: SessionStore

    func set(_ setting: ClockSetting, session: SessionID?) throws(AdminRefusal) -> ClockReading {
        do {
            try state.templates.setClock(setting.now, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return ClockReading(now: ClockSetting.format(setting.now))
    }

    func clear(session: SessionID?) -> ClockReading {
        // Taking a clock away only gives bytes back.
        try? state.templates.setClock(nil, session: session)
        return ClockReading(now: "real time")
    }

    func seed(_ setting: SeedSetting, session: SessionID?) throws(AdminRefusal) -> SeedReading {
        do {
            try state.templates.setSeed(setting.seed, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return SeedReading(seed: setting.seed)
    }
}
