import CLibeventTLS
import CStubdTLS
import StubdSystem
import Synchronization

/// What the engine's interception front knows, shared by every loop: the tunnels that lead to
/// it (by the local port of their connection, so a TLS handshake and each request arriving on
/// it are told which host and session they belong to), and a leaf certificate's context per host,
/// minted on first use by `ProxySettings.mint`.
///
/// A `CONNECT` to a host stubd intercepts is answered `200`, and its tunnel is joined to a
/// connection of stubd's own to this front (a TLS listener on loopback): the client's handshake
/// meets a certificate for the host it asked for, and its requests are served as if sent to
/// the direct HTTPS port, with the host and session of the tunnel.
final class Interception: @unchecked Sendable {
    /// The accepting context: it carries no certificate, only the chooser that switches each
    /// handshake to its host's context.
    let context: TLSServerContext
    private let mint: @Sendable (String) -> (certificate: [UInt8], key: [UInt8])?
    private let tunnels = Mutex<[Int: ProxyArrival]>([:])
    private let leaves = Mutex(Leaves())
    /// The TLS front's port, once bound.
    var port = 0
    /// The plain front's port (plain HTTP in a tunnel), once bound.
    var plainPort = 0
    /// Hosts whose context is kept; past it the oldest is dropped (connections using it keep it:
    /// OpenSSL counts references), so a proxy recording any host stays bounded.
    static let leafLimit = 1000

    /// Whether tunnels offer `h2` in ALPN (`--http2`), as the real API would.
    private let http2: Bool

    init(settings: ProxySettings, http2: Bool) throws(EngineError) {
        mint = settings.mint
        self.http2 = http2
        guard let base = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(flag: "--proxy-port", problem: "OpenSSL could not create a server context")
        }
        _ = stubd_ssl_ctx_min_tls12(base)
        stubd_ssl_ctx_set_alpn(base, http2 ? 1 : 0)
        context = TLSServerContext(adopting: base)
        _ = stubd_ssl_ctx_set_chooser(base, chooseContext, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        for leaf in leaves.withLock({ Array($0.byHost.values) }) { SSL_CTX_free(leaf.context) }
    }

    /// A tunnel's connection to the front opened from `localPort`: requests arriving from that
    /// port belong to `arrival` (its host and session) until `closed`.
    func opened(localPort: Int, arrival: ProxyArrival) { tunnels.withLock { $0[localPort] = arrival } }

    /// The tunnel from `localPort` ended.
    func closed(localPort: Int) { _ = tunnels.withLock { $0.removeValue(forKey: localPort) } }

    /// The arrival of a connection accepted on the front, by its peer's port.
    func arrival(peerPort: Int) -> ProxyArrival? { tunnels.withLock { $0[peerPort] } }

    /// The context for the host the tunnel from `fd`'s peer asked for (the `CONNECT`'s host, not
    /// the SNI a client may leave out for an address), minted and cached on first use.
    fileprivate func context(for fd: Int32) -> OpaquePointer? {
        guard let peerPort = System.peerPort(fd), let host = arrival(peerPort: peerPort)?.host else { return nil }
        // Each context handed to OpenSSL carries a reference of its own, taken under the lock (a
        // drop from the cache on another loop cannot free it first); the chooser gives it back.
        if let leaf = leaves.withLock({ cache -> Leaf? in
            guard let leaf = cache.byHost[host] else { return nil }
            SSL_CTX_up_ref(leaf.context)
            return leaf
        }) { return leaf.context }
        guard let minted = mint(host) else { return nil }
        let made = minted.certificate.withUnsafeBufferPointer { certificate in
            minted.key.withUnsafeBufferPointer { key in
                certificate.withMemoryRebound(to: CChar.self) { certificateChars in
                    key.withMemoryRebound(to: CChar.self) { keyChars in
                        stubd_ssl_ctx_from_pem(certificateChars.baseAddress, certificate.count, keyChars.baseAddress, key.count)
                    }
                }
            }
        }
        guard let made else { return nil }
        // ALPN is answered from the context the handshake was switched to.
        stubd_ssl_ctx_set_alpn(made, http2 ? 1 : 0)
        let leaf = Leaf(context: made)
        let (kept, dropped) = leaves.withLock { cache -> (Leaf, Leaf?) in
            if let earlier = cache.byHost[host] {
                SSL_CTX_up_ref(earlier.context)
                return (earlier, nil)
            }
            var dropped: Leaf?
            if cache.order.count >= Self.leafLimit {
                let oldest = cache.order.removeFirst()
                dropped = cache.byHost.removeValue(forKey: oldest)
            }
            cache.byHost[host] = leaf
            cache.order.append(host)
            SSL_CTX_up_ref(leaf.context)
            return (leaf, dropped)
        }
        if let dropped { SSL_CTX_free(dropped.context) }
        if kept.context != made { SSL_CTX_free(made) }
        return kept.context
    }

    /// The minted contexts, by host, and the order they were made in.
    private struct Leaves: Sendable {
        var byHost: [String: Leaf] = [:]
        var order: [String] = []
    }

    /// One host's context (an `SSL_CTX` is safe to share between threads once made).
    private struct Leaf: @unchecked Sendable {
        let context: OpaquePointer
    }
}

private func chooseContext(_ fd: Int32, _ servername: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let arg else { return nil }
    return Unmanaged<Interception>.fromOpaque(arg).takeUnretainedValue().context(for: fd)
}
