import Atomics
import Foundation
import StubModel
public import StubServer
import StubdEngine

/// Counters for `GET /__stubd/metrics` (Prometheus text format) and the dashboard: requests to
/// the stubs, misses, faults, answers from the upstream. An exchange observer — one relaxed
/// atomic add or two per request, no lock.
public final class ServerMetrics: ExchangeObserver {
    private let requests = ManagedAtomic<Int>(0)
    private let misses = ManagedAtomic<Int>(0)
    private let faults = ManagedAtomic<Int>(0)
    private let proxied = ManagedAtomic<Int>(0)
    private let admin = ManagedAtomic<Int>(0)

    /// Counters at zero.
    public init() {}

    /// Counts one exchange.
    public func exchangeEnded(_ exchange: Exchange) {
        switch exchange.resolution {
        case .admin, .preflight, .arriving:
            admin.wrappingIncrement(ordering: .relaxed)
            return
        case .miss, .notForwarded: misses.wrappingIncrement(ordering: .relaxed)
        case .forwarded: proxied.wrappingIncrement(ordering: .relaxed)
        case .route: break
        }
        requests.wrappingIncrement(ordering: .relaxed)
        if case .fault = exchange.outcome { faults.wrappingIncrement(ordering: .relaxed) }
    }

    /// The Prometheus exposition of these counters and of `admin`'s routes and journal.
    func exposition(_ state: SessionStore, loopLag: LoopLag?) -> String {
        var lines: [String] = []
        func counter(_ name: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) counter")
            for sample in samples { lines.append("\(name)\(sample.labels) \(sample.value)") }
        }
        counter("stubd_requests_total", "Requests to the stubs (admin calls and CORS preflights not counted).",
                [("", requests.load(ordering: .relaxed))])
        counter("stubd_misses_total", "Requests no stub matched (answered with the near-miss 404).", [("", misses.load(ordering: .relaxed))])
        counter("stubd_proxied_total", "Misses answered by the upstream (--proxy-unmatched, recording).", [("", proxied.load(ordering: .relaxed))])
        counter("stubd_faults_total", "Requests answered with a network fault.", [("", faults.load(ordering: .relaxed))])
        counter("stubd_admin_requests_total", "Admin API calls and CORS preflights.", [("", admin.load(ordering: .relaxed))])
        let routes = state.routes(session: nil)
        counter("stubd_route_hits_total", "Requests each route answered since it was loaded.",
                routes.map { entry in
                    ("{route=\"\(Self.label(entry.route.name))\",id=\"\(entry.route.id)\",source=\"\(Self.label(entry.route.fixture.source))\"}",
                     entry.route.hits)
                })
        let journal = state.journal
        counter("stubd_journal_dropped_total", "Journal entries let go because the journal was full (--journal-size).",
                [("", max(0, journal.added - journal.capacity))])
        if let lag = loopLag {
            let loops = lag.seconds
            lines.append("# HELP stubd_loop_lag_seconds How late each event loop ran at its last measurement (every \(LoopLag.interval) s).")
            lines.append("# TYPE stubd_loop_lag_seconds gauge")
            for (index, value) in loops.enumerated() { lines.append("stubd_loop_lag_seconds{loop=\"\(index)\"} \(value.last)") }
            lines.append("# HELP stubd_loop_lag_max_seconds The largest loop lag since start.")
            lines.append("# TYPE stubd_loop_lag_max_seconds gauge")
            for (index, value) in loops.enumerated() { lines.append("stubd_loop_lag_max_seconds{loop=\"\(index)\"} \(value.max)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label value with `\`, `"` and newlines escaped, as the text format requires.
    static func label(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
