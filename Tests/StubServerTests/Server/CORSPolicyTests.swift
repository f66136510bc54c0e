import Testing
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// CORS decisions without a socket.
@Suite(.tags(.inMemory))
struct CORSPolicyTests {
    static func request(_ headers: [(String, String)], method: String = "GET") -> IncomingRequest {
        IncomingRequest(method: method, target: "/x", headers: headers.map { NameValue($0.0, $0.1) })
    }

    @Test func onByDefaultOnlyForLoopback() {
        #expect(CORSPolicy.default(host: "127.0.0.1").enabled)
        #expect(CORSPolicy.default(host: "::1").enabled)
        #expect(CORSPolicy.default(host: "localhost").enabled)
        #expect(!CORSPolicy.default(host: "0.0.0.0").enabled)
    }

    @Test func echoesAnAllowedOriginAndExposesTheReplysHeaders() {
        let policy = CORSPolicy(enabled: true)
        let reply = PreparedReply(status: 200, headers: [NameValue("X-Rate", "1"), NameValue("ETag", "e")], body: [])
        let headers = policy.headers(for: Self.request([("Origin", "http://app.test")]), exposing: reply)
        #expect(headers == [NameValue("Access-Control-Allow-Origin", "http://app.test"), NameValue("Access-Control-Allow-Credentials", "true"),
                            NameValue("Vary", "Origin"), NameValue("Access-Control-Expose-Headers", "X-Rate, ETag")])
        #expect(policy.headers(for: Self.request([]), exposing: reply).isEmpty)
    }

    /// Issue 59: a fixture that sets its own `Access-Control-Allow-Origin` gets no second one
    /// (Chromium refused `*, http://localhost:3000` with "Failed to fetch").
    @Test func anAnswerWithItsOwnAllowOriginGetsNoneAdded() {
        let policy = CORSPolicy(enabled: true)
        let own = PreparedReply(status: 200, headers: [NameValue("access-control-allow-origin", "*")], body: [])
        #expect(policy.headers(for: Self.request([("Origin", "http://localhost:3000")]), exposing: own).isEmpty)
    }

    @Test func listedOriginsOnlyAndNoneWhenDisabled() {
        let listed = CORSPolicy(enabled: true, allowedOrigins: ["https://ok.test"])
        #expect(listed.headers(for: Self.request([("Origin", "https://evil.test")]), exposing: nil).isEmpty)
        #expect(!listed.headers(for: Self.request([("Origin", "https://ok.test")]), exposing: nil).isEmpty)
        #expect(CORSPolicy(enabled: false).headers(for: Self.request([("Origin", "https://ok.test")]), exposing: nil).isEmpty)
    }

    @Test func aPreflightIsAnsweredWithTheRequestedMethodAndHeaders() {
        let policy = CORSPolicy(enabled: true)
        let preflight = policy.preflight(Self.request([("Origin", "http://a.test"), ("Access-Control-Request-Method", "PUT"),
                                                         ("Access-Control-Request-Headers", "x-k")], method: "OPTIONS"))
        #expect(preflight?.reply.status == 204)
        #expect(preflight?.headers.contains(NameValue("Access-Control-Allow-Methods", "PUT")) == true)
        #expect(preflight?.headers.contains(NameValue("Access-Control-Allow-Headers", "x-k")) == true)
        #expect(policy.preflight(Self.request([("Origin", "http://a.test")], method: "OPTIONS")) == nil)
    }
}
