import StubModel
import StubServer
import StubdEngine
import StubdState
import StubdSystem

/// Where the forward proxy may connect when it passes a request on or records it, decided once
/// by the address the connection would reach — never by how the host was written — for a
/// `CONNECT` and an absolute-form request alike:
///
/// - stubd's own listeners (its HTTP, HTTPS and proxy ports and the interception fronts, on any
///   address of this machine) are refused whatever the name and however it resolves, `--resolve`
///   included: passed on, a request would reach the admin API as a loopback caller;
/// - loopback, unspecified and link-local addresses and this machine's own interface addresses
///   are refused unless `--resolve` names the host and port (the user said so), so a name in
///   `/etc/hosts` or public DNS pointing at 127.0.0.1 reaches nothing on this machine by accident;
/// - the connection then goes to exactly the address checked (no second lookup a rebinding
///   resolver could answer differently).
enum ProxyDestination {
    /// A destination the proxy will not reach, with the answer that says why and what to do.
    struct Refusal: Error {
        /// 403 for a refused address, 502 for a name that does not resolve.
        let status: Int
        let message: String
        let problems: [String]

        /// The answer to the client.
        var reply: PreparedReply { JSONReply.error(message, status: status, problems: problems) }
    }

    /// The address to connect to for `host:port` among `addresses` (the first one allowed), or
    /// why none may be reached. `named`: `--resolve` gave the address.
    static func choose(_ addresses: [NetworkAddress], host: String, port: Int, named: Bool, own: OwnTraffic) -> Result<NetworkAddress, Refusal> {
        var refusal: Refusal?
        for address in addresses {
            if own.isListener(address, port: port) {
                refusal = refusal ?? Refusal(status: 403, message: "stubd's proxy does not pass requests on to stubd itself: \(host):\(port) reaches \(shown(address, port)), one of its own ports",
                                             problems: ["call stubd's own port directly, not through its proxy"])
                continue
            }
            if !named, address.isThisMachine || address.isLinkLocal {
                let kind = address.isLinkLocal ? "a link-local address" : "an address of this machine"
                refusal = refusal ?? Refusal(status: 403, message: "stubd's proxy passes nothing on to \(kind): \(host):\(port) reaches \(shown(address, port))",
                                             problems: ["if you mean it, start stubd with --resolve \(host):\(port):\(address)"])
                continue
            }
            return .success(address)
        }
        return .failure(refusal ?? Refusal(status: 502, message: "\(host) resolved to no address", problems: []))
    }

    /// The refusal for a name that does not resolve.
    static func unresolved(_ host: String, port: Int, reason: String) -> Refusal {
        Refusal(status: 502, message: "\(host) does not resolve (\(reason)), so stubd's proxy cannot pass the request on",
                problems: ["check the name, or give its address with --resolve \(host):\(port):ADDRESS"])
    }

    private static func shown(_ address: NetworkAddress, _ port: Int) -> String {
        address.isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}

extension ProxyPassage {
    /// Resolves `host:port` (or takes its `--resolve` address, resolved too when it is a name),
    /// chooses the address by `ProxyDestination`, and calls `then` on the request's loop.
    func destination(_ host: String, _ port: Int, own: OwnTraffic, reply: ReplyHandle,
                     then: @escaping (Result<NetworkAddress, ProxyDestination.Refusal>) -> Void) {
        let named = address(host, port)
        reply.upstream.resolve(named ?? host) { lookup in
            switch lookup {
            case .failed(let reason):
                then(.failure(ProxyDestination.unresolved(named ?? host, port: port, reason: reason)))
            case .found(let addresses):
                then(ProxyDestination.choose(addresses, host: host, port: port, named: named != nil, own: own))
            }
        }
    }
}
