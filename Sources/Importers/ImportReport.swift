public import FixtureFiles
public import StubModel

/// What an import made of one source file: its fixtures, the fields stubd does not support
/// (`file: field: not supported (what stubd does instead)`), and the problems that refused the
/// file whole.
public struct ImportedFile: Sendable {
    /// The source file.
    public var file: String
    /// The stubs converted from it (empty when `errors` is not).
    public var fixtures: [Fixture] = []
    /// One line per unsupported field.
    public var unsupported: [String] = []
    /// Problems that refuse the file (nothing is written for it).
    public var errors: [FixtureError] = []

    /// Creates an empty result for `file`.
    public init(file: String) { self.file = file }
}
