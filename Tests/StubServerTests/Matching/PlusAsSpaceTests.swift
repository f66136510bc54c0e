import Foundation
import StubModel
import Testing
import StubdTestSupport
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A space sent as `+` (browsers, URLSearchParams, Python requests, curl --data-urlencode) matches
/// a fixture written with a space; a fixture written with a literal `+` keeps matching; Moya's
/// `%20` and `%2B` read as before; the near miss says when only a space's encoding differs.
@Suite(.tags(.process))
struct PlusAsSpaceTests {
    static func handler(_ fixtures: [Fixture]) -> StubHandler {
        let admin = SessionStore(fixtures: try! RouteTable(fixtures: fixtures))
        return StubHandler(admin: admin, cors: CORSPolicy(enabled: false), feed: ExchangeFeed(observers: []))
    }

    static func status(_ handler: StubHandler, _ target: String, method: String = "GET", form: String? = nil) -> (Int, String) {
        var headers: [NameValue] = []
        if form != nil { headers.append(NameValue("Content-Type", "application/x-www-form-urlencoded")) }
        let decision = handler.decide(IncomingRequest(method: method, target: target, headers: headers, body: Array((form ?? "").utf8)))
        guard case .response(let reply) = decision.plan?.content else { return (0, "") }
        return (reply.status, String(decoding: reply.body, as: UTF8.self))
    }

    @Test func queryValues() {
        let handler = Self.handler([
            route("/search", query: [NameValue("q", "swift stub")], outcome: ok("space")),
            route("/legacy", query: [NameValue("q", "a+b")], outcome: ok("plus")),
        ])
        #expect(Self.status(handler, "/search?q=swift+stub").0 == 200)
        #expect(Self.status(handler, "/search?q=swift%20stub").0 == 200)
        #expect(Self.status(handler, "/search?q=swift%2Bstub").0 == 404, "%2B is a plus, not a space")
        // A fixture written with a literal plus: the plus reading still matches, %2B as always.
        #expect(Self.status(handler, "/legacy?q=a+b").0 == 200)
        #expect(Self.status(handler, "/legacy?q=a%2Bb").0 == 200)
        #expect(Self.status(handler, "/legacy?q=a%20b").0 == 404)
        let miss = Self.status(handler, "/legacy?q=a%20b")
        #expect(miss.1.contains("only a space's encoding differs"), "\(miss.1)")
    }

    @Test func formFields() {
        let handler = Self.handler([
            route("/login", method: "POST", body: .form([NameValue("name", "Ada Lovelace")]), outcome: ok("space")),
            route("/legacy", method: "POST", body: .form([NameValue("expr", "1+1")]), outcome: ok("plus")),
        ])
        #expect(Self.status(handler, "/login", method: "POST", form: "name=Ada+Lovelace").0 == 200)
        #expect(Self.status(handler, "/login", method: "POST", form: "name=Ada%20Lovelace").0 == 200)
        #expect(Self.status(handler, "/legacy", method: "POST", form: "expr=1+1").0 == 200)
        #expect(Self.status(handler, "/legacy", method: "POST", form: "expr=1%2B1").0 == 200)
        #expect(Self.status(handler, "/legacy", method: "POST", form: "expr=1%201").0 == 404)
    }

    /// Real clients that send `+` for a space, against a real server.
    @Test func pythonRequestsCurlAndNodeSendPlusAndMatch() throws {
        let server = try TestServer(fixtures: [
            route("/search", query: [NameValue("q", "swift stub")], outcome: ok("found")),
            route("/form", method: "POST", body: .form([NameValue("q", "swift stub")]), outcome: ok("posted")),
        ])
        defer { server.stop() }
        let curl = try Curl.run(["-G", "--data-urlencode", "q=swift stub", "-w", " %{url_effective}", server.url("/search")]).stdout
        #expect(curl.hasPrefix("found ") && curl.hasSuffix("q=swift+stub"), "\(curl)")
        let form = try Curl.run(["--data-urlencode", "q=swift stub", server.url("/form")]).stdout
        #expect(form == "posted")
        let python = try HTTPSEndToEndTests.python("""
            import requests
            r = requests.get("\(server.url("/search"))", params={"q": "swift stub"})
            p = requests.post("\(server.url("/form"))", data={"q": "swift stub"})
            print(r.status_code, r.url.split("?")[1], p.status_code, p.request.body)
            """)
        #expect(python == "200 q=swift+stub 200 q=swift+stub\n", "\(python)")
    }

    /// Node's fetch with URLSearchParams, as a web page builds the URL and the form (Node is on
    /// machines that ran `make conformance`; Chromium's own check is in `make test-ui`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node")))
    func nodeFetchWithURLSearchParamsMatches() throws {
        let server = try TestServer(fixtures: [
            route("/search", query: [NameValue("q", "swift stub")], outcome: ok("found")),
            route("/form", method: "POST", body: .form([NameValue("q", "swift stub")]), outcome: ok("posted")),
        ])
        defer { server.stop() }
        // Node's fetch with URLSearchParams, as a web page would build the URL and the form.
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "-e", """
            const params = new URLSearchParams({q: "swift stub"});
            (async () => {
              const get = await fetch("\(server.url("/search"))?" + params);
              const post = await fetch("\(server.url("/form"))", {method: "POST", body: params});
              console.log(get.status, String(params), post.status, await post.text());
            })();
            """]
        let out = Pipe()
        node.standardOutput = out
        try node.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        node.waitUntilExit()
        #expect(printed == "200 q=swift+stub 200 posted\n", "\(printed)")
    }
}
