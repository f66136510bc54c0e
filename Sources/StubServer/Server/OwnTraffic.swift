import AdminContract
package import StubModel
package import StubdEngine
package import StubdSystem
import Synchronization
import Foundation

/// Requests stubd sends itself — webhooks, forwarded misses — and how stubd knows them when they
/// come back to it. A client can never pass for stubd, and stubd never calls its own admin API:
///
/// - a webhook carries `X-Stubd-Webhook-Depth: N; proof=…`, the proof being one of this server's
///   random 128-bit values, one per depth, made at start. Only a request with a proof stubd issued
///   is deeper than 0, so a client's `X-Stubd-Webhook-Depth: -1000` is depth 0 like any other
///   request and a chain stops `maxWebhookDepth` hops after the client's request;
/// - a forwarded miss carries `Via: 1.1 stubd-…` (RFC 9110 §7.6.3, a pseudonym made at start):
///   one that comes back is not forwarded again (508);
/// - the admin API refuses any request carrying either mark, however it was addressed — so a
///   webhook that reaches stubd by a name or spelling no check foresaw still cannot change it.
///
/// A mark only ever takes rights away (no admin, no forwarding, fewer webhooks), so a receiver
/// that sees one learns nothing it could use.
package final class OwnTraffic: Sendable {
    /// Webhooks a chain may send: a request this deep (by stubd's own proof) sends none.
    package static let maxWebhookDepth = 5

    /// The webhook chain header.
    package static let depthHeader = "X-Stubd-Webhook-Depth"

    private let proofs: [String]
    /// `stubd-` and 32 bits of the server's randomness: the `Via` pseudonym of forwarded misses.
    package let pseudonym: String
    private let ports = Mutex<Set<Int>>([])
    /// Destinations (`host` or `host:port`, lower-case) a webhook whose URL the request chose may
    /// reach even when they are this stubd (`--webhook-allow`); never its admin API.
    let allowedDestinations: Set<String>

    package init(allowedDestinations: [String] = []) {
        proofs = (0...Self.maxWebhookDepth).map { _ in RandomKey.hex128() }
        pseudonym = "stubd-" + String(RandomKey.hex128().prefix(8))
        self.allowedDestinations = Set(allowedDestinations.map { $0.lowercased() })
    }

    /// The ports stubd listens on (once the engine has bound them).
    package func listening(on ports: [Int]) {
        self.ports.withLock { $0 = Set(ports) }
    }

    // MARK: Webhook depth

    /// The header value for a webhook sent by a request `depth` webhooks deep.
    package func depthValue(_ depth: Int) -> String {
        let clamped = min(max(depth, 0), Self.maxWebhookDepth)
        return "\(clamped); proof=\(proofs[clamped])"
    }

    /// How many webhooks led to `request`: the depth of a proof this server issued, else 0.
    package func webhookDepth(of request: IncomingRequest) -> Int {
        guard let value = request.header(Self.depthHeader) else { return 0 }
        return verifiedDepth(value) ?? 0
    }

    private func verifiedDepth(_ value: String) -> Int? {
        let parts = value.split(separator: ";", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let depth = Int(parts[0]), proofs.indices.contains(depth), parts[1].hasPrefix("proof="),
              System.constantTimeEquals(String(parts[1].dropFirst(6)), proofs[depth]) else { return nil }
        return depth
    }

    // MARK: Forwarding

    /// The `Via` entry a forwarded miss carries.
    package var via: String { "1.1 " + pseudonym }

    /// Whether `request` is a miss this server forwarded (it came back: a forwarding loop).
    package func isOwnForward(_ request: IncomingRequest) -> Bool {
        request.headers.contains { $0.name.equalsIgnoringCase("Via") && $0.value.contains(pseudonym) }
    }

    /// Whether `request` carries a mark of stubd's own traffic (the admin API refuses it).
    package func isOwn(_ request: IncomingRequest) -> Bool {
        (request.header(Self.depthHeader).flatMap(verifiedDepth) != nil) || isOwnForward(request)
    }

    // MARK: Destinations

    /// Whether a connection to `address:port` reaches one of this stubd's listeners (its HTTP,
    /// HTTPS and proxy ports and the proxy's interception fronts): decided by the address, so
    /// every name and spelling that leads there is the same.
    package func isListener(_ address: NetworkAddress, port: Int) -> Bool {
        ports.withLock { $0.contains(port) } && address.isThisMachine
    }

    /// Why a webhook to `destination` is not sent, or nil when it may be: never to stubd's admin
    /// API or dashboard (any listener, any spelling of this machine); to stubd's own stubs only
    /// when the fixture's URL names the host itself (`hostIsConstant`) or `--webhook-allow` does.
    package func refusal(for destination: WebhookDestination, hostIsConstant: Bool) -> String? {
        guard ports.withLock({ $0.contains(destination.port) }), System.isThisMachine(destination.host) else { return nil }
        let path = String(destination.target.prefix { $0 != "?" })
        if AdminContract.isAdmin(path) || AdminContract.isAdmin(PathSegments(raw: path).description) {
            return "refused: \(destination.hostHeader)\(path) is stubd's own admin API; webhooks never call it"
        }
        let host = destination.host.lowercased()
        if hostIsConstant || allowedDestinations.contains(host) || allowedDestinations.contains("[\(host)]")
            || allowedDestinations.contains("\(host):\(destination.port)") || allowedDestinations.contains("[\(host)]:\(destination.port)") {
            return nil
        }
        let named = destination.hostHeader.lowercased()
        return "refused: \(destination.hostHeader) is this stubd and the request chose the URL; "
            + "write the host in the fixture's url, or allow it with --webhook-allow \(named)"
    }
}

/// Random values a server makes at start (the dashboard's key, the marks of its own traffic).
package enum RandomKey {
    /// 128 random bits as 32 lower-case hex digits.
    package static func hex128() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
