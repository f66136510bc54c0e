public import StubdHTTP

/// How a fault goes on the wire: the one engine-level choice the Delivery stage makes for a fault.
public enum FaultSending: Sendable, Equatable {
    /// As the fixture wrote it: a reset is a reset.
    case authored
    /// A fault that sends no byte (`reset`, `empty`; `hang` when its cap ends it) sent as a head
    /// whose framing is broken instead — two different `Content-Length`s, which RFC 9112 §6.3
    /// makes an unrecoverable error for a user agent — so a browser reports the failure where it
    /// would silently re-send after a reset on a socket it had idle (`Delivery`). Faults
    /// that send bytes go as authored.
    case brokenFraming

    /// How `fault` is sent under this choice: broken framing only for a fault that sends no byte.
    public func breaksFraming(_ fault: Fault) -> Bool { self == .brokenFraming && fault.sendsNoResponse }
}
