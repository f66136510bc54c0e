import CLibevent
import StubdSystem

/// Where a `CONNECT` leads once answered `200` (`ReplyContent.tunnel`).
public enum TunnelTarget: Sendable {
    /// stubd answers the tunnel itself: it is joined to the interception front, which presents
    /// a certificate for the arrival's host and serves its requests from the route table.
    case intercept(ProxyArrival)
    /// Bytes go to the real server untouched (no interception: a pinned SDK keeps working).
    case pass(host: String, port: Int)
}

/// A `CONNECT` tunnel on a loop: the client's connection (taken from evhttp once the `200` is
/// written) joined byte for byte to a connection stubd opens — to its interception front or to
/// the real server. An intercepted tunnel waits for the client's first byte: a TLS handshake
/// (`0x16`) goes to the TLS front, anything else (plain HTTP in a tunnel: `curl -p`, `ws://`
/// through a proxy) to the plain one. Each side's input is moved to the other's output; while more
/// than `pauseAbove` bytes wait for one side, the other is not read (TCP holds the sender back).
/// Either side closing ends both, after what the other still had to write. A client silent for
/// `quietLimit` seconds before its first byte, or a server not connected within it, ends it.
final class Tunnel {
    private let connection: OpaquePointer
    private let client: OpaquePointer
    private var server: OpaquePointer?
    private unowned let worker: Worker
    private let interception: Interception?
    private var localPort: Int?
    /// An intercepted tunnel's arrival, until its first byte chooses the front.
    private var pending: ProxyArrival?
    /// The server side has connected (the client is read from then on).
    private var connected = false
    private var open = true
    /// Set once one side has closed: the other is closed when its output is written.
    private var closing = false
    static let pauseAbove = 1 << 20
    /// Seconds a client may take to send its first byte, and a server to accept the connection.
    static let quietLimit = 30.0

    private init(connection: OpaquePointer, client: OpaquePointer, worker: Worker, interception: Interception?) {
        self.connection = connection
        self.client = client
        self.worker = worker
        self.interception = interception
    }

