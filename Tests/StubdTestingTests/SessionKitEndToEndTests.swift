import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubModel
import StubdSystem
import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// The kit against a real stubd over real sockets, as a UI test uses it: a session per test,
/// stubs and verification by target, requests built by Moya's own endpoint code.
@Suite(.tags(.socket)) struct SessionKitEndToEndTests {
    @Test func twoSessionsInParallelEachSeeOnlyTheirOwnStubsAndCounts() async throws {
        let stubd = try KitServer(targets: [UserAPI.profile])
        defer { stubd.stop() }
        let alice = try await Stubd.session(baseURL: stubd.url)
        let bob = try await Stubd.session(baseURL: stubd.url)
        #expect(alice.id != bob.id)
        try await alice.stub(UserAPI.profile, .response(500, "alice: down"))
        try await bob.stub(UserAPI.profile, sequence: [.response(503, "bob: busy"), .sample])

        let seen = try await withThrowingTaskGroup(of: (String, AppClient.Seen).self) { group in
            for index in 0..<20 {
                let session = index % 2 == 0 ? alice.id : bob.id
                group.addTask { (session, try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session)) }
            }
            return try await group.reduce(into: [String: [AppClient.Seen]]()) { $0[$1.0, default: []].append($1.1) }
        }
        #expect(seen[alice.id]?.count == 10)
        #expect(seen[alice.id]?.allSatisfy { $0.status == 500 && $0.body == "alice: down" } == true)
        let bobs = seen[bob.id] ?? []
        #expect(bobs.filter { $0.status == 503 }.count == 1, "bob's sequence answers 503 once: \(bobs)")
        #expect(bobs.filter { $0.status == 200 && $0.body == #"{"id":1,"name":"Ada"}"# }.count == 9)

        #expect(try await alice.count(UserAPI.profile) == 10)
        #expect(try await bob.count(UserAPI.profile) == 10)
        #expect(try await alice.requests(UserAPI.profile).count == 10)
        // Without a session the fixture compiled into the server answers, untouched by either.
        #expect(try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: nil).status == 200)
        #expect(try await alice.count(UserAPI.profile) == 10)

        try await alice.end()
        #expect(try await alice.count(UserAPI.profile) == 0)
        #expect(try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: alice.id).status == 200, "ended: alice's stub is gone")
        #expect(try await bob.count(UserAPI.profile) == 10, "ending alice's session leaves bob's journal")
    }

    /// The same target compiled into a server and stubbed into a session of an empty one: the
    /// app's request gets the same status, Content-Type and bytes.
    @Test func aTargetStubbedThroughTheKitAnswersAsTheSameTargetCompiledIn() async throws {
        let targets: [any TargetType] = [UserAPI.profile, UserAPI.login(user: "ada", password: "pw"), UserAPI.search(query: "swift stub", page: 2)]
        let compiledIn = try KitServer(targets: targets)
        let empty = try KitServer()
        defer { compiledIn.stop(); empty.stop() }
        let session = try await Stubd.session(baseURL: empty.url)
        for target in targets { try await session.stub(target) }
        for target in targets {
            let expected = try await AppClient.send(target, stubd: compiledIn.url, session: nil)
            let viaKit = try await AppClient.send(target, stubd: empty.url, session: session.id)
            #expect(expected.status == 200)
            #expect(viaKit == expected, "\(target)")
            #expect(try await session.count(target) == 1)
        }
        // Another password is another request: it misses in both.
        let other = UserAPI.login(user: "ada", password: "other")
        #expect(try await AppClient.send(other, stubd: empty.url, session: session.id).status == 404)
        #expect(try await AppClient.send(other, stubd: compiledIn.url, session: nil).status == 404)
    }

    @Test func networkErrorsAndDelaysAreSentOnTheWire() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let session = try await Stubd.session(baseURL: stubd.url)
        try await session.stub(UserAPI.profile, .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost)))
        let failed = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id)
        #expect(failed.status == nil && failed.errorCode != nil, "a network error reaches the app as an error: \(failed)")

        try await session.stub(UserAPI.search(query: "q", page: 1), .delayed(0.4))
        let start = Date()
        let delayed = try await AppClient.send(UserAPI.search(query: "q", page: 1), stubd: stubd.url, session: session.id)
        #expect(delayed.status == 200 && Date().timeIntervalSince(start) >= 0.4)
        await #expect(throws: StubdTestingError.self) {
            try await session.stub(UserAPI.profile, sequence: [.sample, .delayed(1)])
        }
    }

    /// A session's fixed clock: the templated date a screen shows is the same on every run.
    @Test func aSessionFixesTheClockItsTemplatesSee() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let session = try await Stubd.session(baseURL: stubd.url)
        var fixture = try CompiledTargets.compile([UserAPI.profile]).fixtures[0]
        fixture.outcomes = [.response(StubHTTPResponse(status: 200, body: Array("{{now format='yyyy-MM-dd'}}".utf8), template: true))]
        try await session.admin.add([fixture])
        try await session.setClock(Date(timeIntervalSince1970: 1_900_000_000))
        #expect(try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id).body == "2030-03-17")
        try await session.setClock(nil)
        #expect(try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id).body != "2030-03-17")
    }

    @Test func waitingForAServerThatIsNotThereSaysWhereAndWhatToDo() async throws {
        // A port that is bound and never listened on: connecting is refused, and nobody else can take it meanwhile.
        let address = try System.resolve(host: "127.0.0.1", port: 0)[0]
        let fd = try System.streamSocket(for: address)
        defer { System.close(fd) }
        try System.bind(fd, to: address)
        let dead = URL(string: "http://127.0.0.1:\(try System.boundPort(fd))")!
        // (How long it takes is not asserted: with the whole suite on two cores a try can wait
        // for a thread for many seconds. Each try's bound is unit-tested in StubResponseTests.)
        let error = await #expect(throws: StubdTestingError.self) { try await Stubd.waitUntilReady(baseURL: dead, timeout: 0.5) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("no stubd answered at \(dead.absoluteString) within 0.5 s"), "\(message)")
        #expect(message.contains("--ready-file"), "\(message)")
    }

    /// A port that accepts connections but never answers (a hung process, another program):
    /// the wait still ends at its timeout.
    @Test func aPortThatNeverAnswersStillEndsTheWaitOnTime() async throws {
        let address = try System.resolve(host: "127.0.0.1", port: 0)[0]
        let fd = try System.streamSocket(for: address)
        defer { System.close(fd) }
        try System.bind(fd, to: address)
        try System.listen(fd, backlog: 16)
        let silent = URL(string: "http://127.0.0.1:\(try System.boundPort(fd))")!
        let error = await #expect(throws: StubdTestingError.self) { try await Stubd.waitUntilReady(baseURL: silent, timeout: 1) }
        #expect(error.map { "\($0)" }?.contains("no stubd answered at \(silent.absoluteString) within 1.0 s") == true, "\(String(describing: error))")
    }
}

