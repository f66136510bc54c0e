import Logging
import TargetModel

/// Answers requests from a route table and writes one log line per request:
/// `GET /zen 200 zen 0.21ms`, or `GET /nope 404 MISS 0.30ms closest: …`.
final class StubResponder: RequestResponder {
    let table: RouteTable
    let logger: Logger?

    init(table: RouteTable, logger: Logger?) {
        self.table = table
        self.logger = logger
    }

    func respond(to request: IncomingRequest) -> ResponsePlan {
        let requestLine = request.rawQuery.map { "\(request.method) \(request.rawPath)?\($0)" } ?? "\(request.method) \(request.rawPath)"
        let headOnly = request.method == "HEAD"
        switch table.lookup(request) {
        case .hit(let route):
            return ResponsePlan(action: route.action, delay: route.fixture.delay, headOnly: headOnly,
                                requestLine: requestLine, routeLabel: route.name)
        case .miss(let nearMisses):
            let label = logger == nil ? "MISS" : "MISS " + MissReport.logSummary(nearMisses)
            return ResponsePlan(action: .reply(MissReport.reply(for: request, nearMisses: nearMisses)),
                                headOnly: headOnly, requestLine: requestLine, routeLabel: label)
        }
    }

    func finished(_ plan: ResponsePlan, latencySeconds: Double) {
        guard let logger else { return }
        let outcome: String
        switch plan.action {
        case .reply(let reply): outcome = String(reply.status)
        case .fault(let fault): outcome = "fault:\(fault.rawValue)"
        }
        let milliseconds = (latencySeconds * 100_000).rounded() / 100
        logger.info("\(plan.requestLine) \(outcome) \(plan.routeLabel) \(milliseconds)ms")
    }
}
