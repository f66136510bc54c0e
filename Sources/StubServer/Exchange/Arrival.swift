public import StubModel
public import StubdEngine
import StubdSystem

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
    /// The server it is for, one name (`HostName`): the proxy's target, else `X-Stubd-Host`, else `Host`.
    public let server: String?

    /// The arrival of `request`.
    public init(_ request: IncomingRequest) {
        via = request.proxied.map { $0.inTunnel ? .tunnel : .proxy } ?? .direct
        session = Self.session(of: request)
        server = Self.server(of: request)
    }

    /// The session `request` belongs to (what `init` reads).
    public static func session(of request: IncomingRequest) -> SessionID? {
        SessionID(request.proxied?.session ?? request.header(SessionID.header))
    }

    /// The server `request` is for (what `init` reads): the lookup asks it only when routes name hosts.
    public static func server(of request: IncomingRequest) -> String? {
        if let proxied = request.proxied { return proxied.host }
        return (request.header("X-Stubd-Host") ?? request.header("Host")).flatMap(HostName.normalized)
    }
}