/// The Swift Testing trait: a session per test, ended after it.
@Suite(.tags(.socket)) struct SessionTraitTests {
    static let shared = try! KitServer(targets: [UserAPI.profile])

    @Test(.stubdSession(baseURL: SessionTraitTests.shared.url)) func theTraitOpensASessionForTheTest() async throws {
        let session = try #require(StubdSession.current)
        try await session.stub(UserAPI.profile, .response(418, "teapot"))
        let seen = try await AppClient.send(UserAPI.profile, stubd: Self.shared.url, session: session.id)
        #expect(seen.status == 418)
        try await session.expect(UserAPI.profile, count: 1)
        #expect(session.launchEnvironment == ["STUBD_BASE_URL": Self.shared.url.absoluteString, "STUBD_SESSION": session.id, "STUBD_TIMEOUT": "2"])
    }

    /// A strict session whose stubs were all used and whose requests all matched ends green.
    @Test(.stubdSession(baseURL: SessionTraitTests.shared.url, strict: true)) func aCleanStrictSessionPasses() async throws {
        let session = try #require(StubdSession.current)
        try await session.stub(UserAPI.profile, .response(200, "strict"))
        #expect(try await AppClient.send(UserAPI.profile, stubd: Self.shared.url, session: session.id).body == "strict")
    }
}
