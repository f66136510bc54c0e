import Foundation
import Testing
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

/// The admin API driven with curl, as a test script or a developer would.
@Suite(.serialized) struct AdminEndToEndTests {
    static func json(_ result: CurlResult) throws -> JSONValue { try JSONParser.parse(result.stdout) }

    @Test func addReplaceRemoveAndResetRuntimeRoutes() throws {
        let server = try TestServer(fixtures: [route("/zen", name: "zen", outcome: ok("fixture zen"))])
        defer { server.stop() }
        let admin = server.url("/__stubd/routes")
        let added = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"name": "down", "request": {"method": "GET", "path": "/zen"}, "response": {"status": 503, "text": "maintenance"}}"#,
                                  "-w", "\n%{http_code}", admin])
        #expect(added.stdout.hasSuffix("\n201"))
        let id = try JSONParser.parse(String(added.stdout.dropLast(4)))["added"]
        guard case .array(let ids)? = id, case .string(let routeID)? = ids.first else { Issue.record("no id in \(added.stdout)"); return }
        #expect(try Curl.run(["-w", " %{http_code}", server.url("/zen")]).stdout == "maintenance 503")

        let replaced = try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"request": {"method": "GET", "path": "/zen"}, "response": {"status": 200, "text": "runtime zen"}}"#,
                                     server.url("/__stubd/routes/\(routeID)")])
        #expect(try Self.json(replaced)["replaced"] == .string(routeID))
        #expect(try Curl.run([server.url("/zen")]).stdout == "runtime zen")

        let listed = try Self.json(try Curl.run([admin]))
        guard case .array(let routes)? = listed["routes"] else { Issue.record("no routes"); return }
        #expect(routes.compactMap { $0["origin"] } == [.string("runtime"), .string("fixture")])

        #expect(try Self.json(try Curl.run(["-X", "DELETE", server.url("/__stubd/routes/\(routeID)")]))["removed"] == .string(routeID))
        #expect(try Curl.run([server.url("/zen")]).stdout == "fixture zen")

        _ = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"request": {"method": "GET", "path": "/new"}, "response": {"text": "new"}}"#, admin])
        #expect(try Curl.run([server.url("/new")]).stdout == "new")
        #expect(try Self.json(try Curl.run(["-X", "POST", server.url("/__stubd/reset")]))["removedRoutes"] == .number(1))
        #expect(try Curl.run(["-w", "%{http_code}", "-o", "/dev/null", server.url("/new")]).stdout == "404")
    }

    @Test func badInputGetsAnErrorNamingTheField() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("z"))])
        defer { server.stop() }
        let bad = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"request": {"method": "GET", "path": "/a"}, "response": {"status": 42}}"#,
                                "-w", "\n%{http_code}", server.url("/__stubd/routes")])
        #expect(bad.stdout.hasSuffix("\n400"))
        #expect(bad.stdout.contains(#"POST /__stubd/routes: response.status: expected an integer from 100 to 599, found 42"#))
        let unknown = try Curl.run(["-X", "DELETE", "-w", "\n%{http_code}", server.url("/__stubd/routes/r999")])
        #expect(unknown.stdout.hasSuffix("\n404"))
        #expect(unknown.stdout.contains("no route has id r999"))
        let fixture = try Curl.run(["-X", "DELETE", "-w", "\n%{http_code}", server.url("/__stubd/routes/f0")])
        #expect(fixture.stdout.hasSuffix("\n409"))
        let endpoint = try Curl.run(["-w", "\n%{http_code}", server.url("/__stubd/nope")])
        #expect(endpoint.stdout.hasSuffix("\n404"))
        #expect(endpoint.stdout.contains("GET /__stubd/requests/count"))
        let health = try Self.json(try Curl.run([server.url("/__stubd/health")]))
        #expect(health["status"] == .string("ok"))
        #expect(health["fixtureRoutes"] == .number(1))
    }

    @Test func aBatchWithTwoRoutesForTheSameRequestIsAConflictAndAddsNothing() throws {
        let server = try TestServer(fixtures: [])
        defer { server.stop() }
        let batch = #"{"routes": [{"request": {"method": "GET", "path": "/c"}, "response": {"text": "1"}}, {"request": {"method": "GET", "path": "/c"}, "response": {"text": "2"}}]}"#
        let result = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", batch, "-w", "\n%{http_code}",
                                   server.url("/__stubd/routes")])
        #expect(result.stdout.hasSuffix("\n409"))
        #expect(server.server.admin.health.runtimeRoutes == 0)
    }

    @Test func inFlightRequestsFinishOnTheTableTheyStartedWith() throws {
        let probe = ArrivalProbe()
        let server = try TestServer(fixtures: [route("/slow", outcome: ok("old"), delay: 0.5)], observers: [probe])
        defer { server.stop() }
        let connection = RawHTTP.connectLoopback(port: server.port)
        defer { close(connection) }
        _ = Array("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        #expect(probe.waitForArrival(of: "/slow"))
        _ = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"request": {"method": "GET", "path": "/slow"}, "response": {"text": "new"}}"#,
                          server.url("/__stubd/routes")])
        #expect(try Curl.run([server.url("/slow")]).stdout == "new")
        #expect(RawHTTP.roundTrip(connection, "").hasSuffix("\r\n\r\nold"))
    }
}
