import Foundation
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The admin API driven with curl, as a test script or a developer would; its refusals in
/// memory: `AdminServingTests`.
@Suite(.serialized, .tags(.process)) struct AdminEndToEndTests {
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
