import FixtureFiles
import Foundation
import StubModel
import StubdSystem

/// The folder a recording writes to: checked before anything is proxied, read once to know
/// which files are already there, and written one whole file at a time.
///
/// A file is *recorded* when its document carries `"recordedFrom"`; anything else is
/// hand-written. A recorded file for the same request is refreshed; a hand-written one is never
/// replaced unless `overwrite` (and then only the file of the same name), and a request that a
/// hand-written fixture already answers is not recorded at all (it would conflict on replay).
final class RecordingFolder: @unchecked Sendable {
    /// What is in the folder already, by file name relative to it.
    struct ExistingFile {
        var recorded: Bool
        var requests: [RequestPattern]
    }

    /// Where a request's fixture goes.
    enum Placement: Equatable {
        /// Write `name` (`GET-users-octocat`, without `.json`).
        case write(String)
        /// A hand-written file answers this request (or holds the name); nothing is written.
        case keptHandWritten(file: String)
    }

    let path: String
    let overwrite: Bool
    /// Problems found while reading what is there (unreadable or invalid files), reported at start.
    private(set) var warnings: [String] = []
    private var existing: [String: ExistingFile] = [:]

    /// Creates the folder (and `__files/`) if needed and reads what it holds. Throws if it
    /// cannot be written, so the error comes before anything is proxied.
    init(path: String, overwrite: Bool) throws(RecordingError) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.overwrite = overwrite
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: self.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw RecordingError.outputNotAFolder(self.path)
        }
        do {
            try FileManager.default.createDirectory(atPath: self.path + "/" + FixtureLoader.bodyFolder, withIntermediateDirectories: true)
        } catch {
            throw RecordingError.outputNotWritable(self.path, reason: (error as NSError).localizedDescription)
        }
        guard System.canWriteInFolder(self.path), System.canWriteInFolder(self.path + "/" + FixtureLoader.bodyFolder) else {
            throw RecordingError.outputNotWritable(self.path, reason: "permission denied")
        }
        // What a `kill -9` mid-write left: hidden temporary files (removed), and body files no
        // fixture names (reported: a body file is written before the fixture naming it).
        let bodies = self.path + "/" + FixtureLoader.bodyFolder
        let removed = System.removeAbandonedTemporaryFiles(in: self.path) + System.removeAbandonedTemporaryFiles(in: bodies)
        if removed > 0 { warnings.append("removed \(removed) temporary file\(removed == 1 ? "" : "s") left by an interrupted write") }
        var named: Set<String> = []
        for file in FixtureLoader.fixtureFiles(under: self.path) {
            let relative = String(file.dropFirst(self.path.count + 1))
            let document = FileManager.default.contents(atPath: file).flatMap { try? JSONParser.parse([UInt8]($0)) }
            let recorded = document?["recordedFrom"] != nil
            if let document { named.formUnion(Self.bodyFiles(in: document)) }
            do {
                let fixtures = try FixtureLoader.load(file: file, root: self.path)
                existing[relative] = ExistingFile(recorded: recorded, requests: fixtures.map(\.request))
            } catch {
                existing[relative] = ExistingFile(recorded: false, requests: [])
                warnings.append("\(file): not valid (\(error.errors.first?.problem ?? "unreadable")); it is left as it is and its name is not used")
            }
        }
        let orphans = (System.listDirectory(bodies) ?? []).filter { !$0.isDirectory && !$0.name.hasPrefix(".") && !named.contains($0.name) }.map(\.name).sorted()
        if !orphans.isEmpty {
            warnings.append("\(bodies): no fixture names \(orphans.prefix(5).joined(separator: ", "))\(orphans.count > 5 ? " and \(orphans.count - 5) more" : ""); an interrupted recording may have left them — delete them if nothing else uses them")
        }
    }

    /// A request as the same call: whether other query parameters are allowed does not make it
    /// another one (recordings allow them; a hand-written or older recorded file may not).
    static func call(_ request: RequestPattern) -> RequestPattern {
        var call = request
        call.query.othersAllowed = true
        return call
    }

    /// Every `bodyFile` a fixture document names.
    static func bodyFiles(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let members):
            var found: Set<String> = []
            for member in members {
                if member.key == "bodyFile", case .string(let name) = member.value { found.insert(name) } else { found.formUnion(bodyFiles(in: member.value)) }
            }
            return found
        case .array(let items): return items.reduce(into: []) { $0.formUnion(bodyFiles(in: $1)) }
        default: return []
        }
    }

    /// Chooses the file for a request seen for the first time in this recording: a recorded file
    /// of an earlier run for the same request, else `base`, else `base-HASH`.
    func place(_ request: RequestPattern, base: String, taken: Set<String>) -> Placement {
        let call = Self.call(request)
        if let handWritten = existing.first(where: { !$0.value.recorded && $0.value.requests.map(Self.call).contains(call) }),
           !(overwrite && handWritten.key == base + ".json") {
            return .keptHandWritten(file: handWritten.key)
        }
        if let earlier = existing.first(where: { $0.value.recorded && $0.value.requests.map(Self.call) == [call] }), !earlier.key.contains("/") {
            let name = String(earlier.key.dropLast(5))
            if !taken.contains(name) { return .write(name) }
        }
        for name in [base, "\(base)-\(FixtureNaming.hashSuffix(request))"] where !taken.contains(name) {
            guard let file = existing[name + ".json"] else { return .write(name) }
            if !file.recorded && overwrite { return .write(name) }
        }
        return .write("\(base)-\(FixtureNaming.hashSuffix(request))-\(taken.count)")
    }

    /// Writes the body files, then the fixture that names them, each whole (hidden temporary
    /// file, flushed, renamed): a crash leaves the previous state or the new one.
    /// Neither follows a symbolic link out of the folder (`AtomicFile.write(_:named:inside:)`).
    func write(name: String, document: [UInt8], bodies: [(file: String, bytes: [UInt8])]) throws(ContainedWriteError) {
        for body in bodies {
            try AtomicFile.write(body.bytes, named: "\(FixtureLoader.bodyFolder)/\(body.file)", inside: path)
        }
        try AtomicFile.write(document, named: "\(name).json", inside: path)
    }
}

/// Why a recording cannot start, with what to do instead.
public enum RecordingError: Error, CustomStringConvertible, Equatable {
    /// The output path is a file.
    case outputNotAFolder(String)
    /// The output folder cannot be created or written.
    case outputNotWritable(String, reason: String)
    /// A recording is already running (admin API).
    case alreadyRecording(out: String)
    /// Nothing is being recorded (admin API).
    case notRecording

    /// What is wrong and the fix.
    public var description: String {
        switch self {
        case .outputNotAFolder(let path):
            return "\(path) is a file, not a folder; give a folder for the recorded fixtures"
        case .outputNotWritable(let path, let reason):
            return "\(path) cannot be written (\(reason)); give a folder you can write to"
        case .alreadyRecording(let out):
            return "a recording into \(out) is running; stop it first (POST /__stubd/recording/stop)"
        case .notRecording:
            return "no recording is running; start one with POST /__stubd/recording/start"
        }
    }
}
