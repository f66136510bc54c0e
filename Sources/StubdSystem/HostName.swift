/// The one reading of a host as a request, a route or a proxy target names it — `Host`,
/// `X-Stubd-Host`, an authority `host:port` or `[v6]:port`, a fixture's `host` — so every part of
/// stubd compares the same name: lower-cased, without port or IPv6 brackets, without the final
/// dot of an absolute name (`b.example.com.` is `b.example.com`, RFC 1034 §3.1). Names are not
/// converted to punycode: an internationalised name compares as written, lower-cased.
public enum HostName {
    /// The host of `text`, or nil when it names none (empty, `:80`, an unclosed `[`).
    public static func normalized(_ text: some StringProtocol) -> String? {
        var host = Substring(text.lowercased())
        while host.first == " " || host.first == "\t" { host = host.dropFirst() }
        while host.last == " " || host.last == "\t" { host = host.dropLast() }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":"), host[host.index(after: colon)...].allSatisfy(\.isNumber) {
            host = host[..<colon]
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }
}
