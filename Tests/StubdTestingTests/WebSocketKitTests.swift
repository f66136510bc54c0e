import Foundation
import StubModel
import StubdTestSupport
import StubdTesting
import Testing
import StubdTestTags

/// The kit's hand in a WebSocket conversation (issue 37): a WebSocket route added through the kit,
/// an app's client opening it with the session's header, a message pushed by the test at the
/// moment it wants, the open conversations listed and closed with a code — another session's
/// conversation untouched. (Foundation's `URLSessionWebSocketTask` cannot run on Debian 12:
/// swift-corelibs answers -1002 "WebSockets not supported by libcurl"; the client here is a plain
/// socket, `RawWebSocket`.)
@Suite(.tags(.socket)) struct WebSocketKitTests {
    @Test func aTestPushesListsAndClosesItsSessionsConversations() async throws {
        let server = try KitServer()
        defer { server.stop() }
        let session = try await Stubd.session(baseURL: server.url)
        let admin = StubdAdminClient(baseURL: server.url, session: nil)
        let script = WebSocketScript(onOpen: [WebSocketStep(.send(.text("hello"), template: false))],
                                     replies: [WebSocketReply(match: .text(.equalTo("ping", caseInsensitive: false)), steps: [WebSocketStep(.send(.text("pong"), template: false))])])
        try await admin.add([Fixture(name: "live", source: "test", request: RequestPattern(method: "GET", path: "/live"), outcome: .websocket(script))])
        let port = server.url.port ?? 0
        let mine = try #require(RawWebSocket(port: port, path: "/live", headers: [("X-Stubd-Session", session.id)]))
        let other = try #require(RawWebSocket(port: port, path: "/live", headers: [("X-Stubd-Session", "someone-else")]))
        #expect(mine.head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "\(mine.head)")
        #expect(mine.receive() == "hello" && other.receive() == "hello")
        mine.send("ping")
        #expect(mine.receive() == "pong")
        #expect(try await session.webSockets().map(\.path) == ["/live"])
        #expect(try await session.send(toWebSocket: "/live", json: ["type": "message", "text": "new!"]) == 1)
        let pushed = try #require(mine.receive())
        #expect(pushed.contains(#""text":"new!""#) && pushed.contains(#""type":"message""#), "\(pushed)")
        #expect(try await session.closeWebSockets(code: 4001, reason: "done") == 1)
        #expect(mine.receive() == "close 4001")
        other.send("ping")
        #expect(other.receive() == "pong", "another session's conversation is untouched")
    }
}
