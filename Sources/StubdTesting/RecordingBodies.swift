import Foundation
import StubModel

/// A recorded folder's fixtures as the admin API takes them: the recorder writes a body it could
/// not re-emit byte for byte (pretty-printed JSON, `19.0`, binary) to `__files/` and names it with
/// `bodyFile`, which runtime routes do not accept (they carry their bodies). Playback inlines each
/// such body as `base64` — the recorded bytes exactly — with the `Content-Type` its file's
/// extension stands for when the recording kept none, as `stubd serve` would send it.
enum RecordingBodies {
    /// `document` with every `bodyFile` replaced by its bytes from `folder/__files/`.
    static func inlined(_ document: JSONValue, folder: URL, file: String) throws -> JSONValue {
        switch document {
        case .object(var members):
            if let index = members.firstIndex(where: { $0.key == "bodyFile" }), case .string(let name) = members[index].value {
                let bytes = try body(named: name, folder: folder, file: file)
                members[index] = (key: "base64", value: .string(Data(bytes).base64EncodedString()))
                addContentType(for: name, to: &members)
            }
            return .object(try members.map { (key: $0.key, value: try inlined($0.value, folder: folder, file: file)) })
        case .array(let items):
            return .array(try items.map { try inlined($0, folder: folder, file: file) })
        default:
            return document
        }
    }

    /// The bytes of `__files/name`, refused when the name leaves the folder or the file is missing.
    private static func body(named name: String, folder: URL, file: String) throws -> [UInt8] {
        let parts = name.split(separator: "/")
        guard !name.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            throw StubdTestingError.target("\(folder.path)/\(file): bodyFile \"\(name)\": must be a path inside __files/")
        }
        let url = folder.appendingPathComponent("__files").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw StubdTestingError.target("\(folder.path)/\(file): bodyFile \"\(name)\": no such file (\(url.path)); record the test again")
        }
        return [UInt8](data)
    }

    /// A `Content-Type` for the file's extension, in the response's `headers` object, when it has
    /// none and takes stubd's defaults (a recording that kept the upstream's headers exactly says
    /// `"defaultHeaders": false`, and gets none).
    private static func addContentType(for name: String, to members: inout [(key: String, value: JSONValue)]) {
        if members.contains(where: { $0.key == "defaultHeaders" && $0.value == .bool(false) }) { return }
        let type = ResponseDefaults.contentType(for: .file(name))
        guard let index = members.firstIndex(where: { $0.key == "headers" }) else {
            members.append((key: "headers", value: .object([(key: "Content-Type", value: .string(type))])))
            return
        }
        guard case .object(var headers) = members[index].value,
              !headers.contains(where: { $0.key.lowercased() == "content-type" }) else { return }
        headers.append((key: "Content-Type", value: .string(type)))
        members[index].value = .object(headers)
    }
}
