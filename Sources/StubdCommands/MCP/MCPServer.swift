import StubModel

/// The Model Context Protocol over stdio, as `stubd mcp` speaks it: one JSON-RPC 2.0 message per
/// line in, one per line out. Handles the handshake (`initialize`, `notifications/initialized`),
/// `ping`, `tools/list` and `tools/call`; anything else is a JSON-RPC error naming the method.
/// Socket-free: `answer(line:)` is the whole protocol, tested with lines.
final class MCPServer {
    /// The protocol versions this server speaks; a client asking for another gets the latest.
    static let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// A line longer than this is refused (a tool call is small; 1 MiB bounds what one message holds).
    static let maxLine = 1 << 20

    private let tools: MCPTools
    private let version: String

    init(tools: MCPTools, version: String) {
        self.tools = tools
        self.version = version
    }

    /// The answer to one line (nil for a notification or an answer from the client).
    func answer(line: String) -> String? {
        guard line.utf8.count <= Self.maxLine else { return Self.tooLong }
        guard let message = try? JSONParser.parse(Array(line.utf8)) else { return Self.error(id: .null, code: -32700, "not JSON") }
        guard case .object = message, case .string(let method)? = message["method"] else {
            // A response to a request of ours (we send none) or a batch: nothing to do, but say so for a batch.
            if case .array = message { return Self.error(id: .null, code: -32600, "batches are not supported; send one message per line") }
            return nil
        }
        guard let id = message["id"], id != .null else { return nil }  // a notification (notifications/initialized, cancelled)
        let params = message["params"] ?? .object([])
        switch method {
        case "initialize":
            let asked: String = if case .string(let text)? = params["protocolVersion"] { text } else { Self.versions.last! }
            return Self.result(id: id, .object([
                ("protocolVersion", .string(Self.versions.contains(asked) ? asked : Self.versions.last!)),
                ("capabilities", .object([("tools", .object([("listChanged", .bool(false))]))])),
                ("serverInfo", .object([("name", .string("stubd")), ("version", .string(version))])),
                ("instructions", .string("""
                    stubd serves stub HTTP answers. Open a session (open_session), stub requests in it (stub_request, \
                    stub_fixture), have the app send X-Stubd-Session: ID, then read what it sent (read_snapshot) and what \
                    no stub answered (read_misses). End the session when done.
                    """)),
            ]))
        case "ping":
            return Self.result(id: id, .object([]))
        case "tools/list":
            return Self.result(id: id, tools.list)
        case "tools/call":
            guard case .string(let name)? = params["name"] else { return Self.error(id: id, code: -32602, "params.name: the tool's name") }
            let outcome = tools.call(name, params["arguments"] ?? .object([]))
            let (text, failed): (String, Bool) = switch outcome {
            case .success(let text): (text, false)
            case .failure(let error): (error.description, true)
            }
            return Self.result(id: id, .object([("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
                                                ("isError", .bool(failed))]))
        default:
            return Self.error(id: id, code: -32601, "no method \(method); this server offers initialize, ping, tools/list and tools/call")
        }
    }

    /// The answer to a line over `maxLine` (read no further than the limit: `MCPLines`).
    static let tooLong = error(id: .null, code: -32600, "a message longer than 1 MiB; send one JSON-RPC message per line, each at most 1 MiB")

    private static func result(id: JSONValue, _ result: JSONValue) -> String {
        JSONWriter.write(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]), pretty: false)
    }

    private static func error(id: JSONValue, code: Int, _ message: String) -> String {
        JSONWriter.write(.object([("jsonrpc", .string("2.0")), ("id", id),
                                  ("error", .object([("code", .number(Double(code))), ("message", .string(message))]))]), pretty: false)
    }
}
