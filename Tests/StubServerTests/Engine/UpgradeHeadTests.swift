import Foundation
import Testing
import StubModel
import StubdEngine
import StubdTestSupport
import FixtureFiles
import StubServer
import StubdTestTags
import StubdRuntime

/// One 101 head: the engine sends, the in-memory engine hands a test, and the journal keeps the
/// same lines — `Connection: Upgrade` and the subprotocol included.
@Suite(.tags(.socket)) struct UpgradeHeadTests {
    static let document = #"""
        {"routes": [{"request": {"method": "GET", "path": "/chat"}, "websocket": {"subprotocols": ["chat.v2"], "onOpen": [{"send": {"text": "hi"}}]}}]}
        """#
    static let upgrade = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                          ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Protocol", "chat.v1, chat.v2")]
    static let expected = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                           "Sec-WebSocket-Protocol: chat.v2"]

    @Test func theInMemoryHeadIsTheEnginesHead() throws {
        let memory = try InMemoryStubd(Self.document)
        defer { memory.stop() }
        let reply = try #require(memory.get("/chat", headers: Self.upgrade))
        #expect(reply.status == 101)
        let inMemory = reply.headers.map { "\($0.name): \($0.value)" }
        #expect(inMemory == Self.expected)

        let fixtures = try FixtureReader(file: "chat.json", loadBodyFile: { _ throws(FixtureReader.FixtureProblem) in [] }).read(Array(Self.document.utf8))
        let server = try TestServer(fixtures: fixtures)
        defer { server.stop() }
        let socket = try #require(RawWebSocket(port: server.port, path: "/chat", headers: [("Sec-WebSocket-Protocol", "chat.v1, chat.v2")]))
        let sent = socket.head.split(separator: "\r\n").dropFirst().map(String.init).filter { !$0.hasPrefix("Date:") }
        #expect(sent == inMemory, "the engine sent \(sent)")
        #expect(socket.receive() == "hi")
        // The in-memory conversation ended at once: the journal holds its head (and the transcript's type).
        let journaled = try #require(memory.server.admin.journal.entries(matching: JournalQuery(path: "/chat")).last?.exchange.response?.headers)
        #expect(Array(journaled.map { "\($0.name): \($0.value)" }.prefix(4)) == inMemory)
    }
}
