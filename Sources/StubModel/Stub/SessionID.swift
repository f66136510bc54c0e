/// The test session a request or an admin call belongs to, from its `X-Stubd-Session` header.
///
/// "No session" is always `nil` (`SessionID?`), never an empty string: runtime routes, scenario
/// states, sequence positions and journal queries without a session are the global ones.
public struct SessionID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The header that carries it.
    public static let header = "X-Stubd-Session"

    /// The id as sent.
    public let rawValue: String

    /// A session id; an empty string is no session.
    public init?(_ rawValue: String?) {
        guard let rawValue, !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    /// A literal id, for tests and embedding (`session: "login-test"`).
    public init(stringLiteral value: String) {
        precondition(!value.isEmpty, "a session id cannot be empty")
        rawValue = value
    }

    /// The id as sent.
    public var description: String { rawValue }
}
