public import StubdHTTP

/// How a fault goes on the wire: the one engine-level choice the Delivery stage makes for a fault.
public enum FaultSending: Sendable, Equatable {
    /// As the fixture wrote it: a reset is a reset.
    case authored
    /// A fault that sends no byte (`reset`, `empty`; `hang` when its cap ends it) sent as a
    /// response instead, which no client re-sends: every client measured re-sends some request
    /// that got no byte at all, so a sequence's fault step would be skipped (docs/FAULTS.md,
    /// "Fault steps and client re-sends"). This one fails before any status whatever the method:
    /// a `502` head with two different non-zero lengths (RFC 9112 §6.3: unrecoverable), so a
    /// browser navigation shows its error page and code that checks only the status sees the
    /// failure (a fault step's default, `"faultSteps": "beforeStatus"`). Faults that send bytes
    /// go as authored.
    case beforeStatus
    /// The same, but failing inside the body: a `200` head promising one byte, then the close
    /// (a route's `"faultSteps": "inBody"`). HEAD, whose answer has no body to cut, gets the
    /// `beforeStatus` head.
    case cutShort

    /// Whether `fault` is sent as a response under this choice (failing before the status, or
    /// cut short) instead of as authored: only a fault that sends no byte is.
    public func replacesNoByte(_ fault: Fault) -> Bool { self != .authored && fault.sendsNoResponse }
}
