import Foundation

/// Writes files whole or not at all: the bytes go to a temporary file beside the target, which
/// is then renamed over it, so a reader (a `serve --watch` on the same folder, a teammate's
/// checkout) never sees half a file and a failed write leaves the old one in place.
public enum AtomicFile {
    /// Replaces (or creates) the file at `path` with `data`.
    public static func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
