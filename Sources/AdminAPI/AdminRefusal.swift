public import AdminContract
import StubModel
import StubServer
public import StubdEngine
public import StubdState

/// Why an admin call was refused: the status, what went wrong and, per item, what to fix (the
/// admin API's `{"error", "problems"}` body).
public struct AdminRefusal: Error, Sendable {
    /// The status the caller gets.
    public let status: Int
    /// What went wrong, in one sentence.
    public let message: String
    /// Per item, what to change.
    public let problems: [String]

    /// A refusal with `status` (400 by default).
    public init(_ message: String, status: Int = 400, problems: [String] = []) {
        self.status = status
        self.message = message
        self.problems = problems
    }

    /// A store bound that refused the change: 507, as for a request.
    public init(_ refusal: StateBudget.Refusal) {
        self.init(refusal.description, status: 507)
    }

    /// A body that does not read: 400 naming the field.
    public init(_ problem: AdminBodyProblem) {
        self.init(problem.description)
    }

    /// As the admin API sends it.
    public var reply: PreparedReply { JSONReply.error(message, status: status, problems: problems) }
}
