import Foundation

/// One name/value pair, percent-decoded: a query parameter, a form field or a header.
public struct NameValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value.
    public var value: String

    /// Creates a pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// By name, then value: the order pairs are sorted in to be compared as a multiset.
    public static func < (lhs: NameValue, rhs: NameValue) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    /// `name=value`.
    public var description: String { "\(name)=\(value)" }
}

extension NameValue {
    /// The cookies of the `Cookie` header(s) among `headers`, in order: for cookie matchers,
    /// `{{request.cookies.NAME}}` and the recorder's secret values alike.
    public static func cookies(in headers: [NameValue]) -> [NameValue] {
        headers.filter { $0.name.utf8.count == 6 && $0.name.lowercased() == "cookie" }.flatMap { header in
            header.value.split(separator: ";").compactMap { part -> NameValue? in
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                guard let equals = trimmed.firstIndex(of: "=") else { return nil }
                return NameValue(String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
            }
        }
    }
}

extension NameValue {
    /// Header names (lower-case) that describe one connection, not the message (RFC 9110 §7.6.1
    /// and the common `Proxy-Connection`): a proxy never forwards them, a recording never stores them.
    public static let hopByHopNames: Set<String> = ["connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                                                    "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]
}
