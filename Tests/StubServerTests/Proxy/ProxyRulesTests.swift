import Testing
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The proxy's header rules and which pages may use it, without a socket.
@Suite(.tags(.inMemory)) struct ProxyRulesTests {
    @Test func aForwardedRequestLosesHopByHopHeadersAndGainsForwardingOnes() throws {
        let upstream = try ProxyUpstream(url: "https://api.example.com:8443/v1/")
        var request = IncomingRequest(method: "GET", target: "/users?x=1", headers: [
            NameValue("Host", "127.0.0.1:9000"), NameValue("Connection", "keep-alive, X-Private"), NameValue("X-Private", "p"),
            NameValue("Keep-Alive", "timeout=5"), NameValue("X-Stubd-Session", "s1"), NameValue("Accept", "*/*"),
            NameValue("X-Forwarded-For", "10.0.0.9"),
        ])
        request.peer = "127.0.0.1"
        let forwarded = upstream.forward(request)
        let names = forwarded.headers.map { $0.name.lowercased() }
        #expect(forwarded.target == "/v1/users?x=1")
        #expect(!names.contains("connection") && !names.contains("keep-alive") && !names.contains("x-private") && !names.contains("x-stubd-session"))
        #expect(forwarded.headers.contains(NameValue("Host", "api.example.com:8443")))
        #expect(forwarded.headers.contains(NameValue("X-Forwarded-For", "10.0.0.9, 127.0.0.1")))
        #expect(forwarded.headers.contains(NameValue("X-Forwarded-Host", "127.0.0.1:9000")))
        #expect(forwarded.headers.contains(NameValue("Accept", "*/*")))
        #expect(forwarded.tls != nil)
    }

    @Test func aRecordingAsksOnlyForCodingsItDecodes() {
        let cut = ProxyUpstream.decodableAcceptEncoding([NameValue("Accept-Encoding", "gzip, deflate, br"), NameValue("Accept", "*/*")])
        #expect(cut == [NameValue("Accept-Encoding", "gzip, deflate"), NameValue("Accept", "*/*")])
        #expect(ProxyUpstream.decodableAcceptEncoding([NameValue("Accept-Encoding", "br;q=1.0, zstd")]).isEmpty, "none left: the header goes")
        #expect(ProxyUpstream.decodableAcceptEncoding([NameValue("accept-encoding", "GZIP;q=0.8")]) == [NameValue("accept-encoding", "GZIP;q=0.8")])
    }

    @Test(arguments: [
        ("http://localhost:3000", true), ("https://localhost", true), ("http://127.0.0.1:5173", true), ("http://[::1]:8080", true),
        ("http://127.0.0.1.evil.example", false), ("https://localhost.evil.example", false), ("null", false),
        ("http://evil.example", false), ("file://", false), ("http://user@localhost", false),
    ])
    func onlyThisMachinesPagesAreLocal(origin: String, local: Bool) {
        #expect(CORSPolicy.isLocalPage(origin) == local, "\(origin)")
    }

    @Test func forwardingIsForLocalPagesAndNamedOriginsOnly() {
        func client(_ origin: String?, site: String? = nil) -> ClientProfile {
            ClientProfile(IncomingRequest(method: "GET", target: "/x", headers: (origin.map { [NameValue("Origin", $0)] } ?? [])
                                              + (site.map { [NameValue("Sec-Fetch-Site", $0)] } ?? [])))
        }
        let any = CORSPolicy(enabled: true)
        #expect(any.allowsForwarding(client(nil)), "not a page: curl, an app")
        #expect(any.allowsForwarding(client("http://localhost:3000")))
        #expect(!any.allowsForwarding(client("http://evil.example")), "`*` answers stubs to any page, never the proxy")
        let named = CORSPolicy(enabled: true, allowedOrigins: ["https://app.example"])
        #expect(named.allowsForwarding(client("https://app.example")))
        // Issue 60: the one "page" rule — a no-cors <img> of another site sends no Origin, only Fetch Metadata.
        #expect(!any.allowsForwarding(client(nil, site: "cross-site")), "an <img> on another site is a page too")
        #expect(any.allowsForwarding(client(nil, site: "same-origin")) && any.allowsForwarding(client(nil, site: "none")))
    }
}
