import StubModel
import StubdEngine

/// One request and what became of it, emitted once when the exchange ends (the reply written,
/// the fault applied). The journal and the log line are built from it; anything else that wants
/// to watch traffic (a recorder, a dashboard) subscribes the same way (`ExchangeObserver`).
public struct Exchange: Sendable {
    /// How the request was resolved.
    public enum Resolution: Sendable {
        /// A stub answered.
        case route(id: RouteID, name: String)
        /// No stub matched; the closest route and what differed (`closest: zen (path: …)`).
        case miss(closest: String)
        /// An admin API call.
        case admin
        /// A CORS preflight answered by stubd itself.
        case preflight
        /// No stub matched and the request was forwarded to this upstream (`--proxy-unmatched`).
        case proxied(upstream: String)
    }

    /// What went on the wire.
    public enum Outcome: Sendable {
        /// A response with this status.
        case status(Int)
        /// A fault instead of a response.
        case fault(Fault)
    }

    /// The request as received.
    public let request: IncomingRequest
    /// Its `X-Stubd-Session`, if any.
    public let session: SessionID?
    /// Stub, miss, admin or preflight.
    public let resolution: Resolution
    /// Status or fault.
    public let outcome: Outcome
    /// Seconds from arrival to the reply (or fault), delays included.
    public let latencySeconds: Double
    /// The response sent; nil for a fault (no response, or not a whole one).
    public internal(set) var response: ExchangeResponse? = nil

    /// Whether the request was for the stubs (the journal keeps only these).
    public var isStubTraffic: Bool {
        switch resolution {
        case .route, .miss, .proxied: return true
        case .admin, .preflight: return false
        }
    }
}
