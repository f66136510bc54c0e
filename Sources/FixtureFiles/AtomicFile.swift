public import Foundation
public import StubdSystem

/// Writes files whole or not at all: the bytes go to a hidden temporary file beside the target,
/// are flushed to the disk and renamed over it, so a reader (a `serve --watch` on the same
/// folder, a teammate's checkout) never sees half a file, a failed write leaves the old one in
/// place, and a crash (`kill -9`) at any moment leaves either file whole.
public enum AtomicFile {
    /// Replaces (or creates) the file at `path` with `data`.
    public static func write(_ data: Data, to path: String) throws {
        try System.writeFileDurably([UInt8](data), to: path)
    }

    /// Replaces (or creates) the file at `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        try System.writeFileDurably(bytes, to: path)
    }

    /// Replaces (or creates) the file `name` (relative: `a.json`, `__files/b.bin`) inside `folder`
    /// with `bytes`, without following a symbolic link out of the folder (a link on the way is
    /// refused): every writer of a folder (recordings, imports, exports, the dashboard, `stubd
    /// mcp`) writes through this one function.
    public static func write(_ bytes: [UInt8], named name: String, inside folder: String) throws(ContainedWriteError) {
        try System.writeFileDurably(bytes, named: name, inside: folder)
    }
}
