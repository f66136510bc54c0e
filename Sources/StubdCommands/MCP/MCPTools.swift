import AdminContract
import FixtureFiles
import Foundation
import StubModel

/// The tools `stubd mcp` offers a coding agent. Each acts inside a session this server opened
/// (`open_session`): its stubs, journal and snapshot — never the shared routes or another test's
/// session. Files: `stub_fixture` reads only inside `--fixtures`; `save_fixture` writes there only
/// when started with `--allow-write`; `verify_drift` asks only `--upstream`, with GET and HEAD.
final class MCPTools {
    /// What the tools may reach, fixed when `stubd mcp` starts.
    struct Limits {
        /// The fixtures folder `stub_fixture` reads and `save_fixture` writes (nil: neither).
        var fixtures: URL?
        /// The real API `verify_drift` asks (nil: the tool says how to enable it).
        var upstream: String?
        /// `--allow-write`: `save_fixture` may write into `fixtures`.
        var allowWrite = false
    }

    private let link: any MCPAdminLink
    private let limits: Limits
    private let baseURL: String
    /// Runs `stubd verify` with these arguments; its exit status and output.
    private let verify: ([String]) -> (status: Int32, output: String)
    /// The sessions this server opened, in order: the only ones its tools act on.
    private(set) var sessions: [String] = []

    init(link: any MCPAdminLink, baseURL: String, limits: Limits, verify: @escaping ([String]) -> (status: Int32, output: String)) {
        self.link = link
        self.baseURL = baseURL
        self.limits = limits
        self.verify = verify
    }

    /// The tools as `tools/list` gives them.
    var list: JSONValue {
        let session: (key: String, value: JSONValue) = ("session", Self.property("string", "the id open_session returned"))
        var tools: [JSONValue] = [
            Self.tool("open_session", """
                Open a stubd session of your own: stubs you add in it answer only requests carrying its header \
                (X-Stubd-Session: ID), and its journal holds only those requests. Returns the id, the header and stubd's URL.
                """, [("name", Self.property("string", "a prefix for the new id (the id is always fresh: use the one returned)"))], required: []),
            Self.tool("list_routes", "The routes the session sees, in lookup order: id, method, path, what each answers and its hits.",
                      [session], required: ["session"]),
            Self.tool("stub_request", """
                Stub by example: this request (method, path, optional query) gets this answer (status, and json or text, \
                headers) — for the session only. Returns the route id.
                """, [
                    session,
                    ("method", Self.property("string", "GET, POST, …")),
                    ("path", Self.property("string", "/users/octocat")),
                    ("query", .object([("type", .string("object")), ("description", .string("query parameters the request must carry")),
                                       ("additionalProperties", .object([("type", .string("string"))]))])),
                    ("status", Self.property("integer", "the status (default 200)")),
                    ("json", .object([("description", .string("a JSON body"))])),
                    ("text", Self.property("string", "a text body")),
                    ("headers", .object([("type", .string("object")), ("additionalProperties", .object([("type", .string("string"))]))])),
                ], required: ["session", "method", "path"]),
            Self.tool("stub_fixture", "Add a fixture file's routes (a file inside the fixtures folder stubd mcp was given) to the session.",
                      [session, ("file", Self.property("string", "a path relative to the fixtures folder"))], required: ["session", "file"]),
            Self.tool("read_misses", "The session's requests no route answered, each with its closest route and why it missed.",
                      [session], required: ["session"]),
            Self.tool("read_snapshot", "The session's requests as canonical text (method, path, sorted query, main headers, body).",
                      [session], required: ["session"]),
            Self.tool("verify_drift", """
                Send each fixture route's request (GET and HEAD only) to the real API stubd mcp was given (--upstream) and \
                report where its answer drifted from the fixture.
                """, [], required: []),
            Self.tool("end_session", "End the session: its stubs, journal and state are removed.", [session], required: ["session"]),
        ]
        if limits.allowWrite {
            tools.insert(Self.tool("save_fixture", """
                Write the session's stubs as a fixture file into the fixtures folder (started with --allow-write), so they \
                become part of the project's fixtures.
                """, [session, ("file", Self.property("string", "a plain name ending in .json")),
                      ("overwrite", Self.property("boolean", "replace a file of that name"))], required: ["session", "file"]), at: 4)
        }
        return .object([("tools", .array(tools))])
    }

