import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTesting
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Two tests sharing one stubd, each in its own `X-Stubd-Session`, never see each other's runtime
/// routes, scenario state or journal entries.
@Suite(.serialized, .tags(.socket)) struct SessionIsolationEndToEndTests {
    @Test func twoParallelClientsInTwoSessionsAreIsolated() async throws {
        let server = try TestServer(fixtures: [route("/profile", name: "profile", outcome: ok("fixture"))])
        defer { server.stop() }
        let base = URL(string: server.url(""))!
        let alice = StubdAdminClient(baseURL: base, session: "alice")
        let bob = StubdAdminClient(baseURL: base, session: "bob")
        try await alice.add([route("/profile", name: "alice-profile", outcome: ok("alice"))])
        try await bob.add([route("/profile", name: "bob-profile", outcome: ok("bob", status: 500))])

        async let aliceRuns = Self.hit(server.url("/profile"), session: "alice", times: 20)
        async let bobRuns = Self.hit(server.url("/profile"), session: "bob", times: 20)
        let (aliceBodies, bobBodies) = await (aliceRuns, bobRuns)
        #expect(aliceBodies.allSatisfy { $0 == "200 alice" })
        #expect(bobBodies.allSatisfy { $0 == "500 bob" })
        #expect(await Self.hit(server.url("/profile"), session: nil, times: 1) == ["200 fixture"])

        #expect(try await alice.count(RequestFilter(path: "/profile")) == 20)
        #expect(try await bob.count(RequestFilter(path: "/profile")) == 20)
        #expect(try await StubdAdminClient(baseURL: base).count(RequestFilter(path: "/profile")) == 41)

        try await alice.reset()
        #expect(await Self.hit(server.url("/profile"), session: "alice", times: 1) == ["200 fixture"])
        #expect(await Self.hit(server.url("/profile"), session: "bob", times: 1) == ["500 bob"])
        #expect(try await alice.count() == 1)
    }

    static func hit(_ url: String, session: String?, times: Int) async -> [String] {
        var bodies: [String] = []
        for _ in 0..<times {
            var request = URLRequest(url: URL(string: url)!)
            if let session { request.setValue(session, forHTTPHeaderField: "X-Stubd-Session") }
            let fetched = await HTTPFetch.send(request)
            bodies.append("\(fetched.status ?? 0) \(fetched.text)")
        }
        return bodies
    }
}
