import AdminContract
import StubModel
import StubServer
import StubdEngine

/// How the MCP tools reach stubd's admin API: one call, its status and JSON answer. The command
/// uses `EngineAdminLink`; the tools' tests hand in a fake, so the protocol is tested without a server.
protocol MCPAdminLink: Sendable {
    /// `method /__stubd/path` in `session` (always one: a tool never acts outside a session),
    /// with `body` as JSON; the status and the parsed answer, or why no answer came.
    func call(_ method: String, _ path: String, session: String?, body: JSONValue?) -> Result<(status: Int, answer: JSONValue), MCPToolError>
}

/// The admin API over the engine's own client (`CommandRequest`: libevent, a loop of its own).
struct EngineAdminLink: MCPAdminLink {
    let server: ProxyUpstream
    let token: String?
    let timeout: Double

    func call(_ method: String, _ path: String, session: String?, body: JSONValue?) -> Result<(status: Int, answer: JSONValue), MCPToolError> {
        var headers = [NameValue("Host", server.hostHeader), NameValue("Accept", "application/json")]
        if let token { headers.append(NameValue("Authorization", "Bearer \(token)")) }
        if let session { headers.append(NameValue(SessionID.header, session)) }
        let bytes = body.map { Array(JSONWriter.write($0, pretty: false).utf8) } ?? []
        if body != nil { headers.append(NameValue("Content-Type", "application/json")) }
        var request = UpstreamRequest(host: server.host, port: server.port, method: method,
                                      target: server.basePath + AdminContract.prefix + "/" + path, headers: headers, body: bytes,
                                      timeoutSeconds: timeout)
        request.tls = server.tls
        let status: Int
        let answer: [UInt8]
        switch CommandRequest.send(request) {
        case .answered(let code, _, let received), .relayed(let code, _, let received?, _):
            (status, answer) = (code, received)
        case .relayed(let code, _, nil, _):
            return .failure(MCPToolError("\(method) \(AdminContract.prefix)/\(path): answered \(code) with a body that did not arrive whole"))
        case .failed(let reason):
            return .failure(MCPToolError("stubd at \(server.scheme)://\(server.hostHeader) cannot be reached (\(reason)): start it (stubd serve) or pass stubd mcp --url"))
        }
        guard let value = try? JSONParser.parse(answer) else {
            return .failure(MCPToolError("\(method) \(AdminContract.prefix)/\(path): answered \(status), not JSON"))
        }
        return .success((status, value))
    }
}

/// Why a tool call failed, as the agent reads it (a tool result with `isError`).
struct MCPToolError: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
