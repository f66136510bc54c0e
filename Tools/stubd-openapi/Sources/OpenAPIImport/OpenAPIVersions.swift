import Foundation
import FixtureFiles
import OpenAPIKit30
import OpenAPIKitCompat
import Yams
import OpenAPIKit

/// Reads either OpenAPI version as one: 3.1 as it is, 3.0 converted to 3.1 by OpenAPIKitCompat,
/// so the importer has one code path. (Kept apart from the importer: OpenAPIKit and
/// OpenAPIKit30 name the same types, and only this file needs both.)
enum OpenAPIVersions {
    private struct VersionProbe: Decodable {
        let openapi: String?
        let swagger: String?
    }

    /// 3.1 as is; 3.0 converted to 3.1 by OpenAPIKitCompat, so one code path reads both.
    static func decode(_ original: String, file: String) throws -> OpenAPIKit.OpenAPI.Document {
        var warnings: [String] = []
        return try decode(original, file: file, warnings: &warnings)
    }

    /// `decode`, reading two quirks real 3.1 specs have (OpenAI's) leniently, each with a warning:
    /// a 3.0-style boolean `exclusiveMinimum`/`exclusiveMaximum` (ignored: the bound stays
    /// inclusive), and a path key with a query (`/runs?beta=true`: served on its path).
    static func decode(_ original: String, file: String, warnings: inout [String]) throws -> OpenAPIKit.OpenAPI.Document {
        var text = clampingHugeBounds(original)
        let probe: VersionProbe
        do {
            probe = try YAMLDecoder().decode(VersionProbe.self, from: text)
        } catch {
            throw FixtureError(file: file, field: "", problem: "not valid YAML or JSON (\(error))")
        }
        if probe.swagger != nil { throw FixtureError(file: file, field: "swagger", problem: "Swagger 2.0 is not supported; convert it to OpenAPI 3 first") }
        guard let version = probe.openapi else { throw FixtureError(file: file, field: "openapi", problem: "missing; give an OpenAPI 3.0 or 3.1 document") }
        if version.hasPrefix("3.0") {
            return try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_0)
        }
        guard version.hasPrefix("3.1") else { throw FixtureError(file: file, field: "openapi", problem: "version \(version) is not supported; give OpenAPI 3.0 or 3.1") }
        let (lenient, notes) = readingQuirks(text, file: file)
        text = lenient
        warnings += notes
        return try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
    }

    /// The 3.1 quirks `decode` reads leniently, rewritten in the text (JSON or YAML alike), and a
    /// warning for each kind found.
    static func readingQuirks(_ text: String, file: String) -> (String, [String]) {
        var out = text
        var warnings: [String] = []
        // A boolean exclusive bound (3.0's form) becomes a vendor extension, which 3.1 ignores.
        if let regex = try? NSRegularExpression(pattern: #"("?)(exclusiveM(?:inimum|aximum))("?\s*:\s*)(true|false)\b"#) {
            let count = regex.numberOfMatches(in: out, range: NSRange(out.startIndex..., in: out))
            if count > 0 {
                out = regex.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out), withTemplate: "$1x-stubd-$2$3$4")
                warnings.append("\(file): \(count) boolean exclusiveMinimum/exclusiveMaximum (OpenAPI 3.0's form) in a 3.1 document: read as inclusive bounds")
            }
        }
        // A path key with a query: `"/threads/{id}/runs?beta=true":` or `/x?beta=true:` in YAML. Served on
        // its path — unless the spec has that path too (OpenAI: `/responses` and `/responses?beta=true`),
        // where the variant keeps its query as a matcher: its key becomes `/responses/~stubd-query~beta=true`,
        // which the importer reads back (`OpenAPIVersions.queryMarker`).
        if let regex = try? NSRegularExpression(pattern: #"(?m)(^\s*"?|(?<=[{,])\s*")(/[^"?\s:]*)\?([^"\s:]*)("?\s*:)"#) {
            let matches = regex.matches(in: out, range: NSRange(out.startIndex..., in: out))
            if !matches.isEmpty {
                var plain = Set<String>()
                var kept = Set<String>()
                for match in matches.reversed() {
                    guard let whole = Range(match.range, in: out), let indent = Range(match.range(at: 1), in: out),
                          let path = Range(match.range(at: 2), in: out), let query = Range(match.range(at: 3), in: out),
                          let colon = Range(match.range(at: 4), in: out) else { continue }
                    let key = String(out[path])
                    if hasKey(key, in: text) {
                        kept.insert(key + "?" + out[query])
                        out.replaceSubrange(whole, with: out[indent] + key + "/" + queryMarker + out[query] + out[colon])
                    } else {
                        plain.insert(key)
                        out.replaceSubrange(whole, with: out[indent] + key + out[colon])
                    }
                }
                if !plain.isEmpty {
                    warnings.append("\(file): \(plain.count) path key(s) with a query (e.g. ?beta=true), served on the path alone: \(plain.sorted().prefix(3).joined(separator: ", "))\(plain.count > 3 ? ", …" : "")")
                }
                if !kept.isEmpty {
                    warnings.append("\(file): \(kept.count) path key(s) with a query beside the same path without one, each served when the request carries its query: \(kept.sorted().prefix(3).joined(separator: ", "))\(kept.count > 3 ? ", …" : "")")
                }
            }
        }
        return (out, warnings)
    }

    /// The last path segment a query variant's key is given, followed by its query (`beta=true`).
    static let queryMarker = "~stubd-query~"

    /// Whether `path` is a key of its own in the document's text (YAML or JSON).
    static func hasKey(_ path: String, in text: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: path)
        guard let regex = try? NSRegularExpression(pattern: #"(?m)(^\s*"?|(?<=[{,])\s*")"# + escaped + #""?\s*:"#) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Real specs give bounds past 64-bit integers (`maximum: 9223372036854776000`, a float
    /// spelling of Int64.max) that OpenAPIKit refuses, refusing the whole spec; the examples are
    /// what matters here, so such bounds are clamped to the nearest 64-bit integer first.
    static func clampingHugeBounds(_ text: String) -> String {
        let pattern = #"("?(?:maximum|minimum|exclusiveMaximum|exclusiveMinimum)"?\s*:\s*)(-?)([0-9]{19,})(\.[0-9]+)?(?:[eE]\+?[0-9]+)?"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        var out = text
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text), let key = Range(match.range(at: 1), in: text),
                  let digits = Range(match.range(at: 3), in: text) else { continue }
            let negative = match.range(at: 2).length > 0
            if Int64(text[digits]) != nil { continue }  // fits: left as it is
            out.replaceSubrange(whole, with: text[key] + (negative ? String(Int64.min) : String(Int64.max)))
        }
        return out
    }

}
