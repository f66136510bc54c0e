import Foundation
import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// Record once, replay: a test's calls recorded from a stand-in for the real API into its folder,
/// then served from it in another session; a changed request misses and a strict session says so.
@Suite(.serialized, .tags(.socket)) struct RecordOnceTests {
    @Test func recordThenPlaybackThenAChangedRequestFails() async throws {
        let realAPI = try KitServer(targets: [UserAPI.profile, UserAPI.search(query: "swift", page: 1)])
        let stubd = try KitServer()
        defer { realAPI.stop(); stubd.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-once-\(UUID().uuidString)")

        let recording = try await Stubd.session(baseURL: stubd.url)
        try await recording.useRecording(folder, upstream: realAPI.url, mode: .record)
        let live = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: recording.id)
        #expect(live.status == 200 && live.body == #"{"id":1,"name":"Ada"}"#, "\(live)")
        _ = try await AppClient.send(UserAPI.search(query: "swift", page: 1), stubd: stubd.url, session: recording.id)
        try await recording.finishRecording(mode: .record)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 2, "recorded: \(files)")

        // Another session, played back from the folder alone (the real API is not asked).
        realAPI.stop()
        let replay = try await Stubd.session(baseURL: stubd.url)
        try await replay.useRecording(folder, upstream: nil, mode: .playback)
        let replayed = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: replay.id)
        #expect(replayed == live, "played back: \(replayed)")
        _ = try await AppClient.send(UserAPI.search(query: "swift", page: 1), stubd: stubd.url, session: replay.id)
        try await replay.verifyStrict()
        // The app now asks for another page: a miss, named with its near miss.
        _ = try await AppClient.send(UserAPI.search(query: "swift", page: 2), stubd: stubd.url, session: replay.id)
        do {
            try await replay.verifyStrict()
            Issue.record("a changed request passed playback")
        } catch {
            #expect("\(error)".contains("page") && "\(error)".contains("requests that reached no stub"), "\(error)")
        }
        await #expect(throws: StubdTestingError.self) {
            try await Stubd.session(baseURL: stubd.url).useRecording(folder.appendingPathComponent("missing"), upstream: nil, mode: .playback)
        }
    }

    /// An upstream answering pretty-printed JSON with a float (`19.0`), which the recorder keeps
    /// as a body file: a strict session passes its own recording run (the forwarded request was
    /// answered), and playback serves the bytes as recorded (the body file inlined for the admin API).
    @Test func aBodyFileRecordingReplaysByteForByteAndAStrictRecordingRunPasses() async throws {
        let realAPI = try KitServer(targets: [ShopAPI.product])
        let stubd = try KitServer()
        defer { realAPI.stop(); stubd.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-file-\(UUID().uuidString)")

        let recording = try await Stubd.session(baseURL: stubd.url)
        try await recording.useRecording(folder, upstream: realAPI.url, mode: .record)
        let live = try await AppClient.send(ShopAPI.product, stubd: stubd.url, session: recording.id)
        #expect(live.body == String(decoding: ShopAPI.product.sampleData, as: UTF8.self), "\(live)")
        try await recording.verifyStrict(mode: .record)
        try await recording.finishRecording(mode: .record)
        let bodies = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("__files").path)
        #expect(bodies.count == 1, "the recorder kept the body as a file: \(bodies)")

        realAPI.stop()
        let replay = try await Stubd.session(baseURL: stubd.url)
        try await replay.useRecording(folder, upstream: nil, mode: .playback)
        let replayed = try await AppClient.send(ShopAPI.product, stubd: stubd.url, session: replay.id)
        #expect(replayed == live, "played back: \(replayed)")
        try await replay.verifyStrict(mode: .playback)
    }
}

/// A shop whose server pretty-prints its JSON and writes prices as floats.
enum ShopAPI: TargetType {
    case product
    var baseURL: URL { URL(string: "https://shop.example.com/v1")! }
    var path: String { "products/7" }
    var method: TargetModel.Method { .get }
    var task: TargetModel.Task { .requestPlain }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var sampleData: Data { Data("{\n  \"name\": \"milk\",\n  \"price\": 19.0\n}\n".utf8) }
}
