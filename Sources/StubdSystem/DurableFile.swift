#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Synchronization

extension System {
    /// Replaces (or creates) `path` with `bytes` so that a reader — or a crash, `kill -9`
    /// included — only ever sees the old file or the whole new one: the bytes go to a hidden
    /// temporary file in the same folder (`.name.tmp-PID-N`, skipped by the fixture loader),
    /// are flushed to the disk with `fsync`, and the file is renamed over `path`. On failure the
    /// temporary file is removed and `path` is untouched.
    public static func writeFileDurably(_ bytes: [UInt8], to path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder.isEmpty ? "" : folder)/.\(name).tmp-\(getpid())-\(temporaryCounter.next())"
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .truncate, .closeOnExec],
                                                 permissions: permissions, retryOnInterrupt: true)
        } catch {
            throw SystemError(operation: "open(\(temporary))", errno: error as? Errno ?? .ioError)
        }
        do {
            _ = try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
            try call("fsync(\(temporary))") { fsync(descriptor.rawValue) }
            try descriptor.close()
        } catch {
            try? descriptor.close()
            _ = unlink(temporary)
            throw (error as? SystemError) ?? SystemError(operation: "write(\(temporary))", errno: error as? Errno ?? .ioError)
        }
        do {
            try call("rename(\(temporary), \(path))") { rename(temporary, path) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// Removes a file; a missing file is not an error.
    public static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Whether this process may create files in `folder` (it exists, is a folder and is writable).
    public static func canWriteInFolder(_ folder: String) -> Bool {
        access(folder, W_OK | X_OK) == 0
    }

    /// Numbers temporary files so two writes of the same file from one process never collide.
    static let temporaryCounter = TemporaryCounter()
}

final class TemporaryCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

extension System {
    /// Removes the temporary files `writeFileDurably` left in `folder` when its process was
    /// killed mid-write (`.name.tmp-PID-N` whose PID is no longer running); returns how many.
    /// Files of a running process — another stubd writing there now — are left alone.
    @discardableResult
    public static func removeAbandonedTemporaryFiles(in folder: String) -> Int {
        var removed = 0
        for entry in listDirectory(folder) ?? [] where !entry.isDirectory && entry.name.hasPrefix(".") {
            guard let marker = entry.name.ranges(of: ".tmp-").last else { continue }
            let fields = entry.name[marker.upperBound...].split(separator: "-")
            guard fields.count == 2, let pid = Int32(fields[0]), fields[1].allSatisfy(\.isNumber), !processIsRunning(pid) else { continue }
            if unlink(folder + "/" + entry.name) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether a process with this id exists (a signal 0 probe; `EPERM` means it exists).
    public static func processIsRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
