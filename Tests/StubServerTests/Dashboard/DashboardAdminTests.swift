import Foundation
import Synchronization
import StubModel
import Testing
import StubdTestSupport
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The dashboard's endpoints and its page's admin rights, without a socket: the decision the
/// engine would carry out, asked of the handler directly.
@Suite(.tags(.process))
struct DashboardAdminTests {
    static func handler(writeDirectory: String? = nil, access: AdminAccess = AdminAccess(host: "127.0.0.1")) -> (StubHandler, DashboardState) {
        let admin = SessionStore(fixtures: try! RouteTable(fixtures: [route("/zen", outcome: ok("zen"))]))
        let dashboard = DashboardState(writeDirectory: writeDirectory)
        let service = AdminService(state: admin, access: access, extra: Dashboard(state: dashboard).endpoints, pageKey: dashboard.uiKey)
        return (StubHandler(admin: admin, responder: service, cors: CORSPolicy(enabled: false), feed: ExchangeFeed(observers: [admin.journal])), dashboard)
    }

    static func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "") -> IncomingRequest {
        var request = IncomingRequest(method: method, target: target, headers: headers.map { NameValue($0.0, $0.1) }, body: Array(body.utf8))
        request.peer = "127.0.0.1"
        return request
    }

    /// The reply a decision gives: at once, or (an admin call answered later, such as a route
    /// change made on the admin's queue) once its work has answered.
    static func answer(_ decision: StubHandler.Decided) -> (status: Int, body: String) {
        if let later = decision.later {
            let answered = Mutex<PreparedReply?>(nil)
            let done = DispatchSemaphore(value: 0)
            later { reply in
                answered.withLock { $0 = reply }
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success, let reply = answered.withLock({ $0 }) else {
                Issue.record("the later answer never came")
                return (0, "")
            }
            return (reply.status, String(decoding: reply.body, as: UTF8.self))
        }
        guard case .response(let reply) = decision.plan?.content else { return (0, "") }
        return (reply.status, String(decoding: reply.body, as: UTF8.self))
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ui-write-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let document = #"{"request": {"method": "GET", "path": "/x"}, "response": {"status": 200, "json": {"a": 1}}}"#

    @Test func thePageCarriesItsKeyAndIsNeverFramedOrFetchedByAScript() {
        let (handler, dashboard) = Self.handler()
        let page = Self.answer(handler.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "127.0.0.1:8080")])))
        #expect(page.status == 200)
        #expect(page.body.contains(#"<meta name="stubd-ui-key" content="\#(dashboard.uiKey)">"#))
        #expect(dashboard.uiKey.count == 32)
        guard case .response(let reply) = handler.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "localhost")])).plan?.content else {
            Issue.record("no page"); return
        }
        #expect(reply.headers.contains { $0.name == "Content-Security-Policy" && $0.value.contains("frame-ancestors 'none'") })
        #expect(reply.headers.contains { $0.name == "X-Frame-Options" && $0.value == "DENY" })
        let fetched = handler.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "127.0.0.1"), ("Sec-Fetch-Dest", "empty")]))
        #expect(Self.answer(fetched).status == 403)
        // DNS rebinding: another Host never gets the page (nor its key).
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "evil.example")]))).status == 403)
    }

    @Test func onlyThePagesOwnOriginWithTheKeyMayWrite() {
        let (handler, dashboard) = Self.handler()
        let key = dashboard.uiKey
        func post(_ headers: [(String, String)]) -> Int {
            Self.answer(handler.decide(Self.request("POST", "/__stubd/routes",
                                                    headers: [("Host", "127.0.0.1:8080"), ("Content-Type", "application/json")] + headers,
                                                    body: Self.document))).status
        }
        #expect(post([("Origin", "http://127.0.0.1:8080"), ("X-Stubd-UI", key)]) == 201)
        #expect(post([("Origin", "http://127.0.0.1:8080")]) == 403, "same origin without the key: an HTML stub")
        #expect(post([("Origin", "http://127.0.0.1:8080"), ("X-Stubd-UI", String(key.reversed()))]) == 403, "a wrong key")
        #expect(post([("Origin", "http://localhost:8080"), ("X-Stubd-UI", key)]) == 403, "another origin with the key")
        #expect(post([("Origin", "https://127.0.0.1:8080"), ("X-Stubd-UI", key)]) == 403, "another scheme")
        #expect(post([("Origin", "null"), ("X-Stubd-UI", key)]) == 403)
    }

    @Test func withATokenThePageIsServedAndEveryCallStillNeedsTheToken() {
        let (handler, _) = Self.handler(access: AdminAccess(host: "0.0.0.0", token: "t0ken"))
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "10.0.0.5:8080")]))).status == 200)
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/ui/app.js", headers: [("Host", "10.0.0.5:8080")]))).status == 200)
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/requests", headers: [("Host", "10.0.0.5:8080")]))).status == 401)
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/events", headers: [("Host", "10.0.0.5:8080")]))).status == 401)
        #expect(Self.answer(handler.decide(Self.request("GET", "/__stubd/requests",
                                                        headers: [("Host", "10.0.0.5:8080"), ("Authorization", "Bearer t0ken")]))).status == 200)
        // Without a token a non-loopback bind serves no page either.
        let (off, _) = Self.handler(access: AdminAccess(host: "0.0.0.0"))
        #expect(Self.answer(off.decide(Self.request("GET", "/__stubd/ui", headers: [("Host", "10.0.0.5:8080")]))).status == 403)
    }

    @Test func aFixtureFileIsWrittenOnlyIntoTheFolderOnlyWhenValidAndNeverOverAnother() throws {
        func write(_ handler: StubHandler, _ body: String) -> (status: Int, body: String) {
            Self.answer(handler.decide(Self.request("POST", "/__stubd/ui/fixtures", headers: [("Host", "127.0.0.1"), ("Content-Type", "application/json")], body: body)))
        }
        let (off, _) = Self.handler()
        #expect(write(off, #"{"file": "a.json", "document": \#(Self.document)}"#).status == 403)
        let folder = try Self.folder()
        let (handler, _) = Self.handler(writeDirectory: folder)
        for name in ["../a.json", "a/b.json", ".hidden.json", "a.txt", "a b.json", "/etc/x.json"] {
            #expect(write(handler, #"{"file": "\#(name)", "document": \#(Self.document)}"#).status == 400, "\(name)")
        }
        let invalid = write(handler, #"{"file": "bad.json", "document": {"request": {"method": "GET", "path": "/x"}, "response": {"status": 9999}}}"#)
        #expect(invalid.status == 400 && invalid.body.contains("bad.json is not a valid fixture file") && invalid.body.contains("status"), "\(invalid.body)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.json"))
        let written = write(handler, #"{"file": "x.json", "document": \#(Self.document)}"#)
        #expect(written.status == 201, "\(written.body)")
        let text = try String(contentsOfFile: folder + "/x.json", encoding: .utf8)
        #expect(text.contains(#""path": "/x""#))
        #expect(write(handler, #"{"file": "x.json", "document": \#(Self.document)}"#).status == 409)
        #expect(write(handler, #"{"file": "x.json", "document": \#(Self.document), "overwrite": true}"#).status == 201)
    }

    @Test func metricsCountRequestsMissesFaultsAndHitsPerRoute() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen")), route("/boom", outcome: .fault(.reset))])
        defer { server.stop() }
        _ = try Curl.run(["-o", "/dev/null", server.url("/zen"), "-o", "/dev/null", server.url("/zen"), "-o", "/dev/null", server.url("/nope")])
        _ = try? Curl.run([server.url("/boom")])
        let metrics = try Curl.run([server.url("/__stubd/metrics")]).stdout
        #expect(metrics.contains("stubd_requests_total 4"), "\(metrics)")
        #expect(metrics.contains("stubd_misses_total 1"))
        #expect(metrics.contains("stubd_faults_total 1"))
        #expect(metrics.contains(#"stubd_route_hits_total{route="GET /zen",id="f0",source="test"} 2"#))
        #expect(metrics.contains("# TYPE stubd_route_hits_total counter"))
        #expect(metrics.contains("# TYPE stubd_loop_lag_seconds gauge") && metrics.contains(#"stubd_loop_lag_max_seconds{loop="0"} "#))
        let routes = try Curl.run([server.url("/__stubd/routes")]).stdout
        #expect(routes.contains(#""hits": 2"#), "\(routes)")
    }

    /// The journal's timestamps, computed without a formatter, agree with Foundation's.
    @Test func timestampsAgreeWithISO8601DateFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in [0.0, 951_782_400.5, 1_709_164_800.123, 1_795_000_000.999, 4_102_444_799.25, -86_400.5, 1_000_000_000.0] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RequestsAdmin.timestamp(date) == formatter.string(from: date), "\(seconds)")
        }
    }
}
