#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written inside its folder.
public enum ContainedWriteError: Error, Equatable, CustomStringConvertible {
    /// The name is absolute, empty, or has a `..` or `.` component: it would not stay in the folder.
    case outside(folder: String, name: String)
    /// A component on the way is a symbolic link (or the file itself is a link to a folder):
    /// following it could leave the folder, so nothing is written.
    case throughLink(folder: String, name: String, link: String)
    /// The system refused a step (permissions, a full disk, a file where a folder should be).
    case system(folder: String, name: String, SystemError)

    /// `folder/name: problem`, and what to do.
    public var description: String {
        switch self {
        case .outside(let folder, let name):
            return "\(folder)/\(name): the name leaves the folder; give a path relative to \(folder) without .., . or a leading /"
        case .throughLink(let folder, let name, let link):
            return "\(folder)/\(name): \(link) is a symbolic link, and stubd writes no file through a link (it could lead out of \(folder)); "
                + "replace the link with a real folder, or write somewhere else"
        case .system(let folder, let name, let error):
            return "\(folder)/\(name): \(error)"
        }
    }
}

extension System {
    /// Writes `bytes` as the file `name` (a relative path: `a.json`, `__files/b.bin`) inside
    /// `folder`, whole or not at all, never leaving the folder: `folder` itself is opened as
    /// given (the user named it), then every component of `name` is opened relative to the one
    /// before with `O_NOFOLLOW` (`openat`), so a symbolic link anywhere below `folder` — to a
    /// folder elsewhere, or in place of the file — is refused instead of followed. Missing
    /// folders on the way are made (`mkdirat`) when `createFolders`. The bytes go to a hidden
    /// temporary file beside the target (`.name.tmp-PID-N`), flushed with `fsync`, and are
    /// renamed over it (`renameat` replaces a link at the target, never what it points to).
    public static func writeFileDurably(_ bytes: [UInt8], named name: String, inside folder: String, createFolders: Bool = true,
                                        permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(ContainedWriteError) {
        let components = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !name.hasPrefix("/"), !components.isEmpty, !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.utf8.contains(0) }) else {
            throw .outside(folder: folder, name: name)
        }
        var directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .system(folder: folder, name: name, SystemError(operation: "open(\(folder))", errno: lastError)) }
        defer { close(directory) }
        var walked = ""
        for component in components.dropLast() {
            walked += walked.isEmpty ? component : "/" + component
            if createFolders, mkdirat(directory, component, 0o755) != 0, errno != EEXIST {
                throw .system(folder: folder, name: name, SystemError(operation: "mkdir \(walked)", errno: lastError))
            }
            let next = openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let code = lastError
                // A link to a folder is ELOOP; a link to a file, or a file, is ENOTDIR.
                if code == .tooManySymbolicLinkLevels || isLink(directory, component) { throw .throughLink(folder: folder, name: name, link: walked) }
                throw .system(folder: folder, name: name, SystemError(operation: "open \(walked)", errno: code))
            }
            close(directory)
            directory = next
        }
        let file = components[components.count - 1]
        let temporary = ".\(file).tmp-\(getpid())-\(temporaryCounter.next())"
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(permissions.rawValue))
        guard descriptor >= 0 else { throw .system(folder: folder, name: name, SystemError(operation: "create \(temporary)", errno: lastError)) }
        let written: Errno? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return lastError
                }
                offset += count
            }
            return fsync(descriptor) == 0 ? nil : lastError
        }
        close(descriptor)
        if let written {
            _ = unlinkat(directory, temporary, 0)
            throw .system(folder: folder, name: name, SystemError(operation: "write", errno: written))
        }
        // A folder where the file goes is not replaced (a link there is replaced itself, never followed).
        var info = stat()
        if fstatat(directory, file, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            _ = unlinkat(directory, temporary, 0)
            throw .system(folder: folder, name: name, SystemError(operation: "rename over a folder", errno: .isDirectory))
        }
        guard renameat(directory, temporary, directory, file) == 0 else {
            let code = lastError
            _ = unlinkat(directory, temporary, 0)
            throw .system(folder: folder, name: name, SystemError(operation: "rename", errno: code))
        }
        _ = fsync(directory)
    }

    /// Whether `name` in the open folder `directory` is a symbolic link.
    private static func isLink(_ directory: Int32, _ name: String) -> Bool {
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
