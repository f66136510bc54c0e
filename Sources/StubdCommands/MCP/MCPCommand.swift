import ArgumentParser
import Foundation
import StubServer

/// `stubd mcp`: tools for coding agents over the Model Context Protocol (stdio). It drives a
/// running stubd through its admin API, confined to sessions it opened (docs/AGENTS.md).
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Offer stubd to a coding agent as Model Context Protocol tools (stdio).",
        discussion: """
            Run by the agent, not by hand: its settings name this command (docs/AGENTS.md). The tools \
            act on a running stubd (--url), each inside a session it opened; they read files only \
            inside --fixtures, write there only with --allow-write, and ask only --upstream.

              $ stubd mcp --url http://127.0.0.1:8080 --fixtures fixtures
            """
    )

    @Option(help: "The stubd whose admin API the tools use.")
    var url = "http://127.0.0.1:8080"

    @Option(name: .customLong("admin-token"), help: ArgumentHelp("Its --admin-token (default: STUBD_ADMIN_TOKEN).", valueName: "TOKEN"))
    var adminToken: String?

    @Option(help: ArgumentHelp("The fixtures folder stub_fixture reads from (and save_fixture writes to, with --allow-write).", valueName: "DIR"))
    var fixtures: String?

    @Option(help: ArgumentHelp("The real API verify_drift asks (GET and HEAD only); without it verify_drift is refused.", valueName: "URL"))
    var upstream: String?

    @Flag(name: .customLong("allow-write"), help: "Offer save_fixture, which writes a session's stubs as a file into --fixtures.")
    var allowWrite = false

    func validate() throws {
        do { _ = try ProxyUpstream(url: url) } catch { throw ValidationError("--url: \(error)") }
        if let fixtures {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fixtures, isDirectory: &folder), folder.boolValue else {
                throw ValidationError("--fixtures \(fixtures): no such folder; give the project's fixtures folder (the one stubd serve reads)")
            }
        }
        if allowWrite && fixtures == nil { throw ValidationError("--allow-write needs --fixtures DIR: the only folder save_fixture writes to") }
        if let upstream { do { _ = try ProxyUpstream(url: upstream) } catch { throw ValidationError("--upstream: \(error)") } }
    }

    func run() throws {
        let server = try ProxyUpstream(url: url)
        let token = adminToken ?? ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"]
        let limits = MCPTools.Limits(fixtures: fixtures.map { URL(fileURLWithPath: $0) }, upstream: upstream, allowWrite: allowWrite)
        let tools = MCPTools(link: EngineAdminLink(server: server, token: token, timeout: 30), baseURL: url, limits: limits,
                             verify: Self.runVerify)
        let protocolServer = MCPServer(tools: tools, version: StubdVersion.current)
        printError("stubd mcp: tools for \(url) on stdin/stdout (Ctrl-D ends)")
        for item in MCPLines.standardInput() {
            let answer: String?
            switch item {
            case .tooLong: answer = MCPServer.tooLong
            case .line(let line) where line.allSatisfy(\.isWhitespace): continue
            case .line(let line): answer = protocolServer.answer(line: line)
            }
            if let answer { FileHandle.standardOutput.write(Data((answer + "\n").utf8)) }
        }
    }

    /// `stubd verify ARGUMENTS` by this same executable (a targets package's keeps its decoders).
    static func runVerify(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        process.arguments = ["verify"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (127, "cannot run \(process.executableURL?.path ?? "stubd") verify: \(error.localizedDescription)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
