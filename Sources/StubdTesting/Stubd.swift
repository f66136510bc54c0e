public import Foundation
public import TargetModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The kit's entry point: find the stubd the tests share and open a session per test.
///
/// One stubd runs on the Mac (or the CI runner); every test — in every parallel Simulator clone —
/// gets its own session, so tests share a server and a port but never stubs, sequences, scenario
/// states or journal entries.
///
/// ```swift
/// let session = try await Stubd.session()
/// try await session.stub(UserAPI.profile, .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)))
/// app.launchEnvironment.merge(session.launchEnvironment) { $1 }
/// app.launch()
/// …
/// try await session.expect(UserAPI.profile, count: 1)
/// try await session.end()
/// ```
public enum Stubd {
    /// `STUBD_BASE_URL` from the environment (the test runner's scheme or CI sets it), else
    /// `http://127.0.0.1:8080` — which the iOS Simulator reaches on the Mac.
    public static func baseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let text = environment["STUBD_BASE_URL"], let url = URL(string: text), url.scheme != nil, url.host != nil { return url }
        return URL(string: "http://127.0.0.1:8080")!
    }

    /// Waits until the stubd at `baseURL` answers its health check, polling every 100 ms, so a
    /// test started beside `stubd serve` never races its start-up. Throws
    /// `StubdTestingError.notReachable` naming the URL and the last failure after `timeout`.
    public static func waitUntilReady(baseURL: URL = baseURL(), token: String? = nil, timeout: TimeInterval = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "no answer"
        while true {
            // Each try is bounded by what is left, so a port that accepts and never answers
            // cannot hold the wait past `timeout`.
            let client = StubdAdminClient(baseURL: baseURL, token: token, timeout: attemptTimeout(remaining: deadline.timeIntervalSinceNow))
            do {
                _ = try await client.health()
                return
            } catch let error as StubdAdminError {
                // It answered: a refusal (a token, say) will not go away by waiting.
                throw StubdTestingError.refused(baseURL: baseURL, problem: error.description)
            } catch {
                last = (error as NSError).localizedDescription
            }
            if Date() >= deadline { throw StubdTestingError.notReachable(baseURL: baseURL, waited: timeout, lastProblem: last) }
            try await _Concurrency.Task.sleep(nanoseconds: 100_000_000)  // TargetModel has a Task of its own (Moya's)
        }
    }

    /// How long one health check may take with `remaining` seconds left: at most 2 s, at least
    /// 0.2 s, never much past the caller's timeout.
    static func attemptTimeout(remaining: TimeInterval) -> TimeInterval {
        max(0.2, min(2, remaining))
    }

    /// Where the tests' stubd is: `STUBD_BASE_URL` when set; else `http://127.0.0.1:8080` when a
    /// stubd answers there (the one the scheme or CI started); else, on a macOS or Linux test host,
    /// one this process starts for itself (`StubdLauncher`: a child on port 0, shared by the
    /// process's tests, stopped at exit; `STUBD_START=no` turns that off).
    public static func serverURL(environment: [String: String] = ProcessInfo.processInfo.environment, token: String? = nil) async throws -> URL {
        let url = baseURL(environment: environment)
        if environment["STUBD_BASE_URL"] != nil { return url }
        // Once this process started one, its tests keep to it (no look at 8080 per session).
        if let started = StubdLauncher.startedBaseURL { return started }
        if (try? await StubdAdminClient(baseURL: url, token: token, timeout: 0.5).health()) != nil { return url }
        guard (environment["STUBD_START"] ?? "").lowercased() != "no" else { return url }
        #if os(macOS) || os(Linux)
        // Finds the binary, or builds it once, or fails at once naming every place it looked.
        return try StubdLauncher.sharedBaseURL(environment: environment)
        #else
        return url
        #endif
    }

    /// A new session on the shared stubd (after waiting for it): a fresh id unless `id` is given,
    /// targets compiled with `options` (the server's `--match` policy should be the same). Without
    /// `baseURL`, the stubd `serverURL()` finds (or starts).
    public static func session(id: String? = nil, baseURL: URL? = nil, token: String? = nil,
                               options: TargetCompileOptions = TargetCompileOptions(), timeout: TimeInterval = 10) async throws -> StubdSession {
        let url: URL
        if let baseURL { url = baseURL } else { url = try await serverURL(token: token) }
        try await waitUntilReady(baseURL: url, token: token, timeout: timeout)
        let name = id ?? "test-" + UUID().uuidString.prefix(8).lowercased()
        return StubdSession(id: name, baseURL: url, token: token, options: options)
    }
}
