import Foundation
import StubModel
@testable import StubdTesting
import Testing
import StubdTestTags
import TargetModel

/// Socket-free: what routes the kit makes of targets and answers, and what it reads from the environment.
@Suite(.tags(.inMemory)) struct StubResponseTests {
    @Test func answersBecomeTheRoutesOutcomes() throws {
        var fixture = try StubdSession.fixture(for: UserAPI.profile, options: .init())
        #expect(fixture.name == "profile")
        #expect(fixture.request.method == "GET")
        if case .response(let response) = fixture.outcome { #expect(response.status == 200 && response.body == Array(#"{"id":1,"name":"Ada"}"#.utf8)) }
        else { Issue.record("the sample is a response") }
        fixture = try StubdSession.fixture(for: UserAPI.login(user: "a", password: "b"), options: .init())
        #expect(fixture.request.method == "POST")

        if case .response(let response)? = StubResponse.response(404, "gone", headers: ["X-B": "2", "X-A": "1"]).outcome {
            #expect(response.status == 404 && response.body == Array("gone".utf8))
            #expect(response.headers.map(\.name) == ["X-A", "X-B"])
        } else { Issue.record("a response") }
        #expect(StubResponse.sample.outcome == nil && StubResponse.delayed(2).delay == 2)
        #expect(StubResponse.fault(.reset).delayed(by: 1).outcome == .fault(.reset))
        #expect(StubResponse.networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)).outcome?.fault != nil)
    }

    @Test func theFilterSelectsTheTargetsRouteAndLiteralPath() throws {
        let session = StubdSession(id: "t1", baseURL: URL(string: "http://127.0.0.1:1")!)
        let filter = try session.filter(for: UserAPI.search(query: "x", page: 1))
        #expect(filter == RequestFilter(method: "GET", path: "/v2/search", route: #"search(query: "x", page: 1)"#, matched: true))
        #expect(filter.items.map(\.name) == ["method", "path", "route", "matched"])
        #expect(RequestFilter().items.isEmpty)
    }

    @Test func theBaseURLComesFromTheEnvironmentOrTheSimulatorsDefault() {
        #expect(Stubd.baseURL(environment: [:]).absoluteString == "http://127.0.0.1:8080")
        #expect(Stubd.baseURL(environment: ["STUBD_BASE_URL": "http://10.0.2.2:9000"]).absoluteString == "http://10.0.2.2:9000")
        #expect(Stubd.baseURL(environment: ["STUBD_BASE_URL": "not a url"]).absoluteString == "http://127.0.0.1:8080")
        let session = StubdSession(id: "ui-7", baseURL: URL(string: "http://127.0.0.1:8080")!)
        #expect(session.launchEnvironment == ["STUBD_BASE_URL": "http://127.0.0.1:8080", "STUBD_SESSION": "ui-7", "STUBD_TIMEOUT": "2"])
    }

    /// Each health check is bounded by what is left of the wait (a port that accepts and never
    /// answers would otherwise hold one try for the client's 30 s).
    @Test func eachTryOfTheWaitIsBoundedByTheTimeLeft() {
        #expect(Stubd.attemptTimeout(remaining: 10) == 2)
        #expect(Stubd.attemptTimeout(remaining: 0.5) == 0.5)
        #expect(Stubd.attemptTimeout(remaining: 0.01) == 0.2)
        #expect(Stubd.attemptTimeout(remaining: -3) == 0.2)
    }

    @Test func aMismatchListsEveryMissWithItsDifferences() {
        let error = StubdTestingError.countMismatch(target: "profile", request: "GET /me", expected: 1, actual: 0, session: "s",
                                                    misses: ["GET /mee → closest: profile (path segment 1: expected \"me\", got \"mee\")"])
        #expect(error.description == """
            expected 1 request(s) for profile (GET /me) in session s, got 0. Requests of this session that reached no stub:
              GET /mee → closest: profile (path segment 1: expected "me", got "mee")
            """)
    }
}
