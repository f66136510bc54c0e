import CLibevent
import StubdHTTP2

// h2c by `Upgrade` on the plain port: the HTTP/1.1 request that asked becomes stream 1.
extension HTTP2Connection {
    /// Takes `req`'s connection from evhttp and goes on as HTTP/2 when `request` asked for h2c
    /// properly (`HTTP2Upgrade.settings`); false when it did not, or the connection is gone, and
    /// the request is answered as HTTP/1.1. The caller asks only of a request that sent `Upgrade`
    /// (`sentUpgrade`, noted as the engine copied the fields), so other requests pay nothing here.
    /// The tracker already knows the connection (the request numbered it), so its close callback
    /// counts it out when this object frees it; evhttp frees the unanswered HTTP/1.1 request with
    /// the connection, as it does a WebSocket's upgrade.
    static func upgrade(_ req: OpaquePointer, request: IncomingRequest, worker: Worker) -> Bool {
        guard let settings = HTTP2Upgrade.settings(in: request.headers), let evcon = evhttp_request_get_connection(req),
              let bev = evhttp_connection_get_bufferevent(evcon), let use = request.connection else { return false }
        var upgraded = request
        upgraded.headers = HTTP2Upgrade.requestHeaders(request.headers)
        upgraded.isHTTP2 = true
        let connection = HTTP2Connection(connection: evcon, bev: bev, worker: worker, number: use.number, peer: request.peer, isTLS: false,
                                         tunnel: .direct, requestsBefore: use.request) {}
        return connection.startUpgraded(from: upgraded, settings: settings)
    }
}
