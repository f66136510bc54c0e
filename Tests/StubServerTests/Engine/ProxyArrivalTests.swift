import Foundation
import Testing
import StubModel
import StubdEngine
import StubdTestTags

/// How the proxy port reads a request-target and its credentials (`serve --proxy-port`), without
/// sockets: the host and port a client means, the session its credentials name, and the targets
/// that name no server (answered 400, never guessed).
@Suite(.tags(.inMemory)) struct ProxyArrivalTests {
    static func basic(_ text: String) -> [NameValue] {
        [NameValue("Proxy-Authorization", "Basic " + Data(text.utf8).base64EncodedString())]
    }

    @Test func absoluteFormAndConnectNameTheServer() {
        #expect(ProxyArrival.parse(method: "GET", target: "http://API.Example.com/v1/me?x=1", headers: [])
                == ProxyArrival(host: "api.example.com", port: 80, scheme: "http"))
        #expect(ProxyArrival.parse(method: "GET", target: "http://api.example.com:8080", headers: [])?.port == 8080)
        #expect(ProxyArrival.parse(method: "GET", target: "http://[::1]:9000/x", headers: [])
                == ProxyArrival(host: "::1", port: 9000, scheme: "http"))
        #expect(ProxyArrival.parse(method: "CONNECT", target: "api.example.com:443", headers: [])
                == ProxyArrival(host: "api.example.com", port: 443, scheme: "https", isConnect: true))
        #expect(ProxyArrival.parse(method: "CONNECT", target: "[2001:db8::1]:8443", headers: [])?.host == "2001:db8::1")
        // User info in the URL is not the host.
        #expect(ProxyArrival.parse(method: "GET", target: "http://user:pw@api.example.com/x", headers: [])?.host == "api.example.com")
    }

    @Test func targetsThatNameNoServerAreNotGuessed() {
        for (method, target) in [("GET", "/v1/me"), ("GET", "ftp://api.example.com/x"), ("GET", "http:///x"), ("GET", "http://a b/x"),
                                 ("CONNECT", "api.example.com"), ("CONNECT", "api.example.com:0"), ("CONNECT", "api.example.com:65536"),
                                 ("CONNECT", "api.example.com:99999999999999999999999"), ("CONNECT", "api.example.com:-1"),
                                 ("CONNECT", "[::1"), ("CONNECT", ":443"), ("GET", "http://api.example.com:80x/")] {
            #expect(ProxyArrival.parse(method: method, target: target, headers: []) == nil, "\(method) \(target)")
        }
    }

    @Test func credentialsNameTheSessionAndCarryThePassword() {
        #expect(ProxyArrival.parse(method: "CONNECT", target: "a.example:443", headers: Self.basic("device-a:s3cret"))?.session == "device-a")
        #expect(ProxyArrival.credentials(in: Self.basic("device-a:s3:cret"))?.password == "s3:cret")
        #expect(ProxyArrival.credentials(in: Self.basic("phone%201:x"))?.user == "phone 1", "a percent-encoded user, as URLs carry it")
        #expect(ProxyArrival.credentials(in: Self.basic(":only-a-password"))?.user == nil)
        #expect(ProxyArrival.credentials(in: [NameValue("Proxy-Authorization", "Bearer abc")]) == nil)
        #expect(ProxyArrival.credentials(in: [NameValue("Proxy-Authorization", "Basic !!!")]) == nil)
        let huge = "Basic " + String(repeating: "QUFB", count: 2000)
        #expect(ProxyArrival.credentials(in: [NameValue("Proxy-Authorization", huge)]) == nil, "over 4 KiB is ignored")
    }
}
