import CLibevent
public import StubdSystem

/// What a host name resolved to, for a caller that decides by address before it connects (the
/// forward proxy: `UpstreamClient.resolve`).
public enum AddressLookup: Sendable {
    /// The addresses, in the resolver's order, each once.
    case found([NetworkAddress])
    /// The name did not resolve; the resolver's reason.
    case failed(String)
}

extension Worker {
    /// Resolves `host` on this loop — an address literal (any spelling) and `localhost` at once, a
    /// name (a final dot dropped) through the loop's evdns base (the hosts file first, then DNS) —
    /// and calls `then` on the loop.
    func resolve(_ host: String, then: @escaping (AddressLookup) -> Void) {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        if let literal = NetworkAddress(literal: host) { return then(.found([literal])) }
        // RFC 6761: localhost and its subdomains are this machine, whatever a resolver says.
        if host == "localhost" || host.hasSuffix(".localhost") {
            return then(.found([NetworkAddress(bytes: [127, 0, 0, 1])!, NetworkAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])!]))
        }
        dnsStarted = true
        guard let dns else { return then(.failed("no resolver (evdns) on this loop")) }
        let box = Unmanaged.passRetained(LookupBox(then))
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        // No socket type: one entry per address and type comes back, deduplicated below.
        _ = evdns_getaddrinfo(dns, host, nil, &hints, onLookup, box.toOpaque())
    }
}

/// The callback of one lookup, kept alive until libevent calls it (once).
private final class LookupBox {
    let then: (AddressLookup) -> Void
    init(_ then: @escaping (AddressLookup) -> Void) { self.then = then }
}

private func onLookup(_ result: Int32, _ list: UnsafeMutablePointer<addrinfo>?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let box = Unmanaged<LookupBox>.fromOpaque(arg).takeRetainedValue()
    defer { if let list { evutil_freeaddrinfo(list) } }
    guard result == 0 else {
        let reason = evutil_gai_strerror(result).map { String(cString: $0) } ?? "error \(result)"
        return box.then(.failed(reason))
    }
    var addresses: [NetworkAddress] = []
    var node = list
    while let entry = node {
        if let raw = entry.pointee.ai_addr, let address = NetworkAddress(sockaddr: UnsafeRawPointer(raw)), !addresses.contains(address) { addresses.append(address) }
        node = entry.pointee.ai_next
    }
    box.then(addresses.isEmpty ? .failed("no address") : .found(addresses))
}
