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

    public static func < (lhs: NameValue, rhs: NameValue) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    /// `name=value`.
    public var description: String { "\(name)=\(value)" }
}
