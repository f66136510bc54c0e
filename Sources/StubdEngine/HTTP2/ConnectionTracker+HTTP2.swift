import CLibevent
import StubdSystem

// The tracker's side of HTTP/2: a newcomer whose first bytes are the preface is handed over.
extension ConnectionTracker {
    /// Takes the newcomer `bev` for HTTP/2 (its first bytes are the preface): it stops being a
    /// newcomer, gets its number, and an `HTTP2Connection` owns it until it ends; false when
    /// evhttp does not hold it any more.
    func takeForHTTP2(_ bev: OpaquePointer) -> Bool {
        var cbarg: UnsafeMutableRawPointer?
        bufferevent_getcb(bev, nil, nil, nil, &cbarg)
        guard Self.evhttpHolds(bev), let evcon = cbarg.map(OpaquePointer.init), let newcomer = newcomers.removeValue(forKey: bev) else { return false }
        newcomer.input.stopWatching()
        bufferevent_decref(bev)
        var host: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(evcon, &host, &port)
        let connection = HTTP2Connection(connection: evcon, bev: bev, worker: worker, number: numbers.next(), peer: host.map { String(cString: $0) } ?? "",
                                         isTLS: tls != nil, tunnel: tunnelArrival(of: bev)) { [unowned self] in self.connectionGone() }
        connection.start()
        return true
    }

    /// For a connection on the interception front, the tunnel it came through (its host and
    /// session, found by the connection's peer port as for an HTTP/1.1 request); `.direct` on the
    /// direct ports, `.unknown` when no tunnel leads here.
    private func tunnelArrival(of bev: OpaquePointer) -> HTTP2Connection.Tunnel {
        guard case .interception = kind else { return .direct }
        let fd = bufferevent_getfd(bev)
        guard fd >= 0, let port = System.peerPort(fd), var arrival = worker.interception?.arrival(peerPort: port) else { return .unknown }
        arrival.isConnect = false
        arrival.inTunnel = true
        return .through(arrival)
    }

}
