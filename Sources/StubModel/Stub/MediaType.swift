/// A media type as HTTP compares it (`application/json; charset=utf-8`): type and subtype
/// case-insensitive, parameter names case-insensitive, the `charset` value case-insensitive,
/// other parameter values exact (quotes removed).
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// `type/subtype`, lower-cased.
    public let essence: String
    /// Parameters, names lower-cased, in order.
    public let parameters: [NameValue]

    /// Parses a Content-Type value; nil when it has no `type/subtype`.
    public init?(_ text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        let essence = parts[0].trimmingASCIIWhitespace().lowercased()
        let slash = essence.firstIndex(of: "/")
        guard let slash, slash != essence.startIndex, essence.index(after: slash) != essence.endIndex,
              !essence.contains(" ") else { return nil }
        self.essence = essence
        var parameters: [NameValue] = []
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingASCIIWhitespace().lowercased()
            var value = part[part.index(after: equals)...].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if name == "charset" { value = value.lowercased() }
            if !name.isEmpty { parameters.append(NameValue(name, value)) }
        }
        self.parameters = parameters
    }

    /// A parameter's value, by case-insensitive name.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.lowercased() }?.value
    }

    /// `type/subtype; name=value`.
    public var description: String {
        ([essence] + parameters.map { "\($0.name)=\($0.value)" }).joined(separator: "; ")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
