import Foundation
import StubModel
import StubdTestSupport
import StubdTesting
import TargetModel
import Testing
import StubdTestTags
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Strict sessions and counts of what the app did, against a real stubd over sockets.
@Suite(.tags(.process)) struct StrictSessionTests {
    @Test func aStrictSessionFailsForAnUnusedStubAndForAMissAndPassesWhenClean() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let session = try await Stubd.session(baseURL: stubd.url)
        try await session.stub(UserAPI.profile)
        try await session.stub(UserAPI.search(query: "swift", page: 1))
        _ = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id)
        // One stub unused: the failure names it.
        await #expect(throws: StubdTestingError.self) { try await session.verifyStrict() }
        do {
            try await session.verifyStrict()
        } catch {
            #expect("\(error)".contains("search"), "\(error)")
            #expect("\(error)".contains("never requested") && !"\(error)".contains("profile:"), "\(error)")
        }
        _ = try await AppClient.send(UserAPI.search(query: "swift", page: 1), stubd: stubd.url, session: session.id)
        try await session.verifyStrict()
        // A request nobody stubbed, which the app swallowed: the failure names it and its closest route.
        _ = try await AppClient.send(UserAPI.search(query: "kotlin", page: 1), stubd: stubd.url, session: session.id)
        do {
            try await session.verifyStrict()
            Issue.record("a miss passed a strict session")
        } catch {
            #expect("\(error)".contains("q=kotlin") && "\(error)".contains("requests that reached no stub"), "\(error)")
        }
    }

    /// curl re-sends a request whose reused connection was reset ("retrying a fresh connect"):
    /// the journal holds both, the count is the app's one request.
    @Test func aClientsReSendAfterAResetIsCountedOnce() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let session = try await Stubd.session(baseURL: stubd.url)
        try await session.stub(UserAPI.profile, .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost)))
        try await session.stub(UserAPI.search(query: "warm", page: 1))
        let warm = try AppClient.request(UserAPI.search(query: "warm", page: 1), stubd: stubd.url, session: nil).url!.absoluteString
        let profile = try AppClient.request(UserAPI.profile, stubd: stubd.url, session: nil).url!.absoluteString
        let result = try Curl.run(["-v", "-H", "X-Stubd-Session: \(session.id)", "-H", "Accept: application/json", warm, profile])
        #expect(result.stderr.contains("retrying a fresh connect"), "curl did not re-send: \(result.stderr)")
        #expect(try await session.requests(UserAPI.profile).count == 2, "both attempts are journaled")
        try await session.expect(UserAPI.profile, count: 1)
    }
}
