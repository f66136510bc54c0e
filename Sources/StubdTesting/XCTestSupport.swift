#if canImport(XCTest)
public import Foundation
public import TargetModel
public import XCTest

extension XCTestCase {
    /// A session on the shared stubd for this test, ended by a teardown block (pass or fail), for
    /// XCUITest, where Swift Testing cannot drive an app:
    ///
    /// ```swift
    /// let session = try await stubdSession()
    /// try await session.stub(UserAPI.login, sequence: [.response(500), .sample])
    /// let app = XCUIApplication()
    /// app.launchEnvironment.merge(session.launchEnvironment) { $1 }
    /// app.launch()
    /// ```
    ///
    /// It runs on the caller's actor (`isolation`), so a `@MainActor` UI test — XCUITest's usual
    /// kind — calls it under Swift 6's checks without sending the test case across actors.
    public func stubdSession(baseURL: URL? = nil, token: String? = nil,
                             options: TargetCompileOptions = TargetCompileOptions(), timeout: TimeInterval = 10,
                             isolation: isolated (any Actor)? = #isolation) async throws -> StubdSession {
        let session = try await Stubd.session(baseURL: baseURL, token: token, options: options, timeout: timeout)
        addTeardownBlock { try await session.end() }
        return session
    }
}
#endif
