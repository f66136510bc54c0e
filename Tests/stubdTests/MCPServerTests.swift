import Foundation
import StubModel
import Testing
@testable import StubdCommands
import StubdTestTags

/// `stubd mcp`'s protocol and confinement without a server: JSON-RPC lines in, lines out, the
/// admin API replaced by a link that records every call (Tests/mcp/mcp_test.py runs the real
/// thing with PyPI's MCP client).
@Suite(.tags(.inMemory)) struct MCPServerTests {
    /// Records each admin call and answers as a stubd with no routes would.
    final class RecordingLink: MCPAdminLink, @unchecked Sendable {
        var calls: [(method: String, path: String, session: String?)] = []

        func call(_ method: String, _ path: String, session: String?, body: JSONValue?) -> Result<(status: Int, answer: JSONValue), MCPToolError> {
            calls.append((method, path, session))
            switch (method, path) {
            case ("POST", "routes"): return .success((201, .object([("added", .array([.string("r1")]))])))
            case ("GET", "routes"): return .success((200, .object([("routes", .array([]))])))
            default: return .success((200, .object([])))
            }
        }
    }

    func server(allowWrite: Bool = false) -> (MCPServer, RecordingLink) {
        let link = RecordingLink()
        let tools = MCPTools(link: link, baseURL: "http://127.0.0.1:8080",
                             limits: MCPTools.Limits(fixtures: nil, upstream: nil, allowWrite: allowWrite),
                             verify: { _ in Issue.record("verify must not run without --upstream"); return (0, "") })
        return (MCPServer(tools: tools, version: "9.9.9"), link)
    }

    func result(_ line: String?) throws -> JSONValue {
        try JSONParser.parse(Array(try #require(line).utf8))
    }

    func toolCall(_ server: MCPServer, _ name: String, _ arguments: String) throws -> (text: String, isError: Bool) {
        let answer = try result(server.answer(line: #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments)}}"#))
        guard case .array(let content)? = answer["result"]?["content"], case .string(let text)? = content.first?["text"],
              case .bool(let failed)? = answer["result"]?["isError"] else {
            Issue.record("no tool result: \(answer)")
            return ("", true)
        }
        return (text, failed)
    }

    @Test func theHandshakeAgreesOnAVersionItSpeaks() throws {
        let (server, _) = server()
        let known = try result(server.answer(line: #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#))
        #expect(known["result"]?["protocolVersion"] == .string("2025-06-18"))
        #expect(known["result"]?["serverInfo"]?["version"] == .string("9.9.9"))
        let unknown = try result(server.answer(line: #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#))
        #expect(unknown["result"]?["protocolVersion"] == .string(MCPServer.versions.last!))
        #expect(unknown["id"] == .string("a"))
    }

    @Test func notificationsGetNoAnswerAndUnknownMethodsAnError() throws {
        let (server, _) = server()
        #expect(server.answer(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect(try result(server.answer(line: #"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#))["error"]?["code"] == .number(-32601))
        #expect(try result(server.answer(line: "{not json"))["error"]?["code"] == .number(-32700))
        #expect(try result(server.answer(line: #"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#))["error"]?["code"] == .number(-32600))
        #expect(try result(server.answer(line: String(repeating: " ", count: MCPServer.maxLine + 1)))["error"]?["code"] == .number(-32600))
    }

    @Test func aSessionItDidNotOpenNeverReachesStubd() throws {
        let (server, link) = server()
        for tool in ["list_routes", "stub_request", "read_misses", "read_snapshot", "end_session"] {
            let (text, failed) = try toolCall(server, tool, #"{"session":"someone-else","method":"GET","path":"/x"}"#)
            #expect(failed && text.contains("not opened by this server"), "\(tool): \(text)")
        }
        #expect(link.calls.isEmpty)
    }

    @Test func everyCallOfAnOpenedSessionCarriesIt() throws {
        let (server, link) = server()
        let opened = try toolCall(server, "open_session", #"{"name":"agent-1"}"#)
        #expect(!opened.isError)
        // Issue 58: the name is a prefix of a fresh id (so no other test's session is opened by name).
        guard case .string(let id)? = try JSONParser.parse(Array(opened.text.utf8))["session"] else { Issue.record("no session: \(opened.text)"); return }
        #expect(id.hasPrefix("agent-1-") && id.count == "agent-1-".count + 16, "\(id)")
        #expect(try toolCall(server, "list_routes", #"{"session":"agent-1"}"#).isError, "the bare name is no session of this server's")
        let stubbed = try toolCall(server, "stub_request", #"{"session":"\#(id)","method":"get","path":"/users/1","json":{"id":1}}"#)
        #expect(!stubbed.isError && stubbed.text.contains("GET /users/1"), "\(stubbed.text)")
        _ = try toolCall(server, "read_misses", #"{"session":"\#(id)"}"#)
        _ = try toolCall(server, "end_session", #"{"session":"\#(id)"}"#)
        #expect(link.calls.map { "\($0.method) \($0.path)" } == ["POST routes", "GET requests?matched=false", "POST reset"])
        #expect(link.calls.allSatisfy { $0.session == id })
        let after = try toolCall(server, "read_snapshot", #"{"session":"\#(id)"}"#)
        #expect(after.isError, "an ended session is refused")
    }

    @Test func writingAndTheRealAPIAreOffUnlessStartedSo() throws {
        let (server, link) = server()
        let list = try result(server.answer(line: #"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#))
        guard case .array(let tools)? = list["result"]?["tools"] else { Issue.record("no tools"); return }
        #expect(!tools.contains { $0["name"] == .string("save_fixture") })
        let opened = try toolCall(server, "open_session", #"{"name":"s"}"#)
        guard case .string(let id)? = try JSONParser.parse(Array(opened.text.utf8))["session"] else { Issue.record("no session: \(opened.text)"); return }
        #expect(try toolCall(server, "save_fixture", #"{"session":"\#(id)","file":"x.json"}"#).text.contains("--allow-write"))
        #expect(try toolCall(server, "stub_fixture", #"{"session":"\#(id)","file":"x.json"}"#).text.contains("--fixtures"))
        #expect(try toolCall(server, "verify_drift", "{}").text.contains("--upstream"))
        #expect(try toolCall(server, "open_session", #"{"name":"../x"}"#).isError)
        #expect(link.calls.isEmpty)
        let (writer, _) = self.server(allowWrite: true)
        let writerList = try result(writer.answer(line: #"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#))
        guard case .array(let writerTools)? = writerList["result"]?["tools"] else { Issue.record("no tools"); return }
        #expect(writerTools.contains { $0["name"] == .string("save_fixture") })
    }

    /// Issue 58: standard input is read a piece at a time, and a line over the limit is dropped as
    /// it arrives (never held whole), reported once, and the next line is read as usual.
    @Test func aLineOverTheLimitIsDroppedAsItArrivesAndTheNextIsRead() {
        var pieces: [[UInt8]] = Array(repeating: Array(repeating: UInt8(ascii: "x"), count: 64 << 10), count: 40)  // 2.5 MiB, no newline yet
        pieces.append(Array("xx\n{\"id\":1}\r\n".utf8))
        pieces.append(Array("last".utf8))
        var largest = 0
        var lines = MCPLines(limit: 1 << 20) {
            guard !pieces.isEmpty else { return [] }
            largest = max(largest, pieces[0].count)
            return pieces.removeFirst()
        }
        #expect(lines.next() == .tooLong)
        #expect(lines.next() == .line(#"{"id":1}"#))
        #expect(lines.next() == .line("last"))
        #expect(lines.next() == nil)
        #expect(largest == 64 << 10)
    }
}
