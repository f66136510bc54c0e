import Foundation

/// Where a rendered webhook URL points: checked when the fixture is read (a constant URL) or
/// when the webhook is sent (a URL made from the request).
public struct WebhookDestination: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// Host name or address (an IPv6 address without brackets).
    public let host: String
    /// Port (80 or 443 when the URL gives none).
    public let port: Int
    /// Path and query as sent on the request line (`/hooks/1?x=1`).
    public let target: String

    /// Parses `http(s)://host[:port][/path][?query]`; the problem says what to give instead.
    public static func parse(_ text: String) -> Result<WebhookDestination, WebhookURLProblem> {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            return .failure(WebhookURLProblem("\"\(text)\" is not an absolute URL; give http(s)://host[:port]/path"))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(WebhookURLProblem("\"\(text)\": webhooks are sent over http:// or https:// only"))
        }
        guard components.user == nil, components.password == nil else {
            return .failure(WebhookURLProblem("\"\(text)\": put credentials in an Authorization header, not in the URL"))
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else {
            return .failure(WebhookURLProblem("\"\(text)\": port \(port) is out of range"))
        }
        return .success(WebhookDestination(scheme: scheme, host: host, port: port, target: target))
    }

    /// The `Host` header for this destination.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (scheme == "https" ? 443 : 80) ? name : "\(name):\(port)"
    }
}

/// Why a webhook URL cannot be sent to.
public struct WebhookURLProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what to give instead.
    public let description: String

    /// A problem described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}
