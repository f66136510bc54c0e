#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A directory entry: its name and whether it is a folder (symbolic links followed).
public struct DirectoryEntry: Sendable, Equatable {
    /// The entry's name, without the folder.
    public let name: String
    /// True for a folder, or a link to one.
    public let isDirectory: Bool
}

extension System {
    /// The entries of `folder` (without `.` and `..`), in the order the file system gives them;
    /// nil if it cannot be opened.
    ///
    /// Reads names through the entry's own bytes: `readdir` returns records shorter than
    /// `struct dirent` (`d_reclen`), so copying the whole struct would read past the record.
    public static func listDirectory(_ folder: String) -> [DirectoryEntry]? {
        (try? listDirectoryOrFail(folder)) ?? nil
    }

    /// The folder's entries, or why it cannot be listed (`Permission denied`: a mounted folder the
    /// container's user may not read).
    public static func listDirectoryOrFail(_ folder: String) throws(SystemError) -> [DirectoryEntry] {
        guard let directory = opendir(folder) else { throw SystemError(operation: "opendir", errno: Errno(rawValue: errno)) }
        defer { closedir(directory) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        var entries: [DirectoryEntry] = []
        while let entry = readdir(directory) {
            let raw = UnsafeRawPointer(entry)
            let name = String(cString: raw.advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            let type = raw.load(fromByteOffset: typeOffset, as: UInt8.self)
            var isDirectory = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK) {
                var info = stat()
                isDirectory = stat(folder + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            entries.append(DirectoryEntry(name: name, isDirectory: isDirectory))
        }
        return entries
    }
}

/// Which folder a path leads to (device and inode, links followed): two paths to one folder have
/// the same identity, so a walk can tell a symbolic-link loop from a deep tree.
public struct FolderIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
}

extension System {
    /// The identity of the folder at `path` (links followed), or nil when it is no folder.
    public static func folderIdentity(_ path: String) -> FolderIdentity? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
