#if canImport(Testing) && compiler(>=6.1)
public import Foundation
public import Testing
public import TargetModel

extension StubdSession {
    /// The session of the running test, set by the `.stubdSession` trait.
    @TaskLocal public static var current: StubdSession?
}

/// A Swift Testing trait that opens a session on the shared stubd before the test and ends it
/// (the session's stubs, states and journal removed) after, pass or fail:
///
/// ```swift
/// @Test(.stubdSession) func profileTimesOut() async throws {
///     let session = try #require(StubdSession.current)
///     try await session.stub(UserAPI.profile, .networkError(…))
/// }
/// ```
public struct StubdSessionTrait: TestTrait, TestScoping {
    /// Where the shared stubd is; nil for `Stubd.serverURL()` (`STUBD_BASE_URL`, a stubd on
    /// 127.0.0.1:8080, or one the test process starts).
    public var baseURL: URL?
    /// The server's `--admin-token`, if it has one.
    public var token: String?
    /// How targets become routes (the server's `--match`).
    public var options: TargetCompileOptions
    /// Whether the test fails for stubs it added that no request reached and for requests of
    /// its session that reached no stub (`StubdSession.verifyStrict`).
    public var strict = false

    /// Opens the session, runs the test with `StubdSession.current` set, then ends the session.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let session = try await Stubd.session(baseURL: baseURL, token: token, options: options)
        do {
            try await StubdSession.$current.withValue(session) { try await function() }
            if strict { try await session.verifyStrict() }
        } catch {
            try? await session.end()
            throw error
        }
        try await session.end()
    }
}

extension Trait where Self == StubdSessionTrait {
    /// A session per test on the tests' stubd (`Stubd.serverURL()`: `STUBD_BASE_URL`, a stubd on
    /// `http://127.0.0.1:8080`, or one this test process starts).
    public static var stubdSession: Self { StubdSessionTrait(baseURL: nil, token: nil, options: TargetCompileOptions()) }

    /// A session per test on the stubd at `baseURL`; `strict`: the test fails for unused stubs
    /// and for requests that reached no stub.
    public static func stubdSession(baseURL: URL? = nil, token: String? = nil, options: TargetCompileOptions = TargetCompileOptions(),
                                    strict: Bool = false) -> Self {
        StubdSessionTrait(baseURL: baseURL, token: token, options: options, strict: strict)
    }
}
#endif
