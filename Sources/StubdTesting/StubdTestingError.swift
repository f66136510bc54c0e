public import Foundation

/// Why the kit could not do what a test asked, in words a test failure can show as they are.
public enum StubdTestingError: Error, CustomStringConvertible {
    /// No stubd answered at the URL in time.
    case notReachable(baseURL: URL, waited: TimeInterval, lastProblem: String)
    /// A stubd answered but refused the admin call (a token it needs, a Host it does not take).
    case refused(baseURL: URL, problem: String)
    /// A verification found another number of requests; `misses` are the session's requests that
    /// reached no stub, each with its closest route's differences.
    case countMismatch(target: String, request: String, expected: Int, actual: Int, session: String, misses: [String])
    /// A sequence's answers asked for different delays (a route has one delay).
    case sequenceDelays(target: String)
    /// The target cannot become a stub (its URL or body cannot be built).
    case target(String)
    /// A strict session ended with stubs no request reached, or requests that reached no stub.
    case strict(session: String, unused: [String], misses: [String])
    /// The session's requests differ from the snapshot file.
    case snapshotMismatch(file: String, diff: String)
    /// Playback found no recorded fixtures in the folder.
    case noRecording(folder: String)
    /// A snapshot file would be written outside its `__Snapshots__` folder (a name with `/` or
    /// `..`, or a symbolic link on the way).
    case snapshotOutside(file: String, reason: String)
    /// A value given as JSON (GraphQL variables or data) is not one.
    case notJSON(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .notReachable(let url, let waited, let problem):
            return "no stubd answered at \(url.absoluteString) within \(waited) s (last: \(problem)). Start it before the tests "
                + "(`stubd serve … --ready-file PATH` and wait for the file; docs/UI-TESTS.md) or set STUBD_BASE_URL to where it listens"
        case .refused(let url, let problem):
            return "stubd at \(url.absoluteString) refused the admin API (\(problem)); pass its --admin-token as token: "
                + "(or set STUBD_ADMIN_TOKEN where it runs), or call it on a loopback address"
        case .countMismatch(let target, let request, let expected, let actual, let session, let misses):
            var text = "expected \(expected) request(s) for \(target) (\(request)) in session \(session), got \(actual)"
            if misses.isEmpty {
                text += "; no request of this session missed"
            } else {
                text += ". Requests of this session that reached no stub:\n" + misses.map { "  " + $0 }.joined(separator: "\n")
            }
            return text
        case .notJSON(let value):
            return "\(value) is not JSON; give dictionaries, arrays, strings, numbers, booleans or NSNull"
        case .sequenceDelays(let target):
            return "\(target): a sequence's answers share one delay; give every answer the same delay (or none)"
        case .target(let problem):
            return problem
        case .strict(let session, let unused, let misses):
            var parts: [String] = []
            if !unused.isEmpty {
                parts.append("stubs no request reached (the app never made these calls, or made them differently):\n"
                             + unused.map { "  " + $0 }.joined(separator: "\n"))
            }
            if !misses.isEmpty {
                parts.append("requests that reached no stub (each with its closest route):\n" + misses.map { "  " + $0 }.joined(separator: "\n"))
            }
            return "strict session \(session): " + parts.joined(separator: "\n")
        case .noRecording(let folder):
            return "no recording in \(folder): run this test once with STUBD_MODE=record (and the real API's URL as upstream:), then commit the folder"
        case .snapshotOutside(let file, let reason):
            return "\(file): not written, \(reason); snapshots stay in the __Snapshots__ folder beside the test (use a plain name, and a real folder, not a link)"
        case .snapshotMismatch(let file, let diff):
            return "the requests differ from \(file) (- snapshot, + this run; STUBD_SNAPSHOTS=record rewrites it):\n" + diff
        }
    }
}
