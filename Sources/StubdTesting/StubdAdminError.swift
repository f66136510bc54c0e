/// An admin call the server refused, with its reasons.
public struct StubdAdminError: Error, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// The server's `error` sentence.
    public let message: String
    /// The server's `problems`, one per thing to fix.
    public let problems: [String]

    /// `HTTP 400: message (problem; problem)`.
    public var description: String {
        "HTTP \(status): \(message)" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))")
    }
}
