import Foundation
import Testing
@testable import StubdSystem
import StubdTestTags

@Suite(.tags(.inMemory))
struct SystemTests {
    @Test func listsAFolderWithFolderFlagsAndLongNames() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-system-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let long = String(repeating: "n", count: 200) + ".json"
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: root + "/" + long))
        try Data().write(to: URL(fileURLWithPath: root + "/a.json"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/sub")
        let entries = try #require(System.listDirectory(root)).sorted { $0.name < $1.name }
        #expect(entries == [
            DirectoryEntry(name: "a.json", isDirectory: false),
            DirectoryEntry(name: "link", isDirectory: true),
            DirectoryEntry(name: long, isDirectory: false),
            DirectoryEntry(name: "sub", isDirectory: true),
        ])
        #expect(System.listDirectory(root + "/missing") == nil)
    }

    @Test func bindsAnEphemeralPortAndReportsAPortInUseByErrno() throws {
        let address = try #require(try System.resolve(host: "127.0.0.1", port: 0).first)
        let first = try System.streamSocket(for: address)
        defer { System.close(first) }
        try System.bind(first, to: address)
        try System.listen(first, backlog: 8)
        let port = try System.boundPort(first)
        #expect(port > 0)
        let taken = try #require(try System.resolve(host: "127.0.0.1", port: port).first)
        #expect(taken.description == "127.0.0.1:\(port)")
        let second = try System.streamSocket(for: taken)
        defer { System.close(second) }
        #expect(throws: SystemError(operation: "bind", errno: .addressInUse)) { try System.bind(second, to: taken) }
    }

    @Test func anUnknownHostIsAResolveError() {
        #expect(throws: ResolveError.self) { try System.resolve(host: "no-such-host.invalid", port: 80) }
    }
}
