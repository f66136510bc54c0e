import Foundation
package import StubModel
import StubdEngine
import StubdState

/// The real server requests are forwarded to (`--proxy-unmatched URL`): where it is, and how a
/// request and its answer are rewritten on the way, as a reverse proxy does (RFC 9110 §7.6):
/// hop-by-hop headers dropped both ways, `Host` set to the upstream's, `X-Forwarded-For`,
/// `-Proto` and `-Host` added, the upstream's base path put in front of the request's path.
public struct ProxyUpstream: Sendable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Host name or address.
    public let host: String
    /// Port (80, or 443 for https, when the URL gives none).
    public let port: Int
    /// For https: how the upstream is trusted.
    public let tls: UpstreamTLS?
    /// The URL's path without a trailing `/` (`/api`), put before every forwarded path.
    public let basePath: String
    /// Seconds to wait for the upstream's whole answer.
    public var timeoutSeconds: Double = 30

    /// Why a proxy URL is refused, with what to give instead.
    public struct Invalid: Error, CustomStringConvertible {
        /// The message.
        public let description: String
    }

    /// Parses `http(s)://host[:port][/base]`. HTTPS upstreams are verified against the system's
    /// trust store, or `caFile`'s CAs; `insecure` skips verification (only when asked).
    public init(url text: String, caFile: String? = nil, insecure: Bool = false) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            throw Invalid(description: "\"\(text)\" is not a URL; give the upstream as http(s)://host[:port][/base-path]")
        }
        guard scheme == "http" || scheme == "https" else {
            throw Invalid(description: "\"\(text)\": give an http:// or https:// upstream")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw Invalid(description: "CA file \(caFile) cannot be read; give a PEM file of the upstream's CA certificates")
        }
        guard components.query == nil, components.fragment == nil else {
            throw Invalid(description: "\"\(text)\": give the upstream without a query or fragment")
        }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        self.tls = scheme == "https" ? UpstreamTLS(caFile: caFile, verify: !insecure) : nil
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        self.basePath = base
    }

    /// The `Host` header requests to it carry: the host, and the port unless it is the scheme's.
    public var hostHeader: String {
        port == (scheme == "https" ? 443 : 80) ? host : "\(host):\(port)"
    }

    /// `http://host:port/base`.
    public var description: String { "\(scheme)://\(host):\(port)\(basePath)" }

    /// Headers that describe one connection, not the message: never forwarded either way.
    static let hopByHop = NameValue.hopByHopNames

    /// `headers` with `Accept-Encoding` cut to the codings stubd can decode (gzip, deflate,
    /// identity) — URLSession asks for `br` by default, and a Brotli answer would be stored
    /// undecoded, secrets and all. Without any left, the header goes (the upstream sends the
    /// body as it is, which every client accepts).
    package static func decodableAcceptEncoding(_ headers: [NameValue]) -> [NameValue] {
        let decodable: Set<String> = ["gzip", "x-gzip", "deflate", "identity"]
        var out: [NameValue] = []
        for header in headers {
            guard header.name.lowercased() == "accept-encoding" else { out.append(header); continue }
            let kept = header.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { item in
                let coding = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                return decodable.contains(coding)
            }
            if !kept.isEmpty { out.append(NameValue(header.name, kept.joined(separator: ", "))) }
        }
        return out
    }

    /// The request to send upstream for `request`.
    func forward(_ request: IncomingRequest) -> UpstreamRequest {
        var headers = Self.endToEndHeaders(request.headers)
        headers.append(NameValue("Host", hostHeader))
        let client = request.peer.isEmpty ? "unknown" : request.peer
        let forwardedFor = request.header("X-Forwarded-For").map { "\($0), \(client)" } ?? client
        headers.removeAll { ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"].contains($0.name.lowercased()) }
        headers.append(NameValue("X-Forwarded-For", forwardedFor))
        headers.append(NameValue("X-Forwarded-Proto", request.isTLS ? "https" : "http"))
        if let originalHost = request.header("Host") { headers.append(NameValue("X-Forwarded-Host", originalHost)) }
        let target = basePath + request.rawPath + (request.rawQuery.map { "?\($0)" } ?? "")
        var upstream = UpstreamRequest(host: host, port: port, method: request.method, target: target, headers: headers,
                                       body: request.body, timeoutSeconds: timeoutSeconds)
        upstream.tls = tls
        return upstream
    }

    /// The headers a proxy passes on (the caller adds `Host`): without hop-by-hop ones, those
    /// `Connection` names, `Host`, `Content-Length` (the engine frames the body) and stubd's own.
    package static func endToEndHeaders(_ headers: [NameValue]) -> [NameValue] {
        let named = Set(headers.filter { $0.name.equalsIgnoringCase("Connection") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } })
        return headers.filter { header in
            let name = header.name.lowercased()
            return !hopByHop.contains(name) && !named.contains(name) && name != "host" && name != "content-length" && !name.hasPrefix("x-stubd-")
        }
    }

    /// Answers with bodies above this many bytes (or of unknown length) are relayed to the client
    /// as they arrive rather than held whole.
    public static let relayAbove = 1 << 20

    /// The upstream's headers as the client gets them: without hop-by-hop and length headers
    /// (the engine frames the body itself) or its `Date` (stubd sends its own).
    package static func clientHeaders(_ headers: [NameValue]) -> [NameValue] {
        headers.filter { header in
            let name = header.name.lowercased()
            return !hopByHop.contains(name) && name != "content-length" && name != "date"
        }
    }

    /// The reply for the client: the upstream's answer with `clientHeaders`, or a 502 naming the
    /// upstream and the cause. For a relayed answer (already sent) the head only, for the record;
    /// for HEAD, the upstream's `Content-Length`.
    package func reply(for response: UpstreamResponse, head: Bool = false) -> PreparedReply {
        switch response {
        case .answered(let status, let headers, let body):
            if head, body.isEmpty, let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }) {
                return PreparedReply(status: status, headers: Self.clientHeaders(headers), declaredLength: length)
            }
            return PreparedReply(status: status, headers: Self.clientHeaders(headers), body: body)
        case .relayed(let status, let headers, _, _):
            return PreparedReply(status: status, headers: Self.clientHeaders(headers), body: [])
        case .failed(let cause):
            return JSONReply.json(.object([("error", .string("upstream \(description) failed: \(cause)")),
                                            ("upstream", .string(description)), ("cause", .string(cause))]), status: 502)
        }
    }
}
