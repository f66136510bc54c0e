import Logging

/// Writes one line per request: method, path (and query), status or `fault:NAME`, the route
/// (or `MISS` with the closest route and its differences, `ADMIN`, `CORS`) and the latency.
///
/// ```
/// info stubd: GET /zen 200 zen 0.28ms
/// info stubd: GET /users/octocats 404 MISS closest: user (path: expected /users/octocat, got /users/octocats) 0.83ms
/// ```
struct ExchangeLogLine: ExchangeObserver {
    let logger: Logger
    /// Hides secret query values (`?api_key=…`).
    var redactor = Redactor()

    func exchangeEnded(_ exchange: Exchange) {
        logger.info("\(Self.line(for: exchange, redactor: redactor))")
    }

    static func line(for exchange: Exchange, redactor: Redactor = Redactor()) -> String {
        let request = exchange.request
        let target = request.rawQuery.map { "\(request.rawPath)?\(redactor.query($0))" } ?? request.rawPath
        let outcome: String
        switch exchange.outcome {
        case .status(let status): outcome = String(status)
        case .fault(let fault): outcome = "fault:\(fault.rawValue)"
        }
        let label: String
        switch exchange.resolution {
        case .route(_, let name): label = name
        case .miss(let closest): label = "MISS \(closest)"
        case .admin: label = "ADMIN"
        case .preflight: label = "CORS"
        }
        let milliseconds = (exchange.latencySeconds * 100_000).rounded() / 100
        return "\(request.method) \(target) \(outcome) \(label) \(milliseconds)ms"
    }
}
