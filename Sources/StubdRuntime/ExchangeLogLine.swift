public import StubServer
import AdminAPI
import Dashboard
import StubdEngine
public import Recording
public import Logging
import StubModel

/// Writes one line per request: method, path (and query), status or `fault:NAME`, the route
/// (or `MISS` with the closest route and its differences, `ADMIN`, `CORS`) and the latency.
///
/// ```
/// info stubd: GET /zen 200 zen 0.28ms
/// info stubd: GET /users/octocats 404 MISS closest: user (path: expected /users/octocat, got /users/octocats) 0.83ms
/// ```
///
/// With `structured`, each line also carries its fields as metadata (`method`, `url`, `status` or
/// `fault`, `route` or `miss`, `latencyMs`, `session`), for a JSON log handler (`--log-format json`).
public struct ExchangeLogLine: ExchangeObserver {
    let logger: Logger
    /// Hides secret query values (`?api_key=…`).
    var redactor = Redactor()
    var structured = false

    /// A log line per exchange to `logger`.
    public init(logger: Logger, redactor: Redactor = Redactor(), structured: Bool = false) {
        self.logger = logger
        self.redactor = redactor
        self.structured = structured
    }

    /// Logs the exchange.
    public func exchangeEnded(_ exchange: Exchange) {
        logger.info("\(Self.line(for: exchange, redactor: redactor))", metadata: structured ? Self.metadata(for: exchange, redactor: redactor) : nil, source: "request")
    }

    /// The path and query (secrets hidden), after the scheme and host the client asked for when
    /// it came through the proxy (a `CONNECT`'s target is its `host:port` already).
    static func target(of request: IncomingRequest, redactor: Redactor) -> String {
        let target = request.rawQuery.map { "\(request.rawPath)?\(redactor.query($0))" } ?? request.rawPath
        guard let arrival = request.proxied, !arrival.isConnect else { return target }
        let defaultPort = arrival.scheme == "https" ? 443 : 80
        return "\(arrival.scheme)://\(arrival.host)\(arrival.port == defaultPort ? "" : ":\(arrival.port)")\(target)"
    }

    static func metadata(for exchange: Exchange, redactor: Redactor) -> Logger.Metadata {
        let request = exchange.request
        var fields: Logger.Metadata = [
            "method": .string(request.method),
            "url": .string(target(of: request, redactor: redactor)),
            "latencyMs": .stringConvertible((exchange.latencySeconds * 100_000).rounded() / 100),
        ]
        switch exchange.outcome {
        case .status(let status): fields["status"] = .stringConvertible(status)
        case .fault(let fault): fields["fault"] = .string(fault.rawValue)
        }
        switch exchange.resolution {
        case .route(let route):
            fields["route"] = .string(route.name)
            fields["routeId"] = .string(route.id.description)
        case .miss(let closest): fields["miss"] = .string(closest)
        case .notForwarded(let reason): fields["miss"] = .string("not forwarded: \(reason)")
        case .forwarded(let upstream): fields["proxied"] = .string(upstream)
        case .admin: fields["admin"] = .stringConvertible(true)
        case .preflight: fields["preflight"] = .stringConvertible(true)
        case .arriving: break
        }
        if let session = exchange.session { fields["session"] = .string(session.rawValue) }
        if let connection = request.connection { fields["connection"] = .stringConvertible(connection.number) }
        return fields
    }

    static func line(for exchange: Exchange, redactor: Redactor = Redactor()) -> String {
        let request = exchange.request
        let target = target(of: request, redactor: redactor)
        let outcome: String
        switch exchange.outcome {
        case .status(let status): outcome = String(status)
        case .fault(let fault): outcome = "fault:\(fault.rawValue)"
        }
        let label: String
        switch exchange.resolution {
        case .route(let route): label = route.name
        case .miss(let closest): label = "MISS \(closest)"
        case .notForwarded(let reason): label = "MISS not forwarded: \(reason)"
        case .forwarded(let upstream): label = "PROXY \(upstream)"
        case .admin: label = "ADMIN"
        case .preflight: label = "CORS"
        case .arriving: label = "-"
        }
        let milliseconds = (exchange.latencySeconds * 100_000).rounded() / 100
        return "\(request.method) \(target) \(outcome) \(label) \(milliseconds)ms"
    }
}
