import Foundation
import Synchronization
import Testing
import StubdTestSupport
import FixtureFiles
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// `--watch`: a good edit is served without dropping connections; a broken one keeps the old table.
@Suite(.serialized, .tags(.socket)) struct HotReloadEndToEndTests {
    @Test func goodEditsAreServedAndBrokenEditsKeepTheOldTable() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("api.json")
        let write = { (text: String) throws in try Data(#"{"request": {"method": "GET", "path": "/v"}, "response": {"text": "\#(text)"}}"#.utf8).write(to: file) }
        try write("one")
        let server = try StubdServer.start(table: try RouteTable(fixtures: try FixtureLoader.load(paths: [root.path])), port: 0, logger: nil)
        defer { server.stop() }
        let outcomes = Mutex<[FixtureWatcher.ReloadResult]>([])
        let changed = DispatchSemaphore(value: 0)
        let watcher = FixtureWatcher(paths: [root.path], server: server, interval: 0.1) { outcome in
            outcomes.withLock { $0.append(outcome) }
            changed.signal()
        }
        defer { watcher.stop() }

        let connection = RawHTTP.connectLoopback(port: server.port)
        defer { close(connection) }
        #expect(RawHTTP.roundTrip(connection, "GET /v HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\none"))

        try write("two")
        #expect(changed.wait(timeout: .now() + 5) == .success)
        #expect(RawHTTP.roundTrip(connection, "GET /v HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\ntwo"))

        try Data(#"{"request": {"method": "GET", "path": "/v"}, "response": {"status": "oops"}}"#.utf8).write(to: file)
        #expect(changed.wait(timeout: .now() + 5) == .success)
        #expect(RawHTTP.roundTrip(connection, "GET /v HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\ntwo"))
        guard case .rejected(let problems)? = outcomes.withLock({ $0.last }) else { Issue.record("no rejection"); return }
        #expect(problems == ["\(file.path): response.status: expected an integer from 100 to 599, found \"oops\""])
    }
}
