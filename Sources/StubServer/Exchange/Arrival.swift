public import StubModel
public import StubdEngine

/// How a request came in and whom it is for, made once per request from what the engine handed
/// over — for every way in: the direct ports, the forward proxy's absolute form, an intercepted
/// tunnel — so nothing downstream re-derives it, and nothing rewrites the request to pass it on
/// (the journal shows the request as the client sent it, and these facts beside it).
public struct Arrival: Sendable {
    /// Which way it came.
    public enum Via: Sendable, Equatable {
        /// To stubd's own HTTP or HTTPS port.
        case direct
        /// Through the forward proxy: the absolute form, or a `CONNECT`.
        case proxy
        /// Inside a tunnel the proxy intercepted.
        case tunnel
    }

    /// Which way it came.
    public let via: Via
    /// Its session: the proxy credentials' user (or the session's own proxy port), else `X-Stubd-Session`.
    public let session: SessionID?

    /// The arrival of `request`. The server it is for is read when asked
    /// (`IncomingRequest.server`): only a lookup among routes that name hosts needs it, so a plain
    /// hit reads no host.
    public init(_ request: IncomingRequest) {
        via = request.proxied.map { $0.inTunnel ? .tunnel : .proxy } ?? .direct
        session = Self.session(of: request)
    }

    /// The session `request` belongs to (what `init` reads).
    @inline(__always)
    public static func session(of request: IncomingRequest) -> SessionID? {
        SessionID(request.proxied?.session ?? request.header(SessionID.header))
    }
}