    /// Runs tool `name` with `arguments`: its text, or why it failed.
    func call(_ name: String, _ arguments: JSONValue) -> Result<String, MCPToolError> {
        do throws(MCPToolError) {
            switch name {
            case "open_session": return .success(try openSession(arguments))
            case "list_routes": return .success(try listRoutes(session(arguments)))
            case "stub_request": return .success(try stubRequest(session(arguments), arguments))
            case "stub_fixture": return .success(try stubFixture(session(arguments), arguments))
            case "save_fixture" where limits.allowWrite: return .success(try saveFixture(session(arguments), arguments))
            case "read_misses": return .success(try readMisses(session(arguments)))
            case "read_snapshot": return .success(try readSnapshot(session(arguments)))
            case "verify_drift": return .success(try verifyDrift())
            case "end_session": return .success(try endSession(session(arguments)))
            case "save_fixture": throw MCPToolError("save_fixture writes files: start stubd mcp with --allow-write (and --fixtures DIR) to allow it")
            default: throw MCPToolError("no tool \"\(name)\"; tools/list names them")
            }
        } catch {
            return .failure(error)
        }
    }

    // MARK: The tools

    /// A fresh session every time: a `name` is a prefix, followed by 64 random bits, so no name an
    /// agent picks can be a kit's, a proxy device's or another agent's session — it could then
    /// list, change and end that test's stubs. The answer says the id to use.
    private func openSession(_ arguments: JSONValue) throws(MCPToolError) -> String {
        var prefix = "mcp"
        if case .string(let name)? = arguments["name"] {
            guard !name.isEmpty, name.utf8.count <= 100, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw MCPToolError("name: use letters, digits, - _ . (at most 100)")
            }
            prefix = name
        }
        let id = prefix + "-" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        sessions.append(id)
        var answer: [(key: String, value: JSONValue)] = [("session", .string(id)), ("header", .string("\(SessionID.header): \(id)")),
                                                         ("baseURL", .string(baseURL))]
        if prefix != "mcp" {
            answer.append(("note", .string("a session of your own: \"\(prefix)\" is only its prefix, so no other test's session can be opened by name; send the header above")))
        }
        return JSONWriter.write(.object(answer), pretty: true)
    }

    private func listRoutes(_ session: String) throws(MCPToolError) -> String {
        let answer = try admin("GET", AdminContract.routes.spec.path, session: session)
        guard case .array(let routes)? = answer["routes"] else { throw MCPToolError("GET /__stubd/routes: no routes in the answer") }
        let lines = routes.map { entry -> String in
            let request = entry["route"]?["request"]
            let path = ["path", "pathTemplate", "pathPattern", "urlPattern"].lazy.compactMap { key -> String? in
                if case .string(let text)? = request?[key] { return text }
                return nil
            }.first ?? "*"
            let method: String = if case .string(let text)? = request?["method"] { text } else { "ANY" }
            let id: String = if case .string(let text)? = entry["id"] { text } else { "?" }
            let answers: String = if case .string(let text)? = entry["answers"] { text } else { "" }
            let hits: Int = if case .number(let count)? = entry["hits"], let whole = Int(exactly: count.rounded()) { whole } else { 0 }
            let owner = entry["session"] == .string(session) ? " (this session)" : ""
            return "\(id) \(method) \(path) → \(answers), \(hits) hit\(hits == 1 ? "" : "s")\(owner)"
        }
        return lines.isEmpty ? "no routes" : lines.joined(separator: "\n")
    }

    private func stubRequest(_ session: String, _ arguments: JSONValue) throws(MCPToolError) -> String {
        guard case .string(let method)? = arguments["method"], !method.isEmpty else { throw MCPToolError("method: expected GET, POST, …") }
        guard case .string(let path)? = arguments["path"], path.hasPrefix("/") else { throw MCPToolError("path: expected a path starting with /") }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw MCPToolError("path: contains a control character (CR, LF, …), which no request line carries; percent-encode it")
        }
        var request: [(key: String, value: JSONValue)] = [("method", .string(method.uppercased())), ("path", .string(path))]
        if let query = arguments["query"] { request.append(("query", query)) }
        var response: [(key: String, value: JSONValue)] = [("status", arguments["status"] ?? .number(200))]
        if let json = arguments["json"] { response.append(("json", json)) }
        if let text = arguments["text"] { response.append(("text", text)) }
        if let headers = arguments["headers"] { response.append(("headers", headers)) }
        let route: JSONValue = .object([("name", .string("\(method.uppercased()) \(path) (MCP)")), ("request", .object(request)),
                                        ("response", .object(response))])
        let answer = try admin("POST", AdminContract.addRoutes.spec.path, session: session, body: route)
        return "added \(answer["added"]?.description ?? "[]") for \(method.uppercased()) \(path) in session \(session)"
    }

    private func stubFixture(_ session: String, _ arguments: JSONValue) throws(MCPToolError) -> String {
        let file = try fixtureFile(arguments, mustExist: true)
        // Sized before it is read: stubd's admin API takes at most 32 MiB in one call (--max-body's default).
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int ?? 0
        guard size <= Self.fixtureLimit else {
            throw MCPToolError("\(file.lastPathComponent): \(size) bytes, over the \(Self.fixtureLimit >> 20) MiB one call may carry; split it into smaller fixture files")
        }
        guard let data = FileManager.default.contents(atPath: file.path), let document = try? JSONParser.parse([UInt8](data)) else {
            throw MCPToolError("\(file.path): not a readable JSON fixture file")
        }
        let answer = try admin("POST", AdminContract.addRoutes.spec.path, session: session, body: document)
        return "added \(answer["added"]?.description ?? "[]") from \(file.lastPathComponent) in session \(session)"
    }

    private func saveFixture(_ session: String, _ arguments: JSONValue) throws(MCPToolError) -> String {
        let file = try fixtureFile(arguments, mustExist: false)
        guard file.pathExtension == "json", !file.lastPathComponent.hasPrefix(".") else { throw MCPToolError("file: a name ending in .json") }
        let overwrite = arguments["overwrite"] == .bool(true)
        if FileManager.default.fileExists(atPath: file.path) && !overwrite {
            throw MCPToolError("\(file.lastPathComponent) exists in the fixtures folder; pass overwrite: true to replace it")
        }
        let answer = try admin("GET", AdminContract.routes.spec.path, session: session)
        guard case .array(let entries)? = answer["routes"] else { throw MCPToolError("GET /__stubd/routes: no routes in the answer") }
        let routes = entries.filter { $0["session"] == .string(session) }.compactMap { $0["route"] }
        guard !routes.isEmpty else { throw MCPToolError("session \(session) has no stubs to save; add some with stub_request") }
        let text = JSONWriter.write(.object([("routes", .array(routes))]), pretty: true) + "\n"
        guard let folder = limits.fixtures, case .string(let name)? = arguments["file"] else { throw MCPToolError("file: missing") }
        do {
            // Never through a symbolic link out of the folder, whatever the check above saw.
            try AtomicFile.write(Array(text.utf8), named: name, inside: folder.path)
        } catch {
            throw MCPToolError("file: \(error)")
        }
        return "wrote \(routes.count) route(s) to \(file.path)"
    }

    private func readMisses(_ session: String) throws(MCPToolError) -> String {
        let answer = try admin("GET", AdminContract.requests.spec.path + "?matched=false", session: session)
        guard case .array(let entries)? = answer["requests"] else { throw MCPToolError("GET /__stubd/requests: no requests in the answer") }
        let lines = entries.map { entry -> String in
            let method: String = if case .string(let text)? = entry["method"] { text } else { "" }
            let url: String = if case .string(let text)? = entry["url"] { text } else { "" }
            let near: String = if case .string(let text)? = entry["nearMiss"], !text.isEmpty { " → closest: \(text)" } else { " → no route is close" }
            return "\(method) \(url)\(near)"
        }
        return lines.isEmpty ? "no misses: every request of session \(session) was answered by a route" : lines.joined(separator: "\n")
    }

    private func readSnapshot(_ session: String) throws(MCPToolError) -> String {
        let answer = try admin("GET", AdminContract.requestSnapshot.spec.path, session: session)
        guard case .string(let text)? = answer["snapshot"] else { throw MCPToolError("GET /__stubd/requests/snapshot: no snapshot in the answer") }
        return text.isEmpty ? "no requests yet in session \(session)" : text
    }

    private func verifyDrift() throws(MCPToolError) -> String {
        guard let upstream = limits.upstream, let fixtures = limits.fixtures else {
            throw MCPToolError("verify_drift asks the real API: start stubd mcp with --upstream URL and --fixtures DIR")
        }
        let result = verify([fixtures.path, "--upstream", upstream])
        guard result.status == 0 || result.status == 1 else { throw MCPToolError("stubd verify failed (\(result.status)): \(result.output)") }
        return result.output
    }

    private func endSession(_ session: String) throws(MCPToolError) -> String {
        _ = try admin("POST", AdminContract.reset.spec.path, session: session)
        sessions.removeAll { $0 == session }
        return "session \(session) ended: its stubs, journal and state are gone"
    }

    // MARK: Checks

    /// The largest fixture file `stub_fixture` reads (the admin API's default body limit).
    static let fixtureLimit = 32 << 20

    /// The session argument, refused unless this server opened it.
    private func session(_ arguments: JSONValue) throws(MCPToolError) -> String {
        guard case .string(let id)? = arguments["session"] else { throw MCPToolError("session: missing; call open_session first and pass its id") }
        guard sessions.contains(id) else {
            throw MCPToolError("session \"\(id)\" was not opened by this server; call open_session (tools act only on sessions they opened)")
        }
        return id
    }

    /// `file` inside the fixtures folder: no absolute path, no `..`, no symbolic link out.
    private func fixtureFile(_ arguments: JSONValue, mustExist: Bool) throws(MCPToolError) -> URL {
        guard let folder = limits.fixtures else { throw MCPToolError("no fixtures folder: start stubd mcp with --fixtures DIR") }
        guard case .string(let name)? = arguments["file"], !name.isEmpty else { throw MCPToolError("file: missing") }
        let parts = name.split(separator: "/")
        guard !name.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            throw MCPToolError("file: \(name) is outside the fixtures folder; give a path relative to it without ..")
        }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL
        let file = root.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL
        guard file.path.hasPrefix(root.path + "/") else { throw MCPToolError("file: \(name) leads outside the fixtures folder") }
        if mustExist && !FileManager.default.fileExists(atPath: file.path) { throw MCPToolError("file: no \(name) in \(root.path)") }
        return file
    }

    private func admin(_ method: String, _ path: String, session: String, body: JSONValue? = nil) throws(MCPToolError) -> JSONValue {
        let (status, answer) = try link.call(method, path, session: session, body: body).get()
        guard status < 400 else {
            let message: String = if case .string(let text)? = answer["error"] { text } else { answer.description }
            let problems: String = if case .array(let items)? = answer["problems"] { items.map { "\n  \($0)" }.joined() } else { "" }
            throw MCPToolError("stubd refused (\(status)): \(message)\(problems)")
        }
        return answer
    }

    private static func tool(_ name: String, _ description: String, _ properties: [(key: String, value: JSONValue)], required: [String]) -> JSONValue {
        .object([("name", .string(name)), ("description", .string(description)),
                 ("inputSchema", .object([("type", .string("object")), ("properties", .object(properties)),
                                          ("required", .array(required.map { .string($0) }))]))])
    }

    private static func property(_ type: String, _ description: String) -> JSONValue {
        .object([("type", .string(type)), ("description", .string(description))])
    }
}
