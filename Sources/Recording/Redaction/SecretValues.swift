import Foundation
import StubModel

/// The values an exchange carries under secret names — cookie values, an Authorization header's
/// credentials, secret-named header, query, form and JSON values — so a recording can scrub them
/// wherever else they turn up: a session id in the URL path, a cookie copied into another query
/// value (Google Analytics' `utmcc`), a token echoed in a response body. Redacting by name alone
/// left those in fixture files.
///
/// Values shorter than `minimumLength` are not scrubbed elsewhere (replacing `1` or `true`
/// everywhere would wreck innocent data); they are still redacted where their name says so.
struct SecretValues: Sendable, Equatable {
    /// Shortest value searched for elsewhere.
    static let minimumLength = 6

    /// Longest first, so a value containing another is replaced whole.
    private(set) var values: [String] = []

    var isEmpty: Bool { values.isEmpty }

    /// Adds `value` (and the percent-encoded spelling a URL would carry) when long enough.
    mutating func add(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= Self.minimumLength, trimmed != Redactor.placeholder else { return }
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? trimmed
        for spelling in [trimmed, encoded] where !values.contains(spelling) { values.append(spelling) }
        values.sort { $0.count > $1.count }
    }

    mutating func formUnion(_ other: SecretValues) {
        for value in other.values where !values.contains(value) { values.append(value) }
        values.sort { $0.count > $1.count }
    }

    /// What a request carries under secret names.
    init(request: CapturedRequest, redactor: Redactor) {
        guard redactor.enabled else { return }
        for cookie in NameValue.cookies(in: request.headers) { add(cookie.value) }
        for header in request.headers where redactor.isSecret(header.name) {
            switch header.name.lowercased() {
            case "cookie":
                break  // its values are added above, one per cookie
            case "authorization", "proxy-authorization":
                let parts = header.value.split(separator: " ", maxSplits: 1).map(String.init)
                let credentials = parts.count == 2 ? parts[1] : header.value
                add(credentials)
                if parts.first?.lowercased() == "basic", let decoded = Data(base64Encoded: credentials).flatMap({ String(data: $0, encoding: .utf8) }),
                   let colon = decoded.firstIndex(of: ":") {
                    add(String(decoded[decoded.index(after: colon)...]))
                }
            default:
                add(header.value)
            }
        }
        // Both readings of `+` (a space; a plus, as a base64 token sent unescaped means it).
        for plusIsSpace in [true, false] {
            for pair in FormCoding.decodePairs(request.rawQuery ?? "", plusIsSpace: plusIsSpace) where redactor.isSecret(pair.name) { add(pair.value) }
        }
        let contentType = request.header("Content-Type")?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            let form = String(decoding: request.body, as: UTF8.self)
            for plusIsSpace in [true, false] {
                for pair in FormCoding.decodePairs(form, plusIsSpace: plusIsSpace) where redactor.isSecret(pair.name) { add(pair.value) }
            }
        } else if !request.body.isEmpty, let json = try? JSONParser.parse(request.body) {
            addJSON(json, redactor: redactor)
        }
    }

    init() {}

    /// Secret-named string values anywhere in a JSON document.
    mutating func addJSON(_ value: JSONValue, redactor: Redactor, underSecret: Bool = false) {
        switch value {
        case .object(let members):
            for member in members { addJSON(member.value, redactor: redactor, underSecret: underSecret || redactor.isSecret(member.key)) }
        case .array(let items):
            for item in items { addJSON(item, redactor: redactor, underSecret: underSecret) }
        case .string(let text) where underSecret:
            add(text)
        default:
            break
        }
    }

    /// Whether `text` holds any of the values.
    func occurs(in text: String) -> Bool {
        values.contains { text.contains($0) }
    }

    /// `text` with every value replaced by the placeholder.
    func scrub(_ text: String) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: $1, with: Redactor.placeholder) }
    }

    /// A JSON document with the values replaced inside every string (keys too).
    func scrub(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(scrub(text))
        case .array(let items): return .array(items.map { scrub($0) })
        case .object(let members): return .object(members.map { (scrub($0.key), scrub($0.value)) })
        default: return value
        }
    }

    /// Bytes with every value's UTF-8 replaced by the placeholder's.
    func scrub(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for value in values {
            let needle = Array(value.utf8)
            guard !needle.isEmpty, out.count >= needle.count else { continue }
            var result: [UInt8] = []
            result.reserveCapacity(out.count)
            var index = 0
            while index < out.count {
                if index + needle.count <= out.count && out[index] == needle[0] && Array(out[index..<(index + needle.count)]) == needle {
                    result += Array(Redactor.placeholder.utf8)
                    index += needle.count
                } else {
                    result.append(out[index])
                    index += 1
                }
            }
            out = result
        }
        return out
    }
}
