import Foundation
import StubdSystem
import Testing
import StubdTestTags

/// What stubd writes never shows a secret unless asked, and a low descriptor limit with a crowd
/// of slow clients does not keep normal clients waiting or make stubd spin.
@Suite(.serialized, .tags(.process)) struct SecurityCommandTests {
    static let secrets = ["hdr-authz-1111", "proxy-2222", "cookie-3333", "apikey-4444", "sessionid-5555", "custom-token-6666",
                          "query-key-7777", "form-password-8888", "json-token-9999", "set-cookie-0000"]

    static func curl(_ arguments: [String]) -> String { StubdProcess.curl(arguments) }

    /// A hit and a miss carrying every kind of secret, then the journal as the admin API returns it.
    static func sendSecretsAndReadJournal(_ stubd: ServingStubd) -> String {
        let base = stubd.baseURL
        for path in ["/zen", "/nope"] {
            _ = curl(["-H", "Authorization: Bearer hdr-authz-1111", "-H", "Proxy-Authorization: Basic proxy-2222",
                      "-H", "Cookie: sid=cookie-3333", "-H", "X-Api-Key: apikey-4444", "-H", "X-Session-Id: sessionid-5555",
                      "-H", "X-My-Token: custom-token-6666", base + path + "?page=1&api_key=query-key-7777"])
        }
        _ = curl(["-X", "POST", "--data", "user=me&password=form-password-8888", base + "/form"])
        _ = curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"user": {"name": "me", "refreshToken": "json-token-9999"}}"#,
                  base + "/json"])
        return curl([base + "/__stubd/requests"])
    }

    @Test func theJournalAndTheLogShowNoSecretValue() throws {
        let root = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [
              {"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}},
              {"request": {"method": "GET", "path": "/nope-ish", "headers": {"Authorization": "Bearer set-cookie-0000"}}, "response": {"text": "x"}}
            ]}
            """#])
        let stubd = try ServingStubd([root, "--port", "0"])
        let journal = Self.sendSecretsAndReadJournal(stubd)
        let stopped = stubd.stop()
        #expect(journal.contains("\"[redacted]\""))
        #expect(journal.contains("page=1&api_key=[redacted]"))
        for secret in Self.secrets {
            #expect(!journal.contains(secret), "the journal shows \(secret)")
            #expect(!stopped.stderr.contains(secret), "the log shows \(secret)")
        }
        #expect(stopped.stderr.contains("GET /zen?page=1&api_key=[redacted] 404 MISS"))
    }

    @Test func journalSecretsKeepsThemAndSaysSo() throws {
        let root = try StubdProcess.temporaryFolder(["api.json": #"{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}}"#])
        let stubd = try ServingStubd([root, "--port", "0", "--journal-secrets"])
        let journal = Self.sendSecretsAndReadJournal(stubd)
        let stopped = stubd.stop()
        #expect(journal.contains("hdr-authz-1111"))
        #expect(journal.contains("json-token-9999"))
        #expect(stopped.stdout.contains("--journal-secrets: the journal and logs keep Authorization"))
    }

    /// CPU seconds (user + system) a process has used, from /proc.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Double(fields[11]) ?? 0) / 100 + (Double(fields[12]) ?? 0) / 100
    }

    /// A connected TCP socket to 127.0.0.1:`port` with a 5 s receive timeout, or nil.
    static func connectLoopback(port: Int) -> Int32? {
        System.connectLoopback(port: port, receiveTimeout: 5)
    }

    /// Opens `count` connections that each send half a request head.
    static func slowlorisCrowd(port: Int, count: Int) -> [Int32] {
        (0..<count).compactMap { _ in
            guard let fd = connectLoopback(port: port) else { return nil }
            System.sendAll(fd, Array("GET /zen HTTP/1.1\r\nHost: x\r\n".utf8))
            return fd
        }
    }

    /// A normal client: one GET on a fresh connection, the body of the reply (raw sockets, so
    /// nothing in the test process walks its own crowd of descriptors).
    static func normalGet(port: Int, path: String) -> String? {
        guard let fd = connectLoopback(port: port) else { return nil }
        defer { close(fd) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        System.sendAll(fd, request)
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        let text = String(decoding: reply, as: UTF8.self)
        return text.components(separatedBy: "\r\n\r\n").dropFirst().first
    }

    @Test(arguments: [nil, "5000"])
    func aSlowlorisCrowdUnderALowDescriptorLimitLeavesNormalClientsServed(maxConnections: String?) throws {
        // The test itself holds the crowd's 600 sockets; make sure its own limit allows that.
        #expect(System.raiseOpenFileLimit() >= 1024)
        let root = try StubdProcess.temporaryFolder(["api.json": #"{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}}"#])
        // 5,000 allowed connections with 256 descriptors: accept itself runs out (EMFILE).
        let extra = maxConnections.map { " --max-connections \($0)" } ?? ""
        let stubd = try ServingStubd(shell: "ulimit -n 256; exec '\(StubdProcess.executable.path)' serve '\(root)' --port 0 --head-timeout 3\(extra)")
        let pid = stubd.process.processIdentifier
        let cpuBefore = Self.cpuSeconds(pid)
        let crowd = Self.slowlorisCrowd(port: stubd.port, count: 600)
        defer { crowd.forEach { close($0) } }
        var worst = 0.0
        for _ in 0..<50 {
            let start = Date()
            let answer = Self.normalGet(port: stubd.port, path: "/zen")
            worst = max(worst, Date().timeIntervalSince(start))
            #expect(answer == "zen")
        }
        let cpu = Self.cpuSeconds(pid) - cpuBefore
        let stopped = stubd.stop()
        #expect(crowd.count == 600)
        #expect(worst < 1.0, "a normal client waited \(worst) s")
        #expect(cpu < 2.0, "stubd used \(cpu) s of CPU")
        #expect(stopped.stderr.utf8.count < 64 * 1024, "stubd logged \(stopped.stderr.utf8.count) bytes")
        #expect(stopped.stderr.components(separatedBy: "cannot accept connections").count <= 3)
    }

    /// Descriptors held by `pid` (Linux: /proc).
    static func descriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// Clients that connect and leave without a byte, as fast as they can, under a 256-descriptor
    /// limit: normal clients are all answered, the descriptors the flood took are
    /// back within a second of it stopping (not at the 10 s head deadline), and the open count
    /// never drifts below zero.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func aConnectAndCloseFloodLeavesNormalClientsServedAndDescriptorsFree() throws {
        let root = try StubdProcess.temporaryFolder(["api.json": #"{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}}"#])
        let stubd = try ServingStubd(shell: "ulimit -n 256; exec '\(StubdProcess.executable.path)' serve '\(root)' --port 0 --workers 1")
        let pid = stubd.process.processIdentifier
        // The banner is printed once every loop accepts: the descriptor count is settled.
        let baseline = Self.descriptors(pid)
        let port = stubd.port
        let stop = StopFlag()
        let flooding = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: flooding) { while !stop.isSet { if let fd = Self.connectLoopback(port: port) { close(fd) } } }
        }
        var answered = 0
        for _ in 0..<70 where Self.normalGet(port: port, path: "/zen") == "zen" { answered += 1 }
        stop.set()
        flooding.wait()
        // Released within a second (two sweeps), not at the 10 s head deadline.
        let deadline = Date().addingTimeInterval(1.5)
        var after = Self.descriptors(pid)
        while after > baseline + 2 && Date() < deadline { after = Self.descriptors(pid) }
        let stopped = stubd.stop()
        // Answered at all (a 5 s read timeout); how fast is `make hostile`'s figure (release build,
        // alone: 70 of 70 within 1 s; 58 before). Beside the whole suite on two cores a few can
        // still be lost: one accept burst can take more flood connections than the cap, and
        // making room ends the oldest newcomer, which can be a client accepted earlier in the
        // same burst (63 of 70 seen once in a full parallel run). The descriptor check below is
        // what the fix guarantees.
        #expect(answered >= 60, "\(answered) of 70 answered")
        #expect(after <= baseline + 2, "\(after) descriptors 1.5 s after the flood, \(baseline) before")
        #expect(!stopped.stderr.contains("with -"), "the open count drifted: \(stopped.stderr.suffix(500))")
    }

    /// An idle crowd on the HTTPS port takes from the same budget as the HTTP port and gives way
    /// to either: under a 256-descriptor limit, HTTPS and HTTP clients are all served.
    @Test func anIdleCrowdOnTheHTTPSPortStarvesNeitherPort() throws {
        #expect(System.raiseOpenFileLimit() >= 1024)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ca-\(UUID().uuidString)").path
        let root = try StubdProcess.temporaryFolder(["api.json": #"{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}}"#])
        let stubd = try ServingStubd(shell: "ulimit -n 256; exec '\(StubdProcess.executable.path)' serve '\(root)' --port 0 --https-port 0 --ca-dir '\(folder)' --workers 1 --quiet")
        let httpsLine = stubd.nextLine()
        let httpsPort = try #require(httpsLine.split(separator: ":").last.flatMap { Int($0) }, "\(httpsLine)")
        let crowd = (0..<400).compactMap { _ in Self.connectLoopback(port: httpsPort) }
        defer { crowd.forEach { close($0) } }
        var https = 0, http = 0
        for _ in 0..<20 {
            let secure = StubdProcess.curl(["-sS", "--cacert", folder + "/stubd-ca.pem", "https://127.0.0.1:\(httpsPort)/zen"])
            if secure == "zen" { https += 1 }
            if Self.normalGet(port: stubd.port, path: "/zen") == "zen" { http += 1 }
        }
        _ = stubd.stop()
        try? FileManager.default.removeItem(atPath: folder)
        #expect(crowd.count >= 300)
        #expect(https == 20 && http == 20, "HTTPS \(https) of 20, HTTP \(http) of 20")
    }
}

/// Set once from the test thread, read by flood threads.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
