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

    /// Issue 58: a writer of a folder never leaves it through a symbolic link — to a folder
    /// elsewhere on the way, or in place of the file — nor by `..`; folders on the way are made.
    @Test func containedWritesStayInTheirFolderWhateverTheLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-contained-\(UUID().uuidString)").path
        let elsewhere = root + "-elsewhere"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/sublink", withDestinationPath: elsewhere)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: elsewhere + "/target.json"))
        try FileManager.default.createSymbolicLink(atPath: root + "/file-link.json", withDestinationPath: elsewhere + "/target.json")

        try System.writeFileDurably(Array("{}".utf8), named: "__files/deep/a.json", inside: root)
        #expect(FileManager.default.contents(atPath: root + "/__files/deep/a.json") == Data("{}".utf8))
        #expect(throws: ContainedWriteError.throughLink(folder: root, name: "sublink/x.json", link: "sublink")) {
            try System.writeFileDurably(Array("{}".utf8), named: "sublink/x.json", inside: root)
        }
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/x.json"))
        for name in ["../x.json", "/tmp/x.json", "a/../../x.json", "", "a//b.json"] {
            #expect(throws: ContainedWriteError.outside(folder: root, name: name)) { try System.writeFileDurably([1], named: name, inside: root) }
        }
        // A link in place of the file is replaced by the file; what it pointed to is untouched.
        try System.writeFileDurably(Array("new".utf8), named: "file-link.json", inside: root)
        #expect(FileManager.default.contents(atPath: elsewhere + "/target.json") == Data("secret".utf8))
        #expect(FileManager.default.contents(atPath: root + "/file-link.json") == Data("new".utf8))
        let error = ContainedWriteError.throughLink(folder: root, name: "sublink/x.json", link: "sublink")
        #expect(error.description.contains("sublink is a symbolic link") && error.description.contains("replace the link with a real folder"))
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
