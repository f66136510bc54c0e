import CLibevent
import Dispatch

extension Worker {
    /// The client of a waiting request went away: drop the timer and free the connection (and
    /// with it the request) now. The exchange still ends, so the journal shows it.
    func clientLeft(_ exchange: PendingExchange) {
        inFlight.letGo(exchange)
        if let timer = exchange.timer { event_free(timer) }
        exchange.timer = nil
        exchange.watch = nil
        if let connection = evhttp_request_get_connection(exchange.request) {
            evhttp_connection_free(connection)
        }
        if exchange.kind == .deliver, let listener = exchange.listener {
            listener.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds - exchange.start) / 1e9)
        }
        // A stream whose head never went: its writer hears that the client left.
        if case .stream(let stream) = exchange.plan.content { stream.end(.clientLeft) }
    }
}

/// A request held by a worker until its timer fires. Owned by the loop's `InFlightRegistry`; the timer's
/// argument is an unretained pointer to it, valid because the entry is removed only when the
/// timer fires (once) or when the worker frees the timer at shutdown.
final class PendingExchange: InFlight {
    enum Kind { case deliver, closeAfterHang }
    let request: OpaquePointer
    let plan: ReplyPlan
    let start: UInt64
    let listener: (any ReplyListener)?
    let kind: Kind
    var timer: OpaquePointer?
    /// Watches the client while the timer runs (see `DepartureWatch`).
    var watch: DepartureWatch?
    weak var worker: Worker?

    init(request: OpaquePointer, plan: ReplyPlan, start: UInt64, listener: (any ReplyListener)?, kind: Kind) {
        self.request = request
        self.plan = plan
        self.start = start
        self.listener = listener
        self.kind = kind
    }

    let shutdownOrder = InFlightShutdown.afterConnections

    /// The timer goes unfired; a stream it would have started ends with the server.
    func serverStopped() {
        if let timer { event_free(timer) }
        timer = nil
        watch?.end()
        if case .stream(let stream) = plan.content { stream.end(.serverStopped) }
    }
}
