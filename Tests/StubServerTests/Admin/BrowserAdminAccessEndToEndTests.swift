import Foundation
import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A browser's requests to the admin API, as Chromium marks them (`Sec-Fetch-*`), over real
/// sockets (issue 30): a script on stubd's own origin — a stub page — has no `Origin` on its GETs
/// but is marked same-origin, and is refused; the dashboard's own calls carry its key; what the
/// user types into the address bar is read as before; curl and the kit carry no marks.
@Suite(.tags(.process))
struct BrowserAdminAccessEndToEndTests {
    /// The headers Chromium sends with a page script's `fetch` to its own origin.
    static let sameOriginFetch = ["-H", "Sec-Fetch-Site: same-origin", "-H", "Sec-Fetch-Mode: cors", "-H", "Sec-Fetch-Dest: empty"]
    /// The headers of an address typed into the bar.
    static let typed = ["-H", "Sec-Fetch-Site: none", "-H", "Sec-Fetch-Mode: navigate", "-H", "Sec-Fetch-Dest: document", "-H", "Sec-Fetch-User: ?1"]

    static func status(_ arguments: [String]) throws -> String {
        String(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}"] + arguments).stdout)
    }

    @Test func aScriptOnStubdsOwnOriginCannotReadOrChangeTheAdminAPI() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))])
        defer { server.stop() }
        _ = try Curl.run([server.url("/zen")])
        for path in ["/__stubd/requests", "/__stubd/routes", "/__stubd/webhooks", "/__stubd/metrics", "/__stubd/ui"] {
            #expect(try Self.status(Self.sameOriginFetch + [server.url(path)]) == "403", "\(path)")
        }
        // The event stream, refused before it opens.
        #expect(try Self.status(Self.sameOriginFetch + ["--max-time", "2", server.url("/__stubd/events")]) == "403")
        // A same-origin POST carries an Origin too: refused without the key.
        let origin = "http://127.0.0.1:\(server.port)"
        #expect(try Self.status(Self.sameOriginFetch + ["-X", "POST", "-H", "Origin: \(origin)", server.url("/__stubd/reset")]) == "403")
        // An iframe or a navigation the page started (window.open of a JSON endpoint) is a browser's request too.
        #expect(try Self.status(["-H", "Sec-Fetch-Site: same-origin", "-H", "Sec-Fetch-Mode: navigate", "-H", "Sec-Fetch-Dest: iframe",
                                 server.url("/__stubd/requests")]) == "403")
        #expect(try Self.status(["-H", "Sec-Fetch-Site: same-origin", "-H", "Sec-Fetch-Mode: navigate", "-H", "Sec-Fetch-Dest: document",
                                 server.url("/__stubd/requests")]) == "403")
        let refusal = try Curl.run(Self.sameOriginFetch + [server.url("/__stubd/requests")]).stdout
        #expect(refusal.contains("Sec-Fetch-Site: same-origin") && refusal.contains("address bar"))
    }

    @Test func theDashboardsCallsTheUsersAddressBarCurlAndTheKitStillWork() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))])
        defer { server.stop() }
        let key = server.server.dashboard.uiKey
        let origin = "http://127.0.0.1:\(server.port)"
        // The dashboard: its GETs carry the key and no Origin, its writes the key and its Origin.
        #expect(try Self.status(Self.sameOriginFetch + ["-H", "X-Stubd-UI: \(key)", server.url("/__stubd/requests")]) == "200")
        #expect(try Self.status(Self.sameOriginFetch + ["-H", "X-Stubd-UI: \(key)", "-H", "Origin: \(origin)", "-X", "POST",
                                                        server.url("/__stubd/reset")]) == "200")
        // A wrong key, or the right key from another origin, is refused.
        #expect(try Self.status(Self.sameOriginFetch + ["-H", "X-Stubd-UI: 0123456789abcdef0123456789abcdef", server.url("/__stubd/requests")]) == "403")
        #expect(try Self.status(["-H", "Sec-Fetch-Site: cross-site", "-H", "X-Stubd-UI: \(key)", "-H", "Origin: http://evil.example",
                                 server.url("/__stubd/requests")]) == "403")
        // The page as a navigation from anywhere (its opener cannot read it), its script as a script.
        #expect(try Self.status(Self.typed + [server.url("/__stubd/ui")]) == "200")
        #expect(try Self.status(["-H", "Sec-Fetch-Site: cross-site", "-H", "Sec-Fetch-Mode: navigate", "-H", "Sec-Fetch-Dest: document",
                                 server.url("/__stubd/ui")]) == "200")
        #expect(try Self.status(["-H", "Sec-Fetch-Site: same-origin", "-H", "Sec-Fetch-Mode: no-cors", "-H", "Sec-Fetch-Dest: script",
                                 server.url("/__stubd/ui/app.js")]) == "200")
        // A JSON endpoint typed into the address bar, curl, and the kit (no marks at all).
        #expect(try Self.status(Self.typed + [server.url("/__stubd/requests")]) == "200")
        #expect(try Self.status([server.url("/__stubd/requests")]) == "200")
        #expect(try Self.status(["-X", "POST", server.url("/__stubd/reset")]) == "200")
        // The address bar cannot write: a typed address is a GET.
        #expect(try Self.status(Self.typed + ["-X", "POST", server.url("/__stubd/reset")]) == "403")
    }

    @Test func aListedAdminOriginStillWorksFromItsPage() throws {
        let access = AdminAccess(host: "127.0.0.1", corsOrigins: ["http://dashboard.test"])
        let server = try TestServer(fixtures: [], access: access)
        defer { server.stop() }
        #expect(try Self.status(["-H", "Origin: http://dashboard.test", "-H", "Sec-Fetch-Site: cross-site", "-H", "Sec-Fetch-Mode: cors",
                                 server.url("/__stubd/requests")]) == "200")
    }

    @Test func aBearerTokenWithAControlCharacterIsRefused() throws {
        let access = AdminAccess(host: "127.0.0.1", token: "T")
        let server = try TestServer(fixtures: [], access: access)
        defer { server.stop() }
        #expect(try Self.status(["-H", "Authorization: Bearer T", server.url("/__stubd/health")]) == "200")
        for forged in ["T\u{01}junk", "T\u{7f}", "T\tx"] {
            let raw = "GET /__stubd/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(forged)\r\nConnection: close\r\n\r\n"
            let answer = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(raw.utf8)), as: UTF8.self)
            #expect(!answer.hasPrefix("HTTP/1.1 200"), "\(forged.unicodeScalars.map(\.value)): \(answer.prefix(40))")
        }
    }
}
