import Dispatch
import Foundation
import StubModel
import Testing
@testable import Recording
import StubdTestTags

/// The recorder without a server or a socket: captured exchanges in, fixture files out, on the
/// recorder's own queue.
@Suite(.tags(.inMemory)) struct RecorderTests {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stubd-recorder-\(UUID().uuidString)").path
    }

    static func text(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func requestsThatDifferOnlyByATokenAreOneRedactedFile() throws {
        let out = Self.folder()
        let recorder = try Recorder(upstream: "har:test.har", options: RecordingOptions(out: out))
        for token in ["SECRET-ONE", "SECRET-TWO"] {
            let request = CapturedRequest(method: "GET", target: "/users/me?access_token=\(token)&page=2",
                                          headers: [NameValue("Authorization", "Bearer \(token)")])
            recorder.record(request, status: 200, headers: [NameValue("Content-Type", "application/json")],
                            body: Array(#"{"login":"me","echo":"\#(token)"}"#.utf8))
        }
        let summary = recorder.finish()
        #expect(summary.requests == 2)
        #expect(summary.files == ["GET-users-me.json"])
        #expect(summary.redactedNames.contains("access_token"))
        let written = Self.text(out + "/GET-users-me.json")
        #expect(written.contains(#""login": "me""#))
        #expect(!written.contains("SECRET-ONE") && !written.contains("SECRET-TWO"), "\(written)")
    }

    @Test func recordReturnsAtOnceAndFinishThenAnswersAfterTheLastFile() throws {
        let out = Self.folder()
        let gate = DispatchSemaphore(value: 0)
        let recorder = try Recorder(upstream: "test", options: RecordingOptions(out: out), log: { _ in }, beforeWrite: { gate.wait() })
        for index in 1...3 {
            // Returns although no file can be written yet: the work is on the recorder's queue.
            recorder.record(CapturedRequest(method: "GET", target: "/item/\(index)"), status: 200, headers: [], body: Array("item \(index)".utf8))
        }
        let done = DispatchSemaphore(value: 0)
        let files = LockedFiles()
        recorder.finish { summary in
            files.set(summary.files)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "finish answered while writes were held")
        for _ in 1...3 { gate.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(files.get() == ["GET-item-1.json", "GET-item-2.json", "GET-item-3.json"])
        for index in 1...3 { #expect(FileManager.default.fileExists(atPath: out + "/GET-item-\(index).json")) }
    }

    @Test func unansweredAndIncompleteExchangesAreCountedNotWritten() throws {
        let out = Self.folder()
        let recorder = try Recorder(upstream: "test", options: RecordingOptions(out: out))
        recorder.record(CapturedRequest(method: "GET", target: "/gone"), .unanswered)
        recorder.record(CapturedRequest(method: "GET", target: "/huge"), .incomplete(limit: 64 << 20))
        let summary = recorder.finish()
        #expect(summary.files.isEmpty)
        #expect(summary.upstreamFailures == 1)
        #expect(summary.problems == ["GET /huge: not recorded, its body was over --record-max-body (67108864 bytes) or did not arrive whole"])
    }
}

/// The file list a completion hands back, across threads.
private final class LockedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String] = []
    func set(_ value: [String]) { lock.withLock { files = value } }
    func get() -> [String] { lock.withLock { files } }
}
