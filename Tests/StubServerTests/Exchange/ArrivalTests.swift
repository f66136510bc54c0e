import Testing
import StubdTestSupport
import StubModel
import StubServer
import StubdEngine
import StubdRuntime
import StubdSystem
import StubdTestTags

/// Issue 60's probes: who and where a request is for is decided once (`Arrival`, `HostName`),
/// the same for every way in, and nothing rewrites the request to pass it on.
@Suite(.tags(.inMemory)) struct ArrivalTests {
    static let routes = #"""
    {"routes": [
      {"name": "a", "request": {"method": "GET", "path": "/who", "host": "a.example.com"}, "response": {"text": "a"}},
      {"name": "b", "request": {"method": "GET", "path": "/who", "host": "b.example.com."}, "response": {"text": "b"}}
    ]}
    """#

    /// One reading of a host, whoever names it.
    @Test(arguments: [("b.example.com.", "b.example.com"), ("B.Example.COM:8080", "b.example.com"), ("[::1]:80", "::1"), ("[::1]", "::1"),
                      ("localhost.", "localhost"), (" api.example.com ", "api.example.com"), ("", nil), ("[::1", nil), (":80", nil),
                      ("[FE80::1]:443", "fe80::1"), ("host:", "host"), ("host:8a", "host:8a"), ("a.b..", "a.b"), ("\tX.Y\t", "x.y"),
                      (".", nil), ("[]", nil), ("ÄPI.Example.:8443", "äpi.example"), ("Bücher.Example", "bücher.example")])
    func aHostIsReadOneWay(given: String, read: String?) {
        #expect(HostName.normalized(given) == read, "\(given)")
    }

    /// `b.example.com.` (an absolute name) reaches route b directly and through the proxy; the
    /// journal shows the proxied request with the headers the client sent, the server and the
    /// session in fields of their own.
    @Test func theSameHostReachesTheSameRouteDirectlyAndThroughTheProxy() throws {
        let stubd = try InMemoryStubd(Self.routes, settings: { configuration in
            configuration.engine.proxy = ProxySettings(port: 0) { _ in nil }
        })
        defer { stubd.stop() }
        #expect(stubd.get("/who", headers: [("X-Stubd-Host", "b.example.com.")])?.text == "b")
        #expect(stubd.get("/who", headers: [("Host", "B.example.com.:8080")])?.text == "b")
        let sent = [NameValue("Host", "b.example.com."), NameValue("User-Agent", "curl/7.88.1"), NameValue("Accept", "*/*")]
        var proxied = IncomingRequest(method: "GET", target: "/who", headers: sent)
        proxied.proxied = ProxyArrival.parse(method: "GET", target: "http://b.example.com./who", headers: [NameValue("Proxy-Authorization", "Basic ZGV2aWNlLWE6eA==")])
        #expect(proxied.proxied?.host == "b.example.com" && proxied.proxied?.session == "device-a")
        #expect(stubd.network.send(proxied)?.text == "b")
        let entry = try #require(stubd.server.requests().last)
        #expect(entry.headers == sent, "the journal keeps what the client sent: \(entry.headers)")
        #expect(entry.session == SessionID("device-a"))
        #expect(entry.server == "http://b.example.com")
    }

    /// An `<img>` of another site (no-cors: no `Origin`, only Fetch Metadata) is a page for
    /// forwarding as it is for the admin API: refused, nothing sent upstream.
    @Test func aNoCorsPageRequestIsRefusedForForwardingAsForTheAdminAPI() throws {
        let stubd = try InMemoryStubd(Self.routes, upstream: { _ in .answered(status: 200, headers: [], body: Array("upstream".utf8)) }, settings: { configuration in
            configuration.proxy = try? ProxyUpstream(url: "http://upstream.example")
        })
        defer { stubd.stop() }
        let image = [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors"), ("Sec-Fetch-Dest", "image")]
        #expect(stubd.get("/__stubd/requests", headers: image)?.status == 403)
        #expect(stubd.get("/elsewhere", headers: image)?.status == 403)
        #expect(stubd.network.calls.isEmpty, "nothing went upstream: \(stubd.network.calls.map(\.request.target))")
        #expect(stubd.get("/elsewhere")?.text == "upstream", "curl's miss is forwarded")
    }
}
