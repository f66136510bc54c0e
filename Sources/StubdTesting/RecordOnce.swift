import AdminContract
public import Foundation
import StubModel

/// How a test's calls are answered when it records once and replays: from fixtures it recorded
/// (`playback`, the default, and what CI runs), recorded now from the real API (`record`), or
/// passed through to the real API without keeping anything (`live`).
public enum StubdMode: String, Sendable, CaseIterable {
    /// Serve the recorded fixtures; a request they do not answer is a miss (a strict session fails).
    case playback
    /// Forward this test's misses to the real API and write its answers into the folder.
    case record
    /// Forward to the real API; nothing is written.
    case live

    /// `STUBD_MODE` (`record`, `playback` or `live`); playback when unset or unknown.
    public static var current: StubdMode {
        ProcessInfo.processInfo.environment["STUBD_MODE"].flatMap { StubdMode(rawValue: $0.lowercased()) } ?? .playback
    }
}

extension StubdSession {
    /// The folder a test's recording lives in: `__Recordings__/<test file>/<name>` beside the test.
    public static func recordingFolder(named name: String, filePath: String = #filePath) -> URL {
        let test = URL(fileURLWithPath: filePath)
        return test.deletingLastPathComponent().appendingPathComponent("__Recordings__")
            .appendingPathComponent(test.deletingPathExtension().lastPathComponent).appendingPathComponent(name)
    }

    /// Record once, replay after. `playback`: the folder's fixture files become this session's
    /// routes (a missing or empty folder throws, naming how to record it). `record` and `live`:
    /// misses go to `upstream` — the server's one recording, so record one test at a time —
    /// written into the folder (`record`, secrets redacted as `stubd record` redacts them) or into a
    /// folder thrown away (`live`); call `finishRecording()` at the end of the test.
    public func useRecording(_ folder: URL, upstream: URL?, mode: StubdMode = .current) async throws {
        switch mode {
        case .playback:
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".json") }.sorted() ?? []
            guard !files.isEmpty else { throw StubdTestingError.noRecording(folder: folder.path) }
            for file in files {
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) ?? Data()
                let document: JSONValue
                do {
                    document = try JSONParser.parse([UInt8](data))
                } catch {
                    throw StubdTestingError.target("\(folder.path)/\(file): \(error)")
                }
                let routes = try RecordingBodies.inlined(document, folder: folder, file: file)
                _ = try await admin.call(AdminContract.addRoutes, body: JSONBody(routes))
            }
        case .record, .live:
            guard let upstream else { throw StubdTestingError.target("STUBD_MODE=\(mode.rawValue) needs the real API's URL (upstream:)") }
            let out = mode == .record ? folder : FileManager.default.temporaryDirectory.appendingPathComponent("stubd-live-\(id)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            _ = try await admin.call(AdminContract.startRecording, body: RecordingStart(upstream: upstream.absoluteString, out: out.path,
                                                                                         overwrite: true))
        }
    }

    /// Ends a recording `useRecording` started (`record`, `live`), answered once every file is
    /// written; nothing to do in `playback`.
    public func finishRecording(mode: StubdMode = .current) async throws {
        guard mode != .playback else { return }
        _ = try await admin.call(AdminContract.stopRecording)
    }
}