    /// Answers the `CONNECT` `req` with `200` and joins its connection to `target`. A target that
    /// cannot be reached closes the tunnel (the client sees its connection end).
    static func start(_ target: TunnelTarget, on req: OpaquePointer, worker: Worker, interception: Interception?) {
        guard let connection = evhttp_request_get_connection(req), let client = evhttp_connection_get_bufferevent(connection) else {
            if evhttp_request_get_connection(req) == nil { evhttp_request_free(req) }
            return
        }
        let tunnel = Tunnel(connection: connection, client: client, worker: worker, interception: interception)
        worker.inFlight.hold(tunnel)
        worker.budget.hold(ObjectIdentifier(tunnel)) { [unowned tunnel] in tunnel.end() }
        bufferevent_set_timeouts(client, nil, nil)
        bufferevent_setwatermark(client, Int16(EV_READ), 0, 0)
        let head = Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)
        _ = head.withUnsafeBytes { bufferevent_write(client, $0.baseAddress, $0.count) }
        guard let server = bufferevent_socket_new(worker.base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return tunnel.end() }
        tunnel.server = server
        let me = Unmanaged.passUnretained(tunnel).toOpaque()
        bufferevent_setcb(client, onTunnelRead, onTunnelWritten, onTunnelEvent, me)
        bufferevent_setcb(server, onTunnelRead, onTunnelWritten, onTunnelEvent, me)
        var quiet = System.timeValue(seconds: quietLimit)
        switch target {
        case .intercept(let arrival):
            guard interception != nil else { return tunnel.end() }
            // Read the first byte (it chooses the front), within the quiet limit.
            tunnel.pending = arrival
            bufferevent_set_timeouts(client, &quiet, nil)
            bufferevent_enable(client, Int16(EV_READ | EV_WRITE))
            // A client that sent its first bytes right behind the CONNECT: they are read already.
            if evbuffer_get_length(bufferevent_get_input(client)) > 0 { tunnel.joinFront(for: arrival) }
        case .pass(let host, let port):
            // The client is not read until the server side is connected (within the limit).
            bufferevent_disable(client, Int16(EV_READ))
            bufferevent_enable(client, Int16(EV_WRITE))
            worker.dnsStarted = true
            bufferevent_set_timeouts(server, nil, &quiet)
            guard bufferevent_socket_connect_hostname(server, worker.dns, AF_UNSPEC, host, Int32(port)) == 0 else { return tunnel.end() }
            bufferevent_enable(server, Int16(EV_READ | EV_WRITE))
        }
    }

    /// An intercepted tunnel's first bytes are here: join the front they are for.
    private func joinFront(for arrival: ProxyArrival) {
        guard let interception, let server else { return end() }
        var first: UInt8 = 0
        _ = evbuffer_copyout(bufferevent_get_input(client), &first, 1)
        let tls = first == 0x16
        let port = tls ? interception.port : interception.plainPort
        guard port > 0 else { return end() }
        pending = nil
        bufferevent_set_timeouts(client, nil, nil)
        bufferevent_disable(client, Int16(EV_READ))
        // A numeric address without a DNS base: resolved and connecting before the call returns.
        guard bufferevent_socket_connect_hostname(server, nil, AF_INET, "127.0.0.1", Int32(port)) == 0 else { return end() }
        // Known before any byte reaches the front: the client's bytes wait until it connects.
        let local = (try? System.boundPort(bufferevent_getfd(server))) ?? 0
        localPort = local
        var inTunnel = arrival
        inTunnel.scheme = tls ? "https" : "http"
        interception.opened(localPort: local, arrival: inTunnel)
        bufferevent_enable(server, Int16(EV_READ | EV_WRITE))
    }

    fileprivate func read(from side: OpaquePointer) {
        guard open, let server else { return }
        if side == client, let arrival = pending { return joinFront(for: arrival) }
        guard connected else { return }
        let other = side == client ? server : client
        worker.budget.heldActive(ObjectIdentifier(self))
        bufferevent_write_buffer(other, bufferevent_get_input(side))
        if evbuffer_get_length(bufferevent_get_output(other)) > Self.pauseAbove {
            bufferevent_disable(side, Int16(EV_READ))
            bufferevent_setwatermark(other, Int16(EV_WRITE), Self.pauseAbove / 2, 0)
        }
    }

    fileprivate func written(_ side: OpaquePointer) {
        guard open, let server else { return }
        if closing, evbuffer_get_length(bufferevent_get_output(side)) == 0 { return end() }
        let other = side == client ? server : client
        if evbuffer_get_length(bufferevent_get_output(side)) <= Self.pauseAbove / 2 {
            bufferevent_setwatermark(side, Int16(EV_WRITE), 0, 0)
            bufferevent_enable(other, Int16(EV_READ))
        }
    }

    fileprivate func event(_ side: OpaquePointer, _ events: Int16) {
        guard open, let server else { return }
        if side == server, events & Int16(BEV_EVENT_CONNECTED) != 0 {
            connected = true
            bufferevent_set_timeouts(server, nil, nil)
            bufferevent_enable(client, Int16(EV_READ))
            // Bytes the client sent right behind its CONNECT (it should wait, but may not).
            if evbuffer_get_length(bufferevent_get_input(client)) > 0 { read(from: client) }
            return
        }
        guard events & Int16(BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT) != 0 else { return }
        // What arrived before the close goes on; the other side closes once it is written.
        let other = side == client ? server : client
        bufferevent_disable(side, Int16(EV_READ | EV_WRITE))
        if evbuffer_get_length(bufferevent_get_input(side)) > 0 { bufferevent_write_buffer(other, bufferevent_get_input(side)) }
        if evbuffer_get_length(bufferevent_get_output(other)) == 0 { return end() }
        closing = true
        bufferevent_disable(other, Int16(EV_READ))
    }

    /// Ends both sides (the budget's eviction too).
    func end() {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        worker.inFlight.letGo(self)
        release()
        evhttp_connection_free(connection)
    }

    private func release() {
        if let localPort { interception?.closed(localPort: localPort) }
        if let server { bufferevent_free(server) }
        server = nil
    }
}

extension Tunnel: InFlight {
    var shutdownOrder: InFlightShutdown { .conversations }

    func serverStopped() {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        release()
    }
}

private func onTunnelRead(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg else { return }
    Unmanaged<Tunnel>.fromOpaque(arg).takeUnretainedValue().read(from: bev)
}

private func onTunnelWritten(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg else { return }
    Unmanaged<Tunnel>.fromOpaque(arg).takeUnretainedValue().written(bev)
}

private func onTunnelEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg else { return }
    Unmanaged<Tunnel>.fromOpaque(arg).takeUnretainedValue().event(bev, events)
}
