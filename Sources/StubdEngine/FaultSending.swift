public import StubdHTTP

/// How a fault goes on the wire: the one engine-level choice the Delivery stage makes for a fault.
public enum FaultSending: Sendable, Equatable {
    /// As the fixture wrote it: a reset is a reset.
    case authored
    /// A fault that sends no byte (`reset`, `empty`; `hang` when its cap ends it) sent as a
    /// response cut short instead, which no client re-sends: every client measured re-sends some
    /// request that got no byte at all, so a sequence's fault step would be skipped
    /// (docs/FAULTS.md, "How a fault step is sent"). For a request whose answer has a body: a
    /// `200` head promising one byte, then the close. For HEAD, whose answer has no body to cut:
    /// a head with two different lengths (RFC 9112 §6.3: unrecoverable). Faults that send bytes go
    /// as authored.
    case cutShort
    /// The same, but failing before any status whatever the method: a head with two different
    /// lengths (what HEAD gets cut short), so a browser navigation shows its error page and code
    /// that checks only the status sees the failure (a route's `"faultSteps": "beforeStatus"`).
    case beforeStatus

    /// Whether `fault` is sent as a response under this choice (cut short, or failing before the
    /// status) instead of as authored: only a fault that sends no byte is.
    public func cutsShort(_ fault: Fault) -> Bool { self != .authored && fault.sendsNoResponse }
}
