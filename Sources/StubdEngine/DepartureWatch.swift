import CLibevent

/// Notices a client leaving while its request waits on a timer (a delay, a hang), so the
/// descriptor is released at once instead of when the timer ends (libevent-notes §3.3).
///
/// evhttp stops reading a connection while a request is being answered, so by itself it never
/// sees the client go. The watch borrows the connection's bufferevent: evhttp's callbacks are
/// saved, reading is enabled with a high-water mark of one byte (a pipelined request stays
/// buffered for evhttp), and EOF or an error frees the connection. `end()` gives everything back
/// before the reply is written, so evhttp's read callback never runs in its writing state.
/// Confined to the worker's thread; owned by the `PendingExchange` it watches for.
struct DepartureWatch {
    private let bev: OpaquePointer
    private let read: bufferevent_data_cb?
    private let write: bufferevent_data_cb?
    private let event: bufferevent_event_cb?
    private let argument: UnsafeMutableRawPointer?

    /// Starts watching `req`'s connection for `exchange`; nil when the request has no connection.
    init?(_ req: OpaquePointer, exchange: PendingExchange) {
        guard let connection = evhttp_request_get_connection(req),
              let bev = evhttp_connection_get_bufferevent(connection) else { return nil }
        var read: bufferevent_data_cb?, write: bufferevent_data_cb?, event: bufferevent_event_cb?
        var argument: UnsafeMutableRawPointer?
        bufferevent_getcb(bev, &read, &write, &event, &argument)
        self.bev = bev
        self.read = read
        self.write = write
        self.event = event
        self.argument = argument
        bufferevent_setwatermark(bev, Int16(EV_READ), 0, 1)
        bufferevent_setcb(bev, onWatchedRead, write, onWatchedEvent, Unmanaged.passUnretained(exchange).toOpaque())
        bufferevent_enable(bev, Int16(EV_READ))
    }

    /// Gives the connection back to evhttp exactly as it was.
    func end() {
        bufferevent_disable(bev, Int16(EV_READ))
        bufferevent_setwatermark(bev, Int16(EV_READ), 0, 0)
        bufferevent_setcb(bev, read, write, event, argument)
    }
}

private func onWatchedRead(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    // A pipelined request: leave it buffered (the high-water mark stops further reads).
}

private func onWatchedEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg else { return }
    if events & Int16(BEV_EVENT_TIMEOUT) != 0 && events & Int16(BEV_EVENT_EOF | BEV_EVENT_ERROR) == 0 {
        // evhttp's idle timeout is not ours to apply while a delay runs; keep watching.
        bufferevent_enable(bev, Int16(EV_READ))
        return
    }
    let exchange = Unmanaged<PendingExchange>.fromOpaque(arg).takeUnretainedValue()
    exchange.worker?.clientLeft(exchange)
}
