/// The headers a response written in a fixture file gets when the file does not give them
/// (unless it says `"defaultHeaders": false`): a `Content-Type` for the body's kind — `json` →
/// `application/json`, `text` → `text/plain; charset=utf-8`, `base64` →
/// `application/octet-stream`, a `bodyFile` by its extension — and `X-Content-Type-Options:
/// nosniff`, so no browser renders a stub as a page it was not declared to be (a text stub
/// echoing a request could otherwise run a script on stubd's own origin).
///
/// Responses made in Swift (a target's `sampleData`) never get them: they are sent exactly as
/// declared, and `FixtureWriter` writes `"defaultHeaders": false` wherever reading the file back
/// would add one, so an exported or recorded file answers byte for byte as its source did.
public enum ResponseDefaults {
    /// How the body is written in the file.
    public enum BodyKind: Sendable, Equatable {
        case json, text, base64
        /// A body file, by its path (the extension picks the type).
        case file(String)
    }

    /// The headers reading a response of `kind` with `headers` adds (none for an empty body).
    public static func added(for kind: BodyKind?, headers: [NameValue], bodyIsEmpty: Bool) -> [NameValue] {
        guard let kind, !bodyIsEmpty else { return [] }
        var added: [NameValue] = []
        if !headers.contains(where: { $0.name.equalsIgnoringCase("Content-Type") }) {
            added.append(NameValue("Content-Type", contentType(for: kind)))
        }
        if !headers.contains(where: { $0.name.equalsIgnoringCase("X-Content-Type-Options") }) {
            added.append(NameValue("X-Content-Type-Options", "nosniff"))
        }
        return added
    }

    /// The `Content-Type` a body of `kind` is sent with when the file gives none.
    public static func contentType(for kind: BodyKind) -> String {
        switch kind {
        case .json: return "application/json"
        case .text: return "text/plain; charset=utf-8"
        case .base64: return "application/octet-stream"
        case .file(let path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
            return fileTypes[ext] ?? "application/octet-stream"
        }
    }

    /// Extensions of body files and their types.
    static let fileTypes: [String: String] = [
        "json": "application/json", "txt": "text/plain; charset=utf-8", "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "xml": "application/xml", "csv": "text/csv; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "pdf": "application/pdf",
        "mp3": "audio/mpeg", "mp4": "video/mp4", "m4a": "audio/mp4", "wav": "audio/wav", "ogg": "audio/ogg",
        "webm": "video/webm", "zip": "application/zip", "wasm": "application/wasm", "ndjson": "application/x-ndjson",
    ]
}
