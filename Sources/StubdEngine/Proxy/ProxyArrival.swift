import Foundation
public import StubdHTTP
import StubdSystem

/// How a request reached stubd as a forward proxy (`serve --proxy-port`): the server the client
/// meant, and the proxy credentials that name its session. Set by the engine on requests that
/// came on the proxy port (absolute-form `GET http://host/…`, `CONNECT host:port`) or through an
/// intercepted tunnel; nil for every request on the direct ports.
public struct ProxyArrival: Sendable, Hashable {
    /// The host the client asked for, as `HostName` reads it (lower-cased, no port, brackets or final dot).
    public var host: String
    /// Its port (80 or 443 when the request named none).
    public var port: Int
    /// `http` (absolute-form), or `https` (a `CONNECT` and the requests in its tunnel).
    public var scheme: String
    /// The user of the proxy credentials (`http://SESSION@proxy:port`, sent as
    /// `Proxy-Authorization: Basic`): the session the request belongs to.
    public var session: String?
    /// Whether this is the `CONNECT` itself (the tunnel's opening), not a request in it.
    public var isConnect = false
    /// Whether the request came inside an intercepted tunnel (not on the proxy port itself).
    public var inTunnel = false

    /// Creates an arrival.
    public init(host: String, port: Int, scheme: String, session: String? = nil, isConnect: Bool = false) {
        self.host = host
        self.port = port
        self.scheme = scheme
        self.session = session
        self.isConnect = isConnect
    }

    /// The arrival a proxy-port request names, from its request-target and headers; nil for an
    /// origin-form target (`/path`: the proxy port asked directly) or one that names no host.
    /// Remote input: bounded (credentials over 4 KiB are ignored), never traps (fuzzed).
    public static func parse(method: String, target: String, headers: [NameValue]) -> ProxyArrival? {
        let session = credentials(in: headers)?.user
        if method == "CONNECT" {
            guard let (host, port) = authority(target[...]), let port else { return nil }
            return ProxyArrival(host: host, port: port, scheme: "https", session: session, isConnect: true)
        }
        let lower = target.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") { scheme = "http" } else if lower.hasPrefix("https://") { scheme = "https" } else { return nil }
        let rest = target.dropFirst(scheme.count + 3)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let (host, port) = authority(rest[..<end]) else { return nil }
        return ProxyArrival(host: host, port: port ?? (scheme == "https" ? 443 : 80), scheme: scheme, session: session)
    }

    /// `host[:port]` or `[v6][:port]`, without user info; nil when empty or the port is not a
    /// number from 1 to 65535.
    static func authority(_ text: Substring) -> (host: String, port: Int?)? {
        var text = text
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        var host: Substring, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }),
              let name = HostName.normalized(host.contains(":") ? "[\(host)]" : host) else { return nil }
        guard let portText else { return (name, nil) }
        guard let port = CheckedNumber.decimalDigits(String(portText)), (1...65535).contains(port) else { return nil }
        return (name, port)
    }

    /// The user (nil when empty) and password of a `Proxy-Authorization: Basic
    /// base64(user:password)`; nil without one, for another scheme or one over 4 KiB.
    public static func credentials(in headers: [NameValue]) -> (user: String?, password: String)? {
        guard let value = headers.first(where: { $0.name.equalsIgnoringCase("Proxy-Authorization") })?.value else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", parts[1].utf8.count <= 4096,
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)) else { return nil }
        let pair = String(decoding: data, as: UTF8.self).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = pair.first.map(String.init).flatMap { $0.removingPercentEncoding ?? $0 }
        return (user?.isEmpty == false ? user : nil, pair.count == 2 ? String(pair[1]) : "")
    }
}

/// stubd as a forward proxy (`serve --proxy-port`): where it listens, who may use it, and the
/// leaf certificates it presents for the hosts it intercepts.
public struct ProxySettings: Sendable {
    /// The address (loopback by default).
    public var host = "127.0.0.1"
    /// The port (0 picks a free one).
    public var port: Int
    /// The CA's certificate as files a device installs, by the proxy port's path
    /// (`/__stubd/ca.pem`, …): served to any client that asks the proxy port directly, as
    /// `mitm.it` does — a certificate is public; its key never leaves the CA folder.
    public var caDocuments: [String: (contentType: String, body: [UInt8])] = [:]
    /// The password every proxy request must carry (`Proxy-Authorization: Basic`, any user —
    /// the user is the session); nil lets every client in, which only a loopback proxy may do
    /// (`HTTPEngine.start` refuses another address without one).
    public var password: String?
    /// A certificate and key (PEM) for `host`, signed by a CA the clients trust; nil refuses
    /// the handshake. Called once per host (then cached), on the loop that meets it first.
    public var mint: @Sendable (_ host: String) -> (certificate: [UInt8], key: [UInt8])?

    /// Creates settings.
    public init(port: Int, mint: @escaping @Sendable (_ host: String) -> (certificate: [UInt8], key: [UInt8])?) {
        self.port = port
        self.mint = mint
    }
}
