import StubdHTTP
@testable import StubdHTTP2
import StubdTestTags
import Testing

/// `Upgrade: h2c` read from an HTTP/1.1 request's fields, and the session going on from it.
@Suite(.tags(.inMemory))
struct HTTP2UpgradeTests {
    /// What curl 7.88 sends with `--http2` on `http://` (its SETTINGS: MAX_CONCURRENT_STREAMS
    /// 100, INITIAL_WINDOW_SIZE 32 MiB, ENABLE_PUSH 0).
    static let curlAsks = [NameValue("Host", "127.0.0.1"), NameValue("Connection", "Upgrade, HTTP2-Settings"), NameValue("Upgrade", "h2c"),
                           NameValue("HTTP2-Settings", "AAMAAABkAAQCAAAAAAIAAAAA"), NameValue("Accept", "*/*")]

    @Test func aProperAskGivesItsSettings() throws {
        let settings = try #require(HTTP2Upgrade.settings(in: Self.curlAsks))
        #expect(settings == [0, 3, 0, 0, 0, 100, 0, 4, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0])
        // Java 17's HttpClient: six entries, and `Content-Length: 0` on a GET.
        let java = [NameValue("Connection", "Upgrade, HTTP2-Settings"), NameValue("Content-Length", "0"),
                    NameValue("HTTP2-Settings", "AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA"), NameValue("Upgrade", "h2c")]
        #expect(HTTP2Upgrade.settings(in: java)?.count == 36)
        // An identifier HTTP/2 does not know is ignored, whatever its value.
        #expect(HTTP2Upgrade.valid([0x0F, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF]))
        // Tokens in any case and with spaces, and no SETTINGS at all (an empty payload), still ask.
        let terse = [NameValue("connection", "http2-settings ,UPGRADE"), NameValue("upgrade", " H2C "), NameValue("http2-settings", "")]
        #expect(HTTP2Upgrade.settings(in: terse) == [])
    }

    @Test func anAskMissingAPartIsNotFollowed() {
        func without(_ name: String) -> [NameValue] { Self.curlAsks.filter { $0.name != name } }
        #expect(HTTP2Upgrade.settings(in: without("Upgrade")) == nil)
        #expect(HTTP2Upgrade.settings(in: without("HTTP2-Settings")) == nil)
        #expect(HTTP2Upgrade.settings(in: without("Connection")) == nil, "forwarded by a proxy that did not mean it")
        #expect(HTTP2Upgrade.settings(in: without("Connection") + [NameValue("Connection", "Upgrade")]) == nil, "HTTP2-Settings not named in Connection")
        #expect(HTTP2Upgrade.settings(in: Self.curlAsks + [NameValue("HTTP2-Settings", "")]) == nil, "two HTTP2-Settings fields")
        #expect(HTTP2Upgrade.settings(in: without("Upgrade") + [NameValue("Upgrade", "websocket")]) == nil)
        // Not base64url (standard base64's `+`), a length no encoding has, and not whole 6-byte entries.
        // And values HTTP/2 forbids: INITIAL_WINDOW_SIZE 2^32 − 1, ENABLE_PUSH 2, MAX_FRAME_SIZE 0.
        for value in ["AAMAAABk+AQ", "AAMAA", "AAMA", "AAT_____", "AAIAAAAC", "AAUAAAAA"] {
            #expect(HTTP2Upgrade.settings(in: without("HTTP2-Settings") + [NameValue("HTTP2-Settings", value)]) == nil, "\(value)")
        }
    }

    @Test func base64URLDecodesWithOrWithoutPadding() {
        #expect(HTTP2Upgrade.base64URLDecoded("-_8") == [0xFB, 0xFF])
        #expect(HTTP2Upgrade.base64URLDecoded("-_8=") == [0xFB, 0xFF])
        #expect(HTTP2Upgrade.base64URLDecoded("aGk") == Array("hi".utf8))
        #expect(HTTP2Upgrade.base64URLDecoded("aGk*") == nil)
        #expect(HTTP2Upgrade.base64URLDecoded("") == [])
    }

    @Test func theRequestLosesItsConnectionFields() {
        let asked = Self.curlAsks + [NameValue("Keep-Alive", "5"), NameValue("X-Hop", "1"), NameValue("Connection", "X-Hop")]
        #expect(HTTP2Upgrade.requestHeaders(asked) == [NameValue("Host", "127.0.0.1"), NameValue("Accept", "*/*")])
    }

    @Test func theSessionAnswersTheUpgradedRequestOnStreamOne() throws {
        let (session, box) = HTTP2SessionTests.session()
        let settings = try #require(HTTP2Upgrade.settings(in: Self.curlAsks))
        #expect(session.upgrade(settings: settings, headRequest: false))
        #expect(session.isOpen(1))
        #expect(session.respond(stream: 1, status: 200, headers: [NameValue("content-type", "text/plain")], body: Array("ok".utf8)))
        // The client's preface and SETTINGS come after the 101; then a second request, on stream 3.
        #expect(HTTP2SessionTests.feed(session, HTTP2SessionTests.preface + HTTP2SessionTests.settings() + HTTP2SessionTests.headers(stream: 3, path: "/b")))
        #expect(box.requests.map(\.stream) == [3], "stream 1's request came as HTTP/1.1, not from the session")
        let out = HTTP2SessionTests.frames(session.produce() ?? [])
        #expect(out.first?.type == 0x4 && out.first?.flags == 0, "the server's SETTINGS first")
        #expect(out.filter { $0.stream == 1 }.map(\.type) == [0x1, 0x0])
        #expect(box.closed.map(\.0) == [1])
        // Upgrading twice, or once streams have begun, is refused.
        #expect(!session.upgrade(settings: [], headRequest: false))
    }

    @Test func anEmptyHTTP2SettingsStartsASessionToo() {
        let (session, _) = HTTP2SessionTests.session()
        #expect(session.upgrade(settings: [], headRequest: true))
        #expect(session.respond(stream: 1, status: 200, headers: [NameValue("content-length", "2")], body: nil))
        #expect(HTTP2SessionTests.feed(session, HTTP2SessionTests.preface + HTTP2SessionTests.settings()))
        let out = HTTP2SessionTests.frames(session.produce() ?? [])
        #expect(out.filter { $0.stream == 1 }.map(\.type) == [0x1], "HEAD: the head alone, END_STREAM on it")
        #expect(!session.isFinished)
    }
}
