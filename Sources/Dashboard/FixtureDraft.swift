import FixtureFiles
import StubModel
import StubServer

/// A fixture file the dashboard drafted, checked as `stubd check` checks a file before it is
/// written: read strictly (`file: field: problem`), then compiled into a route table (conflicts,
/// templates).
enum FixtureDraft {
    /// Why a draft cannot be written, one line per problem.
    struct Problems: Error {
        let problems: [String]
    }

    /// Reads and compiles `bytes` as the fixture file `file` would be.
    static func check(_ bytes: [UInt8], file: String) throws(Problems) {
        let reader = FixtureReader(file: file) { path throws(FixtureReader.FixtureProblem) in
            throw FixtureReader.FixtureProblem("\"\(path)\": the dashboard writes bodies inline; use json, text or base64")
        }
        let fixtures: [Fixture]
        do {
            fixtures = try reader.read(bytes)
        } catch {
            throw Problems(problems: error.errors.map(\.description))
        }
        do {
            _ = try RouteTable(fixtures: fixtures)
        } catch {
            throw Problems(problems: [error.description])
        }
    }
}
