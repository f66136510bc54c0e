import StubModel

/// A problem in a fixture file, located precisely enough to fix it in one look.
///
/// Printed as `file: field: problem`, e.g.
/// `fixtures/github.json: routes[2].response.status: expected an integer from 100 to 599, found "200"`.
public struct FixtureError: Error, Equatable, CustomStringConvertible {
    /// The file at fault (as given on the command line, joined with the relative path).
    public let file: String
    /// The field path inside the file (`routes[2].request.method`), or empty for the whole file.
    public let field: String
    /// What is wrong and what to do.
    public let problem: String

    /// Creates an error.
    public init(file: String, field: String, problem: String) {
        self.file = file
        self.field = field
        self.problem = problem
    }

    /// `file: field: problem`.
    public var description: String {
        field.isEmpty ? "\(file): \(problem)" : "\(file): \(field): \(problem)"
    }
}

/// Every problem found in a set of fixtures; loading reports them all at once, not the first only.
public struct FixtureErrors: Error, CustomStringConvertible {
    /// The problems, in file order.
    public let errors: [FixtureError]

    /// One `file: field: problem` line each.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
