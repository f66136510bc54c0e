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
}
