import AdminContract
import Foundation
import StubModel

extension StubdSession {
    /// Compares this session's requests (`RequestSnapshot`) with the snapshot file `name` beside
    /// the calling test (`__Snapshots__/<test file>/<name>.txt`). The first run — or any run with
    /// `STUBD_SNAPSHOTS=record` — writes the file and passes; later runs throw
    /// `StubdTestingError.snapshotMismatch` with the differing lines. Commit the files.
    public func assertRequestsMatchSnapshot(named name: String, headers: [String] = RequestSnapshot.defaultHeaders,
                                            filePath: String = #filePath) async throws {
        let text = RequestSnapshot.text(try await requests(), headers: headers)
        let test = URL(fileURLWithPath: filePath)
        let folder = test.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(test.deletingPathExtension().lastPathComponent)
        let file = folder.appendingPathComponent(name + ".txt")
        let recording = ProcessInfo.processInfo.environment["STUBD_SNAPSHOTS"] == "record"
        if !recording, let data = FileManager.default.contents(atPath: file.path) {
            let expected = String(decoding: data, as: UTF8.self)
            guard expected == text else {
                throw StubdTestingError.snapshotMismatch(file: file.path, diff: RequestSnapshot.diff(expected: expected, got: text))
            }
            return
        }
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw StubdTestingError.snapshotOutside(file: file.path, reason: "the name \"\(name)\" is not a plain file name")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written only where the folder really is: no symbolic link between the test's folder and the file.
        for step in [folder.deletingLastPathComponent(), folder, file] {
            let type = (try? FileManager.default.attributesOfItem(atPath: step.path))?[.type] as? FileAttributeType
            if type == .typeSymbolicLink {
                throw StubdTestingError.snapshotOutside(file: file.path, reason: "\(step.path) is a symbolic link")
            }
        }
        try Data(text.utf8).write(to: file, options: .atomic)
    }
}
