import Foundation
import StubdTesting
import XCTest

/// The XCTest helper as an XCUITest case uses it: a session for the test, ended at teardown.
final class XCTestHelperTests: XCTestCase {
    func testTheSessionIsOpenedForTheTestAndEndedAtTeardown() async throws {
        let stubd = try KitServer(targets: [UserAPI.profile])
        // Teardown blocks run last-added first: this one runs after the helper's, and checks it.
        nonisolated(unsafe) var session: StubdSession?
        addTeardownBlock {
            defer { stubd.stop() }
            guard let session else { return XCTFail("no session was opened") }
            let count = try await session.admin.count()
            XCTAssertEqual(count, 0, "the helper's teardown ended the session (its journal is empty)")
            let seen = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id)
            XCTAssertEqual(seen.status, 200, "the session's stub is gone: the compiled-in target answers again")
        }
        let opened = try await stubdSession(baseURL: stubd.url)
        session = opened
        try await opened.stub(UserAPI.profile, .response(503, "maintenance"))
        let seen = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: opened.id)
        XCTAssertEqual(seen.status, 503)
        XCTAssertEqual(seen.body, "maintenance")
        try await opened.expect(UserAPI.profile, count: 1)
    }
}
