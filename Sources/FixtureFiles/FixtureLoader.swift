import Foundation
public import StubModel
import StubdSystem
import Synchronization

/// Finds and reads fixture files: every `*.json` under a fixtures root (sorted, recursively),
/// except the `__files/` folder, which holds the bodies that `bodyFile` names.
///
/// All problems across all files are collected and thrown together, so `stubd check` can list
/// them in one run, and nothing is served half-loaded.
public enum FixtureLoader {
    /// The folder, under each root, that `bodyFile` paths are relative to.
    public static let bodyFolder = "__files"

    /// Loads every fixture under each path; a path may be a folder (a root) or a single file
    /// (whose folder is then the root).
    public static func load(paths: [String]) throws(FixtureErrors) -> [Fixture] {
        var fixtures: [Fixture] = []
        var errors: [FixtureError] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                errors.append(FixtureError(file: path, field: "", problem: "no such file or folder; pass a fixtures folder or a .json file"))
                continue
            }
            let root = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
            var unreadable: [FixtureError] = []
            let files = isDirectory.boolValue ? fixtureFiles(under: path, unreadable: &unreadable) : [path]
            errors += unreadable
            // An empty folder serves no routes (a warning says so): stubs may come at run time.
            for result in loadAll(files, root: root.isEmpty ? "." : root) {
                switch result {
                case .success(let loaded): fixtures += loaded
                case .failure(let failure): errors += failure.errors
                }
            }
        }
        if !errors.isEmpty { throw FixtureErrors(errors: errors) }
        return fixtures
    }

    /// Reads `files` on every core, keeping their order in the result.
    private static func loadAll(_ files: [String], root: String) -> [Result<[Fixture], FixtureErrors>] {
        let slices = min(files.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        guard slices > 1 else {
            return files.map { file in Result { () throws(FixtureErrors) in try load(file: file, root: root) } }
        }
        let results = Mutex([Int: [Result<[Fixture], FixtureErrors>]]())
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            let range = (files.count * slice / slices)..<(files.count * (slice + 1) / slices)
            let loaded = files[range].map { file in Result { () throws(FixtureErrors) in try load(file: file, root: root) } }
            results.withLock { $0[slice] = loaded }
        }
        return results.withLock { all in (0..<slices).flatMap { all[$0] ?? [] } }
    }

    /// Reads one fixture file whose `bodyFile`s resolve under `root/__files`.
    public static func load(file: String, root: String) throws(FixtureErrors) -> [Fixture] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FixtureErrors(errors: [FixtureError(file: file, field: "", problem: "cannot be read; check its permissions")])
        }
        let reader = FixtureReader(file: file) { relative throws(FixtureReader.FixtureProblem) in
            try readBodyFile(relative, root: root)
        }
        return try reader.read([UInt8](data))
    }

    /// The `*.json` files under `root`, sorted by path, skipping `__files/` and hidden entries.
    ///
    /// Walks with `System.listDirectory` (`readdir`) rather than FileManager's enumerator, which cost more than
    /// parsing the files themselves (start-up with 10,000 fixture files).
    public static func fixtureFiles(under root: String) -> [String] {
        var unreadable: [FixtureError] = []
        return fixtureFiles(under: root, unreadable: &unreadable)
    }

    /// The `*.json` files under `root`, and one problem per folder that cannot be listed — a
    /// mounted folder the container image's user (65532) may not read is refused, not taken for
    /// an empty one.
    public static func fixtureFiles(under root: String, unreadable: inout [FixtureError]) -> [String] {
        var files: [String] = []
        var enclosing: Set<FolderIdentity> = []
        walk(root.hasSuffix("/") ? String(root.dropLast()) : root, isRoot: true, into: &files, unreadable: &unreadable, enclosing: &enclosing)
        return files.sorted()
    }

    /// Walks `folder`; `enclosing` holds the folders on the way down (links followed), so a link
    /// back to one of them — a loop — is named once and not followed.
    private static func walk(_ folder: String, isRoot: Bool, into files: inout [String], unreadable: inout [FixtureError],
                             enclosing: inout Set<FolderIdentity>, unread: UnsafeMutablePointer<[String]>? = nil) {
        let identity = System.folderIdentity(folder)
        if let identity, !enclosing.insert(identity).inserted {
            unreadable.append(FixtureError(file: folder, field: "", problem: "a symbolic link back to a folder that holds it (a loop); it is not followed — remove the link or point it elsewhere"))
            return
        }
        defer { if let identity { enclosing.remove(identity) } }
        let entries: [DirectoryEntry]
        do throws(SystemError) {
            entries = try System.listDirectoryOrFail(folder)
        } catch {
            unreadable.append(FixtureError(file: folder, field: "", problem: "this folder cannot be read (\(error.errno)); make it readable by the user stubd runs as (the container image's is 65532: chmod -R a+rX on the host folder)"))
            return
        }
        for entry in entries {
            if entry.name.hasPrefix(".") || (isRoot && entry.name == bodyFolder) { continue }
            let path = folder + "/" + entry.name
            if entry.isDirectory {
                walk(path, isRoot: false, into: &files, unreadable: &unreadable, enclosing: &enclosing, unread: unread)
            } else if entry.name.hasSuffix(".json") {
                files.append(path)
            } else if let unread, looksLikeAFixture(entry.name) {
                unread.pointee.append(path)
            }
        }
    }

    /// Every file under `root` (body files and hidden ones included), each folder once: a link
    /// back to a folder that holds it is listed itself, not followed. For a watcher's signature
    /// of the folder (a loop made later changes it, and the reload names the loop).
    public static func allFiles(under root: String) -> [String] {
        var files: [String] = []
        var enclosing: Set<FolderIdentity> = []
        func visit(_ folder: String) {
            guard let identity = System.folderIdentity(folder) else { return }
            guard enclosing.insert(identity).inserted else { return files.append(folder) }
            defer { enclosing.remove(identity) }
            for entry in System.listDirectory(folder) ?? [] {
                let path = folder + "/" + entry.name
                if entry.isDirectory { visit(path) } else { files.append(path) }
            }
        }
        visit(root.hasSuffix("/") ? String(root.dropLast()) : root)
        return files
    }

    /// Extensions of files someone may have meant as fixtures (`b.JSON`, `c.yaml`).
    static let fixtureLikeExtensions = ["json", "yaml", "yml", "json5", "jsonc"]

    private static func looksLikeAFixture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return fixtureLikeExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// One warning per file under the given fixture folders that looks like a fixture but is not
    /// read (only `*.json`, lower-case, outside `__files/`): `fixtures/c.yaml: not read; …`.
    public static func unreadFileWarnings(paths: [String]) -> [String] {
        var unread: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            var files: [String] = []
            var unreadable: [FixtureError] = []
            var enclosing: Set<FolderIdentity> = []
            walk(path.hasSuffix("/") ? String(path.dropLast()) : path, isRoot: true, into: &files, unreadable: &unreadable, enclosing: &enclosing, unread: &unread)
        }
        let empty = paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue && fixtureFiles(under: path).isEmpty
        }.map { "\($0): no fixture files (*.json) in this folder; no routes from it — add a .json file, or add routes at run time (POST /__stubd/routes, the test kit)" }
        return empty + unread.sorted().map { file in
            let hint = file.lowercased().hasSuffix(".json") ? "rename it to end in .json (lower case)"
                : "stubd reads JSON fixtures (*.json) only; convert it, or move it under __files/ if it is a body"
            return "\(file): not read; \(hint)"
        }
    }

    /// The bytes of `root/__files/relative`, refusing absolute paths and anything that resolves
    /// (after `..` and symlinks) outside `root`.
    public static func readBodyFile(_ relative: String, root: String) throws(FixtureReader.FixtureProblem) -> [UInt8] {
        guard !relative.isEmpty, !relative.hasPrefix("/") else {
            throw .init("\"\(relative)\" must be a path relative to \(root)/\(bodyFolder)/")
        }
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath()
        let fileURL = rootURL.appendingPathComponent(bodyFolder).appendingPathComponent(relative)
            .standardizedFileURL.resolvingSymlinksInPath()
        guard fileURL.path.hasPrefix(rootURL.path + "/") else {
            throw .init("\"\(relative)\" resolves outside the fixtures root \(root); keep body files under \(root)/\(bodyFolder)/")
        }
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            throw .init("\"\(relative)\" not found; expected it at \(root)/\(bodyFolder)/\(relative)")
        }
        return [UInt8](data)
    }
}
